/* ir.h — the public face of ptxopt's intermediate representation.
 *
 * A Module is one PTX file.  It owns an arena (all IR memory; freeing the
 * module is one call) and the source buffer, which IR strings point into.
 *
 *   Module ─┬─ top-level items (Stmt list: directives, declarations,
 *           │   functions, verbatim text)
 *           └─ Function ─ Block list ─ Stmt list (instructions, labels,
 *                                      declarations, directives, scopes)
 *
 * Every Stmt remembers its exact source text *including the whitespace and
 * comments in front of it* (src/src_len, with lead_len bytes of that being
 * the leading trivia).  The printer emits an untouched Stmt from that text,
 * so printing an unchanged module reproduces the input byte for byte.  A
 * pass that changes a Stmt marks it dirty (ir_touch) and the printer then
 * prints it in the canonical style.
 *
 * Instructions keep a generic shape that never loses information: guard,
 * opcode + ordered modifiers (kept as the dotted text "ld.global.nc.f32"),
 * operands.  Opcodes are classified by ir/opcode.h so passes ask questions
 * (is it a load?  collective?) instead of matching strings.
 *
 * Registers are interned per function (Reg, dense ids for analyses);
 * "%r<100>" declarations are expanded lazily, only names actually used get
 * a Reg.  Strings are Str slices (pointer + length), never NUL-terminated.
 */
#ifndef PTXOPT_IR_H
#define PTXOPT_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ir/arena.h"
#include "ir/opcode.h"
#include "ir/str.h"

typedef struct Module Module;
typedef struct Function Function;
typedef struct Block Block;
typedef struct Stmt Stmt;
typedef struct Instr Instr;
typedef struct Operand Operand;
typedef struct Reg Reg;
typedef struct Decl Decl;
typedef struct Token Token;

/* ---------------------------------------------------------------- tokens */

/* A raw token of a directive or declaration, kept for canonical printing. */
struct Token {
    Str text;
    uint8_t kind; /* TOKK_* */
};
enum { TOKK_WORD, TOKK_DOTWORD, TOKK_REG, TOKK_INT, TOKK_FLOAT, TOKK_STRING, TOKK_PUNCT, TOKK_PERF };

/* -------------------------------------------------------------- registers */

/* Register class: what kind of hardware register a value lives in. */
typedef enum RegClass {
    RC_PRED, RC_B16, RC_B32, RC_B64, RC_B128, RC_F32, RC_F64, RC_B8, RC_OTHER
} RegClass;

struct Reg {
    Str name;          /* "%r12", "%tid.x" has name "%tid" and comp 'x' in the operand */
    Str type;          /* declared type: ".b32", ".f32", ".pred", ... (empty for specials) */
    uint32_t id;       /* dense per function, 0..fn->nregs-1 */
    uint8_t cls;       /* RegClass */
    uint8_t vec;       /* 0, 2, 4: declared as a vector register (.v2/.v4) */
    bool special;      /* %tid, %ntid, %laneid, ... */
    bool fresh;        /* created by a pass; declared by the printer */
};

/* --------------------------------------------------------------- operands */

typedef enum OperandKind {
    OPND_REG,    /* reg (+ comp for %tid.x or vector component) */
    OPND_INT,    /* integer immediate: value = exact bits, text = source token */
    OPND_FLOAT,  /* float immediate: value = bits (0f/0F → 32, 0d/0D → 64, decimal → double bits) */
    OPND_SYM,    /* identifier: variable, parameter, function or label; value = +offset */
    OPND_ADDR,   /* [ elems... ] ; one element: base (REG/SYM/INT) with value = offset;
                    several elements: texture/surface tuple [tex, {c..}] */
    OPND_VEC,    /* { elems... } */
    OPND_LIST,   /* ( elems... ) — call argument / return lists */
    OPND_SINK,   /* _ */
    OPND_PAIR,   /* elems[0] | elems[1]  (setp d|p, shfl d|p) */
    OPND_EXPR    /* anything else (constant expressions): printed from text */
} OperandKind;

/* Operand flags. */
enum { OPNDF_NEG = 1,     /* !%p */
       OPNDF_MINUS = 2,   /* -%r (vmad's negated sources) */
       OPNDF_FOLDED = 4 }; /* INT: a constant expression, value folded; text is its source */

struct Operand {
    uint8_t kind;    /* OperandKind */
    uint8_t flags;   /* OPNDF_* */
    char comp;       /* 'x','y','z','w','r','g','b','a' component suffix, or 0 */
    uint8_t n;       /* number of elems (ADDR, VEC, LIST, PAIR) */
    union {
        uint32_t textlen;  /* INT/FLOAT/SYM/EXPR */
        uint32_t sel;      /* REG: video-instruction byte/half selector
                              (%r1.b0, %r1.h1, %r1.b3210), 0 when none;
                              see opnd_sel_parse (ir/selector.c) */
    };
    union {              /* one of them, by kind (24-byte operands: the IR of
                            a large module is mostly operands) */
        struct {
            union {
                Reg *reg;        /* OPND_REG */
                Operand *elems;  /* ADDR, VEC, LIST, PAIR */
            } u;
        };
        const char *text;        /* INT/FLOAT/SYM/EXPR: source text (SYM: the name) */
    };
    int64_t value;       /* INT/FLOAT bits, SYM/ADDR offset */
};

static inline Str opnd_text(const Operand *o) { return (Str){ o->text, o->textlen }; }

/* Byte/half selectors of video instructions: the text after the register's
 * dot ("b0", "h1", "b3210", "h10") packed into Operand.sel; false when the
 * text is not one (a letter b or h and one to four digits below 8). */
bool opnd_sel_parse(Str text, uint32_t *sel);
/* Writes the selector's text (without the dot, NUL-terminated); its length. */
int opnd_sel_format(uint32_t sel, char buf[8]);

/* ------------------------------------------------------------ instructions */

struct Instr {
    Str opname;      /* "ld" */
    Str full;        /* "ld.global.nc.v4.f32": opcode and modifiers in order */
    Reg *guard;      /* @%p / @!%p, or NULL */
    Operand *ops;
    Opcode op;       /* OP_UNKNOWN when not in the table */
    bool guard_neg;
    uint8_t nops;
};

/* Modifier access (".global", ".nc", ".v4", ".f32", ".shared::cta"...). */
int  instr_nmods(const Instr *in);
Str  instr_mod(const Instr *in, int k);                /* with the leading dot */
bool instr_has_mod(const Instr *in, const char *mod);  /* mod with dot: ".nc" */
int  instr_find_mod(const Instr *in, const char *mod); /* index or -1 */
Str  instr_type(const Instr *in);                      /* last type modifier (".f32"), or empty */
Str  instr_space(const Instr *in);                     /* state space modifier (".global"), or empty */

/* ------------------------------------------------------------- statements */

typedef enum StmtKind {
    STMT_INSTR,      /* an instruction */
    STMT_LABEL,      /* name: */
    STMT_DECL,       /* .reg/.local/.shared/.global/.const/.param/... declaration */
    STMT_DIRECTIVE,  /* .version .target .address_size .file .loc .pragma .alias
                        .callprototype .branchtargets .calltargets .section ... */
    STMT_FUNC,       /* top level: a function (entry or func, with or without body) */
    STMT_SCOPE_OPEN, /* { inside a function body */
    STMT_SCOPE_CLOSE,/* } inside a function body */
    STMT_VERBATIM    /* unknown directive or instruction, kept as text */
} StmtKind;

/* Directive kinds (STMT_DIRECTIVE). */
typedef enum DirKind {
    DIR_VERSION, DIR_TARGET, DIR_ADDRESS_SIZE, DIR_FILE, DIR_LOC, DIR_SECTION,
    DIR_PRAGMA, DIR_ALIAS, DIR_CALLPROTOTYPE, DIR_BRANCHTARGETS, DIR_CALLTARGETS,
    DIR_PERF, /* a performance directive inside a body (rare) */
    DIR_OTHER
} DirKind;

/* A declaration: qualifiers, then one or more declarators, then an
 * optional initializer.  Structured fields are extracted for the common
 * questions; the tokens are the whole truth for printing. */
typedef struct Declarator {
    Str name;
    int32_t range;      /* %r<N>: N; otherwise -1 */
    uint8_t ndims;      /* array dimensions */
    int64_t dims[4];    /* -1 for [] */
} Declarator;

struct Decl {
    Str space;          /* ".reg", ".param", ".shared", ".global", ".const", ".local", ".tex", ... */
    Str type;           /* ".b32", ".f32", ".u64", ".pred", ".texref", ... (vector: see vec) */
    uint8_t vec;        /* .v2/.v4/.v8 */
    int32_t align;      /* .align N, or 0 */
    Str ptr_space;      /* .ptr .global → ".global" */
    int32_t ptr_align;  /* .ptr ... .align N */
    uint16_t ndecl;
    Declarator *decls;
    bool has_init;
    uint32_t ntok;      /* every token, in order, ';' excluded */
    Token *tok;
};

struct Stmt {
    Stmt *prev, *next;
    Block *block;       /* owning block for body statements, NULL at top level */
    const char *src;    /* leading trivia + text; NULL for statements made by passes */
    uint32_t src_len;
    uint32_t lead_len;  /* bytes of src that are leading whitespace/comments */
    uint32_t line;      /* of the first token */
    uint16_t col;       /* of the first token (saturates at 65535) */
    uint8_t kind;       /* StmtKind */
    uint8_t dirkind;    /* DirKind when kind == STMT_DIRECTIVE */
    bool dirty;         /* print canonically (set by passes via ir_touch) */
    union {
        Instr instr;                     /* STMT_INSTR */
        Str label;                       /* STMT_LABEL */
        Decl *decl;                      /* STMT_DECL */
        struct { uint32_t ntok; Token *tok; } dir; /* STMT_DIRECTIVE / VERBATIM */
        Function *fn;                    /* STMT_FUNC */
    } u;
};

/* -------------------------------------------------------------- functions */

typedef struct PerfDirective {
    Str name;           /* ".maxntid" */
    uint8_t n;
    uint32_t v[3];
    Str text;           /* verbatim (used when the directive is unknown) */
} PerfDirective;

struct Block {
    Block *prev, *next;
    Function *fn;
    Stmt *first, *last;
    Str label;          /* label that starts the block (empty for the entry / fallthrough block) */
    uint32_t id;        /* dense per function, in layout order (ir_renumber_blocks) */
};

struct Function {
    Module *mod;
    Stmt *stmt;         /* the STMT_FUNC that holds it */
    Str name;
    bool is_entry;      /* .entry vs .func */
    bool has_body;
    bool opaque;        /* contains something passes must not reason about */
    uint32_t nlinkage;
    Str *linkage;       /* ".visible", ".extern", ".weak" */
    uint32_t nret, nparam;
    Decl **ret;         /* return parameters (.func) */
    Decl **params;
    uint32_t nperf;
    PerfDirective *perf;
    uint32_t nhextra;
    Token *hextra;      /* other header tokens after the parameters (kept, printed as is) */
    bool header_dirty;  /* print the header canonically */
    const char *head_src; /* leading trivia + header text up to and including '{' (or ';') */
    uint32_t head_len, head_lead;
    const char *tail_src; /* trivia + closing '}' */
    uint32_t tail_len;

    Block *first, *last;
    uint32_t nblocks;

    /* registers */
    uint32_t nregs;
    Reg **regs;         /* by id */
    void *regtab;       /* private: name → Reg, declarations */
    uint32_t fresh_counter;
    uint32_t nfresh;

    void *analysis;     /* private cache of the analyses (analysis/) */
};

/* ----------------------------------------------------------------- module */

struct Module {
    Arena arena;
    const char *filename;
    char *buf;          /* the source (owned, NUL-terminated) */
    size_t len;
    Stmt *first, *last; /* top-level items */
    const char *tail_src; /* trailing trivia after the last item */
    uint32_t tail_len;
    uint32_t nfuncs;
    Function **funcs;   /* in order */
    /* parsed module directives */
    int version_major, version_minor;  /* -1 when absent */
    Str target;         /* ".target" text after the directive, e.g. "sm_90a, texmode_independent" */
    char target_text[96]; /* storage of `target` (outlives streamed statements) */
    int target_sm;      /* numeric: 90 for sm_90a, 0 when unknown */
    int address_size;   /* 32 / 64, default 64 */
    struct ModSyms *syms; /* module-level variables by name (modsyms_*), kept
                             by the parser; survives streaming */
};

/* Module-level variables by name: the parser adds every top-level
 * declaration (first one wins); analyses look names up in O(1). */
typedef struct ModSyms ModSyms;
void modsyms_add_decl(Module *m, const Decl *d);
bool modsyms_find(const Module *m, Str name, Str *space);   /* *space: as declared (".global", ".shared::cta", ...) */
void modsyms_free(ModSyms *t);

/* -------------------------------------------------------------- lifecycle */

Module *ir_module_new(const char *filename);
void ir_module_free(Module *m);

/* ------------------------------------------------------------- iteration */

#define FOR_EACH_BLOCK(b, fn) for (Block *b = (fn)->first; b; b = b->next)
#define FOR_EACH_STMT(s, blk) for (Stmt *s = (blk)->first; s; s = s->next)

/* First/last instruction statements of a block (skipping labels, directives). */
Stmt *ir_block_first_instr(Block *b);
Stmt *ir_block_last_instr(Block *b);

/* ---------------------------------------------------------------- builder */

/* Registers: look up an existing name (NULL if unknown) or make a fresh one
 * of a given type (".b32", ".pred", ...) whose name cannot collide. */
Reg *ir_find_reg(Function *fn, Str name);
Reg *ir_fresh_reg(Function *fn, const char *type);
/* A label name not used anywhere in the module, "$ptxopt_L<n>". */
Str ir_fresh_label(Function *fn);

/* Statement construction (allocated in the module arena, dirty). */
Stmt *ir_new_instr(Function *fn, const char *full, int nops);   /* full: "add.s32" */
Stmt *ir_new_label(Function *fn, Str name);
Operand ir_op_reg(Reg *r);
Operand ir_op_int(Module *m, int64_t v);
Operand ir_op_sym(Module *m, Str name, int64_t off);
Operand ir_op_addr(Module *m, Operand base, int64_t off);
Operand ir_op_vec(Module *m, const Operand *elems, int n);
Operand ir_op_pair(Module *m, Operand a, Operand b);
Operand ir_op_sink(void);
Operand ir_op_special(Function *fn, const char *name, char comp); /* "%tid", 'x' */

/* Placement. */
void ir_insert_before(Stmt *pos, Stmt *s);
void ir_insert_after(Stmt *pos, Stmt *s);
void ir_append(Block *b, Stmt *s);
void ir_remove(Stmt *s);
void ir_touch(Stmt *s);                        /* changed: print canonically */
void ir_set_full(Module *m, Instr *in, const char *full);  /* change opcode/modifiers */
Block *ir_split_block_before(Stmt *s);         /* s starts a new block */
Block *ir_new_block_after(Block *b);           /* an empty block right after b (call ir_renumber_blocks) */
void ir_renumber_blocks(Function *fn);

/* Module directive edits. */
void ir_set_version(Module *m, int major, int minor);
/* Replace the sm_XX entry of every .target directive among m's top-level
 * statements (keeping the other entries) and set m->target_sm. */
void ir_set_target(Module *m, const char *sm_name, int sm);

#endif
