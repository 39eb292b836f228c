/* parser.y: tokens -> Module (bison, pure, byte-span locations).
 * The grammar is permissive about instructions: an instruction is a mnemonic word and a list
 * of operands of any shape; what it means is the checker's business (check.c). It recovers at
 * ';' and at a body's '}', so one run reports every independent mistake.
 * A file whose top level holds bare instructions is a snippet: one implicit kernel. */

%code requires {
#include "parse.h"
}

%code {
#include <string.h>

/* Nesting beyond this is reported, not a crash: bison's stack grows up to here. */
#define YYMAXDEPTH 10000

static int yylex(YYSTYPE *value, Span *at, Parser *p);
static void yyerror(Span *at, Parser *p, const char *message);
}

%define api.pure full
%define api.value.type union
%define parse.error custom
%define parse.lac full
%locations
%param {Parser *p}
%expect 1

%token <Literal> T_INTEGER "integer" T_FLOAT "floating-point number"
%token T_WORD "identifier" T_DIRECTIVE "directive" T_STRING "string"
%token <int> T_SPACE "state space" T_LINKAGE "linkage directive"
%token T_VERSION ".version" T_TARGET ".target" T_ADDRESS_SIZE ".address_size"
%token T_ENTRY ".entry" T_FUNC ".func" T_ALIGN ".align" T_FILE ".file" T_LOC ".loc"
%token T_SECTION ".section" T_PRAGMA ".pragma" T_PERF "performance directive"
%token T_CALLPROTOTYPE ".callprototype" T_CALLTARGETS ".calltargets"
%token T_BRANCHTARGETS ".branchtargets" T_ALIAS ".alias"
%token T_ITEM "item"                /* a plain label, instruction or declaration, read by quick.c */
%token T_EOF 0 "end of file"
%token T_SHL "<<" T_SHR ">>" T_LE "<=" T_GE ">=" T_EQ "==" T_NE "!=" T_ANDAND "&&" T_OROR "||"

/* Constant expressions (PTX ISA "Constant Expressions"): C's operators and precedence. The
 * separators first, so that "expected ..." lists them first. */
%token ',' ';' '+' '|'
%right '?' ':'
%left T_OROR
%left T_ANDAND
%left '|'
%left '^'
%left '&'
%left T_EQ T_NE
%left '<' '>' T_LE T_GE
%left T_SHL T_SHR
%left '+' '-'
%left '*' '/' '%'
%precedence UNARY

%nterm <uint32_t> operands operand_list vec_list address addr_rest sampler_rest init_list
%nterm <uint32_t> params param_list proto_params func_returns int_list word_list
%nterm <int> linkages
%nterm <uint32_t> file_extra
%nterm <Literal> cexpr

%%

module
    : %empty
    | module top_item
    ;

top_item
    : T_VERSION T_FLOAT                     { parse_version(p, @2); }
    | T_VERSION T_INTEGER                   { parse_version(p, @2); }
    | T_TARGET target_list
    | T_ADDRESS_SIZE T_INTEGER              { p->m->address_size = (uint8_t)$2.bits;
                                              if ($2.bits != 32 && $2.bits != 64)
                                                  diag_at(p->diag, DIAG_ERROR, @2,
                                                          ".address_size must be 32 or 64"); }
    | T_FILE T_INTEGER T_STRING file_extra  { parse_file(p, $2, @3, $4 ? @4 : (Span){0, 0}); }
    | T_LOC loc_args
    | T_SECTION T_DIRECTIVE '{' section_body '}' { parse_top_verbatim(p, @$); }
    | T_ALIAS T_WORD ',' T_WORD ';'         { parse_top_verbatim(p, @$); }
    | T_PRAGMA T_STRING ';'
    | function
    | var_decl ';'
    | T_ITEM
    | statement
    | error ';'                             { parse_recover(p, true); }
    | error '}'                             { parse_recover(p, true); }
    ;

target_list
    : T_WORD                                { parse_target(p, @1); }
    | target_list ',' T_WORD                { parse_target(p, @3); }
    ;

file_extra
    : %empty                                { $$ = 0; }
    | file_extra ',' T_INTEGER              { $$ = $1 + 1; }
    ;

loc_args
    : T_INTEGER T_INTEGER T_INTEGER loc_tail { parse_loc(p, $1, $2, $3); }
    ;

loc_tail
    : %empty
    | loc_tail ',' T_WORD T_WORD
    | loc_tail ',' T_WORD T_INTEGER T_INTEGER T_INTEGER { parse_loc_inlined(p, @3, $4, $5, $6); }
    ;

section_body
    : %empty
    | section_body section_token
    ;

section_token
    : T_WORD | T_DIRECTIVE | T_INTEGER | T_FLOAT | T_STRING | T_SPACE | T_ALIGN
    | ',' | ':' | ';' | '+' | '-' | '(' | ')' | '[' | ']'
    ;

linkages
    : T_LINKAGE                             { $$ = $1; }
    | linkages T_LINKAGE                    { $$ = $1 | $2; }
    ;

function
    : linkages                              { p->pending_linkage = $1; }
      function_head
    | function_head
    ;

function_head
    : T_ENTRY T_WORD                        { parse_function_begin(p, @2, true, 0); }
      params                                { parse_function_params(p, $4); }
      perf_list function_body
    | T_FUNC func_returns T_WORD            { parse_function_begin(p, @3, false, $2); }
      params                                { parse_function_params(p, $5); }
      perf_list function_body
    ;

func_returns
    : %empty                                { $$ = 0; }
    | '(' ')'                               { $$ = 0; }
    | '(' param_list ')'                    { $$ = $2; }
    ;

params
    : %empty                                { $$ = 0; }
    | '(' ')'                               { $$ = 0; }
    | '(' param_list ')'                    { $$ = $2; }
    ;

param_list
    : param                                 { $$ = 1; }
    | param_list ',' param                  { $$ = $1 + 1; }
    ;

param
    : param_head T_WORD                     { parse_decl_name(p, @2, @2, true); }
      dims
    ;

/* A parameter's state space and attributes (no linkage). */
param_head
    : T_SPACE                               { parse_decl_begin(p, $1, 0); }
    | param_head T_DIRECTIVE                { parse_decl_attr(p, @2); }
    | param_head T_DIRECTIVE '(' directive_list ')'
                                            { parse_decl_attr_call(p, @2, @5); }
    | param_head T_ALIGN T_INTEGER          { parse_decl_align(p, $3, @3); }
    | param_head T_SPACE                    { parse_decl_space(p, $2, @2); }
    ;

perf_list
    : %empty
    | perf_list T_PERF int_list             { parse_perf(p, @2, $3); }
    | perf_list T_PRAGMA T_STRING ';'
    ;

int_list
    : %empty                                { $$ = 0; }
    | T_INTEGER                             { $$ = 1; p->perf_values[0] = $1.bits; }
    | int_list ',' T_INTEGER                { if ($1 < 3) p->perf_values[$1] = $3.bits;
                                              $$ = $1 + 1; }
    ;

function_body
    : ';'                                   { parse_function_end(p, false); }
    | '{' body '}'                          { parse_function_end(p, true); }
    | '{' body error '}'                    { parse_recover(p, false); parse_function_end(p, true); }
    ;

/* A body's items follow "body" in its own rules (not an item rule of their own): one reduction
 * less for each, a tenth of the parser's steps. The spans of an item are its own (SPAN). */
body
    : %empty
    | body statement
    | body T_ITEM
    | body var_decl ';'
    | body '{'                              { parse_block_open(p); }
      body block_end
    | body T_LOC loc_args
    | body T_PRAGMA T_STRING ';'            { parse_item_text(p, ITEM_PRAGMA, SPAN(@2, @4), 0); }
    | body T_CALLPROTOTYPE func_returns T_WORD '(' proto_params ')' ';'
                                            { parse_item_text(p, ITEM_PROTOTYPE, SPAN(@2, @8), $3 + $6); }
    | body T_BRANCHTARGETS word_list ';'    { parse_targets(p, true, $3, SPAN(@2, @4)); }
    | body T_CALLTARGETS word_list ';'      { parse_targets(p, false, $3, SPAN(@2, @4)); }
    | body ';'
    | body error ';'                        { parse_recover(p, false); }
    ;

block_end
    : '}'                                   { parse_block_close(p); }
    | error '}'                             { parse_recover(p, false); parse_block_close(p); }
    ;

proto_params
    : %empty                                { $$ = 0; }
    | param_list                            { $$ = $1; }
    ;

word_list
    : T_WORD                                { parse_operand_name(p, @1); $$ = 1; }
    | word_list ',' T_WORD                  { parse_operand_name(p, @3); $$ = $1 + 1; }
    ;

/* Operands are "operand_list" here, not "operands" (one reduction less an instruction). */
statement
    : T_WORD ':'                            { parse_label(p, @1); }
    | T_WORD ';'                            { parse_instr(p, @1, 0, @1, 0, @$); }
    | T_WORD operand_list ';'               { parse_instr(p, @1, 0, @1, $2, @$); }
    | '@' T_WORD T_WORD ';'                 { parse_instr(p, @3, 1, @2, 0, @$); }
    | '@' T_WORD T_WORD operand_list ';'    { parse_instr(p, @3, 1, @2, $4, @$); }
    | '@' '!' T_WORD T_WORD ';'             { parse_instr(p, @4, 2, @3, 0, @$); }
    | '@' '!' T_WORD T_WORD operand_list ';' { parse_instr(p, @4, 2, @3, $5, @$); }
    ;

operands
    : %empty                                { $$ = 0; }
    | operand_list                          { $$ = $1; }
    ;

/* A name is an operand_list's element directly (one reduction less each); the other operands
 * are "operand". */
operand_list
    : T_WORD                                { parse_operand_name(p, @1); $$ = 1; }
    | operand                               { $$ = 1; }
    | operand_list ',' T_WORD               { parse_operand_name(p, @3); $$ = $1 + 1; }
    | operand_list ',' operand              { $$ = $1 + 1; }
    ;

operand
    : T_WORD '|' T_WORD                     { parse_operand_name(p, @1); parse_operand_name(p, @3);
                                              parse_operand_group(p, OPND_PAIR, 2, 0, @$); }
    | '!' T_WORD                            { parse_operand_name(p, @2); parse_operand_not(p, @$); }
    | '-' T_WORD                            { parse_operand_name(p, @2); parse_operand_negate(p, @$); }
    | T_WORD '+' T_INTEGER                  { parse_operand_name(p, @1); parse_operand_offset(p, (int64_t)$3.bits, @$); }
    | number
    | T_WORD '[' cexpr ']'                  { parse_operand_name(p, @1); parse_operand_index(p, $3, false, @$); }
    | T_WORD '[' T_WORD ']'                 { parse_operand_name(p, @1); parse_operand_index(p, (Literal){0}, true, @$); }
    | '[' address ']'                       { parse_operand_group(p, OPND_ADDR, $2, p->addr_offset, @$); }
    | '[' address ']' T_DIRECTIVE           { parse_operand_group(p, OPND_ADDR, $2, p->addr_offset, @$);
                                              parse_operand_qualifier(p, @4); }
    | '{' vec_list '}'                      { parse_operand_group(p, OPND_VEC, $2, 0, @$); }
    | '{' vec_list '}' '|' T_WORD           { parse_operand_group(p, OPND_VEC, $2, 0, @3);
                                              parse_operand_name(p, @5);
                                              parse_operand_group(p, OPND_PAIR, 2, 0, @$); }
    | '(' operands ')'                      { parse_operand_group(p, OPND_LIST, $2, 0, @$); }
    ;

number
    : cexpr                                 { parse_operand_constant(p, $1, @$); }
    ;

/* The one conflict (%expect 1): in "(1)" the parentheses group an expression, not a call's
 * list of one argument (call.c takes either). */
cexpr
    : T_INTEGER                             { $$ = parse_const_literal($1); }
    | T_FLOAT                               { $$ = parse_const_literal($1); }
    | '(' cexpr ')'                         { $$ = $2; $$.grouped = true; }
    | '-' cexpr %prec UNARY                 { $$ = parse_const_unary(p, '-', $2, @$); }
    | '+' cexpr %prec UNARY                 { $$ = parse_const_unary(p, '+', $2, @$); }
    | '!' cexpr %prec UNARY                 { $$ = parse_const_unary(p, '!', $2, @$); }
    | '~' cexpr %prec UNARY                 { $$ = parse_const_unary(p, '~', $2, @$); }
    | cexpr '*' cexpr                       { $$ = parse_const_binary(p, '*', $1, $3, @2); }
    | cexpr '/' cexpr                       { $$ = parse_const_binary(p, '/', $1, $3, @2); }
    | cexpr '%' cexpr                       { $$ = parse_const_binary(p, '%', $1, $3, @2); }
    | cexpr '+' cexpr                       { $$ = parse_const_binary(p, '+', $1, $3, @2); }
    | cexpr '-' cexpr                       { $$ = parse_const_binary(p, '-', $1, $3, @2); }
    | cexpr T_SHL cexpr                     { $$ = parse_const_binary(p, CONST_SHL, $1, $3, @2); }
    | cexpr T_SHR cexpr                     { $$ = parse_const_binary(p, CONST_SHR, $1, $3, @2); }
    | cexpr '<' cexpr                       { $$ = parse_const_binary(p, '<', $1, $3, @2); }
    | cexpr '>' cexpr                       { $$ = parse_const_binary(p, '>', $1, $3, @2); }
    | cexpr T_LE cexpr                      { $$ = parse_const_binary(p, CONST_LE, $1, $3, @2); }
    | cexpr T_GE cexpr                      { $$ = parse_const_binary(p, CONST_GE, $1, $3, @2); }
    | cexpr T_EQ cexpr                      { $$ = parse_const_binary(p, CONST_EQ, $1, $3, @2); }
    | cexpr T_NE cexpr                      { $$ = parse_const_binary(p, CONST_NE, $1, $3, @2); }
    | cexpr '&' cexpr                       { $$ = parse_const_binary(p, '&', $1, $3, @2); }
    | cexpr '^' cexpr                       { $$ = parse_const_binary(p, '^', $1, $3, @2); }
    | cexpr '|' cexpr                       { $$ = parse_const_binary(p, '|', $1, $3, @2); }
    | cexpr T_ANDAND cexpr                  { $$ = parse_const_binary(p, CONST_ANDAND, $1, $3, @2); }
    | cexpr T_OROR cexpr                    { $$ = parse_const_binary(p, CONST_OROR, $1, $3, @2); }
    | cexpr '?' cexpr ':' cexpr             { $$ = parse_const_select(p, $1, $3, $5); }
    ;

vec_list
    : vec_elem                              { $$ = 1; }
    | vec_list ',' vec_elem                 { $$ = $1 + 1; }
    ;

vec_elem
    : T_WORD                                { parse_operand_name(p, @1); }
    | number
    ;

/* [base], [base+imm], [base+-imm], [base-imm], [imm], and texture forms [tex, {coords}].
 * The offset travels in p->addr_offset to the '[' address ']' action. */
address
    : T_WORD                                { parse_operand_name(p, @1); }
      addr_rest                             { $$ = 1 + $3; }
    | T_INTEGER                             { p->addr_offset = (int64_t)$1.bits; $$ = 0; }
    ;

addr_rest
    : %empty                                { p->addr_offset = 0; $$ = 0; }
    | '+' cexpr                             { p->addr_offset = parse_const_offset(p, $2, @2); $$ = 0; }
    | '-' T_INTEGER                         { p->addr_offset = -(int64_t)$2.bits; $$ = 0; }
    | ',' '{' vec_list '}'                  { parse_operand_group(p, OPND_VEC, $3, 0, @3);
                                              p->addr_offset = 0; $$ = 1; }
    | ',' T_WORD                            { parse_operand_name(p, @2); }
      sampler_rest                          { p->addr_offset = 0; $$ = 1 + $4; }
    ;

/* [texture, sampler, {coordinates}]: tex and tld4 in the independent texturing mode. */
sampler_rest
    : %empty                                { $$ = 0; }
    | ',' '{' vec_list '}'                  { parse_operand_group(p, OPND_VEC, $3, 0, @3); $$ = 1; }
    ;

/* The head and the initializer are no rules of their own where they could be (a midrule
 * action and an empty list of attributes, an empty initializer): fewer reductions a line. */
var_decl
    : decl_head decl_names
    | decl_head decl_names '=' init_value   { parse_decl_init(p, 1, @4); }
    ;

/* A declaration's linkage, state space and attributes. */
decl_head
    : T_SPACE                               { parse_decl_begin(p, $1, 0); }
    | linkages T_SPACE                      { parse_decl_begin(p, $2, $1); }
    | decl_head T_DIRECTIVE                 { parse_decl_attr(p, @2); }
    | decl_head T_DIRECTIVE '(' directive_list ')'
                                            { parse_decl_attr_call(p, @2, @5); }
    | decl_head T_ALIGN T_INTEGER           { parse_decl_align(p, $3, @3); }
    | decl_head T_SPACE                     { parse_decl_space(p, $2, @2); }
    ;

directive_list
    : directive_item
    | directive_list ',' directive_item
    ;

/* .attribute(.managed), .attribute(.unified(uuid1, uuid2)) */
directive_item
    : T_DIRECTIVE
    | T_DIRECTIVE '(' integers ')'
    ;

integers
    : T_INTEGER
    | integers ',' T_INTEGER
    ;

decl_names
    : decl_name
    | decl_names ',' decl_name
    ;

decl_name
    : T_WORD                                { parse_decl_name(p, @1, @1, false); }
      dims
    | T_WORD '<' T_INTEGER '>'              { parse_decl_name(p, @1, @$, false); parse_decl_range(p, $3, @3); }
    ;

dims
    : %empty
    | dims '[' ']'                          { parse_decl_dim(p, false, (Literal){0}, @$); }
    | dims '[' T_INTEGER ']'                { parse_decl_dim(p, true, $3, @3); }
    ;

init_value
    : '{' init_list '}'                     { parse_init_value(p, INIT_LIST, (Literal){ .bits = $2 }, @$, @$); }
    | '{' '}'                               { parse_init_value(p, INIT_LIST, (Literal){ .bits = 0 }, @$, @$); }
    | cexpr                                 { parse_init_number(p, $1, @$); }
    | T_WORD                                { parse_init_value(p, INIT_SYM, (Literal){ .kind = OPND_INT }, @1, @$); }
    | T_WORD '+' cexpr                      { parse_init_value(p, INIT_SYM, $3, @1, @$); }
    | T_WORD '(' T_WORD ')'                 { parse_init_value(p, INIT_GENERIC, (Literal){ .kind = OPND_INT }, @3, @$); }
    | T_WORD '(' T_WORD ')' '+' cexpr       { parse_init_value(p, INIT_GENERIC, $6, @3, @$); }
    | T_WORD '=' init_value                 { parse_init_field(p, @1, @$); }   /* .texref t = { filter_mode = linear } */
    ;

init_list
    : init_value                            { $$ = 1; }
    | init_list ',' init_value              { $$ = $1 + 1; }
    ;

%%


/* A skipped kernel's parameters or body: passed over up to the ')' or '}' that closes the '(' or
 * '{' just read, or the end of the file, which is held for the next call. */
static void skip_group(Parser *p, int close)
{
    Span at;
    int token = lex_skip_group(&p->lx, close, &at);
    p->held_token = token == T_EOF ? -1 : token;     /* -1: T_EOF is 0 */
    p->held_at = at;
    if (p->fn)
        p->fn->skipped = true;
}

/* Streaming, plain items come from quick.c, one token each: where one may begin (after a ';', a
 * brace or another item, inside a function's braces or outside every brace) and while it has
 * tokens read ahead. (A brace may also open or close a vector or an initializer's list, whose elements
 * quick.c then reads as the start of an item; but a '}' comes before their ';', and there it
 * gives the grammar what it read.) */
static int yylex(YYSTYPE *value, Span *at, Parser *p)
{
    int token;
    if (!p->stopped && !p->held_token && !p->skip_body) {     /* (skip_params only with skip_body) */
#ifdef PARSER_STREAM
        if (p->quick_len)
            token = quick_next(p, value, at);
        else if (p->item_start && (p->fn ? p->lx.open_braces.len > 0 : p->lx.open_braces.len == 0))
            token = quick_item(p, value, at);
        else
            token = lex_next(&p->lx, value, at);
        p->item_start = token == ';' || token == T_ITEM || token == '{' || token == '}';
#else
        token = lex_next(&p->lx, value, at);
#endif
    } else if (p->stopped) {
        *at = (Span){ p->token_end, 0 };
        return T_EOF;
    } else if (p->held_token) {
        token = p->held_token < 0 ? T_EOF : p->held_token;
        *at = p->held_at;
        p->held_token = 0;
    } else {
        token = lex_next(&p->lx, value, at);
        if (token == '(' && p->skip_body && p->skip_params)
            skip_group(p, ')');
        else if (token == '{' && p->skip_body) {
            p->skip_body = false;
            skip_group(p, '}');
        }
        p->skip_params = false;                /* only right after the kernel's name */
    }
    p->prev_end = p->token_end;
    p->token_end = at->offset + at->length;
    return token;
}

/* The name of a token kind for "expected ..." lists, without bison's quotes. */
static void append_symbol(char *buf, size_t size, yysymbol_kind_t sym)
{
    const char *name = yysymbol_name(sym);
    size_t len = strlen(buf), n = strlen(name);
    if (n >= 2 && name[0] == '"' && name[n - 1] == '"') {
        name++;
        n -= 2;
    }
    snprintf(buf + len, size - len, "%.*s", (int)n, name);
}

/* Messages read like a compiler's: "unexpected ',' (expected ';')", naming the opener of an
 * unclosed '{' at the end of the file, and pointing just after the previous token when a ';'
 * is missing at the end of a line. */
static int yyreport_syntax_error(const yypcontext_t *ctx, Parser *p)
{
    enum { MAX_EXPECTED = 5 };
    yysymbol_kind_t expected[MAX_EXPECTED + 1];
    int listed = yypcontext_expected_tokens(ctx, expected, MAX_EXPECTED + 1), n = 0;   /* (0: more) */
    for (int i = 0; i < listed; i++)           /* T_ITEM is quick.c's; no one writes it */
        if (expected[i] != YYSYMBOL_T_ITEM)
            expected[n++] = expected[i];
    if (n > MAX_EXPECTED)
        n = 0;
    yysymbol_kind_t sym = yypcontext_token(ctx);
    Span at = *yypcontext_location(ctx);
    const char *text = p->m->src->text;

    if (p->lx.gave_up)
        return 0;              /* the lexer has said why the input ends here */
    if (sym == YYSYMBOL_YYEOF && p->lx.open_braces.len) {
        uint32_t line, column;
        source_position(p->m->src, p->lx.open_braces.data[p->lx.open_braces.len - 1], &line, &column);
        diag_at(p->diag, DIAG_ERROR, at, "expected '}' at end of file (to close '{' at line %u)", line);
        return 0;
    }
    for (int i = 0; i < n; i++) {
        if (strcmp(yysymbol_name(expected[i]), "';'") != 0)
            continue;
        bool new_line = false;
        for (uint32_t o = p->prev_end; o < at.offset; o++)
            new_line |= text[o] == '\n';
        if (new_line || sym == YYSYMBOL_YYEOF) {
            diag_at(p->diag, DIAG_ERROR, (Span){ p->prev_end, 0 }, "expected ';' at end of statement");
            return 0;
        }
    }

    char message[512];
    if (sym == YYSYMBOL_YYEOF)
        snprintf(message, sizeof message, "unexpected end of file");
    else
        snprintf(message, sizeof message, "unexpected %s'%.*s'",
                 sym == YYSYMBOL_T_WORD ? "identifier " : "",
                 (int)(at.length < 60 ? at.length : 60), text + at.offset);
    if (n > 0) {
        strncat(message, " (expected ", sizeof message - strlen(message) - 1);
        for (int i = 0; i < n; i++) {
            if (i)
                strncat(message, i == n - 1 ? " or " : ", ", sizeof message - strlen(message) - 1);
            append_symbol(message, sizeof message, expected[i]);
        }
        strncat(message, ")", sizeof message - strlen(message) - 1);
    }
    diag_at(p->diag, DIAG_ERROR, at, "%s", message);
    return 0;
}

#ifndef PARSER_STREAM
/* Parses src into a new Module; errors go to diag. The module is returned even when there
 * were errors (it holds what could be parsed), so the caller can report and free it. */
Module *parse_module(Source *src, Diag *diag)
{
    Parser p;
    parse_init(&p, src, diag);
    yyparse(&p);               /* a result of 2 (stack full) has been reported through yyerror */
    return parse_finish(&p);
}
#else
/* streamparse.c: this grammar built again without LAC (lookahead correction), which checks each
 * token against the reductions to come so that a syntax error names exactly the tokens that
 * could follow; without it parsing takes about a tenth less, and an error's list of expected
 * tokens may be longer. A stream that meets an error is only counted, never shown: its module is
 * then parsed again, whole, by parse_module. */
Module *parse_module_stream(Source *src, Diag *diag, const StreamHook *hook, bool *stopped)
{
    Parser p;
    parse_init(&p, src, diag);
    p.hook = hook;
    yyparse(&p);
    *stopped = p.stopped;
    return parse_finish(&p);
}
#endif

/* Only bison's own failures come here (syntax errors are reported above): its stack is full.
 * The lexer's MAX_BLOCK_DEPTH keeps real input well below that. */
static void yyerror(Span *at, Parser *p, const char *message)
{
    if (strcmp(message, "memory exhausted") == 0)
        diag_at(p->diag, DIAG_ERROR, *at, "input nested too deeply for the parser");
    else
        diag_at(p->diag, DIAG_ERROR, *at, "%s", message);
}
