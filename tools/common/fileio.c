/* fileio.c — see fileio.h; a whole buffer through codegen/outfile.h. */
#include "tools/common/fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codegen/outfile.h"

bool write_file_atomic(const char *path, const char *data, size_t len)
{
    return write_file_atomic_mode(path, data, len, 0777);
}

bool write_file_atomic_mode(const char *path, const char *data, size_t len, mode_t cap)
{
    OutFile f;
    if (!outfile_open_mode(&f, path, cap)) return false;
    const char *p = data;
    size_t n = len;
    while (n) {
        ssize_t w = write(f.fd, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            fprintf(stderr, "ptxopt: cannot write %s: %s\n", path, strerror(errno));
            outfile_abort(&f);
            return false;
        }
        p += w;
        n -= (size_t)w;
    }
    return outfile_commit(&f);
}

char *read_user_file(const char *path, size_t max, size_t *len, char *err, size_t errsz)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errsz, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0) snprintf(err, errsz, "%s", strerror(errno));
    else if (!S_ISREG(st.st_mode)) snprintf(err, errsz, "not a regular file");
    else if ((unsigned long long)st.st_size > max)
        snprintf(err, errsz, "larger than %zu bytes (%llu)", max, (unsigned long long)st.st_size);
    else if (!(buf = malloc((size_t)st.st_size + 2))) snprintf(err, errsz, "%s", strerror(ENOMEM));
    size_t got = 0, cap = buf ? (size_t)st.st_size + 1 : 0;   /* one more: a file that grew is noticed */
    while (buf && got < cap) {
        ssize_t n = read(fd, buf + got, cap - got);
        if (n > 0) got += (size_t)n;
        else if (n == 0) break;
        else if (errno != EINTR) {
            snprintf(err, errsz, "%s", strerror(errno));
            free(buf);
            buf = NULL;
        }
    }
    if (buf && got > (size_t)st.st_size) {
        snprintf(err, errsz, "it grew while being read");
        free(buf);
        buf = NULL;
    }
    close(fd);
    if (buf) {
        buf[got] = 0;
        *len = got;
    }
    return buf;
}
