/* callgraph.h — the call graph of a module. */
#ifndef PTXOPT_ANALYSIS_CALLGRAPH_H
#define PTXOPT_ANALYSIS_CALLGRAPH_H

#include <stdint.h>
#include <stdbool.h>

#include "analysis/analysis.h"

/* Call graph of a module (intra-procedural CFGs have no call edges). */
typedef struct CallSite {
    uint32_t caller;          /* index in m->funcs */
    Stmt *stmt;
    uint32_t callee;          /* index in m->funcs, ANA_NONE: indirect or not defined here */
    Str name;                 /* callee name; empty when indirect */
    bool indirect;            /* call through a register (targets: .calltargets, or unknown) */
} CallSite;

typedef struct CallGraph {
    Module *m;
    uint32_t nfuncs;
    uint32_t nsites;
    CallSite *sites;          /* grouped by caller, in layout order */
    uint32_t *site_start;     /* [nfuncs + 1] */
    uint32_t *callee_start, *callees;  /* distinct direct callees per function (CSR) */
    bool *recursive;          /* [nfuncs] on a cycle of direct calls */
    bool *has_indirect;       /* [nfuncs] makes an indirect call */
} CallGraph;

CallGraph *callgraph_build(Module *m);    /* malloc'ed */
void callgraph_free(CallGraph *cg);

#endif
