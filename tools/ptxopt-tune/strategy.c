/* strategy.c — which points ptxopt-tune measures (--strategy; see tune.h
 * and man/ptxopt-tune.1, STRATEGIES).  The strategies themselves live
 * where their data is: the early-exit search in bypass.c, the model's top
 * k in main.c (after ranking), random sampling in main.c's planning (before
 * building, with tune_sample below). */
#include <stdlib.h>
#include <string.h>

#include "tools/ptxopt-tune/tune.h"
#include "ir/fatal.h"

static const char *const names[] = {
    [STRAT_EARLY_EXIT] = "early-exit", [STRAT_EXHAUSTIVE] = "exhaustive", [STRAT_RANDOM] = "random", [STRAT_MODEL] = "model",
};

const char *tune_strategy_name(TuneStrategy s) { return names[s]; }

bool tune_strategy_parse(const char *s, TuneStrategy *out)
{
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(s, names[i]) == 0) {
            *out = (TuneStrategy)i;
            return true;
        }
    return false;
}

/* splitmix64: a small generator whose stream is the same on every machine,
 * so that a seed names one sample everywhere (and --resume finds it again). */
static unsigned long long next(unsigned long long *state)
{
    unsigned long long z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static int cmp_long(const void *a, const void *b)
{
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

long tune_sample(long m, long n, unsigned long long seed, long *out)
{
    if (n > m) n = m;
    if (n <= 0) return 0;
    /* Floyd's algorithm: n distinct draws without a table of m */
    unsigned long long st = seed;
    long got = 0;
    for (long j = m - n; j < m; j++) {
        long t = (long)(next(&st) % (unsigned long long)(j + 1));
        bool seen = false;
        for (long i = 0; i < got && !seen; i++) seen = out[i] == t;
        out[got++] = seen ? j : t;
    }
    qsort(out, (size_t)got, sizeof *out, cmp_long);
    return got;
}
