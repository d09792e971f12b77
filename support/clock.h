/* clock.h — a monotonic clock in milliseconds, for timings and budgets. */
#ifndef PTXOPT_CLOCK_H
#define PTXOPT_CLOCK_H

#include <time.h>

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif
