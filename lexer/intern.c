/* intern.c: a string table, so that every name is stored once and compared by pointer.
 * Open addressing with linear probing; the strings live in the module's arena. */
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u;      /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

void intern_init(Interner *in, Arena *arena)
{
    in->arena = arena;
    in->count = 0;
    in->capacity = 1024;
    in->slots = xcalloc(in->capacity, sizeof *in->slots);
    in->hashes = xcalloc(in->capacity, sizeof *in->hashes);
}

static void intern_rehash(Interner *in)
{
    uint32_t capacity = in->capacity * 2;
    const char **slots = xcalloc(capacity, sizeof *slots);
    uint32_t *hashes = xcalloc(capacity, sizeof *hashes);
    for (uint32_t i = 0; i < in->capacity; i++) {
        if (!in->slots[i])
            continue;
        uint32_t j = in->hashes[i] & (capacity - 1);
        while (slots[j])
            j = (j + 1) & (capacity - 1);
        slots[j] = in->slots[i];
        hashes[j] = in->hashes[i];
    }
    free(in->slots);
    free(in->hashes);
    in->slots = slots;
    in->hashes = hashes;
    in->capacity = capacity;
}

const char *intern(Interner *in, const char *s, size_t len)
{
    uint32_t h = hash_bytes(s, len);
    uint32_t j = h & (in->capacity - 1);
    while (in->slots[j]) {
        if (in->hashes[j] == h && strncmp(in->slots[j], s, len) == 0 && in->slots[j][len] == '\0')
            return in->slots[j];
        j = (j + 1) & (in->capacity - 1);
    }
    const char *copy = arena_strndup(in->arena, s, len);
    in->slots[j] = copy;
    in->hashes[j] = h;
    if (++in->count * 2 > in->capacity)
        intern_rehash(in);
    return copy;
}

void intern_free(Interner *in)
{
    free(in->slots);
    free(in->hashes);
    in->slots = NULL;
    in->hashes = NULL;
    in->count = in->capacity = 0;
}
