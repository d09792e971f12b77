/* lexer.h — the PTX scanner's public face (lexer/ptx.l).
 *
 * The scanner runs over the module's buffer in place (no copy) and returns
 * tokens whose text are slices of that buffer.  It also classifies a few
 * things that depend on position rather than grammar, which keeps the
 * bison grammar small and conflict-free:
 *   - an identifier at the start of a statement is an opcode (with its
 *     dotted modifiers), or a label when a ':' follows;
 *   - line-shaped directives without a ';' (.version .target .address_size
 *     .file .loc, performance directives) and .section blocks are returned
 *     whole, as one token;
 *   - an unknown directive at the start of a statement is returned whole
 *     as a verbatim token (to ';' or the end of the line), never an error;
 *     so is an "@@DWARF" line;
 *   - a register with a video selector (%r1.h0, %r1.b3210) is one token;
 *     a modifier apart from its opcode ("add .u32") is a dotted word that
 *     the grammar joins to the opcode.
 */
#ifndef PTXOPT_LEXER_H
#define PTXOPT_LEXER_H

#include <stdbool.h>
#include <stdint.h>

#include "ir/str.h"

/* Source location of a token or grammar symbol: 1-based line/column of the
 * first character, and the half-open byte range in the buffer.  (Kept small:
 * the parser copies one per token and per reduction.) */
typedef struct PtxLoc {
    int first_line, first_column;
    uint32_t begin, end;
} PtxLoc;

/* Kinds of whole-line directive tokens (T_LINEDIR). */
enum { LD_VERSION, LD_TARGET, LD_ADDRESS_SIZE, LD_FILE, LD_LOC, LD_SECTION };

typedef struct LexState {
    const char *buf;        /* start of the buffer */
    const char *line_start; /* first byte of the current line */
    int line;
    bool in_stmt;           /* inside a statement (between its first token and ';') */
    bool in_header;         /* inside a function header (until '{' or ';') */
    int guard;              /* 0 none, 1 after '@', 2 after '@' [!] reg: next ident is an opcode */
    int linedir_kind;       /* LD_* of the last T_LINEDIR */
    /* lexical error, reported by the parser in place of a syntax error */
    bool error;
    int err_line, err_col;
    char err_msg[160];
} LexState;

/* Undo the scanner's temporary NUL after the current token so the buffer
 * reads as the source again (before quoting source lines in diagnostics). */
void ptx_restore_buffer(void *scanner);

#endif
