/* fatal.h — the only ways ptxopt gives up: out of memory and internal errors.
 * Both print a message and exit with status 3 (internal error); bad input
 * never reaches here (it gets a diagnostic and status 1). */
#ifndef PTXOPT_FATAL_H
#define PTXOPT_FATAL_H

_Noreturn void fatal_oom(void);
_Noreturn void fatal_internal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
