/* outfile.c — see outfile.h.
 *
 * Output paths are often in shared directories (a build tree on a group
 * project, /tmp), where another user can put a FIFO or a symbolic link at
 * the name before or while it is opened.  So: nothing at the output path
 * is followed (O_NOFOLLOW, and rename() replaces a link rather than
 * writing through it); what is opened is checked again with fstat() to be
 * what lstat() saw; a FIFO or device owned by another user is refused (it
 * would capture the output); and the new file's mode comes from the umask,
 * or from the replaced file when that file is the user's own, never with
 * set-id bits. */
#include "codegen/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/cleanup.h"

static bool fail(OutFile *f, const char *why)
{
    fprintf(stderr, "ptxopt: cannot write %s: %s\n", f->path, why);
    return false;
}

/* The descriptor a path names by number: /dev/stdout, /dev/stderr,
 * /dev/fd/N, /proc/self/fd/N.  These are symbolic links into /proc, which
 * O_NOFOLLOW refuses and rename() would replace (as root: /dev/stdout
 * itself); what the user means is the open descriptor. */
static int named_fd(const char *path)
{
    if (strcmp(path, "/dev/stdout") == 0) return STDOUT_FILENO;
    if (strcmp(path, "/dev/stderr") == 0) return STDERR_FILENO;
    const char *num = strncmp(path, "/dev/fd/", 8) == 0 ? path + 8
                      : strncmp(path, "/proc/self/fd/", 14) == 0 ? path + 14 : NULL;
    if (!num || !*num || strlen(num) > 6 || num[strspn(num, "0123456789")]) return -1;
    return atoi(num);
}

/* The mode of a new file: the umask's, as open(O_CREAT, 0666) would give. */
static mode_t umask_mode(void)
{
    mode_t um = umask(0);
    umask(um);
    return 0666 & ~um;
}

bool outfile_open_mode(OutFile *f, const char *path, mode_t cap)
{
    f->path = path;
    f->tmp = NULL;
    f->fd = STDOUT_FILENO;
    f->direct = false;
    if (strcmp(path, "-") == 0) return true;
    int nfd = named_fd(path);
    if (nfd >= 0) {
        f->fd = fcntl(nfd, F_DUPFD_CLOEXEC, 3);
        if (f->fd < 0) return fail(f, errno == EBADF ? "no such open file descriptor" : strerror(errno));
        f->direct = true;
        return true;
    }
    struct stat lst;
    bool exists = lstat(path, &lst) == 0;
    if (exists && S_ISDIR(lst.st_mode)) return fail(f, strerror(EISDIR));
    if (exists && !S_ISREG(lst.st_mode) && !S_ISLNK(lst.st_mode)) {
        /* /dev/null, a terminal, a FIFO: written directly (renaming over it
         * would replace the device), but only when it is the user's or the
         * system's: someone else's FIFO would take the output */
        if (lst.st_uid != geteuid() && lst.st_uid != 0) {
            char why[128];
            snprintf(why, sizeof why, "not a regular file, and owned by another user (uid %lu)",
                     (unsigned long)lst.st_uid);
            return fail(f, why);
        }
        f->fd = open(path, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
        if (f->fd < 0) return fail(f, strerror(errno));
        struct stat st;
        if (fstat(f->fd, &st) != 0 || st.st_dev != lst.st_dev || st.st_ino != lst.st_ino || S_ISREG(st.st_mode)) {
            close(f->fd);
            f->fd = -1;
            return fail(f, "it was replaced while being opened");
        }
        f->direct = true;
        return true;
    }
    /* a regular file, a symbolic link (replaced, never followed) or
     * nothing: a temporary file beside it, renamed into place */
    size_t n = strlen(path) + 32;
    f->tmp = malloc(n);
    if (!f->tmp) return fail(f, strerror(ENOMEM));
    snprintf(f->tmp, n, "%s.ptxopt-XXXXXX", path);
    f->fd = cleanup_mkstemp(f->tmp);   /* a signal removes it (support/cleanup.h) */
    if (f->fd < 0) {
        int e = errno;
        free(f->tmp);
        f->tmp = NULL;
        return fail(f, strerror(e));
    }
    fcntl(f->fd, F_SETFD, FD_CLOEXEC);
    mode_t mode = exists && S_ISREG(lst.st_mode) && lst.st_uid == geteuid() ? (lst.st_mode & 0777) : umask_mode();
    if (fchmod(f->fd, mode & cap) != 0) { /* best effort: mkstemp's 0600 is the safe side */ }
    return true;
}

bool outfile_open(OutFile *f, const char *path) { return outfile_open_mode(f, path, 0777); }

bool outfile_commit(OutFile *f)
{
    if (f->direct) {
        f->direct = false;
        if (close(f->fd) != 0) return fail(f, strerror(errno));
        return true;
    }
    if (!f->tmp) return true;
    bool ok = close(f->fd) == 0;
    int err = errno;
    /* renamed and forgotten at once: a signal in between would remove the
     * file that is now the output */
    sigset_t old;
    cleanup_hold(&old);
    if (ok && rename(f->tmp, f->path) != 0) { ok = false; err = errno; }
    if (ok) cleanup_forget_path(f->tmp);
    else cleanup_remove_dir(f->tmp);
    cleanup_release(&old);
    if (!ok) fail(f, strerror(err));
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
    cleanup_remove_dir(f->tmp);
    free(f->tmp);
    f->tmp = NULL;
}
