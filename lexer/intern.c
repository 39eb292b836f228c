/* intern.c: a string table, so that every name is stored once and compared by pointer.
 * Open addressing with linear probing; the strings live in the module's arena. */
#include <stdlib.h>
#include <string.h>

#include "lexer.h"

/* Eight bytes at a time (names are mostly short: "%r12", "add.s32"), then the tail. */
static uint32_t hash_bytes(const char *s, size_t len)
{
    uint64_t h = 0x9e3779b97f4a7c15u ^ len;
    for (; len >= 8; s += 8, len -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    uint64_t tail = 0;
    for (size_t i = 0; i < len; i++)
        tail |= (uint64_t)(unsigned char)s[i] << (8 * i);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53u;
    return (uint32_t)(h ^ (h >> 29) ^ (h >> 47));
}

void intern_init(Interner *in, Arena *arena)
{
    in->recent = xcalloc(INTERN_RECENT, sizeof *in->recent);
    in->arena = arena;
    in->count = 0;
    in->capacity = 1024;
    in->slots = pages_alloc(in->capacity * sizeof *in->slots);
}

static void intern_rehash(Interner *in)
{
    uint32_t capacity = in->capacity * 2;
    InternSlot *slots = pages_alloc(capacity * sizeof *slots);
    for (uint32_t i = 0; i < in->capacity; i++) {
        if (!in->slots[i].name)
            continue;
        uint32_t j = in->slots[i].hash & (capacity - 1);
        while (slots[j].name)
            j = (j + 1) & (capacity - 1);
        slots[j] = in->slots[i];
    }
    pages_free(in->slots, in->capacity * sizeof *in->slots);
    in->slots = slots;
    in->capacity = capacity;
}

const char *intern(Interner *in, const char *s, size_t len)
{
    uint32_t h = hash_bytes(s, len);
    InternSlot *recent = &in->recent[(h >> 20) % INTERN_RECENT];   /* (high bits: the table uses the low) */
    if (recent->name && recent->hash == h && recent->len == len && memcmp(recent->name, s, len) == 0)
        return recent->name;
    uint32_t j = h & (in->capacity - 1);
    for (InternSlot *slot; (slot = &in->slots[j])->name; j = (j + 1) & (in->capacity - 1))
        if (slot->hash == h && slot->len == len && memcmp(slot->name, s, len) == 0) {
            *recent = *slot;                   /* (the stored name has len bytes, then its NUL) */
            return slot->name;
        }
    const char *copy = arena_strndup(in->arena, s, len);
    in->slots[j] = (InternSlot){ copy, h, (uint32_t)len };
    *recent = in->slots[j];
    if ((uint64_t)++in->count * 4 > (uint64_t)in->capacity * 3)   /* at most three quarters full */
        intern_rehash(in);
    return copy;
}

void intern_free(Interner *in)
{
    pages_free(in->slots, in->capacity * sizeof *in->slots);
    free(in->recent);
    in->slots = in->recent = NULL;
    in->count = in->capacity = 0;
}
