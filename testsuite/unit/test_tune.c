/* test_tune.c — ptxopt-tune's pieces that need no ptxas: reading ptxas -v
 * logs, times and medians, --dim specs, the candidate space and its
 * pipelines, the register caps worth trying; the JSON reader --resume
 * uses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/common/json_read.h"
#include "tools/ptxopt-tune/tune.h"

static int failures;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (!(cond)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            failures++;                                                              \
        }                                                                            \
    } while (0)

/* ptxas 13.0's words, with a non-inlined callee and a kernel that spills. */
static const char LOG[] =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'tiled' for 'sm_80'\n"
    "ptxas info    : Function properties for tiled\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 56 registers, used 1 barriers, 4224 bytes smem, 372 bytes cmem[0]\n"
    "ptxas info    : Compile time = 6.903 ms\n"
    "ptxas info    : Compiling entry function 'pressure' for 'sm_80'\n"
    "ptxas info    : Function properties for pressure\n"
    "    576 bytes stack frame, 1264 bytes spill stores, 1324 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 0 barriers, 576 bytes cumulative stack size, 372 bytes cmem[0]\n"
    "ptxas info    : Function properties for _Z3fibi\n"
    "    24 bytes stack frame, 20 bytes spill stores, 20 bytes spill loads\n"
    "ptxas info    : Compiling entry function 'hopper' for 'sm_90'\n"
    "ptxas info    : Function properties for hopper\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 16 registers, used 0 barriers, 512 bytes smem\n";

static void test_ptxas_log(void)
{
    PtxasRun r = { 0 };
    ptxas_parse_log(LOG, &r);
    CHECK(r.n == 3);
    const PtxasStats *t = ptxas_stats_of(&r, "tiled"), *p = ptxas_stats_of(&r, "pressure"),
                     *h = ptxas_stats_of(&r, "hopper");
    CHECK(t && t->found && t->regs == 56 && t->barriers == 1 && t->smem == 4224 && t->stack == 0 && t->spill_stores == 0);
    CHECK(p && p->regs == 40 && p->barriers == 0 && p->smem == 0 && p->stack == 576 && p->spill_stores == 1264 &&
          p->spill_loads == 1324);
    CHECK(h && h->regs == 16 && h->smem == 512);
    CHECK(ptxas_stats_of(&r, "_Z3fibi") == NULL); /* a callee is not an entry */
    ptxas_run_free(&r);
    ptxas_parse_log("", &r);
    CHECK(r.n == 0);
    ptxas_run_free(&r);
}

static void test_times(void)
{
    double t = -1;
    CHECK(tune_parse_time("1.25", &t) && t == 1.25);
    CHECK(tune_parse_time("  3 ms", &t) && t == 3);
    CHECK(tune_parse_time("2e-3\t s", &t) && t == 2e-3);
    CHECK(!tune_parse_time("", &t));
    CHECK(!tune_parse_time("done", &t));
    CHECK(!tune_parse_time("1.5 ms 2", &t));
    CHECK(!tune_parse_time("-1", &t));
    CHECK(!tune_parse_time("nan", &t));
    const double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 };
    CHECK(tune_median(a, 3) == 3);
    CHECK(tune_median(b, 4) == 2.5);
    CHECK(isnan(tune_median(a, 0)));
}

static void free_dim(TuneDim *d)
{
    free((char *)d->name), free((char *)d->fragment);
    for (int i = 0; i < d->nvalues; i++) free(d->values[i]);
}

static void test_dims(void)
{
    char err[256];
    TuneDim d;
    CHECK(tune_parse_dim("level:regtune<level=%v;block=256;kernel=%k>:2,3,,4", &d, err, sizeof err));
    CHECK(strcmp(d.name, "level") == 0 && strcmp(d.fragment, "regtune<level=%v;block=256;kernel=%k>") == 0);
    CHECK(d.nvalues == 3 && strcmp(d.values[2], "4") == 0);

    TuneKernel k = { 0 };
    k.name = "K";
    k.dims[k.ndims++] = d;
    TuneDim e;
    CHECK(tune_parse_dim("pct:x<p=%v%%>:10,90", &e, err, sizeof err));
    k.dims[k.ndims++] = e;
    CHECK(tune_space_size(&k) == 6);
    char *v[TUNE_MAX_DIMS];
    tune_space_at(&k, 1, v); /* the last dimension varies fastest */
    CHECK(strcmp(v[0], "2") == 0 && strcmp(v[1], "90") == 0);
    char *pl = tune_pipeline(&k, v);
    CHECK(strcmp(pl, "regtune<level=2;block=256;kernel=K>,x<p=90%>") == 0);
    free(pl);
    tune_space_at(&k, 5, v);
    CHECK(strcmp(v[0], "4") == 0 && strcmp(v[1], "90") == 0);
    /* a dimension without values for this kernel is "not applied" */
    k.dims[1].nvalues = 0;
    CHECK(tune_space_size(&k) == 3);
    tune_space_at(&k, 2, v);
    CHECK(strcmp(v[0], "4") == 0 && v[1] == NULL);
    pl = tune_pipeline(&k, v);
    CHECK(strcmp(pl, "regtune<level=4;block=256;kernel=K>") == 0);
    free(pl);
    k.dims[1].nvalues = 2;
    free_dim(&d), free_dim(&e);

    CHECK(!tune_parse_dim("nocolon", &d, err, sizeof err) && strstr(err, "expected NAME:FRAGMENT"));
    free_dim(&d);
    CHECK(!tune_parse_dim("a:frag:1", &d, err, sizeof err) && strstr(err, "%v"));
    free_dim(&d);
    CHECK(!tune_parse_dim("a:f<%v>:", &d, err, sizeof err) && strstr(err, "no values"));
    free_dim(&d);
    CHECK(!tune_parse_dim("a b:f<%v>:1", &d, err, sizeof err) && strstr(err, "letters"));
    free_dim(&d);
    CHECK(!tune_parse_dim("a:f<%v>:1;2", &d, err, sizeof err) && strstr(err, "may not contain"));
    free_dim(&d);
    /* every value must make a pipeline ptxopt accepts */
    CHECK(tune_parse_dim("lvl:regtune<level=%v;block=256;kernel=%k>:2,4", &d, err, sizeof err));
    CHECK(tune_check_dim(&d, err, sizeof err));
    free_dim(&d);
    CHECK(tune_parse_dim("cap:regtune<maxnreg=%v>:64,x64", &d, err, sizeof err));
    CHECK(!tune_check_dim(&d, err, sizeof err) && strcmp(err, "--dim 'cap', value 'x64': pass 'regtune': maxnreg=x64 is not an integer") == 0);
    free_dim(&d);
    CHECK(tune_parse_dim("pct:x<p=%v%%>:10", &d, err, sizeof err));
    CHECK(!tune_check_dim(&d, err, sizeof err) && strstr(err, "unknown pass 'x'"));
    free_dim(&d);
}

static void test_caps(void)
{
    const Arch *a = arch_find("sm_80");
    TuneKernel k = { 0 };
    k.name = "K";
    int caps[CRIT_MAX_POINTS];
    /* block 256, range [24, 168]: the critical points and the top */
    k.block = 256, k.floor_regs = 24, k.top_clamp = 168;
    int n = tune_critical_caps(a, &k, caps);
    const int want256[] = { 32, 40, 48, 64, 80, 128, 168 };
    CHECK(n == 7 && memcmp(caps, want256, sizeof want256) == 0);
    /* unknown block: the universal set inside the range, and the top */
    k.universal = true;
    n = tune_critical_caps(a, &k, caps);
    const int wantu[] = { 32, 40, 48, 56, 64, 72, 80, 96, 128, 168 };
    CHECK(n == 10 && memcmp(caps, wantu, sizeof wantu) == 0);
    /* a kernel that needs fewer registers than ptxas's floor: nothing */
    k.floor_regs = 8, k.top_clamp = 12;
    CHECK(tune_critical_caps(a, &k, caps) == 0);
    /* 1024 threads: what launches stops at 64 */
    k.universal = false, k.block = 1024, k.floor_regs = 24, k.top_clamp = 168;
    n = tune_critical_caps(a, &k, caps);
    CHECK(n == 2 && caps[0] == 32 && caps[1] == 64);
}

static void test_regs_dim(void)
{
    TuneDim d = tune_regs_dim();
    CHECK(strcmp(d.name, "maxnreg") == 0 && d.values_for != NULL);
    TuneKernel k = { 0 };
    k.name = "K", k.block = 512, k.floor_regs = 28, k.top_clamp = 100;
    d.values_for(&d, arch_find("sm_80"), &k);
    /* 512 threads on sm_80: 32 40 64 128 in [28, 100], and the top itself */
    CHECK(d.nvalues == 4 && strcmp(d.values[0], "32") == 0 && strcmp(d.values[1], "40") == 0 &&
          strcmp(d.values[2], "64") == 0 && strcmp(d.values[3], "100") == 0);
    for (int i = 0; i < d.nvalues; i++) free(d.values[i]);
}

static bool json_fails(const char *text, const char *want)
{
    char err[128] = "";
    JsonValue *v = json_parse(text, strlen(text), err, sizeof err);
    json_free(v);
    if (!v && strcmp(err, want) != 0) fprintf(stderr, "json '%s': '%s', expected '%s'\n", text, err, want);
    return !v && strcmp(err, want) == 0;
}

static void test_json(void)
{
    const char *text = " {\"a\": [1, -2.5e3, true, false, null], \"s\": \"x\\\"\\n\\u00e9\\ud83d\\ude00/\", \"o\": {}, \"a\": 0}\n";
    char err[128];
    JsonValue *v = json_parse(text, strlen(text), err, sizeof err);
    CHECK(v && v->kind == JSON_OBJECT && v->n == 4);
    const JsonValue *a = json_get(v, "a");   /* the first of two */
    CHECK(a && a->kind == JSON_ARRAY && a->n == 5);
    CHECK(a && a->items[0]->number == 1 && a->items[1]->number == -2500 && a->items[2]->kind == JSON_TRUE &&
          a->items[3]->kind == JSON_FALSE && a->items[4]->kind == JSON_NULL);
    CHECK(json_str(json_get(v, "s")) && strcmp(json_str(json_get(v, "s")), "x\"\n\xc3\xa9\xf0\x9f\x98\x80/") == 0);
    CHECK(json_get(v, "o") && json_get(v, "o")->kind == JSON_OBJECT && json_get(v, "o")->n == 0);
    CHECK(!json_get(v, "nope") && !json_str(a) && !json_get(a, "a"));
    json_free(v);
    /* every error has its place, nothing crashes, nothing leaks */
    CHECK(json_fails("", "1:1: unexpected end of the text"));
    CHECK(json_fails("{\"a\" 1}", "1:6: expected ':'"));
    CHECK(json_fails("[1,\n 2", "2:3: expected ',' or ']'"));
    CHECK(json_fails("[1] x", "1:5: text after the value"));
    CHECK(json_fails("\"abc", "1:1: unterminated string"));
    CHECK(json_fails("\"a\\u0000\"", "1:9: \\u0000 in a string"));
    CHECK(json_fails("\"\\ud800x\"", "1:8: bad \\u escape"));
    CHECK(json_fails("\"\\q\"", "1:4: bad escape in a string"));
    CHECK(json_fails("0x10", "1:2: text after the value"));
    CHECK(json_fails("-", "1:1: bad number"));
    CHECK(json_fails("nul", "1:1: expected a value"));
    char deep[200];
    memset(deep, '[', sizeof deep - 1);
    deep[sizeof deep - 1] = 0;
    CHECK(json_fails(deep, "1:66: nested too deeply"));
}

int main(void)
{
    test_json();
    test_ptxas_log();
    test_times();
    test_dims();
    test_caps();
    test_regs_dim();
    CHECK(cubin_code_hash("/nonexistent/file.cubin") == 0);
    if (failures) {
        fprintf(stderr, "test_tune: %d failures\n", failures);
        return 1;
    }
    printf("test_tune: all checks passed\n");
    return 0;
}
