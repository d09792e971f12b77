/* check.h — the CHECK macro of the C unit tests: count every check, print
 * each failure with its place, and go on (the test exits 1 if `failures`). */
#ifndef PTXOPT_UNIT_CHECK_H
#define PTXOPT_UNIT_CHECK_H

#include <stdio.h>

static int failures;
static int checks;

#define CHECK(cond, ...)                                \
    do {                                                \
        checks++;                                       \
        if (!(cond)) {                                  \
            failures++;                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__); \
            printf(__VA_ARGS__);                        \
            printf("\n");                               \
        }                                               \
    } while (0)

#endif
