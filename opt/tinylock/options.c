/* options.c — the tinylock pass's options and their checks (also run when
 * the pipeline is parsed).  The names rewrite= and debug-spin= are fixed by
 * issue 15 so that scripts can rely on them. */
#include <stdio.h>
#include <string.h>

#include "opt/tinylock/internal.h"

const char *const tl_keys[] = { "rewrite", "debug-spin", "backoff", "profit", "fix-races", NULL };

static bool read_rewrite(const char *v, Options *o, char *err, size_t errsz)
{
    o->spinlock = o->flag = o->barrier = false;
    while (*v) {
        size_t n = strcspn(v, ",");
        if (n == 8 && strncmp(v, "spinlock", n) == 0) o->spinlock = true;
        else if (n == 4 && strncmp(v, "flag", n) == 0) o->flag = true;
        else if (n == 7 && strncmp(v, "barrier", n) == 0) o->barrier = true;
        else {
            snprintf(err, errsz, "rewrite=: '%.*s' is not spinlock, flag or barrier", (int)n, v);
            return false;
        }
        v += n;
        if (*v == ',') v++;
    }
    return true;
}

bool tl_read_options(const PassInvocation *inv, Options *o, char *err, size_t errsz)
{
    *o = (Options){ .spinlock = true, .flag = true, .barrier = true, .profit = true };
    const char *rw = pass_arg(inv, "rewrite");
    if (rw && !read_rewrite(rw, o, err, errsz)) return false;
    if (!pass_arg_int(inv, "debug-spin", &o->debug_spin, 0, err, errsz) ||
        !pass_arg_int(inv, "backoff", &o->backoff, 0, err, errsz))
        return false;
    if (o->debug_spin < 0 || o->debug_spin > 0x7fffffff) {
        snprintf(err, errsz, "debug-spin=%ld is outside 0..2147483647", o->debug_spin);
        return false;
    }
    if (o->backoff < 0 || o->backoff > 1000000) {
        snprintf(err, errsz, "backoff=%ld is outside 0..1000000 (nanoseconds; nanosleep waits at most 1 ms)", o->backoff);
        return false;
    }
    static const char *const profit_names[] = { "auto", "off" };
    int profit;
    if (!pass_arg_choice(inv, "profit", profit_names, 2, 0, &profit, err, errsz)) return false;
    o->profit = profit == 0;
    long fr = 0;
    if (!pass_arg_int(inv, "fix-races", &fr, 0, err, errsz)) return false;
    if (fr != 0 && fr != 1) {
        snprintf(err, errsz, "fix-races=%ld is not 0 or 1", fr);
        return false;
    }
    o->fix_races = fr == 1;
    return true;
}

bool tl_validate(const PassInvocation *inv, char *err, size_t errsz)
{
    Options o;
    return tl_read_options(inv, &o, err, errsz);
}
