/* check_parser.c: every operand form and directive the grammar accepts, inspected in the IR. */
#include "testutil.h"

static const char *module_head = ".version 9.0\n.target sm_90\n.address_size 64\n";

static Parsed *parse_module_ok(const char *body)
{
    char text[8192];
    snprintf(text, sizeof text, "%s%s", module_head, body);
    return parse_ok(text);
}

static Instr *instr(Function *f, uint32_t i)
{
    ck_assert_uint_lt(i, f->code.len);
    return &f->code.data[i];
}

START_TEST(module_directives)
{
    Parsed *p = parse_ok(".version 8.3\n.target sm_90a, texmode_independent, debug\n.address_size 32\n"
                         ".entry k() { ret; }\n");
    ck_assert_int_eq(p->m->version, 83);
    ck_assert_int_eq(p->m->target_sm, 90);
    ck_assert(p->m->target_arch);
    ck_assert_int_eq(p->m->target_option_count, 2);
    ck_assert_str_eq(p->m->target_options[0], "texmode_independent");
    ck_assert_str_eq(p->m->target_options[1], "debug");
    ck_assert_int_eq(p->m->address_size, 32);
    ck_assert(!p->m->is_snippet);
    parsed_free(p);
}
END_TEST

START_TEST(entry_and_func_with_params)
{
    Parsed *p = parse_module_ok(
        ".extern .func (.param .b32 rv) vprintf (.param .b64 a, .param .b64 b);\n"
        ".weak .func (.param .align 4 .b8 out[8]) pair (.param .b32 x, .param .align 16 .b8 s[32])\n{ ret; }\n"
        ".visible .entry k (.param .u64 .ptr .global .align 8 in, .param .u32 n)\n"
        ".maxntid 256, 1, 1\n.minnctapersm 2\n.maxnreg 32\n{ ret; }\n");
    Module *m = p->m;
    ck_assert_int_eq(m->functions.len, 3);
    Function *v = function_named(m, "vprintf");
    ck_assert(!v->has_body && !v->is_entry);
    ck_assert_int_eq(v->linkage, LINK_EXTERN);
    ck_assert_int_eq(v->returns.len, 1);
    ck_assert_int_eq(v->params.len, 2);
    Function *pair = function_named(m, "pair");
    ck_assert_int_eq(pair->linkage, LINK_WEAK);
    ck_assert_int_eq(pair->returns.data[0].align, 4);
    ck_assert_int_eq(pair->returns.data[0].dims[0], 8);
    ck_assert_int_eq(pair->params.data[1].align, 16);
    ck_assert_int_eq(pair->params.data[1].type, TYPE_B8);
    ck_assert_int_eq(pair->params.data[1].dims[0], 32);
    Function *k = function_named(m, "k");
    ck_assert(k->is_entry);
    ck_assert_int_eq(k->linkage, LINK_VISIBLE);
    Decl *in = &k->params.data[0];
    ck_assert(in->is_ptr);
    ck_assert_int_eq(in->ptr_space, SPACE_GLOBAL);
    ck_assert_int_eq(in->ptr_align, 8);
    ck_assert_int_eq(in->type, TYPE_U64);
    ck_assert_int_eq(k->perf.len, 3);
    ck_assert_str_eq(k->perf.data[0].name, "maxntid");
    ck_assert_int_eq(k->perf.data[0].count, 3);
    ck_assert_uint_eq(k->perf.data[0].values[0], 256);
    ck_assert_str_eq(k->perf.data[2].name, "maxnreg");
    parsed_free(p);
}
END_TEST

START_TEST(register_declarations)
{
    Parsed *p = parse_module_ok(".entry k() {\n"
                                "  .reg .b32 %r<10>;\n  .reg .pred %p<3>;\n  .reg .f32 x, y;\n"
                                "  .reg .v4 .b32 %v;\n  .reg .b64 %rd<2>;\n"
                                "  add.s32 %r9, %r0, 1;\n  add.f32 y, x, 0f3F800000;\n"
                                "  setp.eq.s32 %p2, %r9, 0;\n  ret;\n}\n");
    Function *f = p->m->functions.data[0];
    /* Slots are dense, in declaration order: %r0-9, x, y, %v.x-%v.w, %rd0-1; %p0-2. */
    ck_assert_int_eq(f->regs.len, 10 + 2 + 4 + 2);
    ck_assert_int_eq(f->preds.len, 3);
    Instr *add = instr(f, 0);
    ck_assert_int_eq(add->operands[0].kind, OPND_REG);
    ck_assert_int_eq(add->operands[0].u.slot, 9);
    ck_assert_int_eq(add->operands[1].u.slot, 0);
    ck_assert_int_eq(instr(f, 1)->operands[0].u.slot, 11);
    ck_assert_int_eq(instr(f, 1)->operands[1].u.slot, 10);
    ck_assert_str_eq(f->regs.data[12].name, "%v.x");
    ck_assert_str_eq(f->regs.data[15].name, "%v.w");
    ck_assert_int_eq(f->regs.data[10].type, TYPE_F32);
    ck_assert_int_eq(instr(f, 2)->operands[0].kind, OPND_PRED);
    ck_assert_int_eq(instr(f, 2)->operands[0].u.slot, 2);
    parsed_free(p);
}
END_TEST

START_TEST(variable_declarations)
{
    Parsed *p = parse_module_ok(
        ".global .align 4 .b8 table[16] = {1, 2, 3, -4};\n"
        ".const .align 8 .f64 coeff[2] = {1.5, 0d3FF0000000000000};\n"
        ".global .align 8 .u64 ptr = generic(table)+8;\n"
        ".global .u32 grid[2][3];\n"
        ".extern .shared .align 16 .b8 tile[];\n"
        ".visible .shared .align 4 .u32 counter;\n"
        ".entry k() {\n  .local .align 8 .b8 depot[32];\n  .shared .f32 buf[64];\n  ret;\n}\n");
    Module *m = p->m;
    ck_assert_int_eq(m->globals.len, 6);
    Decl *t = &m->globals.data[0];
    ck_assert_int_eq(t->space, SPACE_GLOBAL);
    ck_assert_int_eq(t->align, 4);
    ck_assert_int_eq(t->dims[0], 16);
    ck_assert_int_eq(t->init->kind, INIT_LIST);
    ck_assert_int_eq(t->init->count, 4);
    ck_assert_uint_eq(t->init->elems[3].bits, (uint64_t)-4);
    Decl *c = &m->globals.data[1];
    ck_assert_int_eq(c->space, SPACE_CONST);
    ck_assert_int_eq(c->init->elems[0].kind, INIT_F64);
    ck_assert_int_eq(c->init->elems[1].bits, 0x3FF0000000000000u);
    ck_assert_int_eq(m->globals.data[2].init->kind, INIT_GENERIC);
    ck_assert_str_eq(m->globals.data[2].init->name, "table");
    ck_assert_int_eq(m->globals.data[2].init->offset, 8);
    ck_assert_int_eq(m->globals.data[3].dim_count, 2);
    ck_assert_int_eq(m->globals.data[3].dims[1], 3);
    ck_assert_int_eq(m->globals.data[4].dims[0], -1);
    ck_assert_int_eq(m->globals.data[4].linkage, LINK_EXTERN);
    ck_assert_int_eq(m->globals.data[4].space, SPACE_SHARED);
    Function *f = m->functions.data[0];
    ck_assert_int_eq(f->decls.len, 2);
    ck_assert_int_eq(f->decls.data[0].space, SPACE_LOCAL);
    ck_assert_int_eq(f->decls.data[1].type, TYPE_F32);
    parsed_free(p);
}
END_TEST

START_TEST(opaque_initializers)
{
    /* PTX ISA "Texture Sampler and Surface Types": { field = value, ... } for opaque variables */
    Parsed *p = parse_ok(".version 8.5\n.target sm_90, texmode_independent\n.address_size 64\n"
                         ".global .samplerref s = { addr_mode_0 = clamp_to_border, filter_mode = linear,\n"
                         "                          force_unnormalized_coords = 1 };\n"
                         ".global .surfref f = { width = 16, array_size = 4 };\n"
                         ".entry k() { ret; }\n");
    Module *m = p->m;
    Decl *s = &m->globals.data[0], *f = &m->globals.data[1];
    ck_assert_int_eq(s->space, SPACE_SAMPLER);
    ck_assert_int_eq(s->init->kind, INIT_LIST);
    ck_assert_int_eq(s->init->count, 3);
    ck_assert_int_eq(s->init->elems[0].kind, INIT_FIELD);
    ck_assert_str_eq(s->init->elems[0].name, "addr_mode_0");
    ck_assert_str_eq(s->init->elems[0].elems->name, "clamp_to_border");
    ck_assert_ptr_nonnull(s->opaque);
    ck_assert_uint_eq(s->opaque->given, 1u << OPAQUE_ADDR_MODE_0 | 1u << OPAQUE_FILTER_MODE |
                                        1u << OPAQUE_FORCE_UNNORMALIZED_COORDS);
    ck_assert_int_eq(s->opaque->value[OPAQUE_ADDR_MODE_0], ADDR_CLAMP_TO_BORDER);
    ck_assert_int_eq(s->opaque->value[OPAQUE_FILTER_MODE], FILTER_LINEAR);
    ck_assert_int_eq(s->opaque->value[OPAQUE_FORCE_UNNORMALIZED_COORDS], 1);
    ck_assert_int_eq(f->space, SPACE_SURF);
    ck_assert_uint_eq(f->opaque->given, 1u << OPAQUE_WIDTH | 1u << OPAQUE_ARRAY_SIZE);
    ck_assert_int_eq(f->opaque->value[OPAQUE_WIDTH], 16);
    ck_assert_int_eq(f->opaque->value[OPAQUE_ARRAY_SIZE], 4);
    parsed_free(p);
}
END_TEST

START_TEST(operand_forms)
{
    Parsed *p = parse_module_ok(
        ".global .u32 g[4];\n"
        ".entry k(.param .u64 a) {\n"
        "  .reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .pred %p<3>;\n"
        "  mov.u32 %r1, %tid.x;\n"                       /* 0: special register */
        "  ld.param.u64 %rd1, [a];\n"                    /* 1: [sym] */
        "  ld.global.u32 %r2, [%rd1];\n"                 /* 2: [reg] */
        "  ld.global.u32 %r2, [%rd1+8];\n"               /* 3: [reg+imm] */
        "  ld.global.u32 %r2, [%rd1+-4];\n"              /* 4: [reg+-imm] */
        "  ld.global.u32 %r2, [g+4];\n"                  /* 5: [sym+imm] */
        "  ld.global.v2.u32 {%r1, %r2}, [%rd1];\n"       /* 6: vector */
        "  shfl.sync.up.b32 %r3|%p1, %r2, 1, 0, -1;\n"   /* 7: pair, immediates */
        "  shfl.sync.bfly.b32 _|%p2, %r2, 1, 31, 0xffffffff;\n" /* 8: sink */
        "  setp.eq.and.s32 %p1, %r1, 0, !%p2;\n"         /* 9: negated predicate */
        "  @!%p1 bra DONE;\n"                            /* 10: guard, label */
        "  mov.u64 %rd2, g;\n"                           /* 11: address of a variable */
        "  mov.b64 %rd2, {%r1, %r2};\n"                  /* 12: vector source */
        "DONE:\n  ret;\n}\n");
    Function *f = p->m->functions.data[0];
    Operand *o;
    o = &instr(f, 0)->operands[1];
    ck_assert_int_eq(o->kind, OPND_SREG);
    ck_assert_int_eq(o->u.sreg, SREG_TID);
    ck_assert_int_eq(o->component, 1);
    o = &instr(f, 1)->operands[1];
    ck_assert_int_eq(o->kind, OPND_ADDR);
    ck_assert_int_eq(o->u.group.elems[0].kind, OPND_SYM);
    o = &instr(f, 2)->operands[1];
    ck_assert_int_eq(o->u.group.elems[0].kind, OPND_REG);
    ck_assert_int_eq(o->u.group.offset, 0);
    ck_assert_int_eq(instr(f, 3)->operands[1].u.group.offset, 8);
    ck_assert_int_eq(instr(f, 4)->operands[1].u.group.offset, -4);
    o = &instr(f, 5)->operands[1];
    ck_assert_str_eq(o->u.group.elems[0].u.ref.name, "g");
    ck_assert_int_eq(o->u.group.offset, 4);
    o = &instr(f, 6)->operands[0];
    ck_assert_int_eq(o->kind, OPND_VEC);
    ck_assert_int_eq(o->count, 2);
    o = &instr(f, 7)->operands[0];
    ck_assert_int_eq(o->kind, OPND_PAIR);
    ck_assert_int_eq(o->u.group.elems[0].kind, OPND_REG);
    ck_assert_int_eq(o->u.group.elems[1].kind, OPND_PRED);
    ck_assert_uint_eq(instr(f, 7)->operands[4].u.bits, UINT64_MAX);   /* -1 */
    ck_assert_int_eq(instr(f, 8)->operands[0].u.group.elems[0].kind, OPND_SINK);
    o = &instr(f, 9)->operands[3];
    ck_assert_int_eq(o->kind, OPND_PRED);
    ck_assert(o->flags & OPNDF_NOT);
    Instr *bra = instr(f, 10);
    ck_assert_int_eq(bra->guard_kind, 2);
    ck_assert_int_eq(bra->guard_slot, 1);
    ck_assert_int_eq(bra->operands[0].kind, OPND_LABEL);
    ck_assert_int_eq(bra->operands[0].u.ref.target, 13);     /* DONE: the ret */
    ck_assert_int_eq(instr(f, 11)->operands[1].kind, OPND_SYM);
    ck_assert_int_eq(instr(f, 12)->operands[1].kind, OPND_VEC);
    parsed_free(p);
}
END_TEST

START_TEST(calls_blocks_and_prototypes)
{
    /* Calls, prototypes, and brx.idx through a .branchtargets list whose labels resolve. */
    char text[8192];
    snprintf(text, sizeof text, "%s%s", module_head,
        ".func (.param .b32 r) f (.param .b32 x) { st.param.b32 [r], 1; ret; }\n"
        ".entry k() {\n  .reg .b32 %r<3>; .reg .b64 %rd1;\n"
        "  { // callseq 0\n  .param .b32 param0;\n  st.param.b32 [param0+0], %r1;\n"
        "  .param .b32 retval0;\n"
        "  call.uni (retval0), f, (param0);\n  ld.param.b32 %r2, [retval0];\n  }\n"
        "  { .param .b32 param0;\n  .param .b32 retval0;\n"
        "  proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "  call (retval0), %rd1, (param0), proto;\n  }\n"
        "  ts: .branchtargets L1, L2;\n  brx.idx %r1, ts;\n"
        "  .calltargets f;\n"
        "L1:\nL2:\n  ret;\n}\n");
    Parsed *p = parse_text(text, true);
    ck_assert_msg(p->diag.errors == 0, "%s", p->cap.text);
    Function *k = function_named(p->m, "k");
    ck_assert_uint_eq(k->tables.len, 1);       /* ts: L1 and L2 are both the ret, instruction 5 */
    ck_assert_str_eq(k->tables.data[0].name, "ts");
    ck_assert_uint_eq(k->tables.data[0].count, 2);
    ck_assert_uint_eq(k->tables.data[0].targets[0], 5);
    ck_assert_uint_eq(k->tables.data[0].targets[1], 5);
    ck_assert_int_eq(instr(k, 4)->op, OP_BRX_IDX);
    Instr *call = instr(k, 1);
    ck_assert_str_eq(call->mnemonic, "call.uni");
    ck_assert_int_eq(call->operand_count, 3);
    ck_assert_int_eq(call->operands[0].kind, OPND_LIST);
    ck_assert_int_eq(call->operands[0].u.group.elems[0].kind, OPND_SYM);
    ck_assert_int_eq(call->operands[1].kind, OPND_SYM);
    ck_assert_int_eq(call->operands[2].kind, OPND_LIST);
    Instr *icall = instr(k, 3);
    ck_assert_int_eq(icall->operands[1].kind, OPND_REG);
    ck_assert_int_eq(icall->operands[3].kind, OPND_LABEL);
    unsigned opens = 0, closes = 0, protos = 0, targets = 0;
    for (uint32_t i = 0; i < k->items.len; i++) {
        opens += k->items.data[i].kind == ITEM_OPEN;
        closes += k->items.data[i].kind == ITEM_CLOSE;
        protos += k->items.data[i].kind == ITEM_PROTOTYPE;
        targets += k->items.data[i].kind == ITEM_TARGETS;
    }
    ck_assert_int_eq(opens, 2);
    ck_assert_int_eq(closes, 2);
    ck_assert_int_eq(protos, 1);
    ck_assert_int_eq(targets, 2);
    parsed_free(p);
}
END_TEST

START_TEST(debug_directives_are_kept_or_skipped)
{
    Parsed *p = parse_module_ok(
        ".file 1 \"/tmp/a.cu\"\n.file 2 \"b.h\", 1700000000, 1234\n"
        ".entry k() {\n.loc 1 5 3\n  .pragma \"nounroll\";\n"
        ".loc 1 6 1, function_name $L__info_string0, inlined_at 1 5 3\n  ret;\n}\n"
        ".section .debug_info\n{\n.b32 362\n.b8 2, 0\n.b32 .debug_abbrev\n.b64 $L__func_begin0\n}\n");
    ck_assert_int_eq(p->m->files.len, 2);
    ck_assert_uint_eq(p->m->files.data[1].number, 2);
    ck_assert_str_eq(p->m->files.data[1].extra, ", 1700000000, 1234");
    ck_assert_int_eq(p->m->verbatim.len, 1);
    ck_assert_int_eq(p->m->functions.data[0]->code.len, 1);
    parsed_free(p);
}
END_TEST

/* .loc gives the instructions after it their CUDA place, up to the next .loc or the end of the
 * function; inlined code takes its inlined_at place; a .file may come after the .locs (nvcc
 * writes them last). Expected values: the numbers written in the text. */
START_TEST(loc_places_instructions)
{
    Parsed *p = parse_module_ok(
        ".entry k() {\n  .reg .u32 %r1;\n  mov.u32 %r1, 1;\n.loc 1 5 3\n  mov.u32 %r1, 2;\n  mov.u32 %r1, 3;\n"
        ".loc 2 110 3, function_name $L__info_string0, inlined_at 1 7 9\n  bar.warp.sync -1;\n}\n"
        ".entry j() {\n  ret;\n}\n.file 1 \"a.cu\"\n.file 2 \"b.h\"\n");
    Function *k = p->m->functions.data[0], *j = p->m->functions.data[1];
    ck_assert_uint_eq(instr(k, 0)->loc_line, 0);
    ck_assert_uint_eq(instr(k, 1)->loc_file, 1);
    ck_assert_uint_eq(instr(k, 1)->loc_line, 5);
    ck_assert_uint_eq(instr(k, 1)->loc_col, 3);
    ck_assert_uint_eq(instr(k, 2)->loc_line, 5);
    ck_assert_uint_eq(instr(k, 3)->loc_file, 1);
    ck_assert_uint_eq(instr(k, 3)->loc_line, 7);
    ck_assert_uint_eq(instr(k, 3)->loc_col, 9);
    ck_assert_uint_eq(instr(j, 0)->loc_line, 0);     /* a .loc holds within its function */
    parsed_free(p);
}
END_TEST

START_TEST(snippet_mode)
{
    Parsed *p = parse_ok("// a warp scan\n"
                         "    shfl.up.b32  Ry|p, Rx, 0x1,  0x0;\n"
                         "@p  add.f32      Rx, Ry, Rx;\n"
                         "    shf.l.clamp.b32 r3, r1, r0, n;\n"
                         "    shl.b32 r4, r0, n;\n"
                         "    shr.s32 r7, r3, n;\n"
                         "    mul.wide.s32 w, r7, 2;\n");
    Module *m = p->m;
    ck_assert(m->is_snippet);
    ck_assert_int_eq(m->functions.len, 1);
    Function *f = m->functions.data[0];
    ck_assert(f->is_snippet && f->is_entry);
    ck_assert_int_eq(f->code.len, 6);
    ck_assert_int_eq(f->preds.len, 1);
    ck_assert_str_eq(f->preds.data[0].name, "p");
    /* Registers in order of first use: Ry, Rx, r3, r1, r0, n, r4, r7, w. */
    const char *names[] = { "Ry", "Rx", "r3", "r1", "r0", "n", "r4", "r7", "w" };
    int types[] = { TYPE_F32, TYPE_F32, TYPE_S32, TYPE_B32, TYPE_B32, TYPE_U32, TYPE_B32, TYPE_S32, TYPE_S64 };
    ck_assert_int_eq(f->regs.len, 9);
    for (int i = 0; i < 9; i++) {
        ck_assert_str_eq(f->regs.data[i].name, names[i]);
        ck_assert_msg(f->regs.data[i].type == types[i], "%s is .%s, expected .%s", names[i],
                      type_info[f->regs.data[i].type].name, type_info[types[i]].name);
    }
    ck_assert_int_eq(f->code.data[1].guard_kind, 1);
    parsed_free(p);
}
END_TEST

START_TEST(mnemonics_decode_to_canonical_order)
{
    Parsed *p = parse_ok("shfl.sync.b32.idx d, a, 0, 31, -1;\n"
                         "setp.s32.lt p, a, 5;\n"
                         "mul.wide.u32 w, a, 3;\n"
                         "ld.global.nc.v4.f32 {x, y, z, t}, [q];\n");
    Function *f = p->m->functions.data[0];
    Instr *shfl = &f->code.data[0];
    ck_assert_int_eq(shfl->op, OP_SHFL_SYNC);
    ck_assert_str_eq(shfl->mnemonic, "shfl.sync.idx.b32");
    ck_assert_int_eq(shfl->mod_count, 1);
    ck_assert_int_eq(shfl->mods[0], MOD_IDX);
    ck_assert_int_eq(shfl->types[0], TYPE_B32);
    ck_assert_str_eq(f->code.data[1].mnemonic, "setp.lt.s32");
    ck_assert_int_eq(f->code.data[2].mods[0], MOD_WIDE);
    Instr *ld = &f->code.data[3];
    ck_assert_int_eq(ld->op, OP_LD);
    ck_assert_str_eq(ld->mnemonic, "ld.global.nc.v4.f32");   /* unchecked opcode: kept as written */
    ck_assert_int_eq(ld->types[0], TYPE_F32);
    parsed_free(p);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("parser");
    TCase *tc = tcase_create("grammar");
    tcase_add_test(tc, module_directives);
    tcase_add_test(tc, entry_and_func_with_params);
    tcase_add_test(tc, register_declarations);
    tcase_add_test(tc, variable_declarations);
    tcase_add_test(tc, opaque_initializers);
    tcase_add_test(tc, operand_forms);
    tcase_add_test(tc, calls_blocks_and_prototypes);
    tcase_add_test(tc, debug_directives_are_kept_or_skipped);
    tcase_add_test(tc, loc_places_instructions);
    tcase_add_test(tc, snippet_mode);
    tcase_add_test(tc, mnemonics_decode_to_canonical_order);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
