/* fatbin.c: reading NVIDIA fatbinaries, the device code nvcc puts into a CUDA program: from the
 * wrapper __cudaRegisterFatBinary is given, from the bytes of a fatbinary, or from an ELF file's
 * section. Each entry comes out with its kind, architecture and plain bytes (zstd and LZ4 entries
 * decompressed). Every length is checked against the bytes given before it is used.
 *
 * The layout, as measured on nvcc 13.0's output (all fields little-endian; docs/cuda.md):
 *
 *   wrapper (.nvFatBinSegment)  0 u32 magic 0x466243b1   4 u32 version (1, or 2 for the one
 *                               nvlink makes)            8 pointer to the fatbinary   16 pointer
 *   fatbinary header            0 u32 magic 0xBA55ED50   4 u16 version 1   6 u16 header size (16)
 *                               8 u64 size of the entries that follow the header
 *   entry header (64 bytes or more, the entry's bytes right after it)
 *      0 u16 kind (1 PTX, 2 ELF)       2 u16 0x0101      4 u32 header size    8 u64 payload size
 *     16 u32 compressed size (0: not)  20 u32 where the options descriptor is in the header (0: none)
 *     24 u16 minor  26 u16 major (PTX ISA 9.0; a cubin's 1.8)  28 u32 arch (80 for sm_80/compute_80)
 *     32 u32, 36 u32 (0)               40 u64 flags       48 u64 (0)           56 u64 plain size
 *   options descriptor: u32 offset (in the header) and u32 length of the options bytes.
 *   flags: 0x1 64-bit, 0x10 Linux host, 0x2000 LZ4 block, 0x8000 zstd frame, 0x100000 an 'a'
 *   architecture (sm_90a), 0x200000 an 'f' one (sm_100f).
 * Payloads are padded to 8 bytes (a PTX text with NULs); a compressed payload's bytes are the
 * first compressed-size of them. Requires: cuda.h, libzstd. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "cuda.h"

enum {
    FATBIN_HEADER = 16,        /* the fatbinary header's size as nvcc writes it, its least */
    ENTRY_HEADER = 64,         /* an entry header's fields, the least it may be */
    FATBIN_ALIGN = 8,          /* fatbinaries in a section start on this boundary */
};
#define WRAPPER_MAGIC 0x466243b1u
#define FATBIN_MAGIC  0xBA55ED50u
#define FLAG_LZ4      0x2000u
#define FLAG_ZSTD     0x8000u
#define FLAG_ARCH_A   0x100000u
#define FLAG_FAMILY_F 0x200000u
/* No entry decompresses to more than this: a corrupted size is refused before it is allocated. */
#define FATBIN_MAX_PLAIN ((uint64_t)1 << 30)
/* LZ4 writes at most 255 more bytes of match for each input byte. */
#define LZ4_MAX_RATIO 255

static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16; }
static uint64_t get64(const uint8_t *p) { return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32; }

/* An LZ4 block (the format of lz4's "block" API, no frame): sequences of a token (literal count
 * in the high nibble, match length less 4 in the low; 15 continued by bytes while they are 255),
 * the literals, then a 2-byte distance back; the last sequence has literals only. True when it
 * decodes to exactly cap bytes without reading or writing past either end. */
static bool fatbin_lz4(const uint8_t *src, size_t n, uint8_t *dst, size_t cap)
{
    size_t i = 0, o = 0;
    while (i < n) {
        unsigned token = src[i++];
        size_t literals = token >> 4, match = token & 15, more;
        if (literals == 15)
            do {
                if (i >= n)
                    return false;
                more = src[i++];
                literals += more;
            } while (more == 255);
        if (literals > n - i || literals > cap - o)
            return false;
        memcpy(dst + o, src + i, literals);
        i += literals, o += literals;
        if (i == n)
            break;
        if (n - i < 2)
            return false;
        size_t distance = get16(src + i);
        i += 2;
        if (distance == 0 || distance > o)
            return false;
        if (match == 15)
            do {
                if (i >= n)
                    return false;
                more = src[i++];
                match += more;
            } while (more == 255);
        match += 4;
        if (match > cap - o)
            return false;
        for (size_t k = 0; k < match; k++, o++)   /* byte by byte: the copy may overlap itself */
            dst[o] = dst[o - distance];
    }
    return o == cap;
}

/* The compressed payload of e (csize bytes at src) into e->owned, plain bytes long. */
static bool fatbin_inflate(FatbinEntry *e, const uint8_t *src, size_t csize, uint64_t plain, Msg *err)
{
    if (plain == 0 || plain > FATBIN_MAX_PLAIN) {
        msg_set(err, "a compressed entry's plain size %llu is out of range", (unsigned long long)plain);
        return false;
    }
    if (e->compression == FATBIN_LZ4 && plain > (uint64_t)csize * LZ4_MAX_RATIO + 16) {
        msg_set(err, "a compressed entry's plain size %llu cannot come from %zu bytes of LZ4",
                (unsigned long long)plain, csize);
        return false;
    }
    if (e->compression == FATBIN_ZSTD) {
        unsigned long long framed = ZSTD_getFrameContentSize(src, csize);
        if (framed == ZSTD_CONTENTSIZE_ERROR) {
            msg_set(err, "a compressed entry is not a zstd frame");
            return false;
        }
        if (framed != ZSTD_CONTENTSIZE_UNKNOWN && framed != plain) {
            msg_set(err, "a compressed entry's zstd frame holds %llu bytes, its header says %llu", framed,
                    (unsigned long long)plain);
            return false;
        }
    }
    e->owned = malloc((size_t)plain);
    if (!e->owned) {
        msg_set(err, "out of memory for a compressed entry's %llu bytes", (unsigned long long)plain);
        return false;
    }
    if (e->compression == FATBIN_LZ4) {
        if (!fatbin_lz4(src, csize, e->owned, (size_t)plain)) {
            msg_set(err, "a compressed entry is not a well-formed LZ4 block of %llu bytes",
                    (unsigned long long)plain);
            return false;
        }
    } else {
        size_t made = ZSTD_decompress(e->owned, (size_t)plain, src, csize);
        if (ZSTD_isError(made) || made != plain) {
            msg_set(err, "a compressed entry does not decompress to %llu bytes: %s", (unsigned long long)plain,
                    ZSTD_isError(made) ? ZSTD_getErrorName(made) : "a different size");
            return false;
        }
    }
    e->data = e->owned;
    e->size = (size_t)plain;
    return true;
}

/* The entry whose header is at p, with avail bytes from p to the end of its fatbinary. *used: the
 * header and payload's length. */
static bool fatbin_entry(const uint8_t *p, size_t avail, FatbinEntry *e, size_t *used, Msg *err)
{
    if (avail < ENTRY_HEADER) {
        msg_set(err, "an entry header is cut short (%zu of %d bytes)", avail, ENTRY_HEADER);
        return false;
    }
    uint32_t header = get32(p + 4), compressed = get32(p + 16), options = get32(p + 20);
    uint64_t payload = get64(p + 8), flags = get64(p + 40), plain = get64(p + 56);
    e->kind = get16(p);
    if (e->kind != FATBIN_PTX && e->kind != FATBIN_ELF) {
        msg_set(err, "an entry of unknown kind %d (1 is PTX, 2 an ELF cubin)", e->kind);
        return false;
    }
    if (header < ENTRY_HEADER || header > avail) {
        msg_set(err, "an entry header's size %u is out of range (%d to %zu)", header, ENTRY_HEADER, avail);
        return false;
    }
    if (payload > avail - header) {
        msg_set(err, "an entry's %llu bytes run past its fatbinary's end (%zu left)", (unsigned long long)payload,
                avail - header);
        return false;
    }
    if (options) {
        if (options > header - 8) {
            msg_set(err, "an entry's options descriptor at %u is outside its %u-byte header", options, header);
            return false;
        }
        uint32_t at = get32(p + options), length = get32(p + options + 4);
        if (length && (at > header || length > header - at)) {
            msg_set(err, "an entry's %u bytes of options at %u are outside its %u-byte header", length, at, header);
            return false;
        }
        e->options = length ? p + at : NULL;
        e->options_size = length;
    }
    e->minor = get16(p + 24);
    e->major = get16(p + 26);
    e->arch = get32(p + 28);
    e->variant = flags & FLAG_ARCH_A ? 'a' : flags & FLAG_FAMILY_F ? 'f' : 0;
    if ((flags & FLAG_LZ4) && (flags & FLAG_ZSTD)) {
        msg_set(err, "an entry's flags 0x%llx name two compressions", (unsigned long long)flags);
        return false;
    }
    e->compression = flags & FLAG_LZ4 ? FATBIN_LZ4 : flags & FLAG_ZSTD ? FATBIN_ZSTD : FATBIN_STORED;
    const uint8_t *bytes = p + header;
    *used = header + (size_t)payload;
    if (e->compression != FATBIN_STORED) {
        if (compressed == 0 || compressed > payload) {
            msg_set(err, "a compressed entry's size %u is out of range (1 to %llu)", compressed,
                    (unsigned long long)payload);
            return false;
        }
        if (!fatbin_inflate(e, bytes, compressed, plain, err))
            return false;
    } else {
        e->data = bytes;
        e->size = (size_t)payload;
    }
    if (e->kind == FATBIN_PTX)
        while (e->size && e->data[e->size - 1] == 0)
            e->size--;
    return true;
}

/* One fatbinary at p (avail bytes there): its entries appended to out. *used: its length. */
static bool fatbin_one(const uint8_t *p, size_t avail, FatbinEntries *out, size_t *used, Msg *err)
{
    if (avail < FATBIN_HEADER) {
        msg_set(err, "a fatbinary header is cut short (%zu of %d bytes)", avail, FATBIN_HEADER);
        return false;
    }
    if (get32(p) != FATBIN_MAGIC) {
        msg_set(err, "not a fatbinary (magic 0x%08x, expected 0x%08x)", get32(p), FATBIN_MAGIC);
        return false;
    }
    uint16_t version = get16(p + 4), header = get16(p + 6);
    uint64_t size = get64(p + 8);
    if (version != 1) {
        msg_set(err, "a fatbinary of version %u (ptxrun reads version 1)", version);
        return false;
    }
    if (header < FATBIN_HEADER || header > avail || size > avail - header) {
        msg_set(err, "a fatbinary's header (%u bytes) and entries (%llu bytes) run past the %zu bytes given",
                header, (unsigned long long)size, avail);
        return false;
    }
    size_t at = header, end = header + (size_t)size;
    while (at < end) {
        FatbinEntry e = { .offset = at };
        size_t length;
        bool ok = fatbin_entry(p + at, end - at, &e, &length, err);
        if (ok || e.owned) {
            out->v = xrealloc(out->v, (out->count + 1) * sizeof *out->v);
            out->v[out->count++] = e;   /* kept even when it failed, so that its memory is freed */
        }
        if (!ok) {
            msg_prefix(err, "entry at offset %zu: ", at);
            return false;
        }
        at += length;
    }
    *used = end;
    return true;
}

bool fatbin_read(const void *blob, size_t avail, FatbinEntries *out, Msg *err)
{
    const uint8_t *bytes = blob;
    size_t at = 0;
    *out = (FatbinEntries) { 0 };
    if (avail == 0) {
        msg_set(err, "no fatbinary (0 bytes)");
        return false;
    }
    while (at < avail) {
        size_t used, entries = out->count;
        if (!fatbin_one(bytes + at, avail - at, out, &used, err)) {
            for (size_t i = entries; i < out->count; i++)
                out->v[i].offset += at;
            fatbin_free(out);
            msg_prefix(err, "fatbinary at offset %zu: ", at);
            return false;
        }
        for (size_t i = entries; i < out->count; i++)
            out->v[i].offset += at;
        at += used;
        while (at < avail && at % FATBIN_ALIGN && bytes[at] == 0)   /* the padding to the next one */
            at++;
    }
    return true;
}

bool fatbin_from_wrapper(const void *wrapper, FatbinEntries *out, Msg *err)
{
    const uint8_t *w = wrapper;
    const uint8_t *data;
    *out = (FatbinEntries) { 0 };
    if (!w) {
        msg_set(err, "no fatbinary wrapper (a null pointer)");
        return false;
    }
    if (get32(w) != WRAPPER_MAGIC || (get32(w + 4) != 1 && get32(w + 4) != 2)) {
        msg_set(err, "not a fatbinary wrapper (magic 0x%08x version %u; expected 0x%08x version 1 or 2)", get32(w),
                get32(w + 4), WRAPPER_MAGIC);
        return false;
    }
    memcpy(&data, w + 8, sizeof data);
    if (!data) {
        msg_set(err, "a fatbinary wrapper without a fatbinary (a null pointer)");
        return false;
    }
    if (get32(data) != FATBIN_MAGIC) {
        msg_set(err, "a fatbinary wrapper whose fatbinary is not one (magic 0x%08x, expected 0x%08x)", get32(data),
                FATBIN_MAGIC);
        return false;
    }
    uint64_t size = (uint64_t)get16(data + 6) + get64(data + 8);
    if (size > SIZE_MAX / 2) {
        msg_set(err, "a fatbinary wrapper's fatbinary of %llu bytes", (unsigned long long)size);
        return false;
    }
    return fatbin_read(data, (size_t)size, out, err);
}

enum {
    ELF_HEADER = 64,           /* ELF64's file header */
    ELF_SECTION = 64,          /* and its section header */
    SHT_NOBITS_ = 8,
    SHN_XINDEX_ = 0xffff,
};

/* The section header of index i, or NULL when it is outside the file. */
static const uint8_t *elf_section(const uint8_t *file, size_t size, uint64_t shoff, unsigned entsize, uint64_t i)
{
    if (shoff > size || i > (size - shoff) / entsize || (size - shoff) - i * entsize < ELF_SECTION)
        return NULL;
    return file + shoff + i * entsize;
}

bool fatbin_from_elf(const uint8_t *file, size_t size, const char *section, FatbinEntries *out, Msg *err)
{
    *out = (FatbinEntries) { 0 };
    if (size < ELF_HEADER || memcmp(file, "\177ELF", 4) != 0) {
        msg_set(err, "not an ELF file");
        return false;
    }
    if (file[4] != 2 || file[5] != 1) {
        msg_set(err, "not a 64-bit little-endian ELF file (class %u, data %u)", file[4], file[5]);
        return false;
    }
    uint64_t shoff = get64(file + 40), count = get16(file + 60), names = get16(file + 62);
    unsigned entsize = get16(file + 58);
    const uint8_t *first = entsize >= ELF_SECTION ? elf_section(file, size, shoff, entsize, 0) : NULL;
    if (!first) {
        msg_set(err, "an ELF file whose section headers (at %llu, %u bytes each) are outside its %zu bytes",
                (unsigned long long)shoff, entsize, size);
        return false;
    }
    if (count == 0)                /* more than 0xff00 sections: the count is in the first one */
        count = get64(first + 32);
    if (names == SHN_XINDEX_)
        names = get32(first + 40);
    const uint8_t *strtab = names < count ? elf_section(file, size, shoff, entsize, names) : NULL;
    uint64_t str_at = strtab ? get64(strtab + 24) : 0, str_size = strtab ? get64(strtab + 32) : 0;
    if (!strtab || str_at > size || str_size > size - str_at) {
        msg_set(err, "an ELF file whose section names are outside it");
        return false;
    }
    size_t want = strlen(section);
    for (uint64_t i = 0; i < count; i++) {
        const uint8_t *sh = elf_section(file, size, shoff, entsize, i);
        if (!sh) {
            msg_set(err, "an ELF file whose %llu section headers run past its end", (unsigned long long)count);
            return false;
        }
        uint32_t name = get32(sh);
        if (name >= str_size || str_size - name <= want || memcmp(file + str_at + name, section, want + 1) != 0)
            continue;
        uint64_t at = get64(sh + 24), length = get64(sh + 32);
        if (get32(sh + 4) == SHT_NOBITS_ || at > size || length > size - at) {
            msg_set(err, "an ELF file whose section %s is outside it", section);
            return false;
        }
        return fatbin_read(file + at, (size_t)length, out, err);
    }
    msg_set(err, "an ELF file without a %s section", section);
    return false;
}

const FatbinEntry *fatbin_best_ptx(const FatbinEntries *e, unsigned arch)
{
    const FatbinEntry *best = NULL;
    for (size_t i = 0; i < e->count; i++) {
        const FatbinEntry *x = &e->v[i];
        if (x->kind != FATBIN_PTX || x->arch > arch || (x->variant && x->arch != arch))
            continue;
        if (!best || x->arch > best->arch || (x->arch == best->arch && x->variant && !best->variant))
            best = x;
    }
    return best;
}

void fatbin_free(FatbinEntries *e)
{
    for (size_t i = 0; i < e->count; i++)
        free(e->v[i].owned);
    free(e->v);
    *e = (FatbinEntries) { 0 };
}
