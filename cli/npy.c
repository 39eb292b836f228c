/* npy.c: buffers as binary files. Reads a buffer's data from a NumPy .npy file (format versions
 * 1.0, 2.0 and 3.0; little-endian, C order, the dtypes of the buffer types; any shape, flattened)
 * or from raw binary of a given type; --save-buffers writes each final buffer as DIR/NAME.npy
 * (version 1.0, shape (count,)): each to a temporary name in DIR, renamed when it is whole, so
 * that a full disk leaves no partial file. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

/* The types a buffer may have: whole bytes, at most 64 bits, floats f16, bf16, f32, f64. */
bool npy_buffer_type_ok(int type)
{
    if (type < 0 || type >= TYPE_COUNT || type == TYPE_PRED || type_packed(type) || type_info[type].bits % 8 ||
        type_info[type].bits > 64 || type_info[type].bits < 8)
        return false;
    char cls = type_info[type].cls;
    if (cls == 'f')
        return type == TYPE_F16 || type == TYPE_BF16 || type == TYPE_F32 || type == TYPE_F64;
    return cls == 'u' || cls == 's' || cls == 'b';
}

bool npy_named(const char *file)
{
    size_t n = strlen(file);
    return n > 4 && !strcmp(file + n - 4, ".npy");
}

/* The type of a dtype such as "<f4" ('|' for one byte), or TYPE_COUNT. */
static int dtype_type(char kind, unsigned long bytes)
{
    static const char *const names[3][4] = { { "u8", "u16", "u32", "u64" }, { "s8", "s16", "s32", "s64" },
                                             { NULL, "f16", "f32", "f64" } };
    int row = kind == 'u' ? 0 : kind == 'i' ? 1 : kind == 'f' ? 2 : -1;
    int column = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : bytes == 8 ? 3 : -1;
    if (row < 0 || column < 0 || !names[row][column])
        return TYPE_COUNT;
    return type_lookup(names[row][column], strlen(names[row][column]));
}

/* Where the header's value at p ends: the ',' or '}' after it, outside quotes and brackets (its
 * NUL when it has none). */
static const char *value_end(const char *p)
{
    for (int depth = 0; *p && (depth > 0 || (*p != ',' && *p != '}')); p++) {
        const char *quote_end = *p == '\'' || *p == '"' ? strchr(p + 1, *p) : p;
        if (!quote_end)
            return p + strlen(p);
        p = quote_end;
        depth += (*p == '(' || *p == '[' || *p == '{') - (*p == ')' || *p == ']' || *p == '}');
    }
    return p;
}

/* The type of the header's 'descr' (its value, from its quote on), or false with the reason:
 * not one type (a record's list), a kind or a size ptxrun has no type for, a byte order that
 * is big-endian or not said. */
static bool dtype_read(const char *file, const char *descr, int *type, char *err, size_t errlen)
{
    static const char reads[] = "ptxrun reads <f2 <f4 <f8, <i1 <i2 <i4 <i8, <u1 <u2 <u4 <u8 ('|' for one byte)";
    const char *s = descr + 1, *close = *descr == '\'' || *descr == '"' ? strchr(s, *descr) : NULL;
    if (!close) {
        snprintf(err, errlen, "%s: dtype %.*s is not one number type (a record of fields?): %s", file,
                 (int)(value_end(descr) - descr), descr, reads);
        return false;
    }
    int n = (int)(close - s);
    char order = *s && strchr("<>|=", *s) ? *s : 0;
    const char *kind = order ? s + 1 : s;
    char *end = (char *)kind;
    unsigned long bytes = kind < close && kind[1] >= '0' && kind[1] <= '9' ? strtoul(kind + 1, &end, 10) : 0;
    *type = end == close ? dtype_type(*kind, bytes) : TYPE_COUNT;
    static const char *const kinds[][2] = { { "b", "booleans" }, { "c", "complex numbers" }, { "S", "byte strings" },
        { "a", "byte strings" }, { "U", "Unicode strings" }, { "O", "Python objects" }, { "V", "raw bytes (void)" },
        { "M", "datetimes" }, { "m", "timedeltas" } };
    const char *holds = NULL;
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds && kind < close; k++)
        if (*kind == kinds[k][0][0])
            holds = kinds[k][1];
    if (holds)
        snprintf(err, errlen, "%s: dtype '%.*s' holds %s: %s", file, n, s, holds, reads);
    else if (kind >= close || !strchr("uif", *kind) || end != close)
        snprintf(err, errlen, "%s: dtype '%.*s' is not of the form <f4 (byte order, kind, size in bytes): %s",
                 file, n, s, reads);
    else if (*type == TYPE_COUNT)
        snprintf(err, errlen, "%s: dtype '%.*s': no %s of %lu byte%s: %s", file, n, s,
                 *kind == 'f' ? "float" : "integer", bytes, bytes == 1 ? "" : "s", reads);
    else if (order == '>' && bytes > 1)
        snprintf(err, errlen, "%s: dtype '%.*s' is big-endian: ptxrun reads little-endian .npy files only "
                 "(numpy: a.astype(a.dtype.newbyteorder('<')))", file, n, s);
    else if (order != '<' && bytes > 1)
        snprintf(err, errlen, "%s: dtype '%.*s' does not say its byte order ('<': little-endian; '|' is for one "
                 "byte): %s", file, n, s, reads);
    else
        return true;                       /* one byte: any byte order is the same */
    *type = TYPE_COUNT;
    return false;
}

/* The values of the header's keys 'descr', 'fortran_order' and 'shape', each after its "key:"
 * and spaces (NULL: absent). False (err set) for another key, which NumPy refuses, or a key
 * given twice, of which NumPy would take the last without a word. */
static bool header_fields(const char *header, const char *file, const char *value[3], char *err, size_t errlen)
{
    static const char *const keys[3] = { "descr", "fortran_order", "shape" };
    const char *p = header + strspn(header, " ");
    value[0] = value[1] = value[2] = NULL;
    if (*p++ != '{')
        return true;                       /* the caller says what is missing */
    for (;;) {
        p += strspn(p, " \t\n");
        const char *key = p + 1, *key_end = *p == '\'' || *p == '"' ? strchr(key, *p) : NULL;
        if (!key_end)
            return true;                   /* '}', or a dictionary the caller finds wanting */
        p = key_end + 1 + strspn(key_end + 1, " ");
        if (*p++ != ':')
            return true;
        p += strspn(p, " ");
        int k = 0, len = (int)(key_end - key);
        while (k < 3 && !(strlen(keys[k]) == (size_t)len && !strncmp(key, keys[k], (size_t)len)))
            k++;
        if (k == 3 || value[k]) {
            snprintf(err, errlen, k == 3 ? "%s: the .npy header has the key '%.*s' (NumPy allows only 'descr', "
                     "'fortran_order' and 'shape')" : "%s: the .npy header gives '%.*s' twice (NumPy would read the "
                     "last: remove the other)", file, len, key);
            return false;
        }
        value[k] = p;
        p = value_end(p);
        if (*p++ != ',')
            return true;
    }
}

/* Reads the .npy header of f: the element type and count, and where the data starts. */
static bool npy_header(FILE *f, const char *file, int *type, uint64_t *count, long *data_at, char *err, size_t errlen)
{
    unsigned char start[12];
    if (fread(start, 1, 10, f) != 10 || memcmp(start, "\x93NUMPY", 6) != 0) {
        snprintf(err, errlen, "%s: not a .npy file (no \\x93NUMPY magic)", file);
        return false;
    }
    unsigned major = start[6], length_bytes = major == 1 ? 2 : 4;
    if (major < 1 || major > 3 || (length_bytes == 4 && fread(start + 10, 1, 2, f) != 2)) {
        snprintf(err, errlen, "%s: .npy format version %u.%u (ptxrun reads 1.0, 2.0 and 3.0)", file, major, start[7]);
        return false;
    }
    uint32_t length = start[8] | (uint32_t)start[9] << 8;
    if (length_bytes == 4)
        length |= (uint32_t)start[10] << 16 | (uint32_t)start[11] << 24;
    if (length > (1u << 20)) {
        snprintf(err, errlen, "%s: a .npy header of %u bytes (truncated or not a .npy file)", file, length);
        return false;
    }
    char *header = xmalloc(length + 1);
    bool ok = fread(header, 1, length, f) == length;
    header[ok ? length : 0] = '\0';
    const char *field[3] = { NULL, NULL, NULL };
    if (ok && !header_fields(header, file, field, err, errlen)) {
        free(header);
        return false;
    }
    const char *descr = field[0], *order = field[1], *shape = field[2];
    if (!ok || !descr || !order || !shape || *shape != '(') {
        snprintf(err, errlen, "%s: a truncated .npy header, or one without 'descr', 'fortran_order' and 'shape'", file);
        free(header);
        return false;
    }
    *data_at = 8 + (long)length_bytes + (long)length;
    if (!dtype_read(file, descr, type, err, errlen)) {
        ok = false;
    } else if (strncmp(order, "False", 5) != 0) {
        snprintf(err, errlen, "%s: Fortran order: ptxrun reads C-order .npy files only (numpy: np.ascontiguousarray)",
                 file);
        ok = false;
    }
    *count = 1;
    for (const char *p = shape + 1; ok && *p != ')'; ) {
        char *end;
        unsigned long long n = strtoull(p, &end, 10);
        if (end == p || (n && *count > (1ull << 40) / n)) {     /* the product stays below 2^40: no wrap */
            snprintf(err, errlen, "%s: the .npy header's shape is not a tuple of sizes (of at most 2^40 elements)", file);
            ok = false;
            break;
        }
        *count *= n;
        for (p = end; *p == ',' || *p == ' '; p++)
            ;
    }
    free(header);
    return ok;
}

/* Reads the file's elements into dest (NULL: only says what the file holds; else *count is the
 * number of elements dest has room for, which the file must hold). A .npy file gives
 * its type; given_type (TYPE_COUNT: none) must be that type, or a .b type or bf16 of the same
 * width where the file holds integers (the bits as they are). A raw file needs given_type. */
bool npy_read(const char *path, int given_type, int *type, uint64_t *count, uint8_t *dest, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    int opened = errno;
    char *file = demangle_cut(path, strlen(path), PATH_SHOWN);      /* the file as messages name it */
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "cannot read '%s': %s", file, strerror(f ? EISDIR : opened));
        free(file);
        if (f)
            fclose(f);
        return false;
    }
    long data_at = 0;
    bool ok = true;
    uint64_t room = dest ? *count : 0;
    if (npy_named(path)) {
        ok = npy_header(f, file, type, count, &data_at, err, errlen);
        int t = *type;
        if (ok && given_type != TYPE_COUNT && given_type != t &&
            !(type_info[given_type].bits == type_info[t].bits && type_info[t].cls != 'f' &&
              (type_info[given_type].cls == 'b' || given_type == TYPE_BF16))) {
            snprintf(err, errlen, "%s: the file holds .%s values; \"type\" says %s", file, type_info[t].name,
                     type_info[given_type].name);
            ok = false;
        }
        if (ok && given_type != TYPE_COUNT)
            *type = given_type;
        if (ok && (uint64_t)st.st_size != (uint64_t)data_at + *count * (type_info[t].bits / 8)) {
            snprintf(err, errlen, "%s: %llu bytes of data; the header's shape and dtype make %llu (truncated?)", file,
                     (unsigned long long)((uint64_t)st.st_size > (uint64_t)data_at ? st.st_size - data_at : 0),
                     (unsigned long long)(*count * (type_info[t].bits / 8)));
            ok = false;
        }
    } else if (given_type == TYPE_COUNT) {
        snprintf(err, errlen, "%s: raw binary data needs its \"type\" (or give a .npy file)", file);
        ok = false;
    } else {
        *type = given_type;
        unsigned size = type_info[given_type].bits / 8;
        *count = (uint64_t)st.st_size / size;
        if ((uint64_t)st.st_size % size) {
            snprintf(err, errlen, "%s: %llu bytes is not a whole number of .%s elements", file,
                     (unsigned long long)st.st_size, type_info[given_type].name);
            ok = false;
        }
    }
    if (ok && dest && *count != room) {      /* the file changed since the call that sized dest */
        snprintf(err, errlen, "%s: the file changed while ptxrun read it", file);
        ok = false;
    }
    uint64_t bytes = ok ? *count * (type_info[*type].bits / 8) : 0;
    if (ok && dest && (fseek(f, data_at, SEEK_SET) != 0 || fread(dest, 1, bytes, f) != bytes)) {
        snprintf(err, errlen, "cannot read '%s': %s", file, ferror(f) ? strerror(errno) : "it ended early");
        ok = false;
    }
    fclose(f);
    free(file);
    return ok;
}

/* DIR and the folders above it, as mkdir -p makes them; false unless DIR is a folder ptxrun can
 * write in (said before the run, and again after it). */
bool npy_save_folder(const char *dir, char *err, size_t errlen)
{
    char *path = memcpy(xmalloc(strlen(dir) + 1), dir, strlen(dir) + 1);   /* whole: never a folder cut short */
    struct stat st;
    bool ok = false;
    for (char *p = path + 1; ; p++) {
        if (*p != '/' && *p)
            continue;
        char c = *p;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            int why = errno;
            char *shown = demangle_cut(dir, strlen(dir), PATH_SHOWN), *part = demangle_cut(path, strlen(path), PATH_SHOWN);
            snprintf(err, errlen, "--save-buffers %s: cannot make the folder '%s': %s", shown, part, strerror(why));
            free(shown);
            free(part);
            goto out;
        }
        *p = c;
        if (!c)
            break;
    }
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char *shown = demangle_cut(dir, strlen(dir), PATH_SHOWN);
        snprintf(err, errlen, "--save-buffers %s: not a folder", shown);
        free(shown);
        goto out;
    }
    if (access(path, W_OK | X_OK) != 0) {
        int why = errno;
        char *shown = demangle_cut(dir, strlen(dir), PATH_SHOWN);
        snprintf(err, errlen, "--save-buffers %s: cannot write in the folder: %s", shown, strerror(why));
        free(shown);
        goto out;
    }
    ok = true;
out:
    free(path);
    return ok;
}

/* One buffer as DIR/NAME.npy. Undefined bits are written as 0; returns the count of elements that
 * had some, or -1 (err set). */
static long long save_buffer(const Region *r, uint32_t index, const char *dir, char *err, size_t errlen)
{
    unsigned size = type_info[r->type].bits / 8;
    char descr[8], header[128];
    char cls = type_info[r->type].cls == 'f' && r->type != TYPE_BF16 ? 'f' : type_info[r->type].cls == 's' ? 'i' : 'u';
    snprintf(descr, sizeof descr, "%c%c%u", size == 1 ? '|' : '<', cls, size);
    if (strchr(r->name, '/') || r->name[0] == '.') {
        char *shown = demangle_cut(r->name, strlen(r->name), DEMANGLE_SHOWN);
        snprintf(err, errlen, "--save-buffers: buffer '%s': its name cannot be a file name", shown);
        free(shown);
        return -1;
    }
    size_t room = strlen(dir) + strlen(r->name) + 40;    /* DIR/NAME.npy and the temporary, whole */
    char *path = xmalloc(room), *temp = xmalloc(room);
    long long undefined;
    snprintf(path, room, "%s/%s.npy", dir, r->name);
    char *shown = demangle_cut(path, strlen(path), PATH_SHOWN);      /* the file as messages name it */
    uint64_t count = r->size / size;
    /* NumPy's version 1.0 layout: magic, version, header length, the dictionary, spaces to make the
     * data start at a multiple of 64 bytes, a newline. */
    int len = snprintf(header, sizeof header, "{'descr': '%s', 'fortran_order': False, 'shape': (%llu,), }", descr,
                       (unsigned long long)count);
    int total = (10 + len + 1 + 63) / 64 * 64;
    /* The temporary's name does not grow with the buffer's: a name of 250 bytes fits NAME.npy, not
     * a longer temporary (ENAMETOOLONG). */
    snprintf(temp, room, "%s/.ptxrun-%ld-%u.npy.tmp", dir, (long)getpid(), index);
    int fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
    FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");
    if (!f) {
        snprintf(err, errlen, "--save-buffers: cannot write '%s': %s", shown, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(temp);
        }
        undefined = -1;
        goto out;
    }
    fwrite("\x93NUMPY\x01\x00", 1, 8, f);
    fputc((total - 10) & 0xff, f);
    fputc((total - 10) >> 8, f);
    fprintf(f, "%s%*s\n", header, total - 10 - len - 1, "");
    undefined = 0;
    uint8_t element[8];
    for (uint64_t i = 0; i < count; i++) {
        bool whole = true;
        for (unsigned k = 0; k < size; k++) {
            uint8_t defined = r->shadow ? r->shadow[i * size + k] : 0xff;      /* NULL: all defined */
            element[k] = r->data[i * size + k] & defined;
            whole = whole && defined == 0xff;
        }
        undefined += !whole;
        fwrite(element, 1, size, f);
    }
    bool failed = fflush(f) != 0 || ferror(f);
    int saved = errno;
    if (fclose(f) != 0 && !failed) {
        failed = true;
        saved = errno;
    }
    if (failed) {
        unlink(temp);                          /* no partial file is left */
        snprintf(err, errlen, "--save-buffers: cannot write '%s': %s (nothing left there)", shown, strerror(saved));
        undefined = -1;
        goto out;
    }
    if (rename(temp, path) != 0) {
        saved = errno;
        unlink(temp);
        snprintf(err, errlen, "--save-buffers: cannot write '%s': %s", shown, strerror(saved));
        undefined = -1;
        goto out;
    }
out:
    free(path);
    free(temp);
    free(shown);
    return undefined;
}

/* --save-buffers DIR: every buffer of the lanes file as DIR/NAME.npy, with notes (bf16 as its
 * bits) and warnings (undefined elements written as 0) on err_out. */
bool npy_save_buffers(const Block *b, const char *dir, bool warnings, FILE *err_out, char *err, size_t errlen)
{
    if (!npy_save_folder(dir, err, errlen))
        return false;
    for (uint32_t k = 0; k < b->mem.count; k++) {
        const Region *r = &b->mem.regions[k];
        if (!r->is_buffer)
            continue;
        long long undefined = save_buffer(r, k, dir, err, errlen);
        if (undefined < 0)
            return false;
        if (r->type == TYPE_BF16)
            fprintf(err_out, "ptxrun: note: --save-buffers: %s/%s.npy holds buffer '%s''s bf16 values as their bits "
                    "(<u2: NumPy has no bf16 type)\n", dir, r->name, r->name);
        if (undefined && warnings)
            fprintf(err_out, "ptxrun: warning: --save-buffers: buffer '%s' has %lld undefined element%s; "
                    "%s/%s.npy holds 0 in their undefined bits\n", r->name, undefined, undefined == 1 ? "" : "s",
                    dir, r->name);
    }
    return true;
}
