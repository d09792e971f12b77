/* sass_report.h — --sass-report: one input's machine code before and after.
 *
 * The original and the optimized text are assembled for the same target
 * (--target, else each module's .target) and read by sass/sass.h; the
 * result is the per-kernel "before -> after" lines and the same as JSON,
 * kept as text so that a batch worker can hand them to its parent. */
#ifndef PTXOPT_SASS_REPORT_H
#define PTXOPT_SASS_REPORT_H

#include <stddef.h>

#include "sass/sass.h"

typedef struct SassReport {
    int status;     /* 0; 1: the original does not assemble; 3: the result does not (a pass broke it) */
    char *text;     /* "INPUT: sass kernel K: ..." lines and the summary line, or one error line */
    char *json;     /* {"arch":..,"kernels":[..],"summary":..} or {"error":..} */
} SassReport;

void sass_report_file(const SassTools *t, const char *input, const char *orig, size_t olen, const char *result,
                      size_t rlen, const char *arch, SassReport *r);
void sass_report_free(SassReport *r);

#endif
