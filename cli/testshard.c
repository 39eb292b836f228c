/* testshard.c: `ptxrun test --shard K/N` and Bazel's test sharding, so that N CI machines each
 * run a share of a large folder of cases. The cases are numbered 0, 1, ... in byte order of
 * their paths (as given on the command line, whatever the order of the folders); shard K of N
 * (K from 1 to N) runs those whose number mod N is K - 1, so the N shards together run every
 * case once, whatever runs them. Bazel's TEST_SHARD_INDEX counts from 0: it is shard
 * TEST_SHARD_INDEX + 1 of TEST_TOTAL_SHARDS. --shard wins over the environment. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

enum { MAX_SHARDS = 1 << 20 };

/* A decimal number from 0 to MAX_SHARDS that ends where stop is, or -1. */
static long shard_number(const char *text, const char **end, char stop)
{
    if (*text < '0' || *text > '9')
        return -1;
    char *after;
    errno = 0;
    unsigned long n = strtoul(text, &after, 10);
    if (errno == ERANGE || n > MAX_SHARDS || *after != stop)
        return -1;
    *end = after;
    return (long)n;
}

bool testshard_parse(const char *text, Shard *s, Msg *err)
{
    const char *slash, *end;
    long k = shard_number(text, &slash, '/'), n = k < 0 ? -1 : shard_number(slash + 1, &end, '\0');
    if (k < 1 || n < 1 || k > n) {
        msg_set(err, "--shard needs K/N, two numbers with 1 <= K <= N <= %d (shard K of N), not '%s'",
                MAX_SHARDS, text);
        return false;
    }
    s->index = (uint32_t)k - 1;
    s->count = (uint32_t)n;
    return true;
}

bool testshard_environment(Shard *s, Msg *err)
{
    const char *status = getenv("TEST_SHARD_STATUS_FILE");
    if (status && *status) {                  /* touched: this runner shards */
        FILE *f = fopen(status, "a");
        if (!f || fclose(f) != 0) {
            msg_set(err, "cannot touch TEST_SHARD_STATUS_FILE '%s': %s", status, strerror(errno));
            return false;
        }
    }
    const char *total = getenv("TEST_TOTAL_SHARDS"), *index = getenv("TEST_SHARD_INDEX"), *end;
    if (s->count || !total || !*total)
        return true;
    long n = shard_number(total, &end, '\0'), k = index ? shard_number(index, &end, '\0') : -1;
    if (n < 1) {
        msg_set(err, "TEST_TOTAL_SHARDS needs a number from 1 to %d, not '%s'", MAX_SHARDS, total);
        return false;
    }
    if (k < 0 || k >= n) {
        msg_set(err, "TEST_SHARD_INDEX needs a number from 0 to %ld (TEST_TOTAL_SHARDS is %ld), not '%s'",
                n - 1, n, index ? index : "(unset)");
        return false;
    }
    s->index = (uint32_t)k;
    s->count = (uint32_t)n;
    return true;
}

static int by_path(const void *a, const void *b)
{
    const TestCase *const *x = a, *const *y = b;
    int order = strcmp((*x)->ptx, (*y)->ptx);
    return order ? order : *x < *y ? -1 : *x > *y;
}

void testshard_select(TestCaseList *list, const Shard *s, void (*drop)(TestCase *c))
{
    if (s->count == 0)
        return;
    TestCase **sorted = xmalloc((list->count + 1) * sizeof *sorted);
    bool *keep = xcalloc(list->count + 1, sizeof *keep);
    for (uint32_t i = 0; i < list->count; i++)
        sorted[i] = &list->items[i];
    qsort(sorted, list->count, sizeof *sorted, by_path);
    for (uint32_t i = 0; i < list->count; i++)
        keep[sorted[i] - list->items] = i % s->count == s->index;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < list->count; i++) {
        if (keep[i])
            list->items[kept++] = list->items[i];   /* in the order the run reports them */
        else
            drop(&list->items[i]);
    }
    list->count = kept;
    free(sorted);
    free(keep);
}
