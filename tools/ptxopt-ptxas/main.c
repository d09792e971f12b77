/* ptxopt-ptxas — the drop-in ptxas.
 *
 * 1. Understand the command line (tools/ptxopt-ptxas/ptxas_args.h) and the wrapper's
 *    configuration (tools/ptxopt-ptxas/wrapper_config.h); find the real ptxas
 *    (tools/ptxopt-ptxas/ptxas_find.h).
 * 2. Optimize a copy of every PTX input in a forked worker with a time
 *    limit (tools/common/worker.h), so a crash or a hang costs nothing but time.
 * 3. If nothing changed, run the real ptxas on the original command line.
 *    Otherwise run it on the copies with the output captured; when it
 *    succeeds, pass its output on (temporary paths replaced by the user's)
 *    and its status.
 * 4. When anything fails on the way (configuration, parse, pass, crash,
 *    time limit, ptxas rejecting the copy), run the real ptxas on the
 *    original, print one line "ptxopt: warning: REASON; used the original
 *    PTX" and return that ptxas's status: a build never breaks because of
 *    ptxopt. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "support/cleanup.h"
#include "tools/common/fileio.h"
#include "tools/common/optimize.h"
#include "tools/ptxopt-ptxas/ptxas_args.h"
#include "tools/ptxopt-ptxas/ptxas_find.h"
#include "tools/common/record.h"
#include "support/spawn.h"
#include "tools/common/worker.h"
#include "tools/ptxopt-ptxas/wrapper_config.h"
#include "ir/fatal.h"
#include "parser/parse.h"

typedef struct Wrapper {
    PtxasCmd cmd;
    WrapperConfig cfg;
    Pipeline pl;
    char *real;             /* the real ptxas */
    const char *name0;      /* its argv[0]: ptxas puts the base name in every cubin */
    char *tmpdir;
    char *stdin_copy;       /* the PTX read from standard input, saved */
    char *stdin_text;       /* and in memory, for when it could not be saved */
    size_t stdin_len;
    char env_problem[600];  /* why $PTXOPT_PTXAS was not used ("" if it was, or is unset) */
    char **copy;            /* per input: the optimized copy's path, or NULL (unchanged) */
    char *out_cap, *err_cap; /* ptxas's output on the copies, held back */
    FileRecord *rec;        /* per input */
    double ms_optimize, ms_ptxas;
    const char *used;       /* "original" or "optimized" */
    char reason[1024];      /* why the original was used after all ("" if it was not a failure) */
    bool parse_refused;     /* the reason is that ptxopt could not parse an input */
} Wrapper;

static void verbose(const Wrapper *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void verbose(const Wrapper *w, const char *fmt, ...)
{
    if (!w->cfg.verbose) return;
    va_list ap;
    va_start(ap, fmt);
    fputs("ptxopt-ptxas: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* ------------------------------------------------------------ temporary files */

/* The directory is registered with support/cleanup.h: a signal that ends
 * the wrapper removes it too. */
static void remove_tmpdir(Wrapper *w)
{
    cleanup_remove_dir(w->tmpdir);
    free(w->tmpdir);
    w->tmpdir = NULL;
}

static bool make_tmpdir(Wrapper *w, char *err, size_t errsz)
{
    if (w->tmpdir) return true;
    const char *base = getenv("TMPDIR");
    char *t;
    if (asprintf(&t, "%s/ptxopt-ptxas.XXXXXX", base && *base ? base : "/tmp") < 0) fatal_oom();
    if (!cleanup_mkdtemp(t)) {
        snprintf(err, errsz, "cannot create a temporary directory %s: %s", t, strerror(errno));
        free(t);
        return false;
    }
    w->tmpdir = t;
    return true;
}

static char *tmp_path(const Wrapper *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *tmp_path(const Wrapper *w, const char *fmt, ...)
{
    char name[512], *p;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    if (asprintf(&p, "%s/%s", w->tmpdir, name) < 0) fatal_oom();
    return p;
}

/* Writes a file without a word on stderr (a fallback prints one line, its
 * own); false with why in err. */
static bool save_quietly(const char *path, const char *data, size_t len, char *err, size_t errsz)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    bool ok = fd >= 0;
    for (size_t off = 0; ok && off < len;) {
        ssize_t n = write(fd, data + off, len - off);
        if (n > 0) off += (size_t)n;
        else if (n < 0 && errno == EINTR) continue;
        else ok = false;
    }
    if (fd >= 0 && close(fd) != 0) ok = false;
    if (!ok) {
        snprintf(err, errsz, "cannot save standard input in %s: %s", path, strerror(errno ? errno : ENOSPC));
        if (fd >= 0) unlink(path);
    }
    return ok;
}

static char *read_whole(const char *path, size_t *len)
{
    FILE *null = fopen("/dev/null", "w");
    char *buf = read_file(path, len, null);
    if (null) fclose(null);
    if (buf) buf[*len] = 0;
    return buf;
}

/* ------------------------------------------------------------ the report */

static void json_or_null(FILE *f, const char *s)
{
    if (s) json_string(f, s);
    else fputs("null", f);
}

/* Appends one JSON line describing this run to --ptxopt-report. */
static void write_report(const Wrapper *w, int status)
{
    if (!w->cfg.report) return;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) fatal_oom();
    char cwd[4096];
    fputs("{\"tool\":\"ptxopt-ptxas\",\"version\":", f);
    json_string(f, PACKAGE_VERSION);
    fputs(",\"cwd\":", f);
    json_or_null(f, getcwd(cwd, sizeof cwd));
    fputs(",\"ptxas\":", f);
    json_or_null(f, w->real);
    fputs(",\"arch\":", f);
    json_or_null(f, w->cmd.arch);
    fputs(",\"output\":", f);
    json_or_null(f, w->cmd.output);
    fputs(",\"pipeline\":", f);
    json_or_null(f, w->cfg.passes);
    fputs(",\"used\":", f);
    json_or_null(f, w->used);
    fputs(",\"reason\":", f);
    json_or_null(f, w->reason[0] ? w->reason : NULL);
    fprintf(f, ",\"ptxas_status\":%d,\"ms\":{\"optimize\":%.3f,\"ptxas\":%.3f},\"inputs\":[", status, w->ms_optimize,
            w->ms_ptxas);
    for (int i = 0; i < w->cmd.ninputs; i++) {
        const PtxasInput *in = &w->cmd.inputs[i];
        const FileRecord *r = w->rec ? &w->rec[i] : NULL;
        static const char *const kinds[] = { "file", "stdin", "string" };
        fprintf(f, "%s{\"input\":", i ? "," : "");
        json_string(f, in->name);
        fprintf(f, ",\"kind\":\"%s\"", kinds[in->kind]);
        if (r && r->complete) {
            fprintf(f, ",\"bytes\":%zu,\"status\":\"%s\",\"error\":", r->bytes,
                    r->status ? "failed" : r->changed ? "changed" : "unchanged");
            json_or_null(f, r->error);
            fputs(",\"passes\":[", f);
            for (int k = 0; k < r->npasses; k++) {
                const PassTally *t = &r->tally[k];
                fprintf(f, "%s{\"pass\":", k ? "," : "");
                json_string(f, t->pass);
                fprintf(f, ",\"ran\":%s,\"failed\":%s,\"kernels_seen\":%d,\"kernels_changed\":%d,"
                        "\"sites_rewritten\":%d}", t->ran ? "true" : "false", t->failed ? "true" : "false",
                        t->kernels_seen, t->kernels_changed, t->sites);
            }
            fputs("],\"kernels\":", f);
            fputs(r->kernels_json ? r->kernels_json : "[]", f);
        } else {
            fputs(",\"status\":\"not optimized\"", f);
        }
        fputc('}', f);
    }
    fputs("]}\n", f);
    fclose(f);
    /* one write with O_APPEND: parallel builds append whole lines */
    int fd = open(w->cfg.report, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
    if (fd < 0 || write(fd, text, len) != (ssize_t)len)
        fprintf(stderr, "ptxopt: warning: cannot write the report %s: %s\n", w->cfg.report, strerror(errno));
    if (fd >= 0) close(fd);
    free(text);
}

/* ------------------------------------------------------------ running ptxas */

static void print_argv(FILE *out, char **v)
{
    for (char **p = v; *p; p++) {
        fputc('\'', out);
        for (const char *c = *p; *c; c++) {
            if (*c == '\'') fputs("'\\''", out);
            else fputc(*c, out);
        }
        fputs(p[1] ? "' " : "'", out);
    }
    fputc('\n', out);
}

/* The original command (the wrapper's options removed), with stdio inherited. */
static int run_original(Wrapper *w)
{
    char err[1024];
    w->used = "original";
    char **argv = ptxas_cmd_build(&w->cmd, w->name0, NULL, w->tmpdir ? w->tmpdir : "/tmp", err, sizeof err);
    if (!argv && make_tmpdir(w, err, sizeof err))
        argv = ptxas_cmd_build(&w->cmd, w->name0, NULL, w->tmpdir, err, sizeof err);
    if (!argv) {
        fprintf(stderr, "ptxopt-ptxas: error: %s\n", err);
        return 1 << 8;
    }
    if (w->cfg.verbose) { fputs("ptxopt-ptxas: running ", stderr); print_argv(stderr, argv); }
    double t0 = now_ms();
    /* standard input: the saved copy, else the text read (when it could
     * not be saved), else still ours; standard error passed on and counted */
    SpawnIO io = { .in_path = w->stdin_copy, .in_data = w->stdin_text, .in_len = w->stdin_len, .relay_err = true };
    int st = spawn_run(w->real, argv, &io, err, sizeof err);
    w->ms_ptxas += now_ms() - t0;
    strv_free(argv);
    if (st < 0) {
        fprintf(stderr, "ptxopt-ptxas: error: %s\n", err);
        return 127 << 8;
    }
    /* a ptxas that fails without a word (a wrong $PTXOPT_PTXAS, a crash)
     * would leave the build failing silently: say which program it was */
    bool quiet_signal = WIFSIGNALED(st) && (WTERMSIG(st) == SIGINT || WTERMSIG(st) == SIGPIPE);
    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0) && !quiet_signal && io.err_bytes == 0) {
        char how[160];
        if (WIFSIGNALED(st)) snprintf(how, sizeof how, "was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
        else snprintf(how, sizeof how, "failed (exit status %d)", status_code(st));
        const char *env = getenv("PTXOPT_PTXAS");
        bool from_env = env && *env && !w->env_problem[0];
        fprintf(stderr, "ptxopt-ptxas: error: the real ptxas %s%s %s and printed nothing\n", w->real,
                from_env ? " ($PTXOPT_PTXAS)" : "", how);
    }
    return st;
}

/* text with each temporary copy's path replaced by the user's path. */
static void unmask_paths(const Wrapper *w, const char *text, size_t len, OutBuf *o)
{
    for (size_t i = 0; i < len;) {
        bool hit = false;
        for (int k = 0; k < w->cmd.ninputs && !hit; k++) {
            const char *c = w->copy ? w->copy[k] : NULL;
            size_t cl = c ? strlen(c) : 0;
            if (!cl || w->cmd.inputs[k].kind != INPUT_FILE || cl > len - i || memcmp(text + i, c, cl) != 0) continue;
            out_cstr(o, w->cmd.inputs[k].name);
            i += cl;
            hit = true;
        }
        if (!hit) out_char(o, text[i++]);
    }
}

/* Copies a captured output to fd, the temporary paths unmasked. */
static void forward(const Wrapper *w, const char *path, int fd)
{
    size_t len;
    char *text = read_whole(path, &len);
    if (!text) return;
    OutBuf o;
    out_init(&o);
    unmask_paths(w, text, len, &o);
    for (size_t off = 0; off < o.len;) {
        ssize_t n = write(fd, o.p + off, o.len - off);
        if (n <= 0) break;
        off += (size_t)n;
    }
    out_free(&o);
    free(text);
}

/* The reason as one line: a control character (a newline in
 * $PTXOPT_PASSES, say) is written as an escape, never as itself. */
static void print_one_line(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '\n') fputs("\\n", f);
        else if (c == '\t') fputs("\\t", f);
        else if (c == '\r') fputs("\\r", f);
        else if (c < 0x20 || c == 0x7f) fprintf(f, "\\x%02x", c);
        else fputc(c, f);
    }
}

/* Falls back: the original PTX, one warning line, ptxas's status.  When
 * the original fails too, the error is the input's and ptxas has said so;
 * the warning would only mislead (it is in the report and --ptxopt-verbose). */
_Noreturn static void fall_back(Wrapper *w, const char *reason)
{
    OutBuf o;
    out_init(&o);
    unmask_paths(w, reason, strlen(reason), &o);
    snprintf(w->reason, sizeof w->reason, "%.*s", (int)o.len, o.p ? o.p : "");
    out_free(&o);
    int st = run_original(w);
    /* ptxas took what ptxopt refused: a gap in ptxopt's front end that
     * users should report, not a problem with their code */
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && w->parse_refused) {
        size_t k = strlen(w->reason);
        snprintf(w->reason + k, sizeof w->reason - k,
                 ", which ptxas accepts: valid PTX that ptxopt does not understand yet (please report it)");
    }
    if ((WIFEXITED(st) && WEXITSTATUS(st) == 0) || w->cfg.verbose) {
        fputs("ptxopt: warning: ", stderr);
        print_one_line(stderr, w->reason);
        fputs("; used the original PTX\n", stderr);
    }
    write_report(w, status_code(st));
    remove_tmpdir(w);
    exit_like(st);
}

_Noreturn static void run_plain(Wrapper *w)
{
    int st = run_original(w);
    write_report(w, status_code(st));
    remove_tmpdir(w);
    exit_like(st);
}

/* ------------------------------------------------------------ optimizing */

typedef struct Job {
    Wrapper *w;
} Job;

static char *copy_path(const Wrapper *w, int i)
{
    const PtxasInput *in = &w->cmd.inputs[i];
    const char *base = "input.ptx";
    if (in->kind == INPUT_FILE) {
        const char *s = strrchr(in->name, '/');
        base = s ? s + 1 : in->name;
    }
    return tmp_path(w, "in%d/%s", i + 1, base);
}

/* In the worker: optimize every input, leave copies and records in tmpdir. */
static int optimize_inputs(void *arg, FILE *out)
{
    (void)out;
    Wrapper *w = ((Job *)arg)->w;
    OptimizeConfig oc = { .pipeline = &w->pl, .canonical = w->cfg.canonical, .fault = w->cfg.fault };
    for (int i = 0; i < w->cmd.ninputs; i++) {
        const PtxasInput *in = &w->cmd.inputs[i];
        char *buf;
        size_t len;
        if (in->kind == INPUT_STRING) {
            const char *s = ptxas_input_string(&w->cmd, in);
            len = strlen(s);
            buf = malloc(len + 2);
            if (!buf) fatal_oom();
            memcpy(buf, s, len + 1);
        } else {
            buf = read_whole(in->kind == INPUT_STDIN ? w->stdin_copy : in->name, &len);
            if (!buf) return 1;
        }
        OptimizeResult r;
        int rc = optimize_text(in->name, buf, len, &oc, NULL, &r);
        bool written = false;
        if (rc == 0 && r.changed) {
            char *dir = tmp_path(w, "in%d", i + 1), *path = copy_path(w, i);
            written = mkdir(dir, 0700) == 0 && write_file_atomic(path, r.out.p, r.out.len);
            if (!written) { r.status = rc = 3; snprintf(r.error, sizeof r.error, "cannot write %s", path); }
            free(dir);
            free(path);
        }
        char *rp = tmp_path(w, "in%d.record", i + 1);
        FILE *f = fopen(rp, "w");
        if (f) { record_write(f, &r, written); fclose(f); }
        free(rp);
        optimize_result_free(&r);
        if (rc) return rc;
    }
    return 0;
}

/* Runs the worker; on any failure returns false with the reason. */
static bool optimize_all(Wrapper *w, char *reason, size_t n)
{
    Job job = { w };
    Worker wk;
    double t0 = now_ms();
    if (!worker_start(&wk, optimize_inputs, &job, w->cfg.timeout)) {
        snprintf(reason, n, "cannot start the optimizer");
        return false;
    }
    worker_wait_any(&wk, 1);
    w->ms_optimize = now_ms() - t0;
    w->rec = calloc((size_t)w->cmd.ninputs, sizeof *w->rec);
    w->copy = calloc((size_t)w->cmd.ninputs, sizeof *w->copy);
    if (!w->rec || !w->copy) fatal_oom();
    bool ok = true;
    for (int i = 0; i < w->cmd.ninputs && ok; i++) {
        const char *name = w->cmd.inputs[i].name;
        char *rp = tmp_path(w, "in%d.record", i + 1);
        size_t len;
        char *text = read_whole(rp, &len);
        free(rp);
        record_parse(text ? text : "", text ? len : 0, &w->rec[i]);
        free(text);
        FileRecord *r = &w->rec[i];
        if (r->complete && r->status == 0) {
            if (r->written) w->copy[i] = copy_path(w, i);
            verbose(w, "%s: %s (%zu bytes, parse %.2f ms, passes %.2f ms, print %.2f ms)", name,
                    r->changed ? "changed" : "unchanged", r->bytes, r->ms_parse, r->ms_passes, r->ms_print);
            continue;
        }
        ok = false;
        char how[160], diag[300];
        worker_describe(&wk, how, sizeof how);
        /* what a failing pass printed: its first line */
        const char *nl = wk.diag.len ? memchr(wk.diag.p, '\n', wk.diag.len) : NULL;
        snprintf(diag, sizeof diag, "%.*s", (int)(nl ? (size_t)(nl - wk.diag.p) : wk.diag.len), wk.diag.len ? wk.diag.p : "");
        w->parse_refused = r->complete && r->status == 1;
        if (w->parse_refused) snprintf(reason, n, "cannot parse %s (%s)", name, r->error ? r->error : "");
        else if (r->complete)
            snprintf(reason, n, "%s on %s%s%s", r->error ? r->error : "a pass failed", name, diag[0] ? ": " : "", diag);
        else if (wk.timed_out) snprintf(reason, n, "the optimizer took longer than %g s on %s", w->cfg.timeout, name);
        else if (WIFSIGNALED(wk.wstatus)) snprintf(reason, n, "the optimizer crashed on %s (%s)", name, how);
        else snprintf(reason, n, "the optimizer failed on %s (%s)", name, how);
    }
    worker_free(&wk);
    return ok;
}

/* ------------------------------------------------------------ the run */

static int dry_run_print(Wrapper *w, const char *find_err);

/* What would run, on standard output; nothing runs.  No cubin is made, so
 * under a compiler (started as "ptxas") the build cannot go on: the last
 * line on stderr says why, and the status is 1, so that nvcc stops here
 * instead of failing later on a missing file without naming ptxopt. */
static int dry_run(Wrapper *w, const char *argv0, const char *find_err)
{
    int rc = dry_run_print(w, find_err);
    if (rc == 0 && w->cmd.ninputs > 0) {
        const char *b = strrchr(argv0, '/');
        bool under_compiler = strcmp(b ? b + 1 : argv0, "ptxas") == 0;
        fprintf(stderr, "ptxopt-ptxas: --ptxopt-dry-run: ran nothing, so %s was not made%s\n",
                w->cmd.output ? w->cmd.output : "no output", under_compiler ? " (status 1: the build stops here)" : "");
        if (under_compiler) rc = 1;
    }
    return rc;
}

static int dry_run_print(Wrapper *w, const char *find_err)
{
    printf("real ptxas: %s\n", w->real ? w->real : find_err);
    if (w->env_problem[0]) printf("not used: %s\n", w->env_problem);
    printf("arch: %s\noutput: %s\n", w->cmd.arch ? w->cmd.arch : "(none)", w->cmd.output ? w->cmd.output : "(none)");
    static const char *const kinds[] = { "file", "stdin", "string" };
    for (int i = 0; i < w->cmd.ninputs; i++) {
        const PtxasInput *in = &w->cmd.inputs[i];
        if (in->kind == INPUT_STRING)
            printf("input %d: string (%zu bytes)\n", i + 1, strlen(ptxas_input_string(&w->cmd, in)));
        else printf("input %d: %s %s\n", i + 1, kinds[in->kind], in->name);
    }
    for (int i = 0; i < w->cmd.nptxopt; i++) printf("wrapper option: %s\n", w->cmd.ptxopt[i]);
    printf("pipeline: '%s'\n", w->cfg.passes);
    char perr[1024];
    Pipeline pl;
    if (pipeline_parse(w->cfg.passes, &pl, perr, sizeof perr)) pipeline_free(&pl);
    else printf("pipeline error: %s\n", perr);   /* a real run warns and uses the original PTX */
    if (w->cfg.error[0]) printf("configuration error: %s\n", w->cfg.error);
    if (w->cmd.error[0]) printf("command line error: %s\n", w->cmd.error);
    char err[1024];
    if (!make_tmpdir(w, err, sizeof err)) { printf("error: %s\n", err); return 1; }
    char **repl = calloc((size_t)w->cmd.ninputs + 1, sizeof *repl);
    if (!repl) fatal_oom();
    for (int i = 0; i < w->cmd.ninputs; i++)
        if (w->cmd.inputs[i].kind != INPUT_STDIN && asprintf(&repl[i], "@OPTIMIZED-%d@", i + 1) < 0) fatal_oom();
    const char *prog = "ptxas";
    for (int pass = 0; pass < 2; pass++) {
        char **argv = ptxas_cmd_build(&w->cmd, prog, pass ? NULL : repl, w->tmpdir, err, sizeof err);
        if (!argv) { printf("error: %s\n", err); continue; }
        fputs(pass ? "original: " : "optimized: ", stdout);
        /* multi-line words (PTX given with -ias) are summarized */
        for (char **p = argv; *p; p++) {
            if (!strchr(*p, '\n')) continue;
            char *sum;
            if (asprintf(&sum, "<%zu bytes of PTX>", strlen(*p)) < 0) fatal_oom();
            free(*p);
            *p = sum;
        }
        print_argv(stdout, argv);
        /* the options files it wrote, then gone, so the next command numbers afresh */
        for (int k = 1;; k++) {
            char *path = tmp_path(w, "options-%d.txt", k), *text;
            size_t len;
            if (!(text = read_whole(path, &len))) { free(path); break; }
            printf("  options-%d.txt: %s", k, text);
            free(text);
            remove(path);
            free(path);
        }
        strv_free(argv);
    }
    for (int i = 0; i < w->cmd.ninputs; i++) free(repl[i]);
    free(repl);
    remove_tmpdir(w);
    return 0;
}

/* What the real ptxas is told its name is: the wrapper's own name when that
 * is "ptxas" (nvcc, clang), else the real path, so that cubins come out
 * exactly as without the wrapper. */
static const char *ptxas_name(const char *argv0, const char *real)
{
    const char *b = strrchr(argv0, '/');
    if (strcmp(b ? b + 1 : argv0, "ptxas") == 0) return argv0;
    b = strrchr(real, '/');
    return strcmp(b ? b + 1 : real, "ptxas") == 0 ? real : "ptxas";
}

/* Static, so that what it points to stays reachable until exit (leak checkers). */
static Wrapper w;

int main(int argc, char **argv)
{
    ptxas_cmd_parse(&w.cmd, argc, argv);
    wrapper_config_load(&w.cfg, &w.cmd);
    if (w.cfg.help) { wrapper_usage(); return 0; }
    if (w.cfg.version) { printf("ptxopt-ptxas (ptxopt) %s\n", PACKAGE_VERSION); return 0; }
    if (w.cfg.list_options) { ptxas_options_print(stdout); return 0; }

    /* from here on, a signal that ends the wrapper ends its children and
     * removes its temporary directory (support/cleanup.h) */
    cleanup_install();
    char err[1024] = "";
    bool nested = started_by_wrapper();
    ptxas_env_problem(w.env_problem, sizeof w.env_problem);
    w.real = find_real_ptxas(argv[0], err, sizeof err);
    if (w.cfg.dry_run) return dry_run(&w, argv[0], err);
    if (!w.real) {
        fprintf(stderr, "ptxopt-ptxas: error: %s%s%s\n", w.env_problem, w.env_problem[0] ? "; " : "", err);
        return 1;
    }
    /* one line, from the outermost wrapper only */
    if (w.env_problem[0] && !nested) fprintf(stderr, "ptxopt: warning: %s; used %s instead\n", w.env_problem, w.real);
    w.name0 = ptxas_name(argv[0], w.real);
    verbose(&w, "real ptxas: %s", w.real);
    mark_wrapper_running();

    /* the cases where there is nothing to optimize */
    if (nested) { verbose(&w, "started by another ptxopt wrapper: passing through"); run_plain(&w); }
    if (w.cfg.disable || w.cmd.ninputs == 0) run_plain(&w);
    if (!make_tmpdir(&w, err, sizeof err)) fall_back(&w, err);
    if (w.cfg.error[0]) fall_back(&w, w.cfg.error);
    if (w.cmd.error[0]) run_plain(&w);   /* ptxas will report the unreadable options file */
    for (int i = 0; i < w.cmd.ninputs; i++) {
        const PtxasInput *in = &w.cmd.inputs[i];
        if (in->kind == INPUT_FILE && access(in->name, R_OK) != 0) run_plain(&w);   /* ptxas says why */
        if (in->kind == INPUT_STDIN && !w.stdin_text) {
            /* once read, standard input is gone: kept in memory too, so a
             * fallback (a full $TMPDIR) can still give it to ptxas */
            char *msg = NULL;
            size_t mlen = 0;
            FILE *em = open_memstream(&msg, &mlen);
            if (!em) fatal_oom();
            w.stdin_text = read_file("-", &w.stdin_len, em);
            fclose(em);
            if (!w.stdin_text) {
                snprintf(err, sizeof err, "cannot read standard input (%.*s)", (int)strcspn(msg, "\n"), msg);
                free(msg);
                fall_back(&w, err);
            }
            free(msg);
            char *path = tmp_path(&w, "stdin.ptx");
            if (!save_quietly(path, w.stdin_text, w.stdin_len, err, sizeof err)) {
                free(path);
                fall_back(&w, err);
            }
            w.stdin_copy = path;
        }
    }
    char perr[1024];
    if (!pipeline_parse(w.cfg.passes, &w.pl, perr, sizeof perr)) {
        char msg[1100];
        snprintf(msg, sizeof msg, "bad pipeline: %s", perr);
        fall_back(&w, msg);
    }
    verbose(&w, "pipeline: '%s'", w.cfg.passes);

    char reason[1024];
    if (!optimize_all(&w, reason, sizeof reason)) fall_back(&w, reason);
    bool any = false;
    for (int i = 0; i < w.cmd.ninputs; i++) any |= w.copy[i] != NULL;
    if (!any) run_plain(&w);   /* unchanged: the original is the optimized PTX */

    /* run the real ptxas on the copies, its output held back until it succeeds */
    char **repl = calloc((size_t)w.cmd.ninputs + 1, sizeof *repl);
    if (!repl) fatal_oom();
    const char *stdin_path = w.stdin_copy;
    for (int i = 0; i < w.cmd.ninputs; i++) {
        const PtxasInput *in = &w.cmd.inputs[i];
        if (!w.copy[i]) continue;
        if (in->kind == INPUT_FILE) repl[i] = strdup(w.copy[i]);
        else if (in->kind == INPUT_STDIN) stdin_path = w.copy[i];
        else { size_t len; repl[i] = read_whole(w.copy[i], &len); }
    }
    char **pargv = ptxas_cmd_build(&w.cmd, w.name0, repl, w.tmpdir, err, sizeof err);
    for (int i = 0; i < w.cmd.ninputs; i++) free(repl[i]);
    free(repl);
    if (!pargv) fall_back(&w, err);
    if (w.cfg.verbose) { fputs("ptxopt-ptxas: running ", stderr); print_argv(stderr, pargv); }
    w.out_cap = tmp_path(&w, "ptxas.stdout");
    w.err_cap = tmp_path(&w, "ptxas.stderr");
    double t0 = now_ms();
    int st = spawn_wait(w.real, pargv, stdin_path, w.out_cap, w.err_cap, err, sizeof err);
    w.ms_ptxas = now_ms() - t0;
    strv_free(pargv);
    if (st < 0) fall_back(&w, err);
    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
        size_t len;
        char *e = read_whole(w.err_cap, &len), first[300] = "";
        if (e) {
            /* the first line that says what went wrong */
            const char *l = strstr(e, "error") ? strstr(e, "error") : e;
            while (l > e && l[-1] != '\n') l--;
            snprintf(first, sizeof first, "%.*s", (int)strcspn(l, "\n"), l);
        }
        free(e);
        snprintf(reason, sizeof reason, "ptxas rejected the optimized PTX (exit status %d%s%s)", status_code(st),
                 first[0] ? ": " : "", first);
        fall_back(&w, reason);
    }
    w.used = "optimized";
    forward(&w, w.out_cap, STDOUT_FILENO);
    forward(&w, w.err_cap, STDERR_FILENO);
    if (w.cfg.in_place) {
        for (int i = 0; i < w.cmd.ninputs; i++) {
            if (!w.copy[i] || w.cmd.inputs[i].kind != INPUT_FILE) continue;
            size_t len;
            char *text = read_whole(w.copy[i], &len);
            if (!text || !write_file_atomic(w.cmd.inputs[i].name, text, len))
                fprintf(stderr, "ptxopt: warning: could not rewrite %s in place\n", w.cmd.inputs[i].name);
            else verbose(&w, "rewrote %s in place", w.cmd.inputs[i].name);
            free(text);
        }
    }
    write_report(&w, 0);
    remove_tmpdir(&w);
    return 0;
}
