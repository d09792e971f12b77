/* outfile.h — output files that are never half-written.
 * The text goes to a temporary file beside the target, which is renamed
 * into place on commit; on abort (or a crash) the target is untouched and
 * the temporary is removed.  "-" is standard output, and a target that is
 * not a regular file (/dev/null, a FIFO) is written directly. */
#ifndef PTXOPT_OUTFILE_H
#define PTXOPT_OUTFILE_H

#include <stdbool.h>

typedef struct OutFile {
    const char *path;
    char *tmp;          /* NULL for standard output and direct writes */
    int fd;
    bool direct;        /* writing straight into a non-regular file */
} OutFile;

/* false after printing "ptxopt: cannot write PATH: reason" */
bool outfile_open(OutFile *f, const char *path);
bool outfile_commit(OutFile *f);
void outfile_abort(OutFile *f);

#endif
