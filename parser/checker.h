/* checker.h: what the checker's four files share. check.c runs the pass (names, scopes,
 * declarations) and calls the other three: decode.c (mnemonics against ops.def's suffix rules),
 * checkop.c (an instruction's version, target and operands against ops.def) and labels.c (labels
 * by block, .branchtargets lists); none calls back. Private to those four files; everyone else
 * calls check_module(). */
#ifndef CHECKER_H
#define CHECKER_H

#include "ir.h"

enum { MAX_SHAPE = 16 };       /* operands in one ops.def shape */

/* Hash of an interned name's pointer, for the checker's open-addressing tables. */
static inline uint32_t checker_pointer_hash(const void *p)
{
    uint64_t x = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15u;
    return (uint32_t)(x >> 32);
}

static inline char checker_type_class(int type)
{
    return type == TYPE_NONE ? 0 : type_info[type].cls;
}

static inline unsigned checker_type_bits(int type)
{
    return type == TYPE_NONE ? 0 : type_info[type].bits;
}

/* The type of the given class and width ('b' 64 -> .b64), or TYPE_NONE. */
static inline int checker_type_of(char cls, unsigned bits)
{
    for (int t = 0; t < TYPE_COUNT; t++)
        if (type_info[t].cls == cls && type_info[t].bits == bits)
            return t;
    return TYPE_NONE;
}

/* decode.c: an instruction's mnemonic decoded against its suffix rule, memoised per check. */
typedef struct Decoder Decoder;

Decoder *decode_new(void);
void decode_free(Decoder *dec);
/* Sets in's opcode, types and modifiers and its canonical mnemonic; false (after reporting) when
 * the mnemonic is wrong. *refused: the first suffix ptxrun does not execute (length 0: none). */
bool decode_instr(Decoder *dec, Diag *diag, Module *m, Instr *in, Span *refused);

/* checkop.c: one decoded instruction against ops.def. */

/* What an operand position expects, from its shape letter and the instruction's types. */
typedef struct Expect {
    char letter;               /* ops.def shape letter, 0 = unchecked */
    bool pred;                 /* a predicate register */
    bool dest;                 /* written */
    int type;                  /* value type expected, TYPE_NONE = any */
} Expect;

void checkop_version_target(Diag *diag, const Module *m, const CheckOptions *options, bool *warned_legacy,
                            const Instr *in);
typedef struct ShapeMemo ShapeMemo;   /* the operand shapes of the forms seen so far */
ShapeMemo *checkop_memo_new(void);
void checkop_memo_free(ShapeMemo *memo);
bool checkop_letters(Diag *diag, ShapeMemo *memo, const Instr *in, char letters[MAX_SHAPE]);
Expect checkop_expect(const Instr *in, char letter);
bool checkop_types_registers(int op);
void checkop_operand(Diag *diag, const Function *fn, const Instr *in, const Operand *o, Expect e);
const char *checkop_kind_word(const Operand *o);

/* labels.c: the next label (its index into f->labels) that the block whose items continue at
 * *item declares itself, not one of a block inside it; UINT32_MAX at the block's end. */
uint32_t labels_next(const Function *f, uint32_t *item);
/* A .branchtargets list's labels (the first label of each name) to their instructions. */
void labels_resolve_table(Diag *diag, Arena *arena, const Function *f, BranchTable *t);

#endif
