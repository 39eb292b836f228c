/* callsite.c: lowering a call: the callee (a function with a body, one the CUDA runtime
 * supplies such as vprintf, or an address), and how each argument and result travels (a .param
 * variable of the caller's frame, or registers to and from the callee's .reg parameters). */
#include <stdlib.h>
#include <string.h>

#include "block.h"

/* A call's argument or result: a .param variable of the caller, in its frame. */
static bool call_slot(const Loader *ld, const Operand *p, FrameSlot *slot)
{
    Symbol s;
    if (p->kind != OPND_SYM || !operand_find_symbol(ld, p, &s) || s.space != SPACE_LOCAL)
        return false;
    *slot = (FrameSlot){ (uint32_t)s.address, s.size };
    return true;
}

/* A call of a function the CUDA runtime supplies passes what CUDA's takes: its parameters'
 * sizes, and at most its one result. */
static bool builtin_signature(Loader *ld, const Instr *in, const char *name, const CallSite *site)
{
    uint8_t result;
    const uint8_t *params = builtin_params((Builtin)site->builtin, &result);
    unsigned n = 0;
    bool ok = site->ret_count <= (result != 0) && (!site->ret_count || site->rets[0].size >= result);
    for (; params[n]; n++)
        ok = ok && n < site->arg_count && site->args[n].size >= params[n];
    if (ok && n == site->arg_count)
        return true;
    diag_at(ld->diag, DIAG_ERROR, in->at, "a call of '%s' with %u argument%s and %u result%s; CUDA's takes %u "
            "(%s) and gives %s", name, site->arg_count,
            site->arg_count == 1 ? "" : "s", site->ret_count, site->ret_count == 1 ? "" : "s", n,
            site->builtin == BUILTIN_VPRINTF ? ".b64 format, .b64 arguments"
            : site->builtin == BUILTIN_ASSERTFAIL ? ".b64 message, .b64 file, .b32 line, .b64 function, .b64 char size"
            : ".b64 handle, .b32 value", result ? "a .b32" : "none");
    ld->failed = true;
    return false;
}

/* A .reg parameter or result d of the callee (its rows from callee_rows), passed from or to the
 * caller's operand o: a register, a vector register's elements, or (an argument) an immediate. */
static void pass_registers(Loader *ld, const Instr *in, const Operand *o, const FuncLayout *callee, const Decl *d,
                           bool result, RegPass *pass)
{
    if (d->type == TYPE_PRED) {               /* .reg .pred: a predicate, or (an argument) 0 or 1 */
        XInstr scratch;
        memset(&scratch, 0, sizeof scratch);
        uint32_t own = callee->pred_base + d->first_slot;
        if (o->kind != OPND_PRED && (result || o->kind != OPND_INT)) {
            operand_cannot(ld, in, "a call passing something other than a predicate for a .pred parameter");
            return;
        }
        pass->count = 1;
        pass->pred = true;
        pass->from[0] = result ? own : operand_source(ld, in, o, TYPE_PRED, &scratch, 0);
        pass->to[0] = result ? ld->cur->pred_base + o->u.slot : own;
        if (!result && (scratch.src_not & 1)) {
            operand_cannot(ld, in, "a call passing a negated predicate");
            return;
        }
        return;
    }
    uint32_t callee_rows = callee->row_base;
    unsigned n = d->vector ? d->vector : 1, given = o->kind == OPND_VEC ? o->count : 1;
    if (given != n || n > 4) {
        operand_cannot(ld, in, "a call passing a register where the function takes another number of elements");
        return;
    }
    XInstr scratch;
    memset(&scratch, 0, sizeof scratch);
    pass->count = (uint8_t)n;
    for (unsigned i = 0; i < n; i++) {
        const Operand *e = o->kind == OPND_VEC ? &o->u.group.elems[i] : o;
        uint32_t own = callee_rows + d->first_slot + i;
        if (e->kind == OPND_REG_OFFSET) {
            diag_at(ld->diag, DIAG_ERROR, e->at, "a call passes a register or an immediate, not a register plus an "
                    "offset (ptxas refuses it)");
            ld->failed = true;
            return;
        }
        if (e->kind != OPND_REG && (result || e->kind == OPND_VEC || e->kind == OPND_SYM)) {
            operand_cannot(ld, in, result ? "a call whose result goes to something other than a register"
                                  : "a call passing this argument to a register parameter");
            return;
        }
        if (result) {
            pass->from[i] = own;
            pass->to[i] = ld->cur->row_base + e->u.slot;
        } else {
            pass->from[i] = operand_source(ld, in, e, d->type, &scratch, 0);
            pass->to[i] = own;
        }
    }
}

/* call{.uni} (rets), f, (args){, prototype}: the .param variables passed, and the callee. */
void callsite_load(Loader *ld, const Instr *in, XInstr *x)
{
    Program *prog = ld->p;
    const Operand *ops = in->operands;
    unsigned n = in->operand_count, i = 0;
    CallSite site;
    memset(&site, 0, sizeof site);
    const Operand *rets = NULL, *args = NULL;
    if (i < n && ops[i].kind == OPND_LIST)
        rets = &ops[i++];
    const Operand *target = i < n ? &ops[i++] : NULL;
    Operand one;                              /* call f, (1): one immediate argument */
    if (i < n && ops[i].kind == OPND_LIST) {
        args = &ops[i++];
    } else if (i < n && (ops[i].flags & OPNDF_GROUPED)) {
        one = (Operand){ .kind = OPND_LIST, .count = 1, .at = ops[i].at, .u.group.elems = (Operand *)&ops[i] };
        args = &one;
        i++;
    }
    if (!target || (rets && rets->count > MAX_CALL_PARAMS) || (args && args->count > MAX_CALL_PARAMS)) {
        operand_cannot(ld, in, "this call");
        return;
    }
    site.callee = NO_SLOT;
    for (uint32_t k = 0; target->kind == OPND_SYM && k < prog->m->functions.len; k++)
        if (prog->m->functions.data[k]->is_entry && prog->m->functions.data[k]->name == target->u.ref.name) {
            diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' is a kernel (.entry): only a .func can be called",
                    target->u.ref.name);
            ld->failed = true;
            return;
        }
    if (target->kind == OPND_SYM) {
        for (uint32_t k = 0; k < prog->func_count; k++)
            if (prog->funcs[k].fn->name == target->u.ref.name)
                site.callee = k;
        if (site.callee == NO_SLOT && !(site.builtin = (uint8_t)builtin_named(target->u.ref.name))) {
            size_t room = strlen(target->u.ref.name) + 64;   /* the name whole */
            char *what = xmalloc(room);
            snprintf(what, room, "a call of '%s' (no body: an external function)", target->u.ref.name);
            operand_cannot(ld, in, what);
            free(what);
            return;
        }
    } else if (target->kind == OPND_REG) {
        site.target_row = ld->cur->row_base + target->u.slot;
    } else {
        operand_cannot(ld, in, "this call target");
        return;
    }
    site.caller = (uint32_t)(ld->cur - prog->funcs);
    const Function *callee = site.callee == NO_SLOT ? NULL : prog->funcs[site.callee].fn;
    if (callee && ((rets ? rets->count : 0) > callee->returns.len || (args ? args->count : 0) != callee->params.len)) {
        diag_at(ld->diag, DIAG_ERROR, in->at, "'%s' takes %u arguments and gives %u results; this call passes "
                "%u and asks for %u", callee->name, callee->params.len, callee->returns.len,
                args ? args->count : 0, rets ? rets->count : 0);
        ld->failed = true;
        return;
    }
    for (unsigned k = 0; rets && k < rets->count; k++) {
        const Decl *d = callee ? &callee->returns.data[k] : NULL;
        if (d && d->space == SPACE_REG)
            pass_registers(ld, in, &rets->u.group.elems[k], &prog->funcs[site.callee], d, true,
                           &site.ret_regs[k]);
        else if (!call_slot(ld, &rets->u.group.elems[k], &site.rets[k]))
            operand_cannot(ld, in, "a call whose results are not .param variables of the caller");
    }
    for (unsigned k = 0; args && k < args->count; k++) {
        const Decl *d = callee ? &callee->params.data[k] : NULL;
        if (d && d->space == SPACE_REG)
            pass_registers(ld, in, &args->u.group.elems[k], &prog->funcs[site.callee], d, false,
                           &site.arg_regs[k]);
        else if (!call_slot(ld, &args->u.group.elems[k], &site.args[k]))
            operand_cannot(ld, in, "a call whose arguments are not .param variables of the caller");
    }
    site.ret_count = (uint8_t)(rets ? rets->count : 0);
    site.arg_count = (uint8_t)(args ? args->count : 0);
    if (site.builtin && !builtin_signature(ld, in, target->u.ref.name, &site))
        return;
    prog->prints |= site.builtin != BUILTIN_NONE;
    prog->calls = xrealloc(prog->calls, (prog->call_count + 1) * sizeof *prog->calls);
    prog->calls[prog->call_count] = site;
    x->target = prog->call_count++;
    if (site.callee == NO_SLOT) {
        x->src[0] = site.target_row;
        x->src_count = 1;
    }
}
