/* outfile.h — output files that are never half-written.
 * The text goes to a temporary file beside the target, which is renamed
 * into place on commit; on abort (or a crash) the target is untouched and
 * the temporary is removed.  "-" is standard output (written directly). */
#ifndef PTXOPT_OUTFILE_H
#define PTXOPT_OUTFILE_H

#include <stdbool.h>

typedef struct OutFile {
    const char *path;
    char *tmp;          /* NULL for standard output */
    int fd;
} OutFile;

/* false after printing "ptxopt: cannot write PATH: reason" */
bool outfile_open(OutFile *f, const char *path);
bool outfile_commit(OutFile *f);
void outfile_abort(OutFile *f);

#endif
