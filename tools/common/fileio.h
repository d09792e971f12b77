/* fileio.h — output that is never half-written, input that is bounded.
 * write_file_atomic writes to a temporary file beside the target and
 * renames it into place, so a failure (or a crash) leaves either the old
 * file or nothing, never a partial one.  "-" means standard output.  What
 * is at the path is never followed (see codegen/outfile.h). */
#ifndef PTXOPT_FILEIO_H
#define PTXOPT_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Returns false after printing "ptxopt: cannot write PATH: reason". */
bool write_file_atomic(const char *path, const char *data, size_t len);
/* The same, the new file's mode limited to `cap` (codegen/outfile.h). */
bool write_file_atomic_mode(const char *path, const char *data, size_t len, mode_t cap);

/* Reads a file that the user named (a pipeline file, a PTX input) with a
 * type and a size limit: opened without blocking (O_NONBLOCK, so a FIFO
 * cannot hang the open), it must be a regular file (not a FIFO, a device
 * such as /dev/zero, a directory) of at most `max` bytes.  Returns the
 * text, NUL-terminated (malloc'ed), its length in *len; or NULL with why in
 * err ("not a regular file", "larger than N bytes", strerror). */
char *read_user_file(const char *path, size_t max, size_t *len, char *err, size_t errsz);

#endif
