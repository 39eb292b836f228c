/* call.c: call and ret, lane by lane. A call pushes a frame for the callee on the lane's .local
 * stack (its bytes undefined), copies the arguments into it and sets the callee's frame rows; a
 * recursive call first saves the outer activation's registers. ret copies the results back,
 * makes the frame's bytes undefined again and pops it; ret from the kernel ends the lane. Each
 * call costs the callee's .local bytes and a return address of the --stack bytes.
 * stacksave, stackrestore and alloca work on the stack pointer of the PTX ISA's alloca, which
 * grows down (from MEM_ALLOCA_TOP, in a .local region of its own beside the frames): alloca
 * takes bytes below it and gives their lowest address, which stacksave then reads, until
 * stackrestore or the activation's ret gives them back. Both count against --stack. */
#include <stdlib.h>
#include <string.h>

#include "block.h"

/* Copies n bytes of one lane's .local stack, from one address to another. */
static void copy_local(Warp *w, int lane, uint32_t from, uint32_t to, uint32_t n)
{
    uint32_t thread = w->thread_base + (uint32_t)lane;
    uint8_t *sa, *sb;
    uint8_t *a = mem_thread_bytes(&w->block->mem, w->prog->local_region, thread, from, n, &sa);
    uint8_t *b = mem_thread_bytes(&w->block->mem, w->prog->local_region, thread, to, n, &sb);
    if (!a || !b)
        BUG("a call's parameter outside the stack");
    memmove(b, a, n);
    memmove(sb, sa, n);
    Region *local = &w->block->mem.regions[w->prog->local_region];
    if ((uint64_t)to + n > local->high)
        local->high = (uint64_t)to + n;
}

/* Recursion: registers belong to the function, not the call, so entering a function the lane
 * is already in saves the outer activation's registers, predicates and frame addresses, and
 * returning restores them. The frames themselves are apart on the stack. */
static void save_bytes(SaveArea *s, const void *p, size_t n)
{
    if (s->len + n > s->cap) {
        s->cap = (s->len + n) * 2;
        s->data = xrealloc(s->data, s->cap);
    }
    memcpy(s->data + s->len, p, n);
    s->len += n;
}

/* A lane's value and its defined bits. */
static void save_row(SaveArea *s, const Warp *w, uint32_t row, int l)
{
    uint64_t v = w->val[row][l], d = warp_dbits(w, row, l);
    save_bytes(s, &v, sizeof v);
    save_bytes(s, &d, sizeof d);
}

static const uint8_t *restore_row(Warp *w, uint32_t row, int l, const uint8_t *p)
{
    uint64_t d;
    memcpy(&w->val[row][l], p, 8);
    memcpy(&d, p + 8, 8);
    warp_define_bits(w, row, l, d, 64);          /* partly defined bits were saved within the width */
    return p + 16;
}

static void save_activation(Warp *w, const FuncLayout *f, int l)
{
    SaveArea *s = &w->saves[l];
    for (uint32_t r = 0; r < f->fn->regs.len; r++)
        save_row(s, w, f->row_base + r, l);
    for (uint32_t r = 0; f->frame_row != NO_SLOT && r <= f->frame_vars; r++)
        save_row(s, w, f->frame_row + r, l);
    for (uint32_t p = 0; p < f->fn->preds.len; p++) {
        uint8_t bits = (uint8_t)((w->pred[f->pred_base + p] >> l & 1) | (w->pred_defined[f->pred_base + p] >> l & 1) << 1);
        save_bytes(s, &bits, 1);
    }
}

static void restore_activation(Warp *w, const FuncLayout *f, int l, size_t at)
{
    SaveArea *s = &w->saves[l];
    const uint8_t *p = s->data + at;
    uint32_t bit = 1u << l;
    for (uint32_t r = 0; r < f->fn->regs.len; r++)
        p = restore_row(w, f->row_base + r, l, p);
    for (uint32_t r = 0; f->frame_row != NO_SLOT && r <= f->frame_vars; r++)
        p = restore_row(w, f->frame_row + r, l, p);
    for (uint32_t q = 0; q < f->fn->preds.len; q++, p++) {
        uint32_t slot = f->pred_base + q;
        w->pred[slot] = (*p & 1) ? w->pred[slot] | bit : w->pred[slot] & ~bit;
        w->pred_defined[slot] = (*p & 2) ? w->pred_defined[slot] | bit : w->pred_defined[slot] & ~bit;
    }
    s->len = at;
}

/* A new frame for lane l at the end of its stack: its bytes undefined (a GPU's stack holds
 * what earlier calls left), its address and its variables' in the function's frame rows.
 * False after a fault: the stack (--stack bytes beyond the kernel's frame) is full. */
static bool push_frame(Warp *w, uint32_t pc, uint32_t callee, int l, uint32_t *base)
{
    const FuncLayout *f = &w->prog->funcs[callee];
    const Region *local = &w->block->mem.regions[w->prog->local_region];
    uint32_t at = (w->sp[l] + f->frame_align - 1) & ~(f->frame_align - 1);
    if ((uint64_t)w->charged[l] + f->charge > w->prog->stack_bytes) {
        report_fault(w, pc, "lane %d: the stack overflows: calling '%s' (%u bytes of .local and return address) "
                   "at depth %u needs %llu bytes of stack; each thread has %u (--stack)", l, f->fn->name,
                   f->charge, w->depth[l] + 1, (unsigned long long)w->charged[l] + f->charge, w->prog->stack_bytes);
        return false;
    }
    uint64_t end = (uint64_t)at + f->frame_size;
    if (end > local->size && !mem_grow_per_lane(&w->block->mem, w->prog->local_region, end > 2 * local->size ? end : 2 * local->size) &&
        !mem_grow_per_lane(&w->block->mem, w->prog->local_region, end)) {
        report_fault(w, pc, "lane %d: calling '%s' at depth %u, the threads' stacks together need more than the %d MiB "
                   "ptxrun holds for one variable", l, f->fn->name, w->depth[l] + 1, MAX_VARIABLE_BYTES >> 20);
        return false;
    }
    uint8_t *shadow;
    if (mem_thread_bytes(&w->block->mem, w->prog->local_region, w->thread_base + (uint32_t)l, at, f->frame_size, &shadow))
        memset(shadow, 0, f->frame_size);
    if (w->depth[l] == w->stack_cap[l]) {
        w->stack_cap[l] = w->stack_cap[l] ? 2 * w->stack_cap[l] : 8;
        w->stack[l] = xrealloc(w->stack[l], w->stack_cap[l] * sizeof *w->stack[l]);
        w->stacks_made |= 1u << l;
    }
    *base = at;
    w->sp[l] = (uint32_t)end;
    w->charged[l] += f->charge;
    return true;
}

static void set_frame_rows(Warp *w, const FuncLayout *f, int l, uint32_t base)
{
    uint32_t bit = 1u << l;
    w->val[f->frame_row][l] = base;
    w->defined[f->frame_row] |= bit;
    for (uint32_t i = 0; i < f->frame_vars; i++) {
        w->val[f->frame_row + 1 + i][l] = base + f->var_offset[i];
        w->defined[f->frame_row + 1 + i] |= bit;
    }
}

/* Parameters passed in registers: one lane's values (and defined bits) of every row passed,
 * all read before any is written (f(b, a) in f(a, b) itself). */
typedef struct RegValues {
    uint64_t val[MAX_CALL_PARAMS][4], bits[MAX_CALL_PARAMS][4];
} RegValues;

static void read_registers(const Warp *w, int l, const RegPass *pass, unsigned n, RegValues *v)
{
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < pass[i].count; j++) {
            uint32_t from = pass[i].from[j];
            if (pass[i].pred) {
                v->val[i][j] = w->pred[from] >> l & 1;
                v->bits[i][j] = (w->pred_defined[from] >> l & 1) ? ~UINT64_C(0) : 0;
            } else {
                v->val[i][j] = w->val[from][l];
                v->bits[i][j] = warp_dbits(w, from, l);
            }
        }
}

static void write_registers(Warp *w, int l, const RegPass *pass, unsigned n, const RegValues *v)
{
    uint32_t bit = 1u << l;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < pass[i].count; j++) {
            uint32_t to = pass[i].to[j];
            if (pass[i].pred) {
                w->pred[to] = v->val[i][j] ? w->pred[to] | bit : w->pred[to] & ~bit;
                w->pred_defined[to] = v->bits[i][j] ? w->pred_defined[to] | bit : w->pred_defined[to] & ~bit;
            } else {
                w->val[to][l] = v->val[i][j];
                warp_define_bits(w, to, l, v->bits[i][j], 64);
            }
        }
}

static bool has_register_passing(const CallSite *site, const Function *f)
{
    for (unsigned i = 0; i < site->arg_count && i < f->params.len; i++)
        if (f->params.data[i].space == SPACE_REG)
            return true;
    for (unsigned i = 0; i < site->ret_count && i < f->returns.len; i++)
        if (f->returns.data[i].space == SPACE_REG)
            return true;
    return false;
}

/* The lanes of run call their function: a frame pushed, the arguments copied into it. */
void call_enter(Warp *w, uint32_t pc, uint32_t run)
{
    const XInstr *x = &w->prog->code[pc];
    const CallSite *site = &w->prog->calls[x->target];
    for (uint32_t k = run; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint32_t callee = site->callee;
        if (callee == NO_SLOT) {                 /* through a function address */
            uint64_t a = w->val[site->target_row][l];
            uint64_t index = (a - MEM_FUNC_BASE) / 16;
            if (!(w->defined[site->target_row] >> l & 1) || a < MEM_FUNC_BASE || (a - MEM_FUNC_BASE) % 16 ||
                index >= w->prog->func_count || index == 0) {        /* funcs[0] is the kernel */
                report_fault(w, pc, "lane %d calls 0x%llx, which is not the address of a function", l,
                           (unsigned long long)a);
                return;
            }
            callee = (uint32_t)index;
        }
        const FuncLayout *cf = &w->prog->funcs[callee];
        const Function *f = cf->fn;
        if (site->arg_count != f->params.len || site->ret_count > f->returns.len) {
            report_fault(w, pc, "lane %d calls '%s' with %u arguments and %u results; it takes %u and gives %u", l,
                       f->name, site->arg_count, site->ret_count, f->params.len, f->returns.len);
            return;
        }
        if (site->callee == NO_SLOT && has_register_passing(site, f)) {
            report_fault(w, pc, "lane %d calls '%s', which takes or gives .reg parameters, through its address: "
                         "ptxrun passes registers only in a direct call", l, f->name);
            return;
        }
        bool recursive = w->active[callee][l] > 0;
        uint32_t caller_base = warp_frame_base(w, site->caller, l), caller_sp = w->sp[l], base;
        if (!push_frame(w, pc, callee, l, &base))
            return;
        RegValues args;
        read_registers(w, l, site->arg_regs, site->arg_count, &args);
        size_t saved_at = w->saves[l].len;
        if (recursive)
            save_activation(w, cf, l);
        write_registers(w, l, site->arg_regs, site->arg_count, &args);
        for (unsigned i = 0; i < site->arg_count; i++) {
            if (site->arg_regs[i].count)
                continue;
            uint32_t n = site->args[i].size < cf->params[i].size ? site->args[i].size : cf->params[i].size;
            copy_local(w, l, caller_base + site->args[i].offset, base + cf->params[i].offset, n);
        }
        set_frame_rows(w, cf, l, base);
        w->active[callee][l]++;
        w->stack[l][w->depth[l]++] = (Frame){ pc + 1, pc, callee, caller_sp, w->stack_ptr[l], recursive, saved_at };
        w->pc[l] = cf->code_base;
    }
}

static void free_allocas(Warp *w, int l, uint32_t to);

/* ret: from a function, results copied back and the frame popped; from the kernel, the end. */
void call_return(Warp *w, uint32_t run)
{
    for (uint32_t k = run; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        if (w->depth[l] == 0) {
            w->exited |= 1u << l;
            continue;
        }
        Frame f = w->stack[l][--w->depth[l]];
        const CallSite *site = &w->prog->calls[w->prog->code[f.call_pc].target];
        const FuncLayout *cf = &w->prog->funcs[f.callee];
        uint32_t base = warp_frame_base(w, f.callee, l);
        RegValues results;                   /* read before a recursive call's registers come back */
        read_registers(w, l, site->ret_regs, site->ret_count, &results);
        if (f.saved)
            restore_activation(w, cf, l, f.saved_at);
        write_registers(w, l, site->ret_regs, site->ret_count, &results);
        uint32_t caller_base = warp_frame_base(w, site->caller, l);
        uint8_t *shadow;
        for (unsigned i = 0; i < site->arg_count; i++) {
            /* The call consumed its argument .param: the PTX ISA says nothing of its value
             * after the call, and the H100 does not keep it (ptxas passes it in argument
             * registers the callee's own calls reuse: tests/memory/function_scope read the
             * 123 its callee passed on). Undefined, so a read that matters is reported. */
            if (!site->arg_regs[i].count &&
                mem_thread_bytes(&w->block->mem, w->prog->local_region, w->thread_base + (uint32_t)l,
                                 caller_base + site->args[i].offset, site->args[i].size, &shadow))
                memset(shadow, 0, site->args[i].size);
        }
        for (unsigned i = 0; i < site->ret_count; i++) {
            if (site->ret_regs[i].count)
                continue;
            const FrameSlot *from = &cf->params[cf->fn->params.len + i];
            uint32_t n = site->rets[i].size < from->size ? site->rets[i].size : from->size;
            copy_local(w, l, base + from->offset, caller_base + site->rets[i].offset, n);
        }
        /* a returned frame's bytes (and its allocas') are no one's */
        if (mem_thread_bytes(&w->block->mem, w->prog->local_region, w->thread_base + (uint32_t)l, base,
                             cf->frame_size, &shadow))
            memset(shadow, 0, cf->frame_size);
        free_allocas(w, l, f.caller_stack_ptr);
        w->sp[l] = f.caller_sp;
        w->charged[l] -= cf->charge;
        w->active[f.callee][l]--;
        w->pc[l] = f.return_pc;
    }
}

/* The stack pointer where the activation lane l runs began: its allocas lie below it. */
static uint32_t activation_stack_ptr(const Warp *w, int l)
{
    return w->depth[l] ? w->stack[l][w->depth[l] - 1].caller_stack_ptr : MEM_ALLOCA_TOP;
}

/* Lane l's allocas below `to`, a stack pointer at or above its own, given back: undefined, no
 * longer counted against --stack. */
static void free_allocas(Warp *w, int l, uint32_t to)
{
    uint32_t from = w->stack_ptr[l];
    uint8_t *shadow;
    if (to > from && mem_thread_bytes(&w->block->mem, w->prog->alloca_region, w->thread_base + (uint32_t)l, from,
                                      to - from, &shadow))
        memset(shadow, 0, to - from);
    w->charged[l] -= to - from;
    w->stack_ptr[l] = to;
}

/* alloca for lane l (PTX ISA: stackptr = alloc_stack_mem(size, a), ptr = stackptr): size bytes
 * below its stack pointer, the lowest at a multiple of max(align, 8), undefined; the stack
 * pointer and d get their .local address. The bytes skipped to align count against --stack too.
 * False after a fault. */
static bool allocate(Warp *w, const XInstr *x, int l, uint64_t size, uint64_t align)
{
    uint32_t pc = (uint32_t)(x - w->prog->code), sp = w->stack_ptr[l];
    align = align < 8 ? 8 : align;
    uint64_t at = size > sp ? 0 : (sp - size) & ~(align - 1);
    uint64_t charge = (uint64_t)w->charged[l] + (sp - at);
    if (size > w->prog->stack_bytes || charge > w->prog->stack_bytes) {
        report_fault(w, pc, "lane %d: the stack overflows: 'alloca' of %llu bytes needs %llu bytes of stack; each "
                     "thread has %u (--stack)", l, (unsigned long long)size, (unsigned long long)charge,
                     w->prog->stack_bytes);
        return false;
    }
    Memory *mem = &w->block->mem;
    const Region *r = &mem->regions[w->prog->alloca_region];
    uint64_t need = MEM_ALLOCA_TOP - at, room = need > 2 * r->size ? need : 2 * r->size;
    if (at < r->base && !mem_grow_per_lane_down(mem, w->prog->alloca_region, room) &&
        !mem_grow_per_lane_down(mem, w->prog->alloca_region, need)) {
        report_fault(w, pc, "lane %d: 'alloca' of %llu bytes: the threads' stacks together need more than the %d MiB "
                     "ptxrun holds for one variable", l, (unsigned long long)size, MAX_VARIABLE_BYTES >> 20);
        return false;
    }
    uint8_t *shadow;
    if (mem_thread_bytes(mem, w->prog->alloca_region, w->thread_base + (uint32_t)l, at, sp - at, &shadow))
        memset(shadow, 0, sp - at);
    w->charged[l] = (uint32_t)charge;
    w->stack_ptr[l] = (uint32_t)at;
    w->val[x->dst][l] = at;
    return true;
}

/* stackrestore for lane l (PTX ISA: stackptr = a): back up to a stack pointer of the same
 * activation, between its own now and where the activation began (what stacksave gave there);
 * the allocas below it are freed (undefined). Anything else is a fault. */
static bool restore_stack(Warp *w, const XInstr *x, int l, uint64_t to)
{
    uint32_t pc = (uint32_t)(x - w->prog->code), high = activation_stack_ptr(w, l);
    if (to < w->stack_ptr[l] || to > high) {
        report_fault(w, pc, "lane %d: 'stackrestore' to 0x%llx, which is no stack pointer of this activation "
                     "(0x%x to 0x%x)", l, (unsigned long long)to, w->stack_ptr[l], high);
        return false;
    }
    free_allocas(w, l, (uint32_t)to);
    return true;
}

/* stacksave d, stackrestore a, alloca d, size{, align} for the lanes of run. The stack pointer
 * grows down (PTX ISA, alloca), so stacksave right after an alloca gives what the alloca gave
 * (docs/semantics.md). */
void call_stack(Warp *w, const XInstr *x, uint32_t run)
{
    uint32_t pc = (uint32_t)(x - w->prog->code);
    uint32_t need = x->op == OP_STACKSAVE ? 0 : w->defined[x->src[0]];
    if (x->src_count > 1)
        need &= w->defined[x->src[1]];
    if (x->op != OP_STACKSAVE && (run & ~need)) {
        report_fault(w, pc, "lane %d: '%s' with an undefined %s", __builtin_ctz(run & ~need), x->ir->mnemonic,
                     x->op == OP_ALLOCA ? "size" : "stack pointer");
        return;
    }
    for (uint32_t k = run; k; k &= k - 1) {
        int l = __builtin_ctz(k);
        uint64_t a = x->op == OP_STACKSAVE ? 0 : warp_src(w, x->src[0])[l] & width_mask(x->bits);
        if (x->op == OP_STACKSAVE)
            w->val[x->dst][l] = w->stack_ptr[l];
        else if (x->op == OP_STACKRESTORE ? !restore_stack(w, x, l, a)
                                          : !allocate(w, x, l, a, x->src_count > 1 ? warp_src(w, x->src[1])[l] : 8))
            return;
    }
    if (x->op != OP_STACKRESTORE)
        warp_define(w, x->dst, run, run);
}
