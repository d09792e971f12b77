/* outfile.h — output files that are never half-written.
 * The text goes to a temporary file beside the target, which is renamed
 * into place on commit; on abort (or a crash, or a signal once
 * support/cleanup.h's handler is installed) the target is untouched and
 * the temporary is removed.  "-" is standard output, and so are the names
 * of open descriptors (/dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N: the descriptor is written, the link never replaced).
 * A target that is not a regular file (/dev/null, a terminal, a FIFO) is
 * written directly: opened with O_NOFOLLOW and checked with fstat() to be
 * what lstat() saw, and only when the user or root owns it.  A symbolic
 * link at the target is replaced, never followed.  The new file's mode is
 * the umask's (0666 & ~umask), or the replaced file's permission bits when
 * that file is the user's own; never a set-id bit, never another user's
 * mode. */
#ifndef PTXOPT_OUTFILE_H
#define PTXOPT_OUTFILE_H

#include <stdbool.h>
#include <sys/types.h>

typedef struct OutFile {
    const char *path;
    char *tmp;          /* NULL for standard output and direct writes */
    int fd;
    bool direct;        /* writing straight into a non-regular file */
} OutFile;

/* false after printing "ptxopt: cannot write PATH: reason" */
bool outfile_open(OutFile *f, const char *path);
/* The same, the new file's mode further limited to `cap` (the mode of the
 * input it is made from: a copy is never more readable than its source). */
bool outfile_open_mode(OutFile *f, const char *path, mode_t cap);
bool outfile_commit(OutFile *f);
void outfile_abort(OutFile *f);

#endif
