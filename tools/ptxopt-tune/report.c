/* report.c — what ptxopt-tune prints and writes.
 *
 * The table (standard output) is for shell loops: comment lines start with
 * '#', then one line per variant, fields separated by single spaces, '-'
 * for "none", the variant's PTX path last (so `read ... path` keeps a path
 * with blanks whole):
 *   id kernel DIM... regs spill_st spill_ld stack blocks occupancy rank time status path
 * status is ok, best, dup:ID (same machine code as variant ID: not built
 * again nor measured), build-failed or measure-failed (and pending in the
 * reports written while measuring).
 * The CSV (--report=FILE.csv) has a header line and every field; the JSON
 * (--report=FILE.json, or any other name) has the same per variant, grouped
 * by kernel, with the run's settings. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/common/fileio.h"
#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"
#include "opt/remarks.h"

/* A variant built but not measured yet shows as "pending" in the partial
 * reports written during --measure. */
static const char *status_name(const TuneRun *r, const Variant *v)
{
    switch (v->status) {
    case V_OK: return v->best ? "best" : v->skipped ? "skipped" : r->measured && !v->measured ? "pending" : "ok";
    case V_DUPLICATE: return "dup";
    case V_BUILD_FAILED: return "build-failed";
    case V_MEASURE_FAILED: return "measure-failed";
    default: return "pending";
    }
}

static bool has_stats(const Variant *v) { return v->status == V_OK || v->status == V_DUPLICATE || v->status == V_MEASURE_FAILED; }

/* --sass: total, then every class but NOP (`none` when it has none). */
static void sass_fields(FILE *out, const Variant *v, char sep, const char *none)
{
    fprintf(out, "%c", sep);
    if (v->has_sass) fprintf(out, "%d", v->sass_total); else fputs(none, out);
    for (int c = 0; c < SASS_NCLASSES; c++) {
        if (c == SASS_NOP) continue;
        fputc(sep, out);
        if (v->has_sass) fprintf(out, "%d", v->sass[c]); else fputs(none, out);
    }
}

void tune_print_table(const TuneRun *r, FILE *out)
{
    fprintf(out, "# ptxopt-tune %s for %s: %s\n", r->input, r->arch,
            r->measured ? "measured" : "dry run (ranked by the cost model)");
    for (int i = 0; i < r->nkernels; i++) {
        const TuneKernel *k = &r->kernels[i];
        if (k->skip) {
            fprintf(out, "# kernel %s: not tuned: %s\n", k->name, k->skip);
            continue;
        }
        fprintf(out, "# kernel %s: block %d (%s), %lld B static shared memory, registers %d..%d (default %d)",
                k->name, k->block, k->block_from, k->smem_static, k->floor_regs, k->top_regs, k->default_regs);
        for (int d = 0; d < k->ndims; d++) {
            fprintf(out, ", %s", k->dims[d].name);
            for (int j = 0; j < k->dims[d].nvalues; j++) fprintf(out, "%s%s", j ? "," : " ", k->dims[d].values[j]);
        }
        fputc('\n', out);
    }
    fputs("# id kernel", out);
    const TuneKernel *k0 = r->nkernels ? &r->kernels[0] : NULL;
    for (int d = 0; k0 && d < k0->ndims; d++) fprintf(out, " %s", k0->dims[d].name);
    fputs(" regs spill_st spill_ld stack blocks occupancy rank time", out);
    for (int c = 0; r->sass && c < SASS_NCLASSES; c++)
        if (c != SASS_NOP) fprintf(out, "%s sass_%s", c ? "" : " sass_total", sass_class_name((SassClass)c));
    fputs(" status path\n", out);
    for (int i = 0; i < r->nvariants; i++) {
        const Variant *v = &r->variants[i];
        const TuneKernel *k = v->kernel;
        fprintf(out, "%d %s", v->id, k->name);
        for (int d = 0; d < k->ndims; d++) fprintf(out, " %s", v->value[d] ? v->value[d] : "-");
        if (has_stats(v))
            fprintf(out, " %d %lld %lld %lld %d %.4f", v->st.regs, v->st.spill_stores, v->st.spill_loads, v->st.stack,
                    v->occ.blocks_per_sm, v->occ.occupancy);
        else
            fputs(" - - - - - -", out);
        if (v->rank) fprintf(out, " %d", v->rank); else fputs(" -", out);
        if (v->measured) fprintf(out, " %.6g", v->median); else fputs(" -", out);
        if (r->sass) sass_fields(out, v, ' ', "-");
        if (v->status == V_DUPLICATE) fprintf(out, " dup:%d", v->duplicate_of);
        else fprintf(out, " %s", status_name(r, v));
        fprintf(out, " %s\n", v->ptx_path ? v->ptx_path : "-");
    }
    for (int i = 0; i < r->nvariants; i++) {
        const Variant *v = &r->variants[i];
        if (v->error) fprintf(out, "# variant %d: %s\n", v->id, v->error);
    }
}

/* ------------------------------------------------------------------ CSV */

static void csv_field(FILE *f, const char *s)
{
    if (!s) return;
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_csv(const TuneRun *r, FILE *f)
{
    fputs("id,kernel,baseline", f);
    const TuneKernel *k0 = r->nkernels ? &r->kernels[0] : NULL;
    for (int d = 0; k0 && d < k0->ndims; d++) fprintf(f, ",%s", k0->dims[d].name);
    fputs(",pipeline,status,duplicate_of,regs,spill_stores,spill_loads,stack,smem,barriers,blocks_per_sm,occupancy,"
          "limit,predicted_rank,predicted_cycles,bottleneck,confidence,runs,time_median,times,best,ptx,cubin,error", f);
    for (int c = 0; r->sass && c < SASS_NCLASSES; c++)
        if (c != SASS_NOP) fprintf(f, "%s,sass_%s", c ? "" : ",sass_total", sass_class_name((SassClass)c));
    fputc('\n', f);
    for (int i = 0; i < r->nvariants; i++) {
        const Variant *v = &r->variants[i];
        const TuneKernel *k = v->kernel;
        fprintf(f, "%d,", v->id);
        csv_field(f, k->name);
        fprintf(f, ",%d", v->baseline);
        for (int d = 0; d < k->ndims; d++) {
            fputc(',', f);
            csv_field(f, v->value[d] ? v->value[d] : "");
        }
        fputc(',', f);
        csv_field(f, v->pipeline);
        fprintf(f, ",%s,", status_name(r, v));
        if (v->status == V_DUPLICATE) fprintf(f, "%d", v->duplicate_of);
        if (has_stats(v))
            fprintf(f, ",%d,%lld,%lld,%lld,%lld,%d,%d,%.4f,%s", v->st.regs, v->st.spill_stores, v->st.spill_loads,
                    v->st.stack, v->st.smem, v->st.barriers, v->occ.blocks_per_sm, v->occ.occupancy,
                    occ_limit_name(v->occ.limit));
        else
            fputs(",,,,,,,,,", f);
        if (v->rank) fprintf(f, ",%d,%.6g,%s,%s", v->rank, v->predicted_cycles, v->bottleneck, v->confidence);
        else fputs(",,,,", f);
        fprintf(f, ",%d,", v->nruns);
        if (v->measured) fprintf(f, "%.9g", v->median);
        fputc(',', f);
        for (int t = 0; t < v->nruns; t++) fprintf(f, "%s%.9g", t ? ";" : "", v->times[t]);
        fprintf(f, ",%d,", v->best);
        csv_field(f, v->ptx_path);
        fputc(',', f);
        csv_field(f, v->cubin_path);
        fputc(',', f);
        csv_field(f, v->error);
        if (r->sass) sass_fields(f, v, ',', "");
        fputc('\n', f);
    }
}

/* ----------------------------------------------------------------- JSON */

static void jstr(FILE *f, const char *s)
{
    if (s) json_string(f, s);
    else fputs("null", f);
}

static void jnum(FILE *f, double x)
{
    if (isfinite(x)) fprintf(f, "%.9g", x);
    else fputs("null", f);
}

/* A time: the shortest of %.9g..%.17g that reads back as x, so that a time
 * read back by --resume is the time measured, to the bit. */
static void jtime(FILE *f, double x)
{
    if (!isfinite(x)) {
        fputs("null", f);
        return;
    }
    char buf[40];
    for (int prec = 9; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x) break;
    }
    fputs(buf, f);
}

static void write_variant_json(const TuneRun *r, const Variant *v, FILE *f)
{
    const TuneKernel *k = v->kernel;
    fprintf(f, "{\"id\":%d,\"baseline\":%s,\"values\":{", v->id, v->baseline ? "true" : "false");
    for (int d = 0; d < k->ndims; d++) {
        fprintf(f, "%s", d ? "," : "");
        json_string(f, k->dims[d].name);
        fputc(':', f);
        jstr(f, v->value[d]);
    }
    fputs("},\"pipeline\":", f);
    jstr(f, v->pipeline);
    fputs(",\"status\":", f);
    json_string(f, status_name(r, v));
    if (v->status == V_DUPLICATE) fprintf(f, ",\"duplicate_of\":%d", v->duplicate_of);
    else fputs(",\"duplicate_of\":null", f);
    if (has_stats(v))
        fprintf(f, ",\"regs\":%d,\"spill_stores\":%lld,\"spill_loads\":%lld,\"stack\":%lld,\"smem\":%lld,\"barriers\":%d,"
                   "\"blocks_per_sm\":%d,\"occupancy\":%.4f,\"limit\":\"%s\"",
                v->st.regs, v->st.spill_stores, v->st.spill_loads, v->st.stack, v->st.smem, v->st.barriers,
                v->occ.blocks_per_sm, v->occ.occupancy, occ_limit_name(v->occ.limit));
    else
        fputs(",\"regs\":null,\"spill_stores\":null,\"spill_loads\":null,\"stack\":null,\"smem\":null,\"barriers\":null,"
              "\"blocks_per_sm\":null,\"occupancy\":null,\"limit\":null", f);
    if (v->rank) {
        fprintf(f, ",\"predicted_rank\":%d,\"predicted_cycles\":", v->rank);
        jnum(f, v->predicted_cycles);
        fputs(",\"bottleneck\":", f);
        jstr(f, v->bottleneck);
        fputs(",\"confidence\":", f);
        jstr(f, v->confidence);
    } else {
        fputs(",\"predicted_rank\":null,\"predicted_cycles\":null,\"bottleneck\":null,\"confidence\":null", f);
    }
    fputs(",\"times\":[", f);
    for (int t = 0; t < v->nruns; t++) {
        if (t) fputc(',', f);
        jtime(f, v->times[t]);
    }
    fputs("],\"time_median\":", f);
    if (v->measured) jtime(f, v->median); else fputs("null", f);
    fprintf(f, ",\"best\":%s,\"ptx\":", v->best ? "true" : "false");
    jstr(f, v->ptx_path);
    fputs(",\"cubin\":", f);
    jstr(f, v->cubin_path);
    if (v->code_hash) fprintf(f, ",\"code_hash\":\"%016llx\"", v->code_hash);
    else fputs(",\"code_hash\":null", f);
    fputs(",\"error\":", f);
    jstr(f, v->error);
    if (v->has_sass) {
        fprintf(f, ",\"sass\":{\"total\":%d", v->sass_total);
        for (int c = 0; c < SASS_NCLASSES; c++) fprintf(f, ",\"%s\":%d", sass_class_name((SassClass)c), v->sass[c]);
        fputc('}', f);
    }
    fputc('}', f);
}

static void write_json(const TuneRun *r, FILE *f)
{
    fputs("{\"input\":", f);
    json_string(f, r->input);
    fputs(",\"arch\":", f);
    json_string(f, r->arch);
    fprintf(f, ",\"mode\":\"%s\",\"measure\":", r->measured ? "measure" : "dry-run");
    jstr(f, r->measure_cmd);
    fprintf(f, ",\"repeat\":%d,\"output\":", r->repeat);
    jstr(f, r->output);
    fprintf(f, ",\"complete\":%s,\"kernels\":[", r->complete ? "true" : "false");
    for (int i = 0; i < r->nkernels; i++) {
        const TuneKernel *k = &r->kernels[i];
        fputs(i ? ",\n{\"name\":" : "\n{\"name\":", f);
        json_string(f, k->name);
        fputs(",\"skipped\":", f);
        jstr(f, k->skip);
        fprintf(f, ",\"block\":%d,\"block_from\":", k->block);
        jstr(f, k->block_from);
        fprintf(f, ",\"universal\":%s,\"smem_static\":%lld,\"smem_dynamic\":%lld,\"default_regs\":%d,"
                   "\"floor_regs\":%d,\"top_regs\":%d,\"top_clamped\":%d,\"dimensions\":[",
                k->universal ? "true" : "false", k->smem_static, k->smem_dynamic, k->default_regs, k->floor_regs,
                k->top_regs, k->top_clamp);
        for (int d = 0; d < k->ndims; d++) {
            fputs(d ? ",{\"name\":" : "{\"name\":", f);
            json_string(f, k->dims[d].name);
            fputs(",\"fragment\":", f);
            json_string(f, k->dims[d].fragment);
            fputs(",\"values\":[", f);
            for (int j = 0; j < k->dims[d].nvalues; j++) {
                if (j) fputc(',', f);
                json_string(f, k->dims[d].values[j]);
            }
            fputs("]}", f);
        }
        fputs("],\"best\":", f);
        if (k->best >= 0) fprintf(f, "%d", r->variants[k->best].id); else fputs("null", f);
        fputs(",\"variants\":[", f);
        for (int j = 0; j < k->nvariants; j++) {
            fputs(j ? ",\n  " : "\n  ", f);
            write_variant_json(r, &r->variants[k->first_variant + j], f);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
}

bool tune_write_report(const TuneRun *r, const char *path)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) fatal_oom();
    size_t n = strlen(path);
    if (n >= 4 && strcmp(path + n - 4, ".csv") == 0) write_csv(r, f);
    else write_json(r, f);
    if (fclose(f) != 0) fatal_oom();
    bool ok = write_file_atomic(path, buf, len);
    free(buf);
    return ok;
}
