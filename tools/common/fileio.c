/* fileio.c — see fileio.h; a whole buffer through codegen/outfile.h. */
#include "tools/common/fileio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "codegen/outfile.h"

bool write_file_atomic(const char *path, const char *data, size_t len)
{
    OutFile f;
    if (!outfile_open(&f, path)) return false;
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
