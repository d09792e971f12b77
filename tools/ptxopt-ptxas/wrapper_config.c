/* wrapper_config.c — see wrapper_config.h. */
#include "tools/ptxopt-ptxas/wrapper_config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"
#include "tools/common/fileio.h"

static void set_str(char **dst, const char *v)
{
    free(*dst);
    *dst = strdup(v);
    if (!*dst) fatal_oom();
}

static void bad(WrapperConfig *cfg, const char *fmt, const char *a, const char *b)
{
    if (cfg->error[0]) return;   /* the first one is the one to fix */
    snprintf(cfg->error, sizeof cfg->error, fmt, a, b);
}

/* The pipeline in `path`: nvcc runs ptxas through `sh -c` without quoting
 * -Xptxas values, so '<', ';' and '>' of a pipeline break there; a file
 * name survives.  Lines starting with '#' are comments and whitespace is
 * dropped, so a pipeline can be laid out on several lines.  The file is
 * read with a type and size limit (tools/common/fileio.h) and must be
 * text: what is not is refused without being quoted anywhere. */
static bool read_passes_file(WrapperConfig *cfg, const char *path, const char *from)
{
    char why[200], msg[460];
    size_t flen;
    char *raw = read_user_file(path, WRAPPER_PASSES_FILE_MAX, &flen, why, sizeof why);
    if (raw && memchr(raw, 0, flen)) snprintf(why, sizeof why, "not a text file"), free(raw), raw = NULL;
    for (size_t i = 0; raw && i < flen; i++) {
        unsigned char c = (unsigned char)raw[i];
        if ((c < 0x20 && !isspace(c)) || c >= 0x7f) {
            snprintf(why, sizeof why, "not a text file (byte %zu)", i + 1);
            free(raw);
            raw = NULL;
        }
    }
    if (!raw) {
        snprintf(msg, sizeof msg, "cannot read the pipeline file %.200s: %s", path, why);
        bad(cfg, "%s: %s", from, msg);
        return false;
    }
    char *text = malloc(flen + 1);
    if (!text) fatal_oom();
    size_t len = 0;
    bool comment = false, bol = true;
    for (size_t i = 0; i < flen; i++) {
        int c = (unsigned char)raw[i];
        if (bol && c == '#') comment = true;
        bol = c == '\n';
        if (bol) comment = false;
        if (comment || isspace(c)) continue;
        text[len++] = (char)c;
    }
    text[len] = 0;
    free(raw);
    free(cfg->passes);
    cfg->passes = text;
    set_str(&cfg->passes_file, path);
    return true;
}

/* One option, without its "--ptxopt-" or "--" prefix; `from` names the source. */
static void apply(WrapperConfig *cfg, const char *opt, const char *from)
{
    const char *eq = strchr(opt, '=');
    size_t n = eq ? (size_t)(eq - opt) : strlen(opt);
    const char *val = eq ? eq + 1 : NULL;
    static const char *const flags[] = { "in-place", "canonical", "verbose", "dry-run", "disable", "help",
                                         "version", "list-options", "strict", "check" };
    bool *flagv[] = { &cfg->in_place, &cfg->canonical, &cfg->verbose, &cfg->dry_run, &cfg->disable, &cfg->help,
                      &cfg->version, &cfg->list_options, &cfg->strict, &cfg->check };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        if (strlen(flags[i]) != n || strncmp(opt, flags[i], n) != 0) continue;
        if (val) bad(cfg, "%s: option '%s' takes no value", from, opt);
        else *flagv[i] = true;
        return;
    }
#define IS(name) (n == strlen(name) && strncmp(opt, name, n) == 0)
    if (IS("passes") || IS("passes-file") || IS("report") || IS("timeout") || IS("fault") || IS("memory-limit")) {
        if (!val) { bad(cfg, "%s: option '%s' needs a value (NAME=VALUE)", from, opt); return; }
        if (IS("passes")) {
            set_str(&cfg->passes, val);
            free(cfg->passes_file);
            cfg->passes_file = NULL;
            cfg->passes_from = "--ptxopt-passes";
        }
        else if (IS("memory-limit")) {
            char *end;
            errno = 0;
            unsigned long long m = strtoull(val, &end, 10);
            if (*end || end == val || errno || val[0] == '-' || m > (1ull << 40))
                bad(cfg, "%s: invalid memory limit '%s' (MiB; 0: none)", from, val);
            else cfg->memory_mib = (unsigned long)m;
        }
        else if (IS("passes-file")) read_passes_file(cfg, val, from);
        else if (IS("report")) set_str(&cfg->report, val);
        else if (IS("timeout")) {
            char *end;
            double t = strtod(val, &end);
            if (*end || end == val || !(t >= 0)) bad(cfg, "%s: invalid timeout '%s' (seconds)", from, val);
            else cfg->timeout = t;
        } else {
            char err[300];
            if (!fault_parse(val, &cfg->fault, err, sizeof err)) bad(cfg, "%s: %s", from, err);
        }
        return;
    }
#undef IS
    bad(cfg, "%s: unknown option '%s' (see ptxopt-ptxas --ptxopt-help)", from, opt);
}

void wrapper_config_load(WrapperConfig *cfg, const PtxasCmd *cmd)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->timeout = WRAPPER_DEFAULT_TIMEOUT;
    cfg->memory_mib = WRAPPER_DEFAULT_MEMORY_MIB;
    set_str(&cfg->passes, WRAPPER_DEFAULT_PASSES);
    const char *env = getenv("PTXOPT_PASSES");
    if (env) {
        set_str(&cfg->passes, env);
        cfg->passes_from = "$PTXOPT_PASSES";
    }
    env = getenv("PTXOPT_STRICT");
    if (env && *env) {
        if (strcmp(env, "1") == 0 || strcmp(env, "yes") == 0 || strcmp(env, "true") == 0) cfg->strict = true;
        else if (strcmp(env, "0") != 0 && strcmp(env, "no") != 0 && strcmp(env, "false") != 0) {
            bad(cfg, "PTXOPT_STRICT: '%s' is not 1 or 0%s", env, "");
            cfg->strict = true;   /* whoever set it meant some strictness */
        }
    }
    env = getenv("PTXOPT_FAULT");
    if (env && *env) {
        char err[300];
        if (!fault_parse(env, &cfg->fault, err, sizeof err)) bad(cfg, "PTXOPT_FAULT: %s", err, "");
    }
    env = getenv("PTXOPT_FLAGS");
    if (env) {
        char **words;
        int n = ptxas_split_words(env, &words);
        for (int i = 0; i < n; i++) {
            const char *w = words[i];
            if (strncmp(w, "--ptxopt-", 9) == 0) apply(cfg, w + 9, "PTXOPT_FLAGS");
            else if (strncmp(w, "--", 2) == 0) apply(cfg, w + 2, "PTXOPT_FLAGS");
            else bad(cfg, "%s: '%s' is not an option (--NAME[=VALUE])", "PTXOPT_FLAGS", w);
        }
        strv_free(words);
    }
    for (int i = 0; i < cmd->nptxopt; i++) apply(cfg, cmd->ptxopt[i] + 9, "command line");
}

void wrapper_config_free(WrapperConfig *cfg)
{
    free(cfg->passes);
    free(cfg->passes_file);
    free(cfg->report);
    memset(cfg, 0, sizeof *cfg);
}

void wrapper_usage(void)
{
    printf(
"Usage: ptxopt-ptxas [PTXAS-OPTION]... [--ptxopt-OPTION]... PTX-FILE...\n"
"A drop-in ptxas: optimizes a copy of each PTX input with ptxopt, then runs\n"
"the real ptxas on it with the same arguments.  Whatever goes wrong inside\n"
"ptxopt, the real ptxas runs on the original PTX and one line says why:\n"
"  ptxopt: warning: REASON; used the original PTX\n"
"\n"
"Wrapper options (removed before the real ptxas runs; also accepted in\n"
"$PTXOPT_FLAGS, with or without the ptxopt- prefix):\n"
"  --ptxopt-passes=PIPELINE  passes to run (default: $PTXOPT_PASSES, else none)\n"
"  --ptxopt-passes-file=FILE the pipeline written in FILE (for nvcc -Xptxas, whose\n"
"                            shell breaks '<', ';' and '>'; # comments, blanks ignored)\n"
"  --ptxopt-report=FILE      append one JSON line per run (inputs, remarks,\n"
"                            what was used and why)\n"
"  --ptxopt-timeout=SECONDS  time limit for the optimization (default 60; 0: none)\n"
"  --ptxopt-memory-limit=MIB the optimizer's address-space limit (default 4096;\n"
"                            0: none)\n"
"  --ptxopt-in-place         also rewrite the user's .ptx files (nvcc then embeds\n"
"                            the optimized PTX in the fatbinary)\n"
"  --ptxopt-canonical        print the copy in the canonical style\n"
"  --ptxopt-verbose          say what the wrapper does, on stderr\n"
"  --ptxopt-dry-run          print the inputs found and the ptxas command; run nothing\n"
"  --ptxopt-disable          run the real ptxas only\n"
"  --ptxopt-strict           no fallback: whatever would make the wrapper use the\n"
"                            original PTX fails the run instead, with the reason\n"
"                            (also $PTXOPT_STRICT=1; for CI and for tuning a build)\n"
"  --ptxopt-check            check the configuration (options, $PTXOPT_FLAGS,\n"
"                            $PTXOPT_PASSES, ...); print 'strict: yes|no', or the\n"
"                            error and status 2; run nothing (ptxopt-nvcc does\n"
"                            this once, before nvcc starts)\n"
"  --ptxopt-fault=KIND[@SUFFIX]  inject a failure (testing): parse, pass, crash,\n"
"                            timeout, ptxas-reject, memory (also $PTXOPT_FAULT)\n"
"  --ptxopt-list-options     print the ptxas options the wrapper knows\n"
"  --ptxopt-help, --ptxopt-version\n"
"\n"
"The real ptxas: $PTXOPT_PTXAS, the shadow CUDA root's record (ptxopt-nvcc),\n"
"$CUDA_HOME/bin/ptxas, PATH, /usr/local/cuda/bin/ptxas; never the wrapper.\n"
"The exit status is the real ptxas's.  See ptxopt-ptxas(1) and ptxopt-nvcc(1).\n");
}
