/* fileio.h — output that is never half-written.
 * write_file_atomic writes to a temporary file beside the target and
 * renames it into place, so a failure (or a crash) leaves either the old
 * file or nothing, never a partial one.  "-" means standard output. */
#ifndef PTXOPT_FILEIO_H
#define PTXOPT_FILEIO_H

#include <stdbool.h>
#include <stddef.h>

/* Returns false after printing "ptxopt: cannot write PATH: reason". */
bool write_file_atomic(const char *path, const char *data, size_t len);

#endif
