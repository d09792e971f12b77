/* wrapper_config.h — how the ptxas wrapper is configured.
 *
 * Sources, later ones overriding earlier ones:
 *   1. defaults (no passes, 60 s time limit);
 *   2. $PTXOPT_PASSES (a pipeline, as ptxopt --passes), $PTXOPT_FAULT;
 *   3. $PTXOPT_FLAGS: wrapper options separated by blanks (quoted like an
 *      options file), written --ptxopt-NAME[=VALUE] or just --NAME[=VALUE];
 *   4. --ptxopt-NAME[=VALUE] options on the ptxas command line (so that
 *      nvcc -Xptxas --ptxopt-passes=... works).
 * A bad setting is not fatal: it is kept in `error`, and the wrapper then
 * runs the real ptxas on the original PTX and says why. */
#ifndef PTXOPT_WRAPPER_CONFIG_H
#define PTXOPT_WRAPPER_CONFIG_H

#include <stdbool.h>

#include "tools/common/fault.h"
#include "tools/ptxopt-ptxas/ptxas_args.h"

#define WRAPPER_DEFAULT_PASSES ""
#define WRAPPER_DEFAULT_TIMEOUT 60.0

typedef struct WrapperConfig {
    char *passes;           /* the pipeline */
    char *report;           /* append one JSON line per run to this file */
    double timeout;         /* seconds for the optimization (0: none) */
    bool in_place;          /* also rewrite the user's .ptx files */
    bool canonical;         /* print the copy in the canonical style */
    bool verbose;           /* say what happens on stderr */
    bool dry_run;           /* print what would run, run nothing */
    bool disable;           /* just run the real ptxas */
    bool help, version, list_options;
    Fault fault;
    char error[512];        /* the first bad setting */
} WrapperConfig;

void wrapper_config_load(WrapperConfig *cfg, const PtxasCmd *cmd);
void wrapper_config_free(WrapperConfig *cfg);
void wrapper_usage(void);

#endif
