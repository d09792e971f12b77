/* pass.h — the pass manager's public face.
 *
 * A pipeline is written as in LLVM's opt: "name,name<key=value;key=value>".
 * Each pass is registered in opt/registry.c with the option keys it accepts
 * and a validator for their values; a pipeline naming an unknown pass or
 * key, or giving a value the pass would refuse, is rejected when it is
 * parsed (a usage error), before any input is read. */
#ifndef PTXOPT_PASS_H
#define PTXOPT_PASS_H

#include <stdbool.h>
#include <stdio.h>

#include "ir/ir.h"
#include "opt/remarks.h"

typedef struct PassArg {
    const char *key, *value;
} PassArg;

typedef struct PassInfo PassInfo;

typedef struct PassInvocation {
    const PassInfo *pass;
    int nargs;
    PassArg *args;
} PassInvocation;

typedef struct Pipeline {
    int n;
    PassInvocation *v;
    char *storage;      /* owns the strings */
    PassArg *argstore;  /* owns the arguments */
} Pipeline;

/* Context a pass runs in: the target override, remarks sink. */
typedef struct PassContext {
    int target_sm;      /* effective sm number (module's, or --target) */
    Remarks *remarks;
} PassContext;

struct PassInfo {
    const char *name;
    const char *summary;
    /* true when the pass looks at one function at a time and never edits
     * module-level statements: such pipelines run while streaming */
    bool function_local;
    /* > 0: the pass is function-local too when the module's .version is at
     * least this (major * 100 + minor), e.g. a pass that only raises an
     * older .version */
    int local_from_version;
    /* non-NULL: the pass is function-local too with these options (e.g.
     * bypass unless delivery=global declares its module variable) */
    bool (*local_with)(const PassInvocation *inv);
    const char *const *keys;   /* NULL-terminated list of accepted option keys */
    /* Checks the option values of one invocation (the keys are already
     * known to be accepted); on error writes the reason, without the pass's
     * name, to err and returns false.  Passes implement it with the option
     * reader their run uses, so each rule is written once.  NULL: any value. */
    bool (*validate)(const PassInvocation *inv, char *err, size_t errsz);
    /* Returns 0 on success; non-zero means the pass failed (internal error). */
    int (*run)(Module *m, const PassInvocation *inv, PassContext *ctx);
};

/* Registry (opt/registry.c). */
const PassInfo *pass_find(const char *name, size_t len);
int pass_count(void);
const PassInfo *pass_at(int i);

/* Parses a pipeline and validates every pass's options; on error writes a
 * message to `err` (size errsz) and returns false.  An empty string is an
 * empty pipeline. */
bool pipeline_parse(const char *text, Pipeline *out, char *err, size_t errsz);
void pipeline_free(Pipeline *p);
int pipeline_run(const Pipeline *p, Module *m, PassContext *ctx);
/* Every pass is function-local (an empty pipeline is) for a module of
 * .version `version` (major * 100 + minor; -1 when unknown) with the
 * options it is given. */
bool pipeline_streamable(const Pipeline *p, int version);

/* Option helpers for passes. */
const char *pass_arg(const PassInvocation *inv, const char *key);   /* NULL if absent */
/* A decimal integer (a leading '-' allowed); dflt when absent.  On error
 * writes "KEY=VALUE is not an integer" to err. */
bool pass_arg_int(const PassInvocation *inv, const char *key, long *out, long dflt, char *err, size_t errsz);
/* A flag: 0 or 1 (dflt when absent). */
bool pass_arg_bool(const PassInvocation *inv, const char *key, bool *out, bool dflt, char *err, size_t errsz);
/* One of n names: its index in *out (dflt when absent).  On error writes
 * "KEY=VALUE must be a, b or c" to err. */
bool pass_arg_choice(const PassInvocation *inv, const char *key, const char *const *names, int n, int dflt, int *out,
                     char *err, size_t errsz);

#endif
