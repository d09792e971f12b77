/* dump.h — the analyses as text or Graphviz (ptxopt --dump). */
#ifndef PTXOPT_ANALYSIS_DUMP_H
#define PTXOPT_ANALYSIS_DUMP_H

#include <stdio.h>

#include "ir/ir.h"

/* what: cfg|dom|postdom|loops|ssa|liveness|uniform|terms; kernel: a function
 * name or NULL for all; format: text|dot.  Returns 0, or 2 after a message
 * on stderr for an unknown what/format or a kernel that does not exist. */
int analysis_dump(Module *m, const char *what, const char *kernel, const char *format, FILE *out);

#endif
