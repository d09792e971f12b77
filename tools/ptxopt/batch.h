/* batch.h — ptxopt's batch mode: many files, in parallel, each independent.
 *
 * Every file is optimized in its own forked worker (tools/common/worker.h), at
 * most --jobs at a time, so a file that crashes the optimizer or hangs
 * (--timeout) fails alone and the batch goes on.  Progress goes to stderr
 * (tools/common/progress.h), the summary table to stdout, the failures are listed
 * at the end on stderr, and --report writes everything as JSON
 * (tools/common/report.h).  With --sass-report (tools non-NULL) each worker also
 * assembles its file before and after (tools/ptxopt/sass_report.h); the lines are
 * printed in input order after the batch, and go into the JSON.  The exit
 * status is the worst over all files. */
#ifndef PTXOPT_BATCH_H
#define PTXOPT_BATCH_H

#include "tools/ptxopt/options.h"
#include "opt/pass.h"
#include "sass/sass.h"

int batch_main(const Options *o, const Pipeline *pl, const SassTools *tools);

#endif
