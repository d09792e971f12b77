/* regs.h — per-function register table (private to ir/ and parser/).
 *
 * Declarations are recorded as written ("%r<100>" is one entry); a Reg is
 * created only when a name is first used, so huge ranges cost nothing. */
#ifndef PTXOPT_REGS_H
#define PTXOPT_REGS_H

#include "ir/ir.h"

/* Records ".reg TYPE name" or ".reg TYPE name<range>" (range < 0: single).
 * Returns false when the name was already declared with another type. */
bool regs_declare(Function *fn, Str name, Str type, int vec, int32_t range);
/* The Reg for a declared or special register name, created on first use;
 * NULL when the name is neither declared nor a special register. */
Reg *regs_lookup(Function *fn, Str name);
/* Is this (without component) the name of a PTX special register? */
bool regs_is_special(Str name);
RegClass regs_class_of_type(Str type);
/* Name is declared (or used) already: fresh names must avoid it. */
bool regs_name_taken(Function *fn, Str name);
Reg *regs_add_fresh(Function *fn, Str name, Str type);
/* A register declared in a nested { } scope: its own Reg (dense id), not
 * entered in the function's name table, so it may share its name with an
 * outer register it shadows.  The parser resolves names in scopes first. */
Reg *regs_new_scoped(Function *fn, Str name, Str type, int vec);
/* Does the declaration `decl` (range < 0: a single name; else decl<range>)
 * declare `name`? */
bool regs_decl_covers(Str decl, int32_t range, Str name);

#endif
