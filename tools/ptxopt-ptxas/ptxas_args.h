/* ptxas_args.h — understand a ptxas command line, and rewrite it.
 *
 * The wrapper must find the PTX inputs in whatever command line nvcc, NVHPC
 * or clang give ptxas, without ever mistaking an option's value for an
 * input.  Every ptxas option is known (tools/ptxopt-ptxas/ptxas_options.def) with the
 * forms ptxas accepts: "--long value", "--long=value", "-short value",
 * "-short=value", and glued values for -m and -O.  Options files
 * (--options-file/-optf, a comma-separated list, nested) are read and
 * classified the same way; --input-as-string/-ias values are PTX inputs;
 * "-" is standard input.  Unknown options are kept as flags.
 *
 * Options starting with --ptxopt- belong to the wrapper and are removed.
 * nvcc -Xptxas splits its argument at commas, so the positional words that
 * follow --ptxopt-passes=... and cannot be input files (not existing, no
 * '/', no .ptx or .s suffix) are taken back into the pipeline
 * ("--ptxopt-passes=a" "b" is "--ptxopt-passes=a,b"). */
#ifndef PTXOPT_PTXAS_ARGS_H
#define PTXOPT_PTXAS_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum PtxasValueKind { PXV_NONE, PXV_REQUIRED, PXV_ATTACHED, PXV_OPTIONAL } PtxasValueKind;

typedef struct PtxasOption {
    const char *long_name, *short_name;
    PtxasValueKind value;
} PtxasOption;

/* The table, in --help order. */
const PtxasOption *ptxas_options(int *n);
/* Prints the table, one "--long (-short) VALUEKIND" per line. */
void ptxas_options_print(FILE *out);

typedef enum TokKind {
    TOK_OPTION,     /* a ptxas option (known or not) */
    TOK_VALUE,      /* the separate value of the option before it */
    TOK_INPUT,      /* a PTX file; "-" is standard input */
    TOK_PTXOPT,     /* the wrapper's own: removed before ptxas runs */
} TokKind;

typedef struct CmdList CmdList;

typedef struct CmdTok {
    char *text;
    TokKind kind;
    const PtxasOption *opt; /* TOK_OPTION: NULL when unknown to the table */
    int value_off;          /* TOK_OPTION: offset of a value inside text; -1: none there */
    CmdList **files;        /* --options-file: the files it names */
    int nfiles;
} CmdTok;

struct CmdList {
    char *path;             /* the options file as named; NULL: the command line */
    int n, cap;
    CmdTok *v;
};

typedef enum InputKind { INPUT_FILE, INPUT_STDIN, INPUT_STRING } InputKind;

typedef struct PtxasInput {
    InputKind kind;
    CmdList *list;          /* where it was found */
    int tok;                /* its token (INPUT_STRING: the token holding the value) */
    int value_off;          /* INPUT_STRING: offset of the PTX text in that token */
    const char *name;       /* path, "-", or "input-as-string N" */
} PtxasInput;

typedef struct PtxasCmd {
    CmdList *argv;
    int ninputs;
    PtxasInput *inputs;
    int nptxopt;
    char **ptxopt;          /* the --ptxopt-... options in order, nvcc splits undone */
    const char *arch;       /* --gpu-name value, or NULL */
    const char *output;     /* --output-file value, or NULL */
    int nlists;
    CmdList **lists;        /* every list (for freeing) */
    char error[512];        /* an options file could not be read (ptxas will say so too) */
} PtxasCmd;

void ptxas_cmd_parse(PtxasCmd *c, int argc, char **argv);
void ptxas_cmd_free(PtxasCmd *c);

/* The PTX text of a string input (points into the command line). */
const char *ptxas_input_string(const PtxasCmd *c, const PtxasInput *in);

/* The command line for the real ptxas: argv[1..] without the --ptxopt-
 * options, input i replaced by replace[i] (a path for files, PTX text for
 * strings; NULL or replace == NULL: unchanged; standard input stays "-").
 * Options files that change are written anew into tmpdir.  Returns a
 * NULL-terminated malloc'ed vector of malloc'ed strings (argv[0] is
 * `program`), or NULL after writing a reason to err. */
char **ptxas_cmd_build(const PtxasCmd *c, const char *program, char *const *replace, const char *tmpdir,
                       char *err, size_t errsz);
void strv_free(char **v);

/* Splits an options file's text into words as ptxas does: blanks separate,
 * "double quotes" group (backslash escapes inside them), a backslash
 * outside quotes escapes the next character, 'single quotes' are literal.
 * Returns the number of words; *words is a malloc'ed vector of malloc'ed strings. */
int ptxas_split_words(const char *text, char ***words);

#endif
