/* fileio.c — see fileio.h. */
#include "driver/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return true;
}

bool write_file_atomic(const char *path, const char *data, size_t len)
{
    if (strcmp(path, "-") == 0) {
        if (!write_all(STDOUT_FILENO, data, len)) {
            fprintf(stderr, "ptxopt: cannot write standard output: %s\n", strerror(errno));
            return false;
        }
        return true;
    }
    size_t n = strlen(path);
    char *tmp = malloc(n + 32);
    if (!tmp) return false;
    snprintf(tmp, n + 32, "%s.ptxopt-XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(stderr, "ptxopt: cannot write %s: %s\n", path, strerror(errno));
        free(tmp);
        return false;
    }
    /* keep the permissions an ordinary new file would get */
    mode_t um = umask(0);
    umask(um);
    struct stat st;
    fchmod(fd, stat(path, &st) == 0 ? (st.st_mode & 07777) : (0666 & ~um));
    bool ok = write_all(fd, data, len);
    int saved = errno;
    if (close(fd) != 0 && ok) { ok = false; saved = errno; }
    if (ok && rename(tmp, path) != 0) { ok = false; saved = errno; }
    if (!ok) {
        unlink(tmp);
        fprintf(stderr, "ptxopt: cannot write %s: %s\n", path, strerror(saved));
    }
    free(tmp);
    return ok;
}
