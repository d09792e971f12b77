/* compile.c — PTX → ptxas -v → cubin → nvdisasm -c → SassModule.
 *
 * Everything happens in a private temporary directory (under $TMPDIR or
 * /tmp) that is removed whatever happens; children are started with
 * support/spawn.c (no shell, so no quoting of paths).  Both go through
 * support/cleanup.h: a program that called cleanup_install() and is ended
 * by a signal takes ptxas or nvdisasm with it and removes the directory. */
#include "sass/sass.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support/cleanup.h"
#include "support/spawn.h"
#include "ir/fatal.h"

bool sass_ptx_target(const char *ptx, size_t len, char *arch, size_t n)
{
    const char *p = ptx, *end = ptx + len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end, *q = p;
        while (q < e && (*q == ' ' || *q == '\t')) q++;
        if (e - q > 7 && memcmp(q, ".target", 7) == 0 && isspace((unsigned char)q[7])) {
            const char *s = memmem(q, (size_t)(e - q), "sm_", 3);
            if (!s) return false;
            size_t l = 3;
            while (s + l < e && isalnum((unsigned char)s[l])) l++;
            if (l + 1 > n) return false;
            memcpy(arch, s, l);
            arch[l] = 0;
            return true;
        }
        p = nl ? nl + 1 : end;
    }
    return false;
}

typedef struct Scratch {
    char dir[4096];
    char ptx[4200], cubin[4200], log[4200], out[4200], sass[4200], derr[4200];
} Scratch;

static bool scratch_make(Scratch *s, char *err, size_t errsz)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp) tmp = "/tmp";
    snprintf(s->dir, sizeof s->dir, "%s/ptxopt-sass.XXXXXX", tmp);
    if (!cleanup_mkdtemp(s->dir)) {
        snprintf(err, errsz, "cannot create a temporary directory in %s: %s", tmp, strerror(errno));
        return false;
    }
    snprintf(s->ptx, sizeof s->ptx, "%s/in.ptx", s->dir);
    snprintf(s->cubin, sizeof s->cubin, "%s/in.cubin", s->dir);
    snprintf(s->log, sizeof s->log, "%s/ptxas.log", s->dir);
    snprintf(s->out, sizeof s->out, "%s/ptxas.out", s->dir);
    snprintf(s->sass, sizeof s->sass, "%s/in.sass", s->dir);
    snprintf(s->derr, sizeof s->derr, "%s/nvdisasm.err", s->dir);
    return true;
}

static void scratch_remove(Scratch *s)
{
    cleanup_remove_dir(s->dir);
}

static bool write_all(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return false;
    while (len) {
        ssize_t w = write(fd, data, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) { close(fd); return false; }
        data += w;
        len -= (size_t)w;
    }
    return close(fd) == 0;
}

static char *slurp(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = NULL;
    size_t cap = 0;
    for (;;) {
        if (cap - *len < 65536) {
            cap = cap ? cap * 2 : 65536;
            char *nb = realloc(buf, cap + 1);
            if (!nb) fatal_oom();
            buf = nb;
        }
        size_t got = fread(buf + *len, 1, cap - *len, f);
        *len += got;
        if (got == 0) break;
    }
    fclose(f);
    buf[*len] = 0;
    return buf;
}

/* The line of a tool's log that says what went wrong: the first error or
 * fatal line other than ptxas's closing "assembly aborted", else the first. */
static void first_error(const char *path, const char *tool, int status, char *err, size_t errsz)
{
    size_t len;
    char *log = slurp(path, &len);
    const char *pick = NULL;
    size_t plen = 0;
    for (const char *l = log; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        bool bad = (memmem(l, n, "error", 5) || memmem(l, n, "fatal", 5)) && !memmem(l, n, "assembly aborted", 16);
        if (n && (!pick || bad)) {
            pick = l;
            plen = n;
            if (bad) break;
        }
        l = nl ? nl + 1 : NULL;
    }
    if (pick) snprintf(err, errsz, "%s failed (status %d): %.*s", tool, status_code(status), (int)plen, pick);
    else snprintf(err, errsz, "%s failed (status %d)", tool, status_code(status));
    free(log);
}

/* nvdisasm -c CUBIN into the scratch directory, read into m. */
static bool disassemble(const SassTools *t, const Scratch *s, const char *cubin, SassModule *m, char *err, size_t errsz)
{
    char *dargv[] = { t->nvdisasm, "-c", (char *)cubin, NULL };
    int st = spawn_wait(t->nvdisasm, dargv, "/dev/null", s->sass, s->derr, err, errsz);
    if (st < 0) return false;
    if (st != 0) {
        first_error(s->derr, "nvdisasm", st, err, errsz);
        return false;
    }
    size_t n;
    char *text = slurp(s->sass, &n);
    if (!text) {
        snprintf(err, errsz, "cannot read nvdisasm's listing: %s", strerror(errno));
        return false;
    }
    sass_parse_listing(text, n, m);
    free(text);
    return true;
}

bool sass_read_cubin(const SassTools *t, const char *cubin, SassModule *m, char *err, size_t errsz)
{
    memset(m, 0, sizeof *m);
    Scratch s;
    if (!scratch_make(&s, err, errsz)) return false;
    bool ok = disassemble(t, &s, cubin, m, err, errsz);
    scratch_remove(&s);
    if (!ok) sass_module_free(m);
    return ok;
}

bool sass_compile(const SassTools *t, const char *ptx, size_t len, const char *arch, SassModule *m, char *err,
                  size_t errsz)
{
    return sass_compile_entries(t, ptx, len, arch, NULL, m, err, errsz);
}

bool sass_compile_entries(const SassTools *t, const char *ptx, size_t len, const char *arch, const char *entries,
                          SassModule *m, char *err, size_t errsz)
{
    memset(m, 0, sizeof *m);
    char target[16];
    if (!arch) {
        if (!sass_ptx_target(ptx, len, target, sizeof target)) {
            snprintf(err, errsz, "the module has no .target sm_XX to assemble for (use --target)");
            return false;
        }
        arch = target;
    }
    Scratch s;
    if (!scratch_make(&s, err, errsz)) return false;
    bool ok = false;
    if (!write_all(s.ptx, ptx, len)) {
        snprintf(err, errsz, "cannot write %s: %s", s.ptx, strerror(errno));
        goto done;
    }
    char archopt[48];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    char *pargv[] = { t->ptxas, archopt, "-v", s.ptx, "-o", s.cubin, NULL, NULL, NULL };
    if (entries && *entries) {
        /* ptxas --entry: only these kernels (and what they call) */
        pargv[6] = "-e";
        pargv[7] = (char *)entries;
    }
    int st = spawn_wait(t->ptxas, pargv, "/dev/null", s.out, s.log, err, errsz);
    if (st < 0) goto done;
    if (st != 0) {
        first_error(s.log, "ptxas", st, err, errsz);
        goto done;
    }
    if (!disassemble(t, &s, s.cubin, m, err, errsz)) goto done;
    snprintf(m->arch, sizeof m->arch, "%s", arch);
    size_t n;
    char *log = slurp(s.log, &n);
    if (log) sass_parse_ptxas_log(log, m);
    free(log);
    ok = true;
done:
    scratch_remove(&s);
    if (!ok) sass_module_free(m);
    return ok;
}
