/* parse.h — turn PTX text into a Module.
 *
 * parse_module() never crashes on bad input: it returns NULL after printing
 * one diagnostic "file:line:col: error: message" with the offending line and
 * a caret (and, for syntax errors, the tokens that were expected). */
#ifndef PTXOPT_PARSE_H
#define PTXOPT_PARSE_H

#include <stdio.h>

#include "ir/ir.h"

/* Parses `len` bytes at `buf`.  The module takes ownership of buf, which
 * must be malloc'ed with at least len + 2 bytes (the scanner needs two
 * trailing NULs; parse_module writes them).  `filename` is used in
 * diagnostics and kept by the module.  Diagnostics go to `diag` (stderr
 * when NULL). */
Module *parse_module(const char *filename, char *buf, size_t len, FILE *diag);

/* Streaming: like parse_module, but each top-level item (directive,
 * declaration, function) is handed to on_item as soon as it is complete and
 * released afterwards; the module then holds one item at a time (in
 * m->first, and m->funcs[0] for a function).  Peak memory is that of the
 * largest function.  Returns the module (for m->tail_src and the module
 * directives) or NULL after a diagnostic or when on_item returned false. */
Module *parse_module_stream(const char *filename, char *buf, size_t len, FILE *diag,
                            bool (*on_item)(void *ud, Module *m, Stmt *item), void *ud);
/* The module's `.version X.Y` as X * 100 + Y, read off the start of the
 * text (after whitespace and comments, where PTX requires it) without
 * parsing: callers choose streaming or whole-module parsing with it
 * (pipeline_streamable).  -1 when the text does not start with one. */
int parse_peek_version(const char *buf, size_t len);

/* Reads a whole file ("-" is stdin) into a buffer suitable for parse_module. */
char *read_file(const char *path, size_t *len, FILE *diag);

/* Convenience: read a whole file ("-" is stdin) and parse it.  On I/O
 * errors prints "ptxopt: cannot read FILE: reason" and returns NULL. */
Module *parse_file(const char *path, FILE *diag);

#endif
