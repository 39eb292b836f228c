/* gridtrack.c: who touched which word of .global while a grid runs on several threads (grid.c),
 * and the bytes to put back when that run does not stand.
 *   - For each 4-byte word of each .global region: the CTA (numbered from 1) that wrote it and
 *     the one that read it (TRACK_MANY: several). The marks live in chunks of TRACK_CHUNK_WORDS
 *     words, made the first time a CTA touches one of their words: memory no CTA touches costs
 *     a pointer per chunk, nothing more.
 *   - The first CTA to write a word keeps its old bytes, data and shadow, in its chunk (made on
 *     the first write there): no other CTA writes that word in a run that stands, and one that
 *     would is a conflict and writes nothing. Putting .global back (gridtrack_end) copies
 *     those words back, and only those: a run never copies memory it does not write.
 * A region whose bytes are all defined and have no shadow yet (mem_all_defined) gets one the
 * first time a CTA writes it, the same for every worker (gridtrack_shadow), handed to the
 * grid's memory at the end (gridtrack_end).
 * All this may take at most GridTrack.budget bytes: a quarter byte per byte of .global, or 64 MiB
 * if more (TRACK_MIN_BUDGET). A CTA that would need more gives the run up (too_big), and the
 * grid runs one CTA after another, which needs none of it: so a run on threads takes at most
 * that much more memory than one on one thread.
 * Each side marks a word first and looks at the other side's mark after (sequentially
 * consistent), so of two CTAs touching one word at the same time at least one sees the other
 * and does not make its access: no two threads ever race on a byte. Requires: mem.c's regions. */
#include <stdlib.h>
#include <string.h>

#include "memory.h"

enum { TRACK_CHUNK_WORDS = 4096 };
#define TRACK_MIN_BUDGET ((uint64_t)64 << 20)

struct TrackChunk {
    _Atomic uint32_t writer[TRACK_CHUNK_WORDS], reader[TRACK_CHUNK_WORDS];
    _Atomic(uint8_t *) old;    /* per word its 4 data bytes, then its 4 shadow bytes; NULL: none written */
};

GridTrack *gridtrack_new(const Memory *mem)
{
    GridTrack *t = xcalloc(1, sizeof *t);
    t->count = mem->count;
    t->chunks = xcalloc(mem->count + 1, sizeof *t->chunks);
    t->slots = xcalloc(mem->count + 1, sizeof *t->slots);
    t->shadows = xcalloc(mem->count + 1, sizeof *t->shadows);
    uint64_t bytes = sizeof *t + (mem->count + 1) * (sizeof *t->chunks + sizeof *t->slots + sizeof *t->shadows);
    uint64_t global = 0;
    for (uint32_t i = 0; i < mem->count; i++) {
        const Region *r = &mem->regions[i];
        if (r->space != SPACE_GLOBAL || r->per_lane)
            continue;
        global += r->size;
        t->slots[i] = r->size / 4 / TRACK_CHUNK_WORDS + 1;
        t->chunks[i] = xcalloc(t->slots[i], sizeof **t->chunks);
        bytes += t->slots[i] * sizeof **t->chunks;
    }
    atomic_init(&t->bytes, bytes);
    t->budget = global / 4 > TRACK_MIN_BUDGET ? global / 4 : TRACK_MIN_BUDGET;
    atomic_init(&t->too_big, false);
    atomic_init(&t->conflict, false);
    atomic_init(&t->stop, false);
    return t;
}

void gridtrack_free(GridTrack *t)
{
    if (!t)
        return;
    for (uint32_t i = 0; i < t->count; i++) {
        for (uint64_t c = 0; t->chunks[i] && c < t->slots[i]; c++) {
            TrackChunk *k = atomic_load(&t->chunks[i][c]);
            if (k)
                free(atomic_load(&k->old));
            free(k);
        }
        free((void *)t->chunks[i]);
    }
    free(t->chunks);
    free(t->slots);
    free((void *)t->shadows);
    free(t);
}

/* The chunk of region i holding word, made now if no CTA touched it before. Two threads
 * making one at once: one keeps its, the other frees its own and takes that one. */
/* Counts n more bytes; false (too_big) if that would pass the budget. */
static bool take(GridTrack *t, uint64_t n)
{
    if (atomic_fetch_add(&t->bytes, n) + n <= t->budget)
        return true;
    atomic_fetch_sub(&t->bytes, n);
    atomic_store(&t->too_big, true);
    return false;
}

static TrackChunk *chunk(GridTrack *t, uint32_t i, uint64_t word)
{
    _Atomic(TrackChunk *) *slot = &t->chunks[i][word / TRACK_CHUNK_WORDS];
    TrackChunk *k = atomic_load(slot);
    if (k)
        return k;
    if (!take(t, sizeof *k))
        return NULL;
    TrackChunk *made = xcalloc(1, sizeof *made);
    if (atomic_compare_exchange_strong(slot, &k, made))
        return made;
    free(made);
    atomic_fetch_sub(&t->bytes, sizeof *made);
    return k;
}

/* Keeps the bytes of a word this CTA is the first to write, before it writes them; false if
 * that would pass the budget. */
static bool keep_old(GridTrack *t, TrackChunk *k, const Region *r, uint64_t word)
{
    uint8_t *old = atomic_load(&k->old);
    if (!old) {
        if (!take(t, 8 * TRACK_CHUNK_WORDS))
            return false;
        uint8_t *made = xmalloc(8 * TRACK_CHUNK_WORDS);
        if (atomic_compare_exchange_strong(&k->old, &old, made))
            old = made;
        else {
            free(made);
            atomic_fetch_sub(&t->bytes, 8 * TRACK_CHUNK_WORDS);
        }
    }
    uint64_t at = word * 4, n = r->size - at < 4 ? r->size - at : 4;
    memcpy(old + 8 * (word % TRACK_CHUNK_WORDS), r->data + at, n);
    if (r->shadow)
        memcpy(old + 8 * (word % TRACK_CHUNK_WORDS) + 4, r->shadow + at, n);
    else                               /* no shadow (yet) in this worker: no CTA wrote the word */
        memset(old + 8 * (word % TRACK_CHUNK_WORDS) + 4, 0xff, n);
    return true;
}

/* The CTA of mem is about to read and/or write bytes [offset, offset + size) of region r:
 * false (and GridTrack.conflict set) when another CTA wrote one of their words, or read one
 * this one writes; false (and too_big set) when the record would pass its budget. */
bool gridtrack_access(Memory *mem, const Region *r, uint64_t offset, uint64_t size, bool read, bool write)
{
    GridTrack *t = mem->track;
    uint32_t i = (uint32_t)(r - mem->regions), me = mem->track_cta;
    bool ok = true;
    if (i >= t->count || !t->chunks[i] || size == 0)
        return true;
    for (uint64_t word = offset / 4; word <= (offset + size - 1) / 4; word++) {
        TrackChunk *k = chunk(t, i, word);
        if (!k)
            return false;
        _Atomic uint32_t *wr = &k->writer[word % TRACK_CHUNK_WORDS], *rd = &k->reader[word % TRACK_CHUNK_WORDS];
        if (write) {
            uint32_t old = atomic_exchange(wr, me), reader = atomic_load(rd);
            if (old == 0 && !keep_old(t, k, r, word)) {
                atomic_store(wr, 0);           /* not written, no old bytes kept: as if never marked */
                return false;
            }
            if ((old && old != me) || (reader && reader != me))
                ok = false;
        }
        if (read) {
            uint32_t cur = atomic_load(rd);
            while (cur != me && cur != TRACK_MANY && !atomic_compare_exchange_weak(rd, &cur, cur ? TRACK_MANY : me))
                ;
            uint32_t writer = atomic_load(wr);
            if (writer && writer != me)
                ok = false;
        }
    }
    if (!ok)
        atomic_store(&t->conflict, true);
    return ok;
}

/* The shadow bytes of region i, all defined, made by the first worker to ask and the same for
 * every other. */
uint8_t *gridtrack_shadow(GridTrack *t, uint32_t i, uint64_t size)
{
    uint8_t *shadow = atomic_load(&t->shadows[i]);
    if (shadow)
        return shadow;
    uint8_t *made = xmalloc(size + 1);
    memset(made, 0xff, size);
    if (atomic_compare_exchange_strong(&t->shadows[i], &shadow, made))
        return made;
    free(made);
    return shadow;
}

/* After every thread has stopped: the shadows the workers made go to mem's regions, and with
 * restore, the old bytes of every word a CTA wrote go back. */
void gridtrack_end(GridTrack *t, Memory *mem, bool restore)
{
    for (uint32_t i = 0; i < t->count; i++) {
        uint8_t *shadow = atomic_load(&t->shadows[i]);
        if (shadow && !mem->regions[i].shadow)
            mem->regions[i].shadow = shadow;
        else
            free(shadow);
        for (uint64_t c = 0; restore && t->chunks[i] && c < t->slots[i]; c++) {
            TrackChunk *k = atomic_load(&t->chunks[i][c]);
            uint8_t *old = k ? atomic_load(&k->old) : NULL;
            for (uint32_t w = 0; old && w < TRACK_CHUNK_WORDS; w++) {
                if (!atomic_load(&k->writer[w]))
                    continue;
                Region *r = &mem->regions[i];
                uint64_t at = (c * TRACK_CHUNK_WORDS + w) * 4, n = r->size - at < 4 ? r->size - at : 4;
                memcpy(r->data + at, old + 8 * w, n);
                if (r->shadow)             /* else no CTA made one: nothing was written */
                    memcpy(r->shadow + at, old + 8 * w + 4, n);
            }
        }
    }
}
