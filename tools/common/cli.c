/* cli.c — usage errors and range-checked option values (see cli.h). */
#include "tools/common/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

_Noreturn void cli_usage_error(const char *prog, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
    exit(2);
}

long cli_parse_long(const char *prog, const char *opt, const char *v, long lo, long hi)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || !*v || *end || x < lo || x > hi) {
        char msg[160];
        snprintf(msg, sizeof msg, "invalid value '%%s' for --%s (expected %ld..%ld)", opt, lo, hi);
        cli_usage_error(prog, msg, v);
    }
    return x;
}
