/* options.h — ptxopt's command line (GNU conventions). */
#ifndef PTXOPT_OPTIONS_H
#define PTXOPT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

typedef struct Options {
    const char *output;     /* -o; NULL: stdout */
    const char *passes;     /* --passes */
    const char *target;     /* --target=sm_XX */
    int target_sm;
    bool canonical;
    bool stats;
    bool remarks;           /* --remarks: print pass remarks to stderr */
    const char *report;     /* --report=FILE.json */
    bool sass;              /* --sass-report[=FILE]: SASS classes before -> after */
    const char *sass_file;  /* its FILE; NULL: standard error */
    /* batch mode: --output-dir or --in-place */
    const char *dump;       /* --dump=cfg|dom|... (analysis dumps instead of PTX) */
    const char *kernel;     /* --kernel=NAME: restrict dumps */
    const char *dump_format;/* --dump-format=text|dot */
    bool verify_ir;         /* --verify-ir: LLVM-C cross-check of CFG and SSA */
    bool batch;
    const char *output_dir; /* --output-dir=DIR */
    bool in_place;          /* --in-place */
    int jobs;               /* -j, --jobs=N (0: one per CPU) */
    bool quiet;             /* -q, --quiet: no progress */
    double timeout;         /* --timeout=SECONDS per file (0: none) */
    int ninputs;
    char **inputs;
} Options;

enum { EXIT_OK = 0, EXIT_BAD_INPUT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3 };

/* Returns -1 to continue, or an exit status (after --help/--version or a usage error). */
int options_parse(int argc, char **argv, Options *o);
void options_usage(FILE *out);

#endif
