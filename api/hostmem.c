/* hostmem.c: the process's own memory, for a launch that gives no buffer sizes (ptx_run): an
 * access to .global outside every region asks hostmem_resolve (a Memory.resolve), which reads
 * /proc/self/maps and, when a mapping the process may read holds the bytes, makes the aligned
 * chunk of it around them a region of the caller's memory (read-only where the mapping may not be
 * written). So a kernel reads and writes the caller's memory in place, and an address the process
 * cannot use is a fault reported at its instruction, never a crash. Chunks, not whole mappings:
 * a region's shadow bytes, made at its first store, cost a byte per byte of it.
 * The kernel's special mappings ([vvar], [vsyscall], ...) are never used: reading them can stop
 * the process; nor are the pages of a file mapping past the file's end (SIGBUS), which
 * process_vm_readv on the process itself finds without touching them. */
#define _GNU_SOURCE                  /* process_vm_readv */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/uio.h>
#include <unistd.h>

#include "api.h"

enum { CHUNK = 1 << 20 };

typedef struct Mapping {
    uint64_t start, end;
    bool readable, writable;
} Mapping;

/* The mapping holding address, from one line of /proc/self/maps: false at the end or on a line
 * that does not read. */
static bool next_mapping(FILE *maps, Mapping *m, char *name, size_t name_size)
{
    char line[4096 + 256], perms[8];
    if (!fgets(line, sizeof line, maps))
        return false;
    unsigned long long start, end;
    int at = 0;
    if (sscanf(line, "%llx-%llx %7s %*s %*s %*s%n", &start, &end, perms, &at) != 3)
        return false;
    const char *p = line + at;
    while (*p == ' ')
        p++;
    size_t len = strcspn(p, "\n");
    len = len < name_size - 1 ? len : name_size - 1;
    memcpy(name, p, len);
    name[len] = '\0';
    *m = (Mapping){ start, end, perms[0] == 'r', perms[1] == 'w' };
    return true;
}

/* Whether [address, address + size) lies in mappings the process may read (and write, when
 * store), one after another without a gap; *first and *last: the mappings' extent. */
static bool mapped(uint64_t address, uint64_t size, bool store, uint64_t *first, uint64_t *last, bool *writable)
{
    FILE *maps = fopen("/proc/self/maps", "re");
    if (!maps)
        return false;
    Mapping m;
    char name[256];
    uint64_t need = address, end = address + size;
    bool found = false;
    *writable = true;
    while (need < end && next_mapping(maps, &m, name, sizeof name)) {
        if (m.end <= need)
            continue;
        if (m.start > need || !m.readable || (store && !m.writable) || (name[0] == '[' && name[1] == 'v'))
            break;
        if (!found)
            *first = m.start;
        found = true;
        *last = m.end;
        *writable = *writable && m.writable;
        need = m.end;
    }
    fclose(maps);
    return found && need >= end;
}

/* How many bytes from lo (a page's start) up to hi the process can read, page by page (a file
 * mapping's pages past the end of the file cannot be, though mapped); all of them when the
 * system will not say. */
static uint64_t readable_from(uint64_t lo, uint64_t hi)
{
    enum { MOST_PAGES = 1024 };
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t pages = (hi - lo + page - 1) / page;
    pages = pages < MOST_PAGES ? pages : MOST_PAGES;
    struct iovec remote[MOST_PAGES];
    char got[MOST_PAGES];
    for (uint64_t i = 0; i < pages; i++)
        remote[i] = (struct iovec){ (void *)(uintptr_t)(lo + i * page), 1 };
    struct iovec local = { got, (size_t)pages };
    ssize_t n = process_vm_readv(getpid(), &local, 1, remote, (unsigned long)pages, 0);
    if (n < 0 && errno != EFAULT)
        return hi - lo;
    uint64_t ok = n < 0 ? 0 : (uint64_t)n * page;
    return ok < hi - lo ? ok : hi - lo;
}

bool hostmem_resolve(void *context, Memory *mem, uint64_t address, uint64_t size, bool store)
{
    (void)context;
    uint64_t first, last;
    bool writable;
    if (!size || address + size < address || !mapped(address, size, store, &first, &last, &writable))
        return false;
    uint64_t lo = address / CHUNK * CHUNK, hi = (address + size + CHUNK - 1) / CHUNK * CHUNK;
    lo = lo > first ? lo : first;
    hi = hi < last ? hi : last;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), ok = readable_from(lo, hi);
    if (lo + ok < address + size) {             /* a page before the access cannot be read: from its own */
        lo = address / page * page;
        ok = readable_from(lo, hi);
        if (lo + ok < address + size)
            return false;
    }
    hi = lo + ok;
    /* Up to the caller's memory already known on either side, not over it: merged with a
     * read-only buffer, the chunk would be read-only as a whole (a store beside the buffer, which
     * the process may make, a fault). An access that itself runs into a region merges with it. */
    for (uint32_t i = 0; i < mem->count; i++) {
        const Region *r = &mem->regions[i];
        if (!r->host || r->space != SPACE_GLOBAL)
            continue;
        if (r->base + r->size <= address && r->base + r->size > lo)
            lo = r->base + r->size;
        if (r->base >= address + size && r->base < hi)
            hi = r->base;
    }
    return mem_add_host(mem, "process memory", (void *)(uintptr_t)lo, hi - lo, !writable) != UINT32_MAX;
}
