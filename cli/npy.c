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

static const char python_space[] = " \t\n\r\f\v";   /* white space between a header's tokens */

static const char *skip_space(const char *p)
{
    return p + strspn(p, python_space);
}

/* Just after the Python string at p (in ' or ", a u prefix and backslash escapes allowed), or
 * NULL when p is no string or the string is not closed. */
static const char *string_end(const char *p)
{
    p += *p == 'u' || *p == 'U';
    char quote = *p;
    if (quote != '\'' && quote != '"')
        return NULL;
    for (p++; *p && *p != quote; p++)
        p += *p == '\\' && p[1];
    return *p ? p + 1 : NULL;
}

/* Where the header's value at p ends, white space left out: before the ',' or '}' after it
 * outside strings and brackets, or before the header's end. */
static const char *value_end(const char *p)
{
    const char *end = p;
    for (int depth = 0; *p && (depth > 0 || (*p != ',' && *p != '}'));) {
        const char *after = string_end(p);
        if (!after)
            depth += (*p == '(' || *p == '[' || *p == '{') - (*p == ')' || *p == ']' || *p == '}');
        p = after ? after : p + 1;
        end = strchr(python_space, p[-1]) ? end : p;
    }
    return end;
}

/* The length of the text at p to quote in a message: at most 24 bytes of its line, not the
 * spaces that pad it. */
static int shown(const char *p)
{
    size_t n = strcspn(p, "\n");
    n = n < 24 ? n : 24;
    while (n && p[n - 1] == ' ')
        n--;
    return (int)n;
}

/* A value of the header, as written. */
typedef struct Field {
    const char *at, *end;      /* at NULL: the key is absent */
} Field;

static bool field_is(Field f, const char *text)
{
    return (size_t)(f.end - f.at) == strlen(text) && !strncmp(f.at, text, strlen(text));
}

/* The type of the header's 'descr', or false with the reason: not one type (a record's list),
 * a kind or a size ptxrun has no type for, a byte order that is big-endian or not said. */
static bool dtype_read(const char *file, Field descr, int *type, Msg *err)
{
    static const char reads[] = "ptxrun reads <f2 <f4 <f8, <i1 <i2 <i4 <i8, <u1 <u2 <u4 <u8 ('|' for one byte)";
    if (string_end(descr.at) != descr.end) {
        msg_set(err, "%s: dtype %.*s is not one number type (a record of fields?): %s", file,
                (int)(descr.end - descr.at), descr.at, reads);
        return false;
    }
    const char *s = descr.at + (*descr.at == 'u' || *descr.at == 'U') + 1, *close = descr.end - 1;
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
        msg_set(err, "%s: dtype '%.*s' holds %s: %s", file, n, s, holds, reads);
    else if (kind >= close || !strchr("uif", *kind) || end != close)
        msg_set(err, "%s: dtype '%.*s' is not of the form <f4 (byte order, kind, size in bytes): %s",
                file, n, s, reads);
    else if (*type == TYPE_COUNT)
        msg_set(err, "%s: dtype '%.*s': no %s of %lu byte%s: %s", file, n, s,
                *kind == 'f' ? "float" : "integer", bytes, bytes == 1 ? "" : "s", reads);
    else if (order == '>' && bytes > 1)
        msg_set(err, "%s: dtype '%.*s' is big-endian: ptxrun reads little-endian .npy files only "
                "(numpy: a.astype(a.dtype.newbyteorder('<')))", file, n, s);
    else if (order != '<' && bytes > 1)
        msg_set(err, "%s: dtype '%.*s' does not say its byte order ('<': little-endian; '|' is for one "
                "byte): %s", file, n, s, reads);
    else
        return true;                       /* one byte: any byte order is the same */
    *type = TYPE_COUNT;
    return false;
}

/* The element count of the header's 'shape', a tuple of sizes in decimal: (), (6,), (2, 3)
 * (an L after a size, as Python 2 wrote them, in versions 1.0 and 2.0, as NumPy reads them);
 * *spread: how many sizes are above 1. False if it is not such a tuple or holds 2^40 elements
 * or more. */
static bool shape_read(Field shape, unsigned major, uint64_t *count, unsigned *spread)
{
    const char *close = shape.end - 1, *p = shape.at;
    if (shape.end - shape.at < 2 || *p != '(' || *close != ')')
        return false;
    unsigned sizes = 0;
    bool comma = false;
    *count = 1;
    *spread = 0;
    for (p = skip_space(p + 1); p < close; sizes++) {
        const char *digits = p + (*p == '+');
        size_t n = strspn(digits, "0123456789");
        unsigned long long size = n ? strtoull(digits, NULL, 10) : 0;
        if (!n || (n > 1 && *digits == '0') || (size && *count >= (1ull << 40) / size))
            return false;                  /* no size, a leading 0 (Python refuses it), too many */
        *count *= size;
        *spread += size > 1;
        p = digits + n;
        p = skip_space(p + (major < 3 && *p == 'L'));
        comma = *p == ',';
        if (comma)
            p = skip_space(p + 1);
        else if (p != close)
            return false;
    }
    return sizes != 1 || comma;            /* (6) is a number, not a tuple */
}

/* The values of the header's dictionary, as NumPy writes it (repr) and reads it (a Python
 * literal): {'descr': '<f4', 'fortran_order': False, 'shape': (6,), }, the keys in any order
 * and in either quotes, white space of any kind between the parts, a comment after. False (err
 * set) for another text, another key, which NumPy refuses, or a key given twice, of which
 * NumPy would take the last without a word. */
static bool header_fields(const char *header, const char *file, Field field[3], Msg *err)
{
    static const char *const keys[3] = { "descr", "fortran_order", "shape" };
    const char *p = skip_space(header);
    if (*p != '{') {
        msg_set(err, "%s: the .npy header is not a dictionary ('{'...): '%.*s'", file, shown(p), p);
        return false;
    }
    for (p = skip_space(p + 1); *p != '}';) {
        const char *key_end = string_end(p), *colon = key_end ? skip_space(key_end) : p;
        if (!*p || !key_end || *colon != ':') {
            msg_set(err, *p ? "%s: the .npy header has '%.*s' where a quoted key and ':' should be" :
                    "%s: the .npy header's dictionary has no '}' (truncated?)", file, shown(p), p);
            return false;
        }
        const char *key = p + (*p == 'u' || *p == 'U') + 1;
        int k = 0, len = (int)(key_end - 1 - key);
        while (k < 3 && !(strlen(keys[k]) == (size_t)len && !strncmp(key, keys[k], (size_t)len)))
            k++;
        if (k == 3 || field[k].at) {
            msg_set(err, k == 3 ? "%s: the .npy header has the key '%.*s' (NumPy allows only 'descr', "
                    "'fortran_order' and 'shape')" : "%s: the .npy header gives '%.*s' twice (NumPy would read the "
                    "last: remove the other)", file, len, key);
            return false;
        }
        field[k].at = skip_space(colon + 1);
        field[k].end = value_end(field[k].at);
        p = skip_space(field[k].end);
        p = *p == ',' ? skip_space(p + 1) : p;
    }
    p = skip_space(p + 1);
    if (*p && *p != '#') {
        msg_set(err, "%s: the .npy header has '%.*s' after its dictionary", file, shown(p), p);
        return false;
    }
    return true;
}

/* Reads the .npy header of f: the element type and count, and where the data starts. */
static bool npy_header(FILE *f, const char *file, int *type, uint64_t *count, long *data_at, Msg *err)
{
    unsigned char start[12];
    if (fread(start, 1, 10, f) != 10 || memcmp(start, "\x93NUMPY", 6) != 0) {
        msg_set(err, "%s: not a .npy file (no \\x93NUMPY magic)", file);
        return false;
    }
    unsigned major = start[6], length_bytes = major == 1 ? 2 : 4;
    if (major < 1 || major > 3 || (length_bytes == 4 && fread(start + 10, 1, 2, f) != 2)) {
        msg_set(err, "%s: .npy format version %u.%u (ptxrun reads 1.0, 2.0 and 3.0)", file, major, start[7]);
        return false;
    }
    uint32_t length = start[8] | (uint32_t)start[9] << 8;
    if (length_bytes == 4)
        length |= (uint32_t)start[10] << 16 | (uint32_t)start[11] << 24;
    if (length > (1u << 20)) {
        msg_set(err, "%s: a .npy header of %u bytes (truncated or not a .npy file)", file, length);
        return false;
    }
    char *header = xmalloc(length + 1);
    bool read = fread(header, 1, length, f) == length, ok = false, fortran = false;
    header[read ? length : 0] = '\0';
    Field field[3] = { { NULL, NULL }, { NULL, NULL }, { NULL, NULL } };
    const char *missing = NULL;
    unsigned spread = 0;
    *data_at = 8 + (long)length_bytes + (long)length;
    if (!read)
        msg_set(err, "%s: a truncated .npy header", file);
    else if (!header_fields(header, file, field, err))
        ;
    else if ((missing = !field[0].at ? "descr" : !field[1].at ? "fortran_order" : !field[2].at ? "shape" : NULL))
        msg_set(err, "%s: the .npy header has no '%s'", file, missing);
    else if (!dtype_read(file, field[0], type, err))
        ;
    else if (!(fortran = field_is(field[1], "True")) && !field_is(field[1], "False"))
        msg_set(err, "%s: the .npy header's fortran_order is '%.*s', not True or False", file,
                (int)(field[1].end - field[1].at), field[1].at);
    else if (!shape_read(field[2], major, count, &spread))
        msg_set(err, "%s: the .npy header's shape '%.*s' is not a tuple of decimal sizes such as (6,) or "
                "(2, 3) of fewer than 2^40 elements", file, (int)(field[2].end - field[2].at), field[2].at);
    else if (fortran && spread > 1)        /* at most one size above 1: the same bytes in either order */
        msg_set(err, "%s: Fortran order: ptxrun reads C-order .npy files only (numpy: np.ascontiguousarray)",
                file);
    else
        ok = true;
    free(header);
    return ok;
}

/* Reads the file's elements into dest (NULL: only says what the file holds; else *count is the
 * number of elements dest has room for, which the file must hold). A .npy file gives
 * its type; given_type (TYPE_COUNT: none) must be that type, or a .b type or bf16 of the same
 * width where the file holds integers (the bits as they are). A raw file needs given_type. */
bool npy_read(const char *path, int given_type, int *type, uint64_t *count, uint8_t *dest, Msg *err)
{
    FILE *f = fopen(path, "rb");
    int opened = errno;
    char *file = demangle_cut(path, strlen(path), PATH_SHOWN);      /* the file as messages name it */
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        msg_set(err, "cannot read '%s': %s", file, strerror(f ? EISDIR : opened));
        free(file);
        if (f)
            fclose(f);
        return false;
    }
    long data_at = 0;
    bool ok = true;
    uint64_t room = dest ? *count : 0;
    if (npy_named(path)) {
        ok = npy_header(f, file, type, count, &data_at, err);
        int t = *type;
        if (ok && given_type != TYPE_COUNT && given_type != t &&
            !(type_info[given_type].bits == type_info[t].bits && type_info[t].cls != 'f' &&
              (type_info[given_type].cls == 'b' || given_type == TYPE_BF16))) {
            msg_set(err, "%s: the file holds .%s values; \"type\" says %s", file, type_info[t].name,
                    type_info[given_type].name);
            ok = false;
        }
        if (ok && given_type != TYPE_COUNT)
            *type = given_type;
        if (ok && (uint64_t)st.st_size != (uint64_t)data_at + *count * (type_info[t].bits / 8)) {
            uint64_t has = (uint64_t)st.st_size > (uint64_t)data_at ? (uint64_t)st.st_size - (uint64_t)data_at : 0;
            uint64_t needs = *count * (type_info[t].bits / 8);
            msg_set(err, "%s: %llu bytes of data; the header's shape and dtype make %llu (%s)", file,
                    (unsigned long long)has, (unsigned long long)needs, has < needs ? "truncated?" : "more after them");
            ok = false;
        }
    } else if (given_type == TYPE_COUNT) {
        msg_set(err, "%s: raw binary data needs its \"type\" (or give a .npy file)", file);
        ok = false;
    } else {
        *type = given_type;
        unsigned size = type_info[given_type].bits / 8;
        *count = (uint64_t)st.st_size / size;
        if ((uint64_t)st.st_size % size) {
            msg_set(err, "%s: %llu bytes is not a whole number of .%s elements", file,
                    (unsigned long long)st.st_size, type_info[given_type].name);
            ok = false;
        }
    }
    if (ok && dest && *count != room) {      /* the file changed since the call that sized dest */
        msg_set(err, "%s: the file changed while ptxrun read it", file);
        ok = false;
    }
    uint64_t bytes = ok ? *count * (type_info[*type].bits / 8) : 0;
    if (ok && dest && (fseek(f, data_at, SEEK_SET) != 0 || fread(dest, 1, bytes, f) != bytes)) {
        msg_set(err, "cannot read '%s': %s", file, ferror(f) ? strerror(errno) : "it ended early");
        ok = false;
    }
    fclose(f);
    free(file);
    return ok;
}

/* DIR and the folders above it, as mkdir -p makes them; false unless DIR is a folder ptxrun can
 * write in (said before the run, and again after it). */
bool npy_save_folder(const char *dir, Msg *err)
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
            msg_set(err, "--save-buffers %s: cannot make the folder '%s': %s", shown, part, strerror(why));
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
        msg_set(err, "--save-buffers %s: not a folder", shown);
        free(shown);
        goto out;
    }
    if (access(path, W_OK | X_OK) != 0) {
        int why = errno;
        char *shown = demangle_cut(dir, strlen(dir), PATH_SHOWN);
        msg_set(err, "--save-buffers %s: cannot write in the folder: %s", shown, strerror(why));
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
static long long save_buffer(const Region *r, uint32_t index, const char *dir, Msg *err)
{
    unsigned size = type_info[r->type].bits / 8;
    char descr[8], header[128];
    char cls = type_info[r->type].cls == 'f' && r->type != TYPE_BF16 ? 'f' : type_info[r->type].cls == 's' ? 'i' : 'u';
    snprintf(descr, sizeof descr, "%c%c%u", size == 1 ? '|' : '<', cls, size);
    if (strchr(r->name, '/') || r->name[0] == '.') {
        char *shown = demangle_cut(r->name, strlen(r->name), DEMANGLE_SHOWN);
        msg_set(err, "--save-buffers: buffer '%s': its name cannot be a file name", shown);
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
        msg_set(err, "--save-buffers: cannot write '%s': %s", shown, strerror(errno));
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
        msg_set(err, "--save-buffers: cannot write '%s': %s (nothing left there)", shown, strerror(saved));
        undefined = -1;
        goto out;
    }
    if (rename(temp, path) != 0) {
        saved = errno;
        unlink(temp);
        msg_set(err, "--save-buffers: cannot write '%s': %s", shown, strerror(saved));
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
bool npy_save_buffers(const Block *b, const char *dir, bool warnings, FILE *err_out, Msg *err)
{
    if (!npy_save_folder(dir, err))
        return false;
    for (uint32_t k = 0; k < b->mem.count; k++) {
        const Region *r = &b->mem.regions[k];
        if (!r->is_buffer)
            continue;
        long long undefined = save_buffer(r, k, dir, err);
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
