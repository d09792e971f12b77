/* ptx.y — the PTX grammar.
 *
 * Deliberately generic: statements are recognised by their first token and
 * their text is kept; declarations, directives and function headers are
 * collected as token runs that parser/build.c interprets.  Instructions are
 * parsed into guard, opcode text (modifiers written apart joined to it) and
 * a structured operand list.  An
 * instruction whose opcode is unknown and whose operands do not fit the
 * operand grammar is kept verbatim (error recovery to the next ';'); for a
 * known opcode that is a syntax error. */

%define api.pure full
%locations
%define api.location.type {PtxLoc}
%define parse.error custom
%param {void *scanner}
%parse-param {ParseCtx *ctx}
%expect 0

%code requires {
#include "ir/ir.h"
#include "lexer/lexer.h"
#include "parser/build.h"
}

%code provides {
int ptx_lex(YYSTYPE *yylval, YYLTYPE *yylloc, void *scanner);
#define yylex ptx_lex
void yyerror(YYLTYPE *loc, void *scanner, ParseCtx *ctx, const char *msg);
}

%code {
#define YYLLOC_DEFAULT(Cur, Rhs, N)                                          \
    do {                                                                     \
        if (N) {                                                             \
            (Cur).first_line = YYRHSLOC(Rhs, 1).first_line;                  \
            (Cur).first_column = YYRHSLOC(Rhs, 1).first_column;              \
            (Cur).begin = YYRHSLOC(Rhs, 1).begin;                            \
            (Cur).end = YYRHSLOC(Rhs, N).end;                                \
        } else {                                                             \
            (Cur).first_line = YYRHSLOC(Rhs, 0).first_line;                  \
            (Cur).first_column = YYRHSLOC(Rhs, 0).first_column;              \
            (Cur).begin = (Cur).end = YYRHSLOC(Rhs, 0).end;                  \
        }                                                                    \
    } while (0)
#define OK(x) do { if (!(x)) YYABORT; } while (0)
}

%union {
    Str s;
    uint32_t idx;
    Operand op;
}

%token <s> T_OPCODE   "opcode"
%token <s> T_LABEL    "label"
%token <s> T_IDENT    "identifier"
%token <s> T_REG      "register"
%token <s> T_INT      "integer"
%token <s> T_FLOAT    "floating-point number"
%token <s> T_STRING   "string"
%token <s> T_DOTWORD  "directive or modifier"
%token <s> T_LINEDIR  "line directive"
%token <s> T_PERF     "performance directive"
%token <s> T_VERBATIM "unknown directive"
%token <s> T_SINK     "'_'"
%token <s> K_ENTRY    "'.entry'"
%token <s> K_FUNC     "'.func'"
%token <s> K_DIRECTIVE "directive"
%token T_LEXERROR     "invalid token"
%token T_SHL "'<<'" T_SHR "'>>'" T_LE "'<='" T_GE "'>='" T_EQ "'=='" T_NE "'!='" T_ANDAND "'&&'" T_OROR "'||'"

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
%right UNARY

%type <idx> head hfirst toks init oplist
%type <op> expr prim

%%

module
    : %empty
    | module item
    ;

item
    : T_LINEDIR                         { OK(build_top_linedir(ctx, $1, &@1)); }
    | T_VERBATIM                        { OK(build_verbatim(ctx, &@1)); }
    | T_PERF                            { OK(build_verbatim(ctx, &@1)); }
    | K_DIRECTIVE toks ';'              { OK(build_directive(ctx, $1, $2, &@$)); }
    | head ';'                          { OK(build_decl_or_proto(ctx, $1, &@$, false)); }
    | head '=' { tok_punct(ctx, &@2); } init ';'
                                        { OK(build_decl_or_proto(ctx, $1, &@$, true)); }
    | head '{'                          { OK(build_function_begin(ctx, $1, &@1, &@2)); }
      body '}'                          { OK(build_function_end(ctx, &@5)); }
    | ';'                               { OK(build_verbatim(ctx, &@1)); }
    ;

/* A declaration or function header: a run of tokens (kept on the token stack). */
head
    : hfirst                            { $$ = $1; }
    | head htok                         { $$ = $1; }
    ;
hfirst
    : T_DOTWORD                         { $$ = tok_push(ctx, TOKK_DOTWORD, $1); }
    | K_ENTRY                           { $$ = tok_push(ctx, TOKK_DOTWORD, $1); }
    | K_FUNC                            { $$ = tok_push(ctx, TOKK_DOTWORD, $1); }
    ;
htok
    : T_DOTWORD                         { tok_push(ctx, TOKK_DOTWORD, $1); }
    | K_ENTRY                           { tok_push(ctx, TOKK_DOTWORD, $1); }
    | K_FUNC                            { tok_push(ctx, TOKK_DOTWORD, $1); }
    | T_PERF                            { tok_push(ctx, TOKK_PERF, $1); }
    | K_DIRECTIVE                       { tok_push(ctx, TOKK_DOTWORD, $1); }
      toks ';'                          { tok_punct(ctx, &@4); }  /* .pragma "nounroll"; before the body */
    | common_tok
    ;

/* Tokens that may appear in declarations, initializers and directive bodies. */
common_tok
    : T_IDENT                           { tok_push(ctx, TOKK_WORD, $1); }
    | T_REG                             { tok_push(ctx, TOKK_REG, $1); }
    | T_INT                             { tok_push(ctx, TOKK_INT, $1); }
    | T_FLOAT                           { tok_push(ctx, TOKK_FLOAT, $1); }
    | T_STRING                          { tok_push(ctx, TOKK_STRING, $1); }
    | T_SINK                            { tok_push(ctx, TOKK_WORD, $1); }
    | punct
    ;
punct
    : ','   { tok_punct(ctx, &@1); } | '('   { tok_punct(ctx, &@1); } | ')'   { tok_punct(ctx, &@1); }
    | '['   { tok_punct(ctx, &@1); } | ']'   { tok_punct(ctx, &@1); } | '<'   { tok_punct(ctx, &@1); }
    | '>'   { tok_punct(ctx, &@1); } | '+'   { tok_punct(ctx, &@1); } | '-'   { tok_punct(ctx, &@1); }
    | '*'   { tok_punct(ctx, &@1); } | '/'   { tok_punct(ctx, &@1); } | '~'   { tok_punct(ctx, &@1); }
    | '&'   { tok_punct(ctx, &@1); } | '|'   { tok_punct(ctx, &@1); } | '^'   { tok_punct(ctx, &@1); }
    | '!'   { tok_punct(ctx, &@1); } | '?'   { tok_punct(ctx, &@1); } | ':'   { tok_punct(ctx, &@1); }
    | '%'   { tok_punct(ctx, &@1); } | '@'   { tok_punct(ctx, &@1); }
    | T_SHL { tok_punct(ctx, &@1); } | T_SHR { tok_punct(ctx, &@1); } | T_LE  { tok_punct(ctx, &@1); }
    | T_GE  { tok_punct(ctx, &@1); } | T_EQ  { tok_punct(ctx, &@1); } | T_NE  { tok_punct(ctx, &@1); }
    | T_ANDAND { tok_punct(ctx, &@1); } | T_OROR { tok_punct(ctx, &@1); }
    ;

/* Initializer: tokens with balanced braces. */
init
    : %empty                            { $$ = ctx->tsp; }
    | init itok                         { $$ = $1; }
    ;
itok
    : common_tok
    | '='                               { tok_punct(ctx, &@1); }
    | T_DOTWORD                         { tok_push(ctx, TOKK_DOTWORD, $1); }
    | '{'                               { tok_punct(ctx, &@1); }
      init '}'                          { tok_punct(ctx, &@4); }
    ;

/* Directive bodies (.pragma, .callprototype, .branchtargets, .alias, ...). */
toks
    : %empty                            { $$ = ctx->tsp; }
    | toks dtok                         { $$ = $1; }
    ;
dtok
    : common_tok
    | T_DOTWORD                         { tok_push(ctx, TOKK_DOTWORD, $1); }
    ;

body
    : %empty
    | body stmt
    ;

stmt
    : T_LABEL                           { OK(build_label(ctx, $1, &@1)); }
    | instr
    | head ';'                          { OK(build_body_decl(ctx, $1, &@$)); }
    | head '=' { tok_punct(ctx, &@2); } init ';'
                                        { OK(build_body_decl(ctx, $1, &@$)); }
    | K_DIRECTIVE toks ';'              { OK(build_directive(ctx, $1, $2, &@$)); }
    | T_LINEDIR                         { OK(build_body_linedir(ctx, $1, &@1)); }
    | T_VERBATIM                        { OK(build_verbatim(ctx, &@1)); }
    | T_PERF                            { OK(build_verbatim(ctx, &@1)); }
    | '{'                               { OK(build_scope(ctx, STMT_SCOPE_OPEN, &@1)); }
      body '}'                          { OK(build_scope(ctx, STMT_SCOPE_CLOSE, &@4)); }
    | ';'                               { OK(build_verbatim(ctx, &@1)); }
    ;

instr
    : ihead operands ';'                { OK(build_instr(ctx, &@$)); }
    | ihead error ';'                   { OK(build_recover_instr(ctx, &@$)); }
    ;
ihead
    : T_OPCODE                          { OK(instr_head(ctx, NULL, false, $1, &@1)); }
    | '@' T_REG T_OPCODE                { OK(instr_head(ctx, &$2, false, $3, &@2)); }
    | '@' '!' T_REG T_OPCODE            { OK(instr_head(ctx, &$3, true, $4, &@3)); }
    | '@' T_IDENT T_OPCODE              { OK(instr_head(ctx, &$2, false, $3, &@2)); }
    | '@' '!' T_IDENT T_OPCODE          { OK(instr_head(ctx, &$3, true, $4, &@3)); }
    | ihead T_DOTWORD                   { OK(instr_modifier(ctx, $2, &@2)); }  /* "add .u32", "st.global\n .u32" */
    ;
operands
    : %empty
    | oplist
    ;
oplist
    : expr                              { $$ = op_push(ctx, &$1); }
    | oplist ',' expr                   { op_push(ctx, &$3); $$ = $1; }
    ;
/* Operands are expressions: the common shapes (register, symbol, literal,
 * reg/sym +- offset, d|p pair, !pred) become structured operands; any
 * other constant expression is kept as text (OPND_EXPR). */
expr
    : prim                              { $$ = $1; }
    | expr '+' expr                     { OK(op_binary(ctx, &$$, &$1, '+', &$3, &@$)); }
    | expr '-' expr                     { OK(op_binary(ctx, &$$, &$1, '-', &$3, &@$)); }
    | expr '*' expr                     { OK(op_binary(ctx, &$$, &$1, '*', &$3, &@$)); }
    | expr '/' expr                     { OK(op_binary(ctx, &$$, &$1, '/', &$3, &@$)); }
    | expr '%' expr                     { OK(op_binary(ctx, &$$, &$1, '%', &$3, &@$)); }
    | expr '&' expr                     { OK(op_binary(ctx, &$$, &$1, '&', &$3, &@$)); }
    | expr '|' expr                     { OK(op_binary(ctx, &$$, &$1, '|', &$3, &@$)); }
    | expr '^' expr                     { OK(op_binary(ctx, &$$, &$1, '^', &$3, &@$)); }
    | expr T_SHL expr                   { OK(op_binary(ctx, &$$, &$1, 'L', &$3, &@$)); }
    | expr T_SHR expr                   { OK(op_binary(ctx, &$$, &$1, 'R', &$3, &@$)); }
    | expr '<' expr                     { OK(op_binary(ctx, &$$, &$1, '<', &$3, &@$)); }
    | expr '>' expr                     { OK(op_binary(ctx, &$$, &$1, '>', &$3, &@$)); }
    | expr T_LE expr                    { OK(op_binary(ctx, &$$, &$1, 'l', &$3, &@$)); }
    | expr T_GE expr                    { OK(op_binary(ctx, &$$, &$1, 'g', &$3, &@$)); }
    | expr T_EQ expr                    { OK(op_binary(ctx, &$$, &$1, '=', &$3, &@$)); }
    | expr T_NE expr                    { OK(op_binary(ctx, &$$, &$1, 'n', &$3, &@$)); }
    | expr T_ANDAND expr                { OK(op_binary(ctx, &$$, &$1, 'A', &$3, &@$)); }
    | expr T_OROR expr                  { OK(op_binary(ctx, &$$, &$1, 'O', &$3, &@$)); }
    | expr '?' expr ':' expr            { OK(op_binary(ctx, &$$, &$1, '?', &$3, &@$)); }
    | '-' expr %prec UNARY              { OK(op_unary(ctx, &$$, '-', &$2, &@$)); }
    | '!' expr %prec UNARY              { OK(op_unary(ctx, &$$, '!', &$2, &@$)); }
    | '~' expr %prec UNARY              { OK(op_unary(ctx, &$$, '~', &$2, &@$)); }
    ;
prim
    : T_REG                             { OK(op_reg(ctx, &$$, $1, false, &@1)); }
    | T_IDENT                           { OK(op_ident(ctx, &$$, $1, false)); }
    | T_INT                             { OK(op_int(ctx, &$$, $1, false, &@1)); }
    | T_FLOAT                           { OK(op_float(ctx, &$$, $1, false, &@1)); }
    | T_SINK                            { $$ = ir_op_sink(); }
    | '[' oplist ']'                    { OK(op_group(ctx, &$$, OPND_ADDR, $2, &@$)); }
    | '{' oplist '}'                    { OK(op_group(ctx, &$$, OPND_VEC, $2, &@$)); }
    | '(' oplist ')'                    { OK(op_group(ctx, &$$, OPND_LIST, $2, &@$)); }
    | '(' ')'                           { OK(op_group(ctx, &$$, OPND_LIST, ctx->osp, &@$)); }
    ;

%%

/* Only reached for "memory exhausted" (syntax errors go through
 * yyreport_syntax_error). */
void yyerror(YYLTYPE *loc, void *scanner, ParseCtx *ctx, const char *msg)
{
    (void)scanner;
    build_error(ctx, loc->first_line, loc->first_column, "%s (input nested too deeply?)", msg);
}

static int yyreport_syntax_error(const yypcontext_t *yyctx, void *scanner, ParseCtx *ctx)
{
    (void)scanner;
    /* Name at most a few expected tokens, punctuation first (a missing ';'
     * or ',' is the usual mistake); with many possibilities name none. */
    enum { MAXEXP = 6, MANY = YYNTOKENS };
    yysymbol_kind_t all[MANY];
    int n = yypcontext_expected_tokens(yyctx, all, MANY);
    const char *names[MAXEXP];
    int k = 0;
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < n && k < MAXEXP; i++) {
            const char *nm = yysymbol_name(all[i]);
            bool punct = nm[0] == '\'' || (nm[0] == '"' && nm[1] == '\'');
            const char *c = strchr(nm, '\'');
            bool closing = punct && c && c[1] && strchr(";,)]}>", c[1]) && c[2] == '\'';
            int rank = closing ? 0 : punct ? 1 : 2;
            if (rank == pass) names[k++] = nm;
        }
    if (n > MAXEXP && k == MAXEXP) k = MAXEXP - 1;
    yysymbol_kind_t got = yypcontext_token(yyctx);
    const YYLTYPE *loc = yypcontext_location(yyctx);
    build_syntax_error(ctx, loc, got == YYSYMBOL_YYEOF ? NULL : yysymbol_name(got), names, k);
    return 0;
}
