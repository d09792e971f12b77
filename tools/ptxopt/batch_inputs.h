/* batch_inputs.h — the files a batch run processes.
 *
 * A FILE argument is one input whose output is OUTDIR/its base name; a DIR
 * argument contributes every *.ptx below it (recursively, sorted by name,
 * symlinked files followed, symlinked directories not), each written to
 * OUTDIR/its path relative to DIR.  The output directory itself is never
 * searched, so rerunning a batch does not pick up its own results.  With
 * --in-place the output of an input is the input. */
#ifndef PTXOPT_BATCH_INPUTS_H
#define PTXOPT_BATCH_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct BatchInput {
    char *path;         /* as found: the argument, or argument/relative */
    char *output;       /* where the result goes */
    size_t bytes;       /* size when listed (for progress) */
    char *error;        /* set when the argument could not be read */
} BatchInput;

typedef struct BatchInputs {
    int n, cap;
    BatchInput *v;
} BatchInputs;

/* Lists the inputs of args[0..nargs-1].  output_dir NULL means in place.
 * Arguments that do not exist become inputs with an error (the batch goes
 * on without them).  Returns false, after printing why, when two inputs
 * would be written to the same output (a usage error). */
bool batch_inputs_collect(BatchInputs *in, char **args, int nargs, const char *output_dir);
void batch_inputs_free(BatchInputs *in);

/* Creates the directories above `path` (like mkdir -p of its dirname). */
bool make_parent_dirs(const char *path);

#endif
