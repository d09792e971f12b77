/* build.h — IR construction driven by the grammar actions (parser/ptx.y).
 * Private to parser/.  Each build_* returns false after reporting an error,
 * which makes the grammar abort. */
#ifndef PTXOPT_BUILD_H
#define PTXOPT_BUILD_H

#include <stdio.h>

#include "ir/ir.h"
#include "lexer/lexer.h"

typedef struct ParseCtx {
    Module *m;
    Function *fn;         /* current function, NULL at top level */
    Block *blk;           /* current block */
    bool block_closed;    /* the last instruction ended the block */
    uint32_t prev_end;    /* byte where the next statement's leading trivia starts */
    LexState ls;
    void *scanner;
    FILE *diag;
    bool failed;          /* an error was reported */
    /* syntax error waiting to be reported (unless an unknown opcode absorbs it) */
    bool pending;
    int pend_line, pend_col;
    char pend_msg[300];
    /* current instruction head */
    Str cur_opcode;
    Reg *cur_guard;
    bool cur_guard_neg;
    int cur_line, cur_col;
    /* streaming: called after each complete top-level item; the item's
     * memory is released when it returns (false stops the parse) */
    bool (*on_item)(void *ud, Module *m, Stmt *item);
    void *ud;
    ArenaMark item_mark;
    bool stopped;         /* on_item returned false */
    uint32_t items_seen;  /* top-level items so far */
    /* module variables whose names start with '%' (they look like
     * registers); kept outside the arena because streaming releases
     * top-level statements */
    Str *pct_vars;
    uint32_t npct_vars, cpct_vars;
    /* registers declared in nested { } scopes shadow outer ones: their
     * declarations and the Regs made for them, innermost last */
    int scope_depth;
    struct ScopeDecl { Str name; Str type; int32_t range; uint8_t vec; int depth; } *sdecl;
    uint32_t nsdecl, csdecl;
    struct ScopeReg { Reg *reg; int depth; } *sreg;
    uint32_t nsreg, csreg;
    /* stacks */
    Operand *ostk;
    uint32_t osp, ocap;
    Token *tstk;
    uint32_t tsp, tcap;
} ParseCtx;

uint32_t tok_push(ParseCtx *c, int kind, Str text);
void tok_punct(ParseCtx *c, const PtxLoc *loc);
uint32_t op_push(ParseCtx *c, const Operand *o);

bool build_top_linedir(ParseCtx *c, Str text, const PtxLoc *loc);
bool build_body_linedir(ParseCtx *c, Str text, const PtxLoc *loc);
bool build_verbatim(ParseCtx *c, const PtxLoc *loc);
bool build_directive(ParseCtx *c, Str kw, uint32_t tokstart, const PtxLoc *loc);
bool build_decl_or_proto(ParseCtx *c, uint32_t tokstart, const PtxLoc *loc, bool has_init);
bool build_function_begin(ParseCtx *c, uint32_t tokstart, const PtxLoc *head, const PtxLoc *brace);
bool build_function_end(ParseCtx *c, const PtxLoc *brace);
bool build_label(ParseCtx *c, Str name, const PtxLoc *loc);
bool build_body_decl(ParseCtx *c, uint32_t tokstart, const PtxLoc *loc);
bool build_scope(ParseCtx *c, int kind, const PtxLoc *loc);
bool instr_head(ParseCtx *c, const Str *guard, bool neg, Str opcode, const PtxLoc *loc);
bool instr_modifier(ParseCtx *c, Str mod, const PtxLoc *loc);
bool build_instr(ParseCtx *c, const PtxLoc *loc);
bool build_recover_instr(ParseCtx *c, const PtxLoc *loc);

bool op_reg(ParseCtx *c, Operand *o, Str text, bool neg, const PtxLoc *loc);
bool op_ident(ParseCtx *c, Operand *o, Str text, bool neg);
bool op_int(ParseCtx *c, Operand *o, Str num, bool negative, const PtxLoc *loc);
bool op_float(ParseCtx *c, Operand *o, Str num, bool negative, const PtxLoc *loc);
bool op_binary(ParseCtx *c, Operand *o, const Operand *a, int op, const Operand *b, const PtxLoc *loc);
bool op_unary(ParseCtx *c, Operand *o, int op, const Operand *a, const PtxLoc *loc);
bool op_group(ParseCtx *c, Operand *o, int kind, uint32_t start, const PtxLoc *loc);

void build_syntax_error(ParseCtx *c, const PtxLoc *loc, const char *got, const char *const *expected, int nexp);
bool build_error(ParseCtx *c, int line, int col, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The register a name means here: nested scopes first, then the function. */
Reg *build_lookup_reg(ParseCtx *c, Str name);

/* Statement plumbing shared by the build files (build.c). */
Stmt *build_new_stmt(ParseCtx *c, int kind, const PtxLoc *loc);
bool build_add_stmt(ParseCtx *c, Stmt *s);
Token *build_take_tokens(ParseCtx *c, uint32_t start, uint32_t *n);

/* Token runs (decl.c). */
Decl *decl_from_tokens(Arena *a, const Token *tok, uint32_t n);
PerfDirective perf_from_text(Str text);            /* ".maxntid 1, 2, 3" */
bool decl_tokens_are_function(const Token *t, uint32_t n);
/* tok[*i] == '(' ... ')' split at top-level commas; NULL when ')' is
 * missing or (with *empty set) when a parameter is empty */
Decl **decl_param_list(Arena *a, const Token *t, uint32_t n, uint32_t *i, uint32_t *count, bool *empty);
bool tok_is_punct(const Token *t, char ch);

#endif
