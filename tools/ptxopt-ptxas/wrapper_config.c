/* wrapper_config.c — see wrapper_config.h. */
#include "tools/ptxopt-ptxas/wrapper_config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/fatal.h"

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
 * dropped, so a pipeline can be laid out on several lines. */
static bool read_passes_file(WrapperConfig *cfg, const char *path, const char *from)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        char msg[300];
        snprintf(msg, sizeof msg, "cannot read the pipeline file %.200s: %s", path, strerror(errno));
        bad(cfg, "%s: %s", from, msg);
        return false;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    bool comment = false, bol = true;
    for (int c; (c = getc(f)) != EOF;) {
        if (bol && c == '#') comment = true;
        bol = c == '\n';
        if (bol) comment = false;
        if (comment || isspace(c)) continue;
        if (len + 2 > cap) {
            cap = cap ? cap * 2 : 256;
            text = realloc(text, cap);
            if (!text) fatal_oom();
        }
        text[len++] = (char)c;
    }
    fclose(f);
    free(cfg->passes);
    cfg->passes = text ? text : strdup("");
    if (!cfg->passes) fatal_oom();
    cfg->passes[len] = 0;
    return true;
}

/* One option, without its "--ptxopt-" or "--" prefix; `from` names the source. */
static void apply(WrapperConfig *cfg, const char *opt, const char *from)
{
    const char *eq = strchr(opt, '=');
    size_t n = eq ? (size_t)(eq - opt) : strlen(opt);
    const char *val = eq ? eq + 1 : NULL;
    static const char *const flags[] = { "in-place", "canonical", "verbose", "dry-run", "disable", "help",
                                         "version", "list-options" };
    bool *flagv[] = { &cfg->in_place, &cfg->canonical, &cfg->verbose, &cfg->dry_run, &cfg->disable, &cfg->help,
                      &cfg->version, &cfg->list_options };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        if (strlen(flags[i]) != n || strncmp(opt, flags[i], n) != 0) continue;
        if (val) bad(cfg, "%s: option '%s' takes no value", from, opt);
        else *flagv[i] = true;
        return;
    }
#define IS(name) (n == strlen(name) && strncmp(opt, name, n) == 0)
    if (IS("passes") || IS("passes-file") || IS("report") || IS("timeout") || IS("fault")) {
        if (!val) { bad(cfg, "%s: option '%s' needs a value (NAME=VALUE)", from, opt); return; }
        if (IS("passes")) set_str(&cfg->passes, val);
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
    set_str(&cfg->passes, WRAPPER_DEFAULT_PASSES);
    const char *env = getenv("PTXOPT_PASSES");
    if (env) set_str(&cfg->passes, env);
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
"  --ptxopt-in-place         also rewrite the user's .ptx files (nvcc then embeds\n"
"                            the optimized PTX in the fatbinary)\n"
"  --ptxopt-canonical        print the copy in the canonical style\n"
"  --ptxopt-verbose          say what the wrapper does, on stderr\n"
"  --ptxopt-dry-run          print the inputs found and the ptxas command; run nothing\n"
"  --ptxopt-disable          run the real ptxas only\n"
"  --ptxopt-fault=KIND[@SUFFIX]  inject a failure (testing): parse, pass, crash,\n"
"                            timeout, ptxas-reject (also $PTXOPT_FAULT)\n"
"  --ptxopt-list-options     print the ptxas options the wrapper knows\n"
"  --ptxopt-help, --ptxopt-version\n"
"\n"
"The real ptxas: $PTXOPT_PTXAS, the shadow CUDA root's record (ptxopt-nvcc),\n"
"$CUDA_HOME/bin/ptxas, PATH, /usr/local/cuda/bin/ptxas; never the wrapper.\n"
"The exit status is the real ptxas's.  See ptxopt-ptxas(1) and ptxopt-nvcc(1).\n");
}
