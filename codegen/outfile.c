/* outfile.c — see outfile.h. */
#include "codegen/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool outfile_open(OutFile *f, const char *path)
{
    f->path = path;
    f->tmp = NULL;
    f->fd = STDOUT_FILENO;
    f->direct = false;
    if (strcmp(path, "-") == 0) return true;
    /* Not a regular file (/dev/null, a FIFO, a terminal): write to it
     * directly; renaming a temporary over it would replace the device. */
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        f->fd = open(path, O_WRONLY | O_TRUNC);
        if (f->fd < 0) {
            fprintf(stderr, "ptxopt: cannot write %s: %s\n", path, strerror(errno));
            return false;
        }
        f->direct = true;
        return true;
    }
    size_t n = strlen(path) + 32;
    f->tmp = malloc(n);
    if (!f->tmp) return false;
    snprintf(f->tmp, n, "%s.ptxopt-XXXXXX", path);
    f->fd = mkstemp(f->tmp);
    if (f->fd < 0) {
        fprintf(stderr, "ptxopt: cannot write %s: %s\n", path, strerror(errno));
        free(f->tmp);
        f->tmp = NULL;
        return false;
    }
    /* the permissions an ordinary new file (or the replaced one) has */
    mode_t um = umask(0);
    umask(um);
    if (fchmod(f->fd, stat(path, &st) == 0 ? (st.st_mode & 07777) : (0666 & ~um)) != 0) { /* best effort */ }
    return true;
}

bool outfile_commit(OutFile *f)
{
    if (f->direct) {
        f->direct = false;
        if (close(f->fd) != 0) {
            fprintf(stderr, "ptxopt: cannot write %s: %s\n", f->path, strerror(errno));
            return false;
        }
        return true;
    }
    if (!f->tmp) return true;
    bool ok = close(f->fd) == 0;
    int err = errno;
    if (ok && rename(f->tmp, f->path) != 0) { ok = false; err = errno; }
    if (!ok) {
        fprintf(stderr, "ptxopt: cannot write %s: %s\n", f->path, strerror(err));
        unlink(f->tmp);
    }
    free(f->tmp);
    f->tmp = NULL;
    return ok;
}

void outfile_abort(OutFile *f)
{
    if (f->direct) {
        f->direct = false;
        close(f->fd);
        return;
    }
    if (!f->tmp) return;
    close(f->fd);
    unlink(f->tmp);
    free(f->tmp);
    f->tmp = NULL;
}
