/* plot.c — --plot=FILE.svg|png: the objective per variant and per
 * dimension, drawn by gnuplot (man/ptxopt-tune.1, PLOTS).
 *
 * Why gnuplot: a plotting program made for it, in every distribution
 * (Debian's gnuplot-nox has the svg, png and pngcairo terminals), driven by
 * a script, so the tuner writes data files and a script and draws nothing
 * by hand.  It is found as $GNUPLOT, else gnuplot on PATH, and checked
 * before any work: an option that cannot be honoured is an error, never a
 * silent no-op.
 *
 * One row of panels per kernel: first the objective of every variant (a
 * bar per variant id, the best in another colour, the baseline's value as
 * a line), then one panel per dimension, the objective of every variant
 * against that dimension's value (off first): how the objective spreads
 * per value.  The objective is the measured time (the median), or in a dry
 * run the cost model's prediction (the column the variants were ranked by).
 * The data and the script stay in the working directory (plot-*.dat,
 * plot.gp) beside the variants. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"

/* $GNUPLOT, else gnuplot on PATH (malloc'ed), or NULL. */
static char *find_gnuplot(void)
{
    const char *e = getenv("GNUPLOT");
    if (e && *e) return access(e, X_OK) == 0 ? strdup(e) : NULL;
    const char *path = getenv("PATH");
    if (!path) return NULL;
    char *copy = strdup(path), *save = NULL;
    if (!copy) fatal_oom();
    for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        char *p;
        if (asprintf(&p, "%s/gnuplot", *d ? d : ".") < 0) fatal_oom();
        if (access(p, X_OK) == 0) {
            free(copy);
            return p;
        }
        free(p);
    }
    free(copy);
    return NULL;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Does gnuplot have this terminal?  ("set terminal T" fails without.) */
static bool has_terminal(const char *gnuplot, const char *term)
{
    char expr[64];
    snprintf(expr, sizeof expr, "set terminal %s", term);
    char *argv[] = { (char *)gnuplot, "-e", expr, NULL };
    ExecResult x = tune_exec(argv, NULL, NULL, NULL, 30);
    return x.status == 0;
}

/* The terminal for file (NULL after writing why to err). */
static const char *terminal_for(const char *gnuplot, const char *file, char *err, size_t errsz)
{
    if (ends_with(file, ".svg")) {
        if (has_terminal(gnuplot, "svg")) return "svg";
        snprintf(err, errsz, "--plot=%s: %s has no svg terminal", file, gnuplot);
        return NULL;
    }
    if (ends_with(file, ".png")) {
        if (has_terminal(gnuplot, "pngcairo")) return "pngcairo";
        if (has_terminal(gnuplot, "png")) return "png";
        snprintf(err, errsz, "--plot=%s: %s has neither the pngcairo nor the png terminal", file, gnuplot);
        return NULL;
    }
    snprintf(err, errsz, "--plot=%s: the file must end in .svg or .png", file);
    return NULL;
}

bool tune_plot_check(const char *file, char *err, size_t errsz)
{
    if (!ends_with(file, ".svg") && !ends_with(file, ".png")) {
        snprintf(err, errsz, "--plot=%s: the file must end in .svg or .png", file);
        return false;
    }
    char *g = find_gnuplot();
    if (!g) {
        const char *e = getenv("GNUPLOT");
        if (e && *e) snprintf(err, errsz, "--plot: GNUPLOT=%s is not an executable: nothing would be drawn", e);
        else
            snprintf(err, errsz, "--plot needs gnuplot, which is not on PATH (Debian: apt-get install gnuplot-nox; "
                                 "or set GNUPLOT=PATH): nothing would be drawn");
        return false;
    }
    bool ok = terminal_for(g, file, err, errsz) != NULL;
    free(g);
    return ok;
}

/* A gnuplot string literal (double quotes: \ and " escaped). */
static void gstr(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

/* The objective of v, or NAN (not measured / not ranked). */
static double objective(const TuneRun *r, const Variant *v)
{
    if (r->measured) return v->measured ? v->median : NAN;
    if (!v->rank) return NAN;
    return v->kernel->rank_dynamic ? v->predicted_cycles_dynamic : v->predicted_cycles;
}

/* A value as a tick label: the values of a "k=v;k=v" value joined by '/'
 * ("threshold=3;form=pairs;op=cg" is "3/pairs/cg"; the axis names the
 * dimension). */
static void short_label(char *dst, size_t n, const char *v)
{
    size_t len = 0;
    dst[0] = 0;
    if (!strchr(v, '=')) {
        snprintf(dst, n, "%s", v);
        return;
    }
    for (const char *p = v; *p && len + 1 < n;) {
        const char *e = strchr(p, ';'), *eq = strchr(p, '=');
        size_t m = e ? (size_t)(e - p) : strlen(p);
        const char *val = eq && eq < p + m ? eq + 1 : p;
        len += (size_t)snprintf(dst + len, n - len, "%s%.*s", len ? "/" : "", (int)(p + m - val), val);
        p = e ? e + 1 : p + m;
    }
}

static void no_data(FILE *gp, const char *title)
{
    fputs("set title ", gp);
    gstr(gp, title);
    fputs("\nset xrange [0:1]\nset yrange [0:1]\nset label 1 \"no data\" at graph 0.5,0.5 center\n"
          "plot 2 notitle\nunset label 1\nset autoscale\n",
          gp);
}

bool tune_plot(const TuneRun *r, const char *file, const char *workdir)
{
    char err[512];
    char *g = find_gnuplot();
    const char *term = g ? terminal_for(g, file, err, sizeof err) : NULL;
    if (!term) {
        fprintf(stderr, "ptxopt-tune: %s\n", g ? err : "--plot: gnuplot is gone");
        free(g);
        return false;
    }
    int rows = 0, cols = 1;
    for (int i = 0; i < r->nkernels; i++) {
        if (r->kernels[i].skip) continue;
        rows++;
        if (1 + r->kernels[i].ndims > cols) cols = 1 + r->kernels[i].ndims;
    }
    if (!rows) {
        fprintf(stderr, "ptxopt-tune: --plot: no kernel was tuned: nothing to draw\n");
        free(g);
        return false;
    }
    char *script;
    if (asprintf(&script, "%s/plot.gp", workdir) < 0) fatal_oom();
    FILE *gp = fopen(script, "w");
    if (!gp) {
        fprintf(stderr, "ptxopt-tune: cannot write %s\n", script);
        free(script), free(g);
        return false;
    }
    const char *what = r->measured ? "time (median of the measuring command)" : "predicted cycles (cost model)";
    fprintf(gp, "set terminal %s size %d,%d noenhanced\nset output ", term, 520 * cols, 440 * rows);
    gstr(gp, file);
    fprintf(gp, "\nset datafile missing \"nan\"\nset style fill solid 0.6\nset boxwidth 0.7\nset grid ytics\n"
                "set multiplot layout %d,%d title ",
            rows, cols);
    char title[600];
    snprintf(title, sizeof title, "ptxopt-tune %s (%s): %s", r->input, r->arch, what);
    gstr(gp, title);
    fputc('\n', gp);
    bool ok = true;
    for (int i = 0; i < r->nkernels && ok; i++) {
        const TuneKernel *k = &r->kernels[i];
        if (k->skip) continue;
        /* per variant: id, objective, best */
        char *dat;
        if (asprintf(&dat, "%s/plot-%d.dat", workdir, i) < 0) fatal_oom();
        FILE *f = fopen(dat, "w");
        if (!f) {
            fprintf(stderr, "ptxopt-tune: cannot write %s\n", dat);
            free(dat);
            ok = false;
            break;
        }
        int n = 0;
        double base = NAN;
        for (int j = 0; j < k->nvariants; j++) {
            const Variant *v = &r->variants[k->first_variant + j];
            double y = objective(r, v);
            if (v->baseline) base = y;
            if (isnan(y)) continue;
            fprintf(f, "%d %.17g %d", v->id, y, v->best);
            for (int d = 0; d < k->ndims; d++) {
                int c = 0;   /* the value's category: 0 off, 1.. the values */
                for (int x = 0; v->value[d] && x < k->dims[d].nvalues; x++)
                    if (strcmp(k->dims[d].values[x], v->value[d]) == 0) c = x + 1;
                fprintf(f, " %d", c);
            }
            fputc('\n', f);
            n++;
        }
        fclose(f);
        snprintf(title, sizeof title, "%s: per variant%s", k->name, isnan(base) ? "" : " (line: the baseline)");
        if (!n) {
            no_data(gp, title);
        } else {
            fputs("set title ", gp);
            gstr(gp, title);
            fputs("\nset xlabel \"variant id\"\nset ylabel ", gp);
            gstr(gp, r->measured ? "time" : "predicted cycles");
            fputs("\nset xtics autofreq norotate\nset yrange [0:*]\nplot ", gp);
            gstr(gp, dat);
            fputs(" using 1:($3 > 0 ? NaN : $2) with boxes lc rgb \"#4878a8\" title \"variant\", ", gp);
            gstr(gp, dat);
            fputs(" using 1:($3 > 0 ? $2 : NaN) with boxes lc rgb \"#d0583c\" title \"best\"", gp);
            if (!isnan(base)) fprintf(gp, ", %.17g with lines dt 2 lc rgb \"black\" notitle", base);
            fputs("\nset autoscale\n", gp);
        }
        /* per dimension: the objective against the value */
        for (int d = 0; d < k->ndims; d++) {
            snprintf(title, sizeof title, "%s: per %s", k->name, k->dims[d].name);
            if (!n) {
                no_data(gp, title);
                continue;
            }
            fputs("set title ", gp);
            gstr(gp, title);
            fputs("\nset xlabel ", gp);
            gstr(gp, k->dims[d].name);
            fputs("\nset xtics (\"off\" 0", gp);
            bool longer = k->dims[d].nvalues > 8;
            for (int x = 0; x < k->dims[d].nvalues; x++) {
                char label[200];
                short_label(label, sizeof label, k->dims[d].values[x]);
                longer |= strlen(label) > 5;
                fputs(", ", gp);
                gstr(gp, label);
                fprintf(gp, " %d", x + 1);
            }
            fprintf(gp, ") %s\nset xrange [-0.5:%d.5]\nset yrange [0:*]\nplot ",
                    longer ? "rotate by 90 right" : "norotate", k->dims[d].nvalues);
            gstr(gp, dat);
            fprintf(gp, " using %d:2 with points pt 7 ps 0.8 lc rgb \"#4878a8\" notitle, ", 4 + d);
            gstr(gp, dat);
            fprintf(gp, " using %d:($3 > 0 ? $2 : NaN) with points pt 7 ps 1.4 lc rgb \"#d0583c\" notitle\n", 4 + d);
            fputs("set autoscale\nunset xtics\nset xtics norotate\n", gp);
        }
        for (int d = k->ndims + 1; d < cols; d++) fputs("set multiplot next\n", gp);
        free(dat);
    }
    fputs("unset multiplot\n", gp);
    fclose(gp);
    if (ok) {
        char *log;
        if (asprintf(&log, "%s/plot.log", workdir) < 0) fatal_oom();
        char *argv[] = { g, script, NULL };
        ExecResult x = tune_exec(argv, NULL, log, log, 120);
        if (x.status != 0) {
            fprintf(stderr, "ptxopt-tune: --plot: gnuplot failed (status %d): %s (script %s)\n", x.status,
                    x.status < 0 ? x.error : tune_last_line(log), script);
            ok = false;
        }
        free(log);
    }
    if (ok && access(file, R_OK) != 0) {
        fprintf(stderr, "ptxopt-tune: --plot: gnuplot wrote no %s\n", file);
        ok = false;
    }
    free(script), free(g);
    return ok;
}
