/* fatal.c — see fatal.h. */
#include "ir/fatal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

_Noreturn void fatal_oom(void)
{
    fputs("ptxopt: internal error: out of memory\n", stderr);
    exit(3);
}

_Noreturn void fatal_internal(const char *fmt, ...)
{
    va_list ap;
    fputs("ptxopt: internal error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(3);
}
