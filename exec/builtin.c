/* builtin.c: what the CUDA runtime supplies to a kernel without PTX for it. A module declares
 * vprintf (printf) and __assertfail (assert) .extern without a body; lower.c makes a call of
 * them a call site with a Builtin, and warp.c hands it here. The clock registers (%clock,
 * %clock64, %globaltimer, ...) are set here too, just before an instruction reads them.
 *
 * vprintf(fmt, args): fmt is the generic address of the format string, args that of a buffer
 * (nvcc's, in .local) holding the arguments one after another, each aligned to its size:
 * 4 bytes for %d %i %o %u %x %X %c and a '*' width (h and hh too: C promotes them to int),
 * 8 for l and ll (a 64-bit long), for %s and %p (addresses) and for every floating conversion
 * (C promotes float to double). As CUDA does, each conversion is formatted by the host's C
 * library (snprintf): CUDA's own runtime hands the format to the host's printf too. What
 * ptxrun does itself is what the device side does: walk the format, take each argument from
 * the buffer, read %s strings from the kernel's memory, stop taking arguments after 32.
 * Returns the number of arguments taken (-1 for a NULL format), in the call's result. A %hh
 * conversion is done as the H100 does it (tests/h100_more/printf_hh), with a warning: the
 * device side takes no argument for it (nor counts one), the host side prints it and every
 * later conversion with the next slot, past the arguments the format string's bytes.
 * Each call's text goes out whole through ExecOptions.print; lanes of a warp-step call in
 * lane order. A format ptxrun cannot print (%n, precision '*', other length modifiers) is a
 * fault, as is an address no region holds; an undefined value printed is a warning.
 *
 * __assertfail(message, file, line, function, charSize) prints CUDA's message for each lane
 * that calls it, "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `MESSAGE`
 * failed.", on the error stream, and the kernel is aborted (a fault: exit 3).
 *
 * cudaGraphSetConditional(handle, value) sets a CUDA graph's condition: ptxrun's libcudart makes
 * a handle the global address of the condition's 32-bit value, so the call stores value there,
 * as st.u32 would (a fault where no writable region holds 4 aligned bytes); lanes in lane order. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "family.h"

enum {
    MAX_PRINTF_ARGS = 32,      /* CUDA's printf takes at most 32 arguments after the format */
    MAX_FIELD = 1 << 16,       /* the widest field (width or precision) ptxrun prints */
};

Builtin builtin_named(const char *name)
{
    if (strcmp(name, "vprintf") == 0)
        return BUILTIN_VPRINTF;
    if (strcmp(name, "__assertfail") == 0)
        return BUILTIN_ASSERTFAIL;
    if (strcmp(name, "cudaGraphSetConditional") == 0)
        return BUILTIN_SETCONDITIONAL;
    return BUILTIN_NONE;
}

const uint8_t *builtin_params(Builtin f, uint8_t *result_size)
{
    static const uint8_t vprintf_params[] = { 8, 8, 0 };
    static const uint8_t assertfail_params[] = { 8, 8, 4, 8, 8, 0 };
    static const uint8_t setconditional_params[] = { 8, 4, 0 };
    *result_size = f == BUILTIN_VPRINTF ? 4 : 0;
    return f == BUILTIN_VPRINTF ? vprintf_params : f == BUILTIN_ASSERTFAIL ? assertfail_params : setconditional_params;
}

/* The clock registers count the warp-steps of every warp of the CTA since it began, the reading
 * instruction's included (docs/semantics.md): one counter for the CTA, as %clock64 is one for
 * the multiprocessor on a GPU, so a read after another warp's (a bar.sync between them) is never
 * smaller; the warps take turns in a fixed order, so it is the same in every run. */
void builtin_clock(Warp *w)
{
    static const int clocks[] = { SREG_CLOCK, SREG_CLOCK_HI, SREG_CLOCK64, SREG_GLOBALTIMER, SREG_GLOBALTIMER_LO,
                                  SREG_GLOBALTIMER_HI };
    uint64_t t = w->block->steps - w->block->cta_first_step;
    for (size_t i = 0; i < COUNT_OF(clocks); i++) {
        uint32_t row = w->prog->sreg_rows[clocks[i]][0];
        if (row == NO_SLOT)
            continue;
        int s = clocks[i];
        uint64_t v = s == SREG_CLOCK || s == SREG_GLOBALTIMER_LO ? (uint32_t)t
                     : s == SREG_CLOCK_HI || s == SREG_GLOBALTIMER_HI ? t >> 32 : t;
        for (int l = 0; l < WARP_SIZE; l++)
            w->val[row][l] = v;
        w->defined[row] = ALL_LANES;
    }
}

/* ---- one lane's call ---- */

typedef struct Text {
    char *data;
    size_t len, cap;
} Text;

static void text_add(Text *t, const char *s, size_t n)
{
    if (t->len + n + 1 > t->cap) {
        t->cap = (t->len + n + 1) * 2;
        t->data = xrealloc(t->data, t->cap);
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = '\0';
}

/* One conversion, formatted by the host's C library with the spec ptxrun built. */
static void text_format(Text *t, const char *spec, ...)
{
    va_list ap, again;
    va_start(ap, spec);
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, spec, ap);
    va_end(ap);
    if (n > 0) {
        if (t->len + (size_t)n + 1 > t->cap) {
            t->cap = (t->len + (size_t)n + 1) * 2;
            t->data = xrealloc(t->data, t->cap);
        }
        vsnprintf(t->data + t->len, (size_t)n + 1, spec, again);
        t->len += (size_t)n;
    }
    va_end(again);
}

typedef struct Call {
    Warp *w;
    uint32_t pc;
    int lane;
    uint32_t thread;           /* in the CTA */
    const CallSite *site;
    bool undefined;            /* a byte it printed was undefined */
    bool hh;                   /* an %hh conversion, which the H100 leaves out of the count */
} Call;

/* Parameter i of the call, as the caller's .param variable holds it. */
static uint64_t param(Call *c, unsigned i)
{
    Warp *w = c->w;
    uint32_t size = c->site->args[i].size < 8 ? c->site->args[i].size : 8;
    uint8_t *shadow;
    uint32_t at = warp_frame_base(w, c->site->caller, c->lane) + c->site->args[i].offset;
    const uint8_t *p = mem_thread_bytes(&w->block->mem, w->prog->local_region, c->thread, at, size, &shadow);
    if (!p)
        BUG("a call's parameter outside the stack");
    uint64_t v = 0;
    memcpy(&v, p, size);
    for (uint32_t k = 0; k < size; k++)
        c->undefined |= shadow[k] != 0xff;
    return v;
}

/* n bytes at a generic address; false after a fault naming what was read. */
static bool read_memory(Call *c, uint64_t address, void *out, size_t n, const char *what)
{
    uint64_t available;
    const uint8_t *shadow;
    const uint8_t *p = mem_peek(&c->w->block->mem, c->thread, address, &available, &shadow);
    if (!p || available < n) {
        report_fault(c->w, c->pc, "lane %d: %s: %zu bytes at 0x%llx, outside every region", c->lane, what, n,
                     (unsigned long long)address);
        return false;
    }
    memcpy(out, p, n);
    for (size_t k = 0; k < n; k++)
        c->undefined |= shadow[k] != 0xff;
    return true;
}

/* The NUL-terminated string at a generic address, at most limit bytes of it, onto out. */
static bool read_string(Call *c, uint64_t address, size_t limit, Text *out, const char *what)
{
    uint64_t available;
    const uint8_t *shadow;
    const uint8_t *p = mem_peek(&c->w->block->mem, c->thread, address, &available, &shadow);
    if (!p) {
        report_fault(c->w, c->pc, "lane %d: %s at 0x%llx, outside every region", c->lane, what,
                     (unsigned long long)address);
        return false;
    }
    size_t n = 0;
    while (n < available && n < limit && p[n])
        n++;
    if (n == available && n < limit) {
        report_fault(c->w, c->pc, "lane %d: %s at 0x%llx has no terminating NUL before its memory ends", c->lane, what,
                     (unsigned long long)address);
        return false;
    }
    for (size_t k = 0; k < n + (n < limit); k++)
        c->undefined |= shadow[k] != 0xff;
    text_add(out, (const char *)p, n);
    return true;
}

/* The next argument of `size` bytes from the buffer at args (aligned to its size). */
static bool next_argument(Call *c, uint64_t args, uint64_t *offset, unsigned size, uint64_t *v)
{
    if (!args) {
        report_fault(c->w, c->pc, "lane %d: vprintf's format asks for an argument, and it was given none", c->lane);
        return false;
    }
    *offset = (*offset + size - 1) & ~(uint64_t)(size - 1);
    *v = 0;
    if (!read_memory(c, args + *offset, v, size, "vprintf's argument"))
        return false;
    *offset += size;
    return true;
}

/* One conversion specification, %[flags][width][.precision][length]conversion, as parsed. */
typedef struct Spec {
    char flags[8];
    int width;                 /* -1: none; -2: '*' */
    int precision;             /* -1: none */
    char length[3];            /* "", "h", "hh", "l", "ll" */
    char conversion;
} Spec;

/* The decimal number at *q (MAX_FIELD + 1 for any larger one), *q moved past it. */
static int field_number(const char **q)
{
    int n = 0;
    for (; **q >= '0' && **q <= '9'; (*q)++)
        n = n > MAX_FIELD ? n : n * 10 + (**q - '0');
    return n > MAX_FIELD ? MAX_FIELD + 1 : n;
}

/* Parses the specification after a '%' at *p; false after a fault. */
static bool parse_spec(Call *c, const char **p, Spec *s)
{
    const char *q = *p;
    size_t nflags = 0;
    memset(s, 0, sizeof *s);
    s->width = s->precision = -1;
    for (; *q && strchr("-+ #0", *q); q++)
        if (!memchr(s->flags, *q, nflags))
            s->flags[nflags++] = *q;
    if (*q == '*') {
        s->width = -2;
        q++;
    } else if (*q >= '1' && *q <= '9') {
        s->width = field_number(&q);
    }
    if (*q == '.') {
        q++;
        s->precision = field_number(&q);
        if (*q == '*') {
            report_fault(c->w, c->pc, "lane %d: ptxrun cannot print a precision given by '*' (CUDA's printf "
                         "documents digits only)", c->lane);
            return false;
        }
    }
    if (s->width > MAX_FIELD || s->precision > MAX_FIELD) {
        report_fault(c->w, c->pc, "lane %d: ptxrun prints fields of at most %d characters", c->lane, MAX_FIELD);
        return false;
    }
    if (*q == 'h' || *q == 'l') {
        s->length[0] = *q++;
        if (*q == s->length[0])
            s->length[1] = *q++;
    }
    s->conversion = *q;
    const char *floating = "eEfFgGaA";
    bool ok = *q && strchr("diouxXcspeEfFgGaA", *q);
    if (ok && s->length[0] && strchr("csp", *q))
        ok = false;                          /* %lc, %ls: wide characters */
    if (ok && s->length[0] && strchr(floating, *q) && strcmp(s->length, "l") != 0)
        ok = false;                          /* %Lf, %hf */
    if (!ok) {
        report_fault(c->w, c->pc, "lane %d: ptxrun cannot print the conversion '%%%.*s'%s", c->lane,
                     (int)(q - *p + (*q != 0)), *p, *q == 'n' ? " (CUDA's printf has no %n)" : "");
        return false;
    }
    *p = q + 1;
    return true;
}

/* The host C library's spec for s, with width w (resolved from '*'). */
static void build_spec(const Spec *s, int width, char *out, size_t size)
{
    int n = snprintf(out, size, "%%%s", s->flags);
    if (width >= 0)
        n += snprintf(out + n, size - (size_t)n, "%d", width);
    if (s->precision >= 0)
        n += snprintf(out + n, size - (size_t)n, ".%d", s->precision);
    bool integer = strchr("diouxX", s->conversion) != NULL;
    if (integer && s->length[0])
        n += snprintf(out + n, size - (size_t)n, "%s", s->length[0] == 'l' ? "ll" : s->length);
    snprintf(out + n, size - (size_t)n, "%c", s->conversion);
}

/* One 8-byte slot of the record the device side makes of a call: an argument's value, of
 * which the low `size` bytes are known (the device wrote them). */
typedef struct Slot {
    uint64_t v;
    unsigned size;
} Slot;

/* The bytes the host side reads from a slot for s: 1 for hh, 2 for h, 8 for l, ll and
 * every 8-byte conversion, else 4. */
static unsigned host_size(const Spec *s)
{
    if (!strchr("dioxXuc", s->conversion) || s->length[0] == 'l')
        return 8;
    return strcmp(s->length, "hh") == 0 ? 1 : s->length[0] == 'h' ? 2 : 4;
}

/* Slot i as the host side reads it, `size` bytes: one of the device's n slots, or past them
 * the format string's bytes, 8 to a slot (the H100, tests/h100_more/printf_hh); false after
 * a fault where the bytes are none that ptxrun knows. */
static bool host_slot(Call *c, const Slot *slots, int n, const char *fmt, int i, unsigned size, uint64_t *v)
{
    *v = 0;
    if (i < n && size <= slots[i].size) {
        memcpy(v, &slots[i].v, size);
        return true;
    }
    size_t at = (size_t)(i - n) * 8;
    if (i >= n && at + size <= strlen(fmt)) {
        memcpy(v, fmt + at, size);
        return true;
    }
    report_fault(c->w, c->pc, "lane %d: printf with %%hh conversions: the H100 takes no argument for a %%hh "
                 "conversion on the device but one on the host, so a later conversion reads %s that ptxrun "
                 "does not know", c->lane, i < n ? "bytes beyond its argument's" : "past the format string");
    return false;
}

/* One conversion onto out, its width (if '*') and value from slots[*next...]; *shifted once a
 * %hh conversion has taken a slot the device side did not fill for it. False after a fault. */
static bool convert_one(Call *c, const Spec *s, const Slot *slots, int n, const char *fmt, int *next, bool *shifted,
                        Text *out)
{
    Spec spec = *s;
    uint64_t v;
    int width = s->width;
    if (width == -2) {
        if (!host_slot(c, slots, n, fmt, (*next)++, 4, &v))
            return false;
        width = (int32_t)v;
        if (width < 0) {                     /* C: a negative '*' width is '-' and its size */
            width = width == INT32_MIN ? MAX_FIELD + 1 : -width;
            size_t len = strlen(spec.flags);
            if (!memchr(spec.flags, '-', len))
                spec.flags[len] = '-';
        }
        if (width > MAX_FIELD) {
            report_fault(c->w, c->pc, "lane %d: ptxrun prints fields of at most %d characters", c->lane, MAX_FIELD);
            return false;
        }
    }
    char spec_text[48];
    build_spec(&spec, width, spec_text, sizeof spec_text);
    bool wide = s->length[0] == 'l';
    char k = s->conversion;
    if (*shifted && !strchr("diouxX", k)) {
        report_fault(c->w, c->pc, "lane %d: ptxrun cannot print a '%%%c' after a %%hh conversion: the H100 reads "
                     "it from another argument's slot or the format string, and what it prints then was not "
                     "recorded (a %%f printed 0.000000 where the bytes were no zero)", c->lane, k);
        return false;
    }
    *shifted |= strcmp(s->length, "hh") == 0;
    if (!host_slot(c, slots, n, fmt, (*next)++, host_size(s), &v))
        return false;
    if (k == 'd' || k == 'i' || k == 'c') {
        if (wide)
            text_format(out, spec_text, (long long)v);
        else
            text_format(out, spec_text, (int)(int32_t)(uint32_t)v);
    } else if (strchr("ouxX", k)) {
        if (wide)
            text_format(out, spec_text, (unsigned long long)v);
        else
            text_format(out, spec_text, (unsigned)(uint32_t)v);
    } else if (k == 'p') {
        text_format(out, spec_text, (void *)(uintptr_t)v);
    } else if (k == 's') {
        Text str = { 0 };
        size_t limit = s->precision >= 0 ? (size_t)s->precision : SIZE_MAX;
        if (!v)
            text_add(&str, limit >= 6 ? "(null)" : "", limit >= 6 ? 6 : 0);   /* as glibc prints NULL */
        else if (!read_string(c, v, limit, &str, "vprintf's %s string")) {
            free(str.data);
            return false;
        }
        text_format(out, spec_text, str.data ? str.data : "");
        free(str.data);
    } else {
        double d;
        memcpy(&d, &v, sizeof d);
        text_format(out, spec_text, d);
    }
    return true;
}

/* The device side of a call: each conversion's arguments from the buffer at args into slots
 * (at most MAX_PRINTF_ARGS), none for a %hh conversion, as the H100 takes none
 * (tests/h100_more/printf_hh); *hh set where there is one, *hh_unknown where the call has
 * one with something ptxrun has not seen recorded beside it. False after a fault. */
static bool device_side(Call *c, const char *fmt, uint64_t args, Slot *slots, int *n, bool *hh, bool *hh_unknown)
{
    uint64_t offset = 0;
    int taken = 0;
    for (const char *p = fmt; *p;) {
        if (*p != '%' || p[1] == '%') {
            p += *p != '%' ? strcspn(p, "%") : 2;
            continue;
        }
        p++;
        Spec s;
        if (!parse_spec(c, &p, &s))
            return false;
        int wanted = 1 + (s.width == -2);
        bool is_hh = strcmp(s.length, "hh") == 0;
        *hh |= is_hh;
        *hh_unknown |= s.width == -2 || s.conversion == 's' || taken + wanted > MAX_PRINTF_ARGS;
        if (taken + wanted > MAX_PRINTF_ARGS)
            continue;
        taken += wanted;
        if (is_hh)
            continue;
        if (s.width == -2) {
            if (!next_argument(c, args, &offset, 4, &slots[*n].v))
                return false;
            slots[(*n)++].size = 4;
        }
        unsigned size = strchr("dioxXuc", s.conversion) && s.length[0] != 'l' ? 4 : 8;
        if (!next_argument(c, args, &offset, size, &slots[*n].v))
            return false;
        slots[(*n)++].size = size;
    }
    return true;
}

/* The lane's vprintf: its text onto out, the number of arguments the device side took into
 * *count (-1: no format; none for %hh conversions, c->hh set). The host side then prints each
 * conversion with the next slot, as the H100's runtime does, a %hh one included: after a %hh
 * conversion each later one reads the slot meant for the one before, and past the last the
 * format string's bytes (tests/h100_more/printf_hh). */
static bool lane_vprintf(Call *c, Text *out, int *count)
{
    uint64_t fmt_address = param(c, 0), args = param(c, 1);
    *count = 0;
    if (!fmt_address) {
        *count = -1;
        return true;
    }
    Text fmt = { 0 };
    if (!read_string(c, fmt_address, SIZE_MAX, &fmt, "vprintf's format")) {
        free(fmt.data);
        return false;
    }
    text_add(&fmt, "", 0);
    Slot slots[MAX_PRINTF_ARGS];
    int n = 0, next = 0, taken = 0;
    bool hh_unknown = false, shifted = false;
    bool ok = device_side(c, fmt.data, args, slots, &n, &c->hh, &hh_unknown);
    if (ok && c->hh && hh_unknown) {
        report_fault(c->w, c->pc, "lane %d: ptxrun cannot print a printf with a %%hh conversion and a %%s, a '*' "
                     "width or over %d arguments: the H100 takes no argument for %%hh on the device and one on "
                     "the host, and what it prints then was not recorded", c->lane, MAX_PRINTF_ARGS);
        ok = false;
    }
    *count = n;
    for (const char *p = fmt.data; ok && *p;) {
        if (*p != '%' || p[1] == '%') {
            size_t len = *p == '%' ? 1 : strcspn(p, "%");
            text_add(out, p, len);
            p += *p == '%' ? 2 : len;
            continue;
        }
        const char *start = p++;
        Spec s;
        if (!(ok = parse_spec(c, &p, &s)))
            break;
        int wanted = 1 + (s.width == -2);
        if (taken + wanted > MAX_PRINTF_ARGS) {   /* CUDA: beyond 32, the spec as it is */
            text_add(out, start, (size_t)(p - start));
            continue;
        }
        taken += wanted;
        ok = convert_one(c, &s, slots, n, fmt.data, &next, &shifted, out);
    }
    free(fmt.data);
    return ok;
}

/* Writes the call's 32-bit result into the caller's .param variable. */
static void set_result(Call *c, int32_t value)
{
    if (!c->site->ret_count)
        return;
    Warp *w = c->w;
    uint32_t at = warp_frame_base(w, c->site->caller, c->lane) + c->site->rets[0].offset;
    uint32_t n = c->site->rets[0].size < 4 ? c->site->rets[0].size : 4;
    uint8_t *shadow;
    uint8_t *p = mem_thread_bytes(&w->block->mem, w->prog->local_region, c->thread, at, n, &shadow);
    if (!p)
        BUG("a call's result outside the stack");
    memcpy(p, &value, n);
    memset(shadow, 0xff, n);
    Region *local = &w->block->mem.regions[w->prog->local_region];
    if ((uint64_t)at + n > local->high)
        local->high = (uint64_t)at + n;
}

/* The lane's assertion message, as the CUDA runtime prints it. */
static bool lane_assert(Call *c, Text *out)
{
    Text message = { 0 }, file = { 0 }, function = { 0 };
    uint32_t line = (uint32_t)param(c, 2);
    bool ok = read_string(c, param(c, 0), SIZE_MAX, &message, "__assertfail's message") &&
              read_string(c, param(c, 1), SIZE_MAX, &file, "__assertfail's file name") &&
              read_string(c, param(c, 3), SIZE_MAX, &function, "__assertfail's function name");
    if (ok) {
        const Block *b = c->w->block;
        uint32_t t = c->thread;
        text_format(out, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
                    file.data ? file.data : "", line, function.data ? function.data : "", b->ctaid[0], b->ctaid[1],
                    b->ctaid[2], t % b->ntid[0], t / b->ntid[0] % b->ntid[1], t / (b->ntid[0] * b->ntid[1]),
                    message.data ? message.data : "");
    }
    free(message.data);
    free(file.data);
    free(function.data);
    return ok;
}

/* cudaGraphSetConditional: each lane's value stored at its handle; false after a fault. */
static bool set_conditional(Warp *w, uint32_t pc, uint32_t run, const CallSite *site)
{
    for (uint32_t k = run; k; k &= k - 1) {
        Call c = { w, pc, __builtin_ctz(k), w->thread_base + (uint32_t)__builtin_ctz(k), site, false, false };
        uint64_t handle = param(&c, 0);
        uint32_t value = (uint32_t)param(&c, 1);
        if (c.undefined)
            report_warn(w, pc, 1u << c.lane, "undefined handle or value given to cudaGraphSetConditional");
        uint8_t *shadow;
        uint8_t *p = mem_locate(w, &w->prog->code[pc], c.lane, handle, 4, true, &shadow);
        if (!p)
            return false;
        mem_put(&w->block->mem, p, shadow, value, ~0ull, 4);
    }
    return true;
}

void builtin_call(Warp *w, uint32_t pc, uint32_t run)
{
    const CallSite *site = &w->prog->calls[w->prog->code[pc].target];
    const ExecOptions *o = w->block->options;
    if (w->block->worker) {                  /* grid.c runs a kernel that prints one CTA at a time */
        w->block->abandoned = true;
        w->faulted = true;
        return;
    }
    if (site->builtin == BUILTIN_SETCONDITIONAL) {
        if (set_conditional(w, pc, run, site))
            warp_advance(w, run, pc + 1);
        return;
    }
    for (uint32_t k = run; k; k &= k - 1) {
        Call c = { w, pc, __builtin_ctz(k), w->thread_base + (uint32_t)__builtin_ctz(k), site, false, false };
        Text out = { 0 };
        int count = 0;
        bool ok = site->builtin == BUILTIN_VPRINTF ? lane_vprintf(&c, &out, &count) : lane_assert(&c, &out);
        if (ok && out.len && o && o->print)
            o->print(o->print_context, site->builtin == BUILTIN_VPRINTF ? PRINT_OUT : PRINT_ERR, out.data, out.len);
        free(out.data);
        if (!ok)
            return;
        if (c.undefined)
            report_warn(w, pc, 1u << c.lane, site->builtin == BUILTIN_VPRINTF ? "undefined value printed by vprintf"
                                                                              : "undefined value in __assertfail's message");
        if (c.hh)
            report_warn(w, pc, 1u << c.lane, "printf (vprintf) with an %hh conversion: C takes an argument for it, "
                        "the H100 takes none on the device and one on the host, so later conversions print the "
                        "argument before theirs, then the format string's bytes, and printf returns the count "
                        "without %hh conversions; ptxrun does as the H100 (tests/h100_more/printf_hh)");
        set_result(&c, count);
    }
    if (site->builtin == BUILTIN_ASSERTFAIL && run) {
        char lanes[200];
        report_lanes(w, lanes, sizeof lanes, run);
        report_fault(w, pc, "assertion failed in %s (__assertfail): the kernel is aborted", lanes);
        return;
    }
    warp_advance(w, run, pc + 1);
}
