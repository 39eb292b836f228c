/* check_fatbin.c: the fatbinary reader (cuda/fatbin.c) on what nvcc 13 made of tests/fatbin/scale.cu
 * (tests/fatbin/regen.sh says how): the entries each build was asked for, the PTX text inside them
 * whether stored, zstd or LZ4, the wrapper and ELF ways in, and every cut and many corruptions of
 * the files refused with a message, never read past (the SANITIZE=1 build checks that). PTXRUN_ROOT
 * names the repository (make check sets it). */
#include <stdio.h>

#include "testutil.h"
#include "cuda.h"

typedef struct Blob {
    uint8_t *bytes;
    size_t size;
} Blob;

static Blob blob_load(const char *name)
{
    const char *root = getenv("PTXRUN_ROOT");
    char path[4096];
    ck_assert_msg(root != NULL, "set PTXRUN_ROOT to the repository (make check does)");
    snprintf(path, sizeof path, "%s/tests/fatbin/%s", root, name);
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    Blob b = { 0 };
    ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
    b.size = (size_t)ftell(f);
    rewind(f);
    b.bytes = malloc(b.size);
    ck_assert_uint_eq(fread(b.bytes, 1, b.size, f), b.size);
    fclose(f);
    return b;
}

/* What one entry must be: kind, arch, compression; its PTX's target (NULL for a cubin). */
typedef struct Want {
    int kind;
    unsigned arch;
    FatbinCompression compression;
} Want;

static void entries_are(const FatbinEntries *e, const Want *want, size_t count, const char *what)
{
    ck_assert_msg(e->count == count, "%s: %zu entries, expected %zu", what, e->count, count);
    for (size_t i = 0; i < count; i++) {
        const FatbinEntry *x = &e->v[i];
        ck_assert_msg(x->kind == want[i].kind && x->arch == want[i].arch && x->compression == want[i].compression,
                      "%s: entry %zu is kind %d arch %u compression %d, expected %d %u %d", what, i, x->kind, x->arch,
                      x->compression, want[i].kind, want[i].arch, want[i].compression);
        ck_assert_msg(x->variant == 0, "%s: entry %zu has variant %c", what, i, x->variant);
        ck_assert_msg((x->owned != NULL) == (x->compression != FATBIN_STORED), "%s: entry %zu owned", what, i);
        if (x->kind == FATBIN_ELF) {
            ck_assert_msg(x->size >= 64 && memcmp(x->data, "\177ELF\2\1", 6) == 0, "%s: entry %zu not an ELF", what, i);
            ck_assert_msg(x->major == 1 && x->minor == 8, "%s: cubin %zu of format %u.%u", what, i, x->major, x->minor);
            continue;
        }
        /* PTX: nvcc writes blank lines first, then the version and target it was asked for. */
        char head[64];
        size_t at = 0;
        while (at < x->size && x->data[at] == '\n')
            at++;
        snprintf(head, sizeof head, ".version 9.0\n.target sm_%u\n", want[i].arch);
        ck_assert_msg(x->size - at > strlen(head) && memcmp(x->data + at, head, strlen(head)) == 0,
                      "%s: PTX entry %zu starts %.40s", what, i, (const char *)x->data + at);
        ck_assert_msg(x->major == 9 && x->minor == 0, "%s: PTX %zu of version %u.%u", what, i, x->major, x->minor);
        ck_assert_msg(memchr(x->data, 0, x->size) == NULL, "%s: PTX %zu has a NUL", what, i);
        char *text = strndup((const char *)x->data, x->size);
        ck_assert_msg(strstr(text, ".visible .entry _Z5scalePffi(") != NULL, "%s: PTX %zu lacks the kernel", what, i);
        ck_assert_msg(x->size > 3 && strcmp(text + x->size - 3, "}\n\n") == 0, "%s: PTX %zu's end", what, i);
        free(text);
    }
}

static FatbinEntries read_ok(const Blob *b, const char *what)
{
    FatbinEntries e;
    Msg err = { 0 };
    ck_assert_msg(fatbin_read(b->bytes, b->size, &e, &err), "%s: %s", what, err.text);
    ck_assert_ptr_null(err.text);
    return e;
}

#define ENTRIES_ARE(e, what, ...)                                                                          \
    do {                                                                                                   \
        const Want want_[] = { __VA_ARGS__ };                                                              \
        entries_are(e, want_, sizeof want_ / sizeof want_[0], what);                                       \
    } while (0)

/* The PTX of an entry as text, for comparing two builds' PTX. */
static bool same_bytes(const FatbinEntry *a, const FatbinEntry *b)
{
    return a->size == b->size && memcmp(a->data, b->data, a->size) == 0;
}

START_TEST(entries_as_nvcc_was_asked)
{
    /* Each .nv_fatbin starts with nvlink's fatbinary (an empty cubin for each real architecture),
     * then the file's own: a cubin per sm_XX, a PTX per compute_XX, PTX compressed by default. */
    Blob b = blob_load("sm80.fatbin");
    FatbinEntries e = read_ok(&b, "sm80");
    ENTRIES_ARE(&e, "sm80", { FATBIN_ELF, 80, FATBIN_STORED }, { FATBIN_ELF, 80, FATBIN_STORED },
                { FATBIN_PTX, 80, FATBIN_ZSTD });
    ck_assert_uint_eq(e.v[0].offset, 16);
    ck_assert_uint_gt(e.v[1].offset, e.v[0].offset + e.v[0].size);
    ck_assert_msg(e.v[2].options_size == 0, "no JIT options without -rdc");
    Blob p = blob_load("plain.fatbin");
    FatbinEntries plain = read_ok(&p, "plain");
    ENTRIES_ARE(&plain, "plain", { FATBIN_ELF, 80, FATBIN_STORED }, { FATBIN_ELF, 80, FATBIN_STORED },
                { FATBIN_PTX, 80, FATBIN_STORED });
    /* The zstd text is the stored one, byte for byte. */
    ck_assert_msg(same_bytes(&e.v[2], &plain.v[2]), "zstd PTX differs from the stored PTX");
    ck_assert_msg(same_bytes(&e.v[1], &plain.v[1]), "the cubins differ");

    Blob s = blob_load("speed.fatbin");
    FatbinEntries speed = read_ok(&s, "speed");
    ENTRIES_ARE(&speed, "speed", { FATBIN_ELF, 80, FATBIN_STORED }, { FATBIN_ELF, 80, FATBIN_STORED },
                { FATBIN_PTX, 80, FATBIN_LZ4 });
    ck_assert_msg(same_bytes(&speed.v[2], &plain.v[2]), "LZ4 PTX differs from the stored PTX");

    Blob a = blob_load("all.fatbin");
    FatbinEntries all = read_ok(&a, "all");
    ENTRIES_ARE(&all, "all", { FATBIN_ELF, 80, FATBIN_ZSTD }, { FATBIN_ELF, 80, FATBIN_ZSTD },
                { FATBIN_PTX, 80, FATBIN_ZSTD });
    ck_assert_msg(same_bytes(&all.v[1], &plain.v[1]), "the zstd cubin differs from the stored one");
    ck_assert_msg(same_bytes(&all.v[0], &plain.v[0]), "nvlink's zstd cubin differs from the stored one");

    Blob t = blob_load("two.fatbin");
    FatbinEntries two = read_ok(&t, "two");
    ENTRIES_ARE(&two, "two", { FATBIN_ELF, 75, FATBIN_STORED }, { FATBIN_ELF, 90, FATBIN_STORED },
                { FATBIN_ELF, 75, FATBIN_STORED }, { FATBIN_PTX, 75, FATBIN_ZSTD }, { FATBIN_ELF, 90, FATBIN_STORED },
                { FATBIN_PTX, 90, FATBIN_ZSTD });

    /* -rdc: __nv_relfatbin holds the cubin (compressed) and the PTX with its JIT options. */
    Blob r = blob_load("rdc.fatbin");
    FatbinEntries rdc = read_ok(&r, "rdc");
    ENTRIES_ARE(&rdc, "rdc", { FATBIN_ELF, 80, FATBIN_ZSTD }, { FATBIN_PTX, 80, FATBIN_ZSTD });
    ck_assert_msg(rdc.v[1].options_size >= 14 && memcmp(rdc.v[1].options, "--compile-only", 14) == 0,
                  "rdc's PTX options: %.*s", (int)rdc.v[1].options_size, (const char *)rdc.v[1].options);

    FatbinEntries *sets[] = { &e, &plain, &speed, &all, &two, &rdc };
    Blob *blobs[] = { &b, &p, &s, &a, &t, &r };
    for (size_t i = 0; i < 6; i++) {
        fatbin_free(sets[i]);
        ck_assert_uint_eq(sets[i]->count, 0);
        free(blobs[i]->bytes);
    }
}
END_TEST

START_TEST(best_ptx_as_the_driver_picks)
{
    Blob t = blob_load("two.fatbin");
    FatbinEntries two = read_ok(&t, "two");
    ck_assert_ptr_null(fatbin_best_ptx(&two, 70));
    ck_assert_ptr_eq(fatbin_best_ptx(&two, 75), &two.v[3]);
    ck_assert_ptr_eq(fatbin_best_ptx(&two, 80), &two.v[3]);
    ck_assert_ptr_eq(fatbin_best_ptx(&two, 89), &two.v[3]);
    ck_assert_ptr_eq(fatbin_best_ptx(&two, 90), &two.v[5]);
    ck_assert_ptr_eq(fatbin_best_ptx(&two, 120), &two.v[5]);
    /* An architecture-specific PTX (compute_90a) serves its own architecture only, before a plain one. */
    FatbinEntry v[] = { { .kind = FATBIN_PTX, .arch = 90, .variant = 'a' }, { .kind = FATBIN_PTX, .arch = 90 },
                        { .kind = FATBIN_PTX, .arch = 100, .variant = 'f' }, { .kind = FATBIN_ELF, .arch = 120 } };
    FatbinEntries some = { v, 4 };
    ck_assert_ptr_eq(fatbin_best_ptx(&some, 90), &v[0]);
    ck_assert_ptr_eq(fatbin_best_ptx(&some, 99), &v[1]);
    ck_assert_ptr_eq(fatbin_best_ptx(&some, 100), &v[2]);
    ck_assert_ptr_eq(fatbin_best_ptx(&some, 120), &v[1]);
    ck_assert_ptr_null(fatbin_best_ptx(&some, 89));
    fatbin_free(&two);
    free(t.bytes);
}
END_TEST

/* The wrapper __cudaRegisterFatBinary gets, as the host code nvcc writes lays it out. */
typedef struct Wrapper {
    uint32_t magic, version;
    const void *data;
    const void *unused;
} Wrapper;

static void refused(bool ok, Msg *err, const char *says)
{
    ck_assert_msg(!ok, "accepted; expected \"%s\"", says);
    ck_assert_msg(err->text && strstr(err->text, says), "said \"%s\", expected \"%s\"", err->text, says);
    msg_free(err);
}

START_TEST(from_a_wrapper)
{
    Blob b = blob_load("sm80.fatbin");
    Blob p = blob_load("plain.fatbin");
    FatbinEntries whole = read_ok(&p, "plain");
    size_t second = 16 + (size_t)(b.bytes[8] | b.bytes[9] << 8);   /* nvlink's fatbinary is the first */
    Wrapper w = { 0x466243b1, 1, b.bytes + second, NULL };
    FatbinEntries e;
    Msg err = { 0 };
    ck_assert_msg(fatbin_from_wrapper(&w, &e, &err), "%s", err.text);
    ck_assert_uint_eq(e.count, 2);
    ck_assert_int_eq(e.v[0].kind, FATBIN_ELF);
    ck_assert_uint_eq(e.v[0].offset, 16);
    ck_assert_int_eq(e.v[1].compression, FATBIN_ZSTD);
    ck_assert_msg(same_bytes(&e.v[1], &whole.v[2]), "the wrapper's PTX");
    ck_assert_ptr_eq(fatbin_best_ptx(&e, 90), &e.v[1]);
    fatbin_free(&e);
    w.version = 2;
    w.data = b.bytes;
    ck_assert_msg(fatbin_from_wrapper(&w, &e, &err), "%s", err.text);
    ck_assert_uint_eq(e.count, 1);
    fatbin_free(&e);
    w.version = 3;
    refused(fatbin_from_wrapper(&w, &e, &err), &err, "not a fatbinary wrapper (magic 0x466243b1 version 3");
    w.version = 1, w.magic = 0x466243b2;
    refused(fatbin_from_wrapper(&w, &e, &err), &err, "not a fatbinary wrapper");
    w.magic = 0x466243b1, w.data = NULL;
    refused(fatbin_from_wrapper(&w, &e, &err), &err, "without a fatbinary");
    w.data = b.bytes + 1;
    refused(fatbin_from_wrapper(&w, &e, &err), &err, "whose fatbinary is not one");
    refused(fatbin_from_wrapper(NULL, &e, &err), &err, "null pointer");
    ck_assert_uint_eq(e.count, 0);
    fatbin_free(&whole);
    free(p.bytes);
    free(b.bytes);
}
END_TEST

START_TEST(from_an_elf_file)
{
    Blob elf = blob_load("sm80.elf");
    Blob b = blob_load("sm80.fatbin");
    FatbinEntries e, section = read_ok(&b, "sm80");
    Msg err = { 0 };
    ck_assert_msg(fatbin_from_elf(elf.bytes, elf.size, ".nv_fatbin", &e, &err), "%s", err.text);
    ck_assert_uint_eq(e.count, section.count);
    for (size_t i = 0; i < e.count; i++) {
        ck_assert_msg(same_bytes(&e.v[i], &section.v[i]), "entry %zu differs from objcopy's section", i);
        ck_assert_uint_eq(e.v[i].offset, section.v[i].offset);
    }
    fatbin_free(&e);
    refused(fatbin_from_elf(elf.bytes, elf.size, "__nv_relfatbin", &e, &err), &err, "without a __nv_relfatbin section");
    refused(fatbin_from_elf(elf.bytes, elf.size, ".nv_fatbi", &e, &err), &err, "without a .nv_fatbi section");
    refused(fatbin_from_elf(b.bytes, b.size, ".nv_fatbin", &e, &err), &err, "not an ELF file");
    /* Every cut leaves out the section headers, at the file's end. */
    for (size_t cut = 0; cut < elf.size; cut++) {
        uint8_t *part = malloc(cut ? cut : 1);
        memcpy(part, elf.bytes, cut);
        ck_assert_msg(!fatbin_from_elf(part, cut, ".nv_fatbin", &e, &err), "the ELF file cut at %zu accepted", cut);
        ck_assert_ptr_nonnull(err.text);
        msg_free(&err);
        free(part);
    }
    /* The section's offset and size, the section header table's, the names' section. */
    size_t shoff = (size_t)elf.bytes[40] | (size_t)elf.bytes[41] << 8 | (size_t)elf.bytes[42] << 16;
    unsigned names = elf.bytes[62] | elf.bytes[63] << 8;
    uint8_t *bad = malloc(elf.size);
    memcpy(bad, elf.bytes, elf.size);
    bad[41] = 0xff, bad[45] = 0x7f;
    refused(fatbin_from_elf(bad, elf.size, ".nv_fatbin", &e, &err), &err, "section headers");
    memcpy(bad, elf.bytes, elf.size);
    bad[62] = 0xf0;
    refused(fatbin_from_elf(bad, elf.size, ".nv_fatbin", &e, &err), &err, "section names are outside it");
    memcpy(bad, elf.bytes, elf.size);
    bad[shoff + names * 64 + 24 + 4] = 0x10;   /* the names' offset far past the end */
    refused(fatbin_from_elf(bad, elf.size, ".nv_fatbin", &e, &err), &err, "section names are outside it");
    memcpy(bad, elf.bytes, elf.size);
    bad[4] = 1;
    refused(fatbin_from_elf(bad, elf.size, ".nv_fatbin", &e, &err), &err, "not a 64-bit little-endian");
    /* Every section's size made huge in turn: the one found is refused, the others are not read. */
    unsigned count = elf.bytes[60] | elf.bytes[61] << 8, refusals = 0;
    for (unsigned i = 1; i < count; i++) {
        memcpy(bad, elf.bytes, elf.size);
        bad[shoff + i * 64 + 32 + 5] = 0x10;
        bool ok = fatbin_from_elf(bad, elf.size, ".nv_fatbin", &e, &err);
        refusals += !ok && strstr(err.text, "outside it") != NULL;
        fatbin_free(&e);
        msg_free(&err);
    }
    ck_assert_uint_eq(refusals, 2);   /* .nv_fatbin, and the names' section */
    free(bad);
    fatbin_free(&section);
    free(b.bytes);
    free(elf.bytes);
}
END_TEST

/* Where a fatbinary of a section ends (walking the headers): a cut there is a whole section. */
static bool at_a_boundary(const Blob *b, size_t cut)
{
    size_t at = 0;
    while (at + 16 <= b->size) {
        uint64_t size = 0;
        for (int k = 7; k >= 0; k--)
            size = size << 8 | b->bytes[at + 8 + k];
        at += (size_t)(b->bytes[at + 6] | b->bytes[at + 7] << 8) + (size_t)size;
        if (at == cut)
            return true;
        at = (at + 7) & ~(size_t)7;
    }
    return false;
}

static const char *const every_blob[] = { "sm80.fatbin", "two.fatbin", "all.fatbin", "plain.fatbin", "speed.fatbin",
                                          "rdc.fatbin" };

/* Two fatbinaries, the first with a 20-byte header (so 4 bytes short of an 8-byte boundary), then
 * `pad` (4 bytes) before the second: zeros are the padding a section may hold, other bytes not. */
static bool padded_pair(const Blob *b, const uint8_t pad[4], FatbinEntries *e, Msg *err)
{
    size_t first = 16 + (size_t)(b->bytes[8] | b->bytes[9] << 8), length = first + 4 + 4 + b->size - first;
    uint8_t *two = malloc(length);
    memcpy(two, b->bytes, 16);
    memset(two + 16, 0, 4);
    memcpy(two + 20, b->bytes + 16, first - 16);
    two[6] = 20;
    memcpy(two + first + 4, pad, 4);
    memcpy(two + first + 8, b->bytes + first, b->size - first);
    bool ok = fatbin_read(two, length, e, err);
    free(two);
    return ok;
}

START_TEST(padding_between_fatbinaries)
{
    Blob b = blob_load("plain.fatbin");
    FatbinEntries e;
    Msg err = { 0 };
    ck_assert_msg(padded_pair(&b, (const uint8_t[4]) { 0 }, &e, &err), "%s", err.text);
    ck_assert_uint_eq(e.count, 3);
    ck_assert_uint_eq(e.v[0].offset, 20);
    ck_assert_int_eq(e.v[2].kind, FATBIN_PTX);
    fatbin_free(&e);
    refused(padded_pair(&b, (const uint8_t[4]) { 0, 0, 0, 1 }, &e, &err), &err, "fatbinary at offset 1535: not a fatbinary (magic 0x55ed5001");
    free(b.bytes);
}
END_TEST

START_TEST(every_cut_refused)
{
    Msg err = { 0 };
    for (size_t n = 0; n < sizeof every_blob / sizeof every_blob[0]; n++) {
        Blob b = blob_load(every_blob[n]);
        for (size_t cut = 0; cut < b.size; cut++) {
            uint8_t *part = malloc(cut ? cut : 1);   /* exactly cut bytes: a read past them is ASan's */
            memcpy(part, b.bytes, cut);
            FatbinEntries e;
            bool ok = fatbin_read(part, cut, &e, &err);
            ck_assert_msg(ok == at_a_boundary(&b, cut), "%s cut at %zu: %s", every_blob[n], cut,
                          ok ? "accepted" : err.text);
            ck_assert_msg(ok || (err.text && e.count == 0), "%s cut at %zu: no message", every_blob[n], cut);
            fatbin_free(&e);
            msg_free(&err);
            free(part);
        }
        free(b.bytes);
    }
}
END_TEST

static void put32(uint8_t *p, uint32_t v)
{
    for (int k = 0; k < 4; k++)
        p[k] = (uint8_t)(v >> 8 * k);
}

/* blob with the 32-bit word at `at` set to v: refused, saying `says`. */
static void corrupt(const Blob *b, size_t at, uint32_t v, const char *says)
{
    uint8_t *bad = malloc(b->size);
    memcpy(bad, b->bytes, b->size);
    put32(bad + at, v);
    FatbinEntries e;
    Msg err = { 0 };
    bool ok = fatbin_read(bad, b->size, &e, &err);
    ck_assert_msg(!ok, "word at %zu = 0x%x accepted; expected \"%s\"", at, v, says);
    ck_assert_msg(err.text && strstr(err.text, says), "word at %zu = 0x%x: said \"%s\", expected \"%s\"", at, v,
                  err.text, says);
    ck_assert_uint_eq(e.count, 0);
    msg_free(&err);
    free(bad);
}

START_TEST(corrupted_headers_refused)
{
    Blob b = blob_load("sm80.fatbin");
    FatbinEntries e = read_ok(&b, "sm80");
    size_t ptx = e.v[2].offset, second = e.v[1].offset - 16;
    fatbin_free(&e);
    corrupt(&b, 0, 0xBA55ED51, "fatbinary at offset 0: not a fatbinary (magic 0xba55ed51");
    corrupt(&b, second, 0, "not a fatbinary (magic 0x00000000");
    corrupt(&b, 4, 0x00100002, "a fatbinary of version 2");
    corrupt(&b, 4, 0xffff0001, "run past the");
    corrupt(&b, 4, 0x00080001, "run past the");   /* a header shorter than its fields */
    corrupt(&b, 12, 1, "run past the");           /* the entries' size past 4 GiB */
    corrupt(&b, second + 8, (uint32_t)(b.size - second), "run past the");
    corrupt(&b, ptx, 0x01010003, "unknown kind 3");
    corrupt(&b, ptx + 4, 0, "header's size 0 is out of range");
    corrupt(&b, ptx + 4, 63, "header's size 63 is out of range");
    corrupt(&b, ptx + 4, 0x10000, "header's size 65536 is out of range");
    corrupt(&b, ptx + 8, 0x10000, "run past its fatbinary's end");
    corrupt(&b, ptx + 12, 1, "run past its fatbinary's end");
    corrupt(&b, ptx + 16, 0, "compressed entry's size 0 is out of range");
    corrupt(&b, ptx + 16, 0x171, "compressed entry's size 369 is out of range");
    corrupt(&b, ptx + 16, 0x100, "does not decompress");            /* the frame cut short */
    corrupt(&b, ptx + 20, 0x49, "options descriptor at 73 is outside");
    corrupt(&b, ptx + 0x44, 9, "9 bytes of options at 72 are outside");
    corrupt(&b, ptx + 40, 0xa011, "flags 0xa011 name two compressions");
    corrupt(&b, ptx + 56, 0x2cc, "zstd frame holds 717 bytes, its header says 716");
    corrupt(&b, ptx + 56, 0, "plain size 0 is out of range");
    corrupt(&b, ptx + 60, 1, "out of range");
    corrupt(&b, ptx + 64 + 16, 0x12345678, "not a zstd frame");
    corrupt(&b, ptx + 40, 0x2011, "not a well-formed LZ4 block");   /* zstd bytes read as LZ4 */
    free(b.bytes);

    Blob s = blob_load("speed.fatbin");
    e = read_ok(&s, "speed");
    ptx = e.v[2].offset;
    fatbin_free(&e);
    corrupt(&s, ptx + 56, 0x2cc, "not a well-formed LZ4 block of 716 bytes");
    corrupt(&s, ptx + 56, 0x2ce, "not a well-formed LZ4 block of 718 bytes");
    corrupt(&s, ptx + 56, 0x20000, "cannot come from 457 bytes of LZ4");
    corrupt(&s, ptx + 16, 0x1c8, "not a well-formed LZ4 block");    /* the last byte left out */
    corrupt(&s, ptx + 80 + 1, 0x0000ff0a, "not a well-formed LZ4 block");   /* a distance before the start */
    corrupt(&s, ptx + 40, 0x8011, "not a zstd frame");

    /* The own fatbinary alone, ended 24 bytes into the LZ4 PTX, which is said to be 20 bytes:
     * its own sequence's 43 literals would run past both, and past the buffer. */
    size_t own = 16 + (size_t)(s.bytes[8] | s.bytes[9] << 8);
    size_t length = ptx - own + 80 + 24;
    uint8_t *cut = malloc(length);
    memcpy(cut, s.bytes + own, length);
    put32(cut + 8, (uint32_t)(length - 16));
    put32(cut + 8 + 4, 0);
    put32(cut + (ptx - own) + 8, 24);
    put32(cut + (ptx - own) + 16, 20);
    Msg err = { 0 };
    refused(fatbin_read(cut, length, &e, &err), &err, "not a well-formed LZ4 block");
    free(cut);
    free(s.bytes);

    Blob r = blob_load("rdc.fatbin");   /* its PTX has 16 bytes of options at 0x48 of a 0x60-byte header */
    e = read_ok(&r, "rdc");
    ptx = e.v[1].offset;
    fatbin_free(&e);
    corrupt(&r, ptx + 0x40, 0x51, "16 bytes of options at 81 are outside its 96-byte header");
    corrupt(&r, ptx + 0x40, 0xfffffff8, "16 bytes of options at 4294967288 are outside");
    corrupt(&r, ptx + 0x44, 0xffffffff, "4294967295 bytes of options at 72 are outside");
    free(r.bytes);
}
END_TEST

/* A small generator of its own, so that a failure repeats. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
    return *state;
}

START_TEST(random_mutations_never_crash)
{
    uint64_t state = 0x9E3779B97F4A7C15u;
    Msg err = { 0 };
    unsigned accepted = 0, refused_count = 0;
    for (size_t n = 0; n < sizeof every_blob / sizeof every_blob[0]; n++) {
        Blob b = blob_load(every_blob[n]);
        FatbinEntries e = read_ok(&b, every_blob[n]);
        for (int round = 0; round < 4000; round++) {
            uint8_t *bad = malloc(b.size);
            memcpy(bad, b.bytes, b.size);
            unsigned changes = 1 + (unsigned)(next_random(&state) % 4);
            for (unsigned c = 0; c < changes; c++) {
                /* Mostly in a header, where the lengths are; sometimes anywhere. */
                size_t at = next_random(&state) % 3 ? e.v[next_random(&state) % e.count].offset + next_random(&state) % 96
                                                    : next_random(&state) % b.size;
                at = at < b.size ? at : b.size - 1;
                uint64_t r = next_random(&state);
                bad[at] = r & 256 ? (uint8_t)r : bad[at] ^ (uint8_t)(1u << (r >> 9) % 8);
            }
            FatbinEntries m;
            if (fatbin_read(bad, b.size, &m, &err)) {
                for (size_t i = 0; i < m.count; i++) {
                    const FatbinEntry *x = &m.v[i];
                    bool inside = x->data >= bad && x->size <= b.size && x->data - bad <= (ptrdiff_t)(b.size - x->size);
                    ck_assert_msg(x->owned ? x->data == x->owned : inside, "an entry outside the bytes");
                }
                accepted++;
            } else {
                ck_assert_msg(err.text && m.count == 0, "refused without a message");
                refused_count++;
            }
            fatbin_free(&m);
            msg_free(&err);
            free(bad);
        }
        fatbin_free(&e);
        free(b.bytes);
    }
    ck_assert_uint_gt(accepted, 100);   /* a flipped byte in a payload or an unread field */
    ck_assert_uint_gt(refused_count, 1000);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fatbin");
    TCase *tc = tcase_create("nvcc 13's fatbinaries");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, entries_as_nvcc_was_asked);
    tcase_add_test(tc, best_ptx_as_the_driver_picks);
    tcase_add_test(tc, from_a_wrapper);
    tcase_add_test(tc, from_an_elf_file);
    suite_add_tcase(s, tc);
    TCase *bad = tcase_create("malformed");
    tcase_set_timeout(bad, 300);
    tcase_add_test(bad, every_cut_refused);
    tcase_add_test(bad, padding_between_fatbinaries);
    tcase_add_test(bad, corrupted_headers_refused);
    tcase_add_test(bad, random_mutations_never_crash);
    suite_add_tcase(s, bad);
    return run_suite(s);
}
