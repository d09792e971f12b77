/* wrapper_config.h — how the ptxas wrapper is configured.
 *
 * Sources, later ones overriding earlier ones:
 *   1. defaults (no passes, 60 s time limit);
 *   2. $PTXOPT_PASSES (a pipeline, as ptxopt --passes), $PTXOPT_FAULT,
 *      $PTXOPT_STRICT (1 or 0);
 *   3. $PTXOPT_FLAGS: wrapper options separated by blanks (quoted like an
 *      options file), written --ptxopt-NAME[=VALUE] or just --NAME[=VALUE];
 *   4. --ptxopt-NAME[=VALUE] options on the ptxas command line (so that
 *      nvcc -Xptxas --ptxopt-passes=... works).
 * A bad setting is not fatal: it is kept in `error`, and the wrapper then
 * runs the real ptxas on the original PTX and says why (with strict, the
 * run fails with that reason).
 *
 * Reading the configuration never blocks and never takes more than a
 * little memory: a pipeline file must be a regular file of at most
 * WRAPPER_PASSES_FILE_MAX bytes of text (a FIFO, /dev/zero or a directory
 * is a bad setting, read or not), and its content is repeated in messages
 * and reports only once it parses as a pipeline. */
#ifndef PTXOPT_WRAPPER_CONFIG_H
#define PTXOPT_WRAPPER_CONFIG_H

#include <stdbool.h>

#include "tools/common/fault.h"
#include "tools/ptxopt-ptxas/ptxas_args.h"

#define WRAPPER_DEFAULT_PASSES ""
#define WRAPPER_DEFAULT_TIMEOUT 60.0
/* The optimizer's address space, MiB: a 7 MB PTX file made shuffle grow
 * to 2.4 GB; 4 GiB leaves room for the largest real inputs while a
 * parallel build cannot take a node's memory (0: no limit). */
#define WRAPPER_DEFAULT_MEMORY_MIB 4096
/* A pipeline file is a few lines; anything larger is not one. */
#define WRAPPER_PASSES_FILE_MAX (64 * 1024)

typedef struct WrapperConfig {
    char *passes;           /* the pipeline */
    char *passes_file;      /* where the pipeline was read from, or NULL */
    const char *passes_from; /* which setting gave it ("$PTXOPT_PASSES", ...; NULL: the default) */
    char *report;           /* append one JSON line per run to this file */
    double timeout;         /* seconds for the optimization (0: none) */
    unsigned long memory_mib; /* the optimizer's address-space limit (0: none) */
    bool in_place;          /* also rewrite the user's .ptx files */
    bool canonical;         /* print the copy in the canonical style */
    bool verbose;           /* say what happens on stderr */
    bool dry_run;           /* print what would run, run nothing */
    bool disable;           /* just run the real ptxas */
    bool strict;            /* a fallback fails the run instead */
    bool check;             /* check the configuration, run nothing */
    bool help, version, list_options;
    Fault fault;
    char error[512];        /* the first bad setting */
} WrapperConfig;

void wrapper_config_load(WrapperConfig *cfg, const PtxasCmd *cmd);
void wrapper_config_free(WrapperConfig *cfg);
void wrapper_usage(void);

#endif
