/* common.h — what tools/common/ is for: the pieces the programs in tools/
 * share, kept out of any one program's folder so that no program includes
 * another's.  (Process and clock utilities that the library needs too live
 * in support/.)
 *
 * The optimizing engine of ptxopt's batch mode and of the ptxas wrapper:
 *   optimize.h  one PTX text through parse → passes → print, in memory
 *   worker.h    run that in a forked child, so a crash or hang is survivable
 *   fault.h     deliberate failures, so tests can drive every fallback path
 *   record.h    what a worker tells its parent about one input
 *   progress.h  how far a batch run has got (standard error)
 *   report.h    the summary table and the JSON report of a run
 * Small pieces more than one program uses:
 *   fileio.h    output that is never half-written (temp file + rename)
 *   cli.h       GNU-style usage errors and range-checked option values
 *   json_read.h a small JSON reader (ptxopt-tune --resume)
 *
 * Include the one you use; this header only includes them all for readers
 * who want the whole folder at once. */
#ifndef PTXOPT_TOOLS_COMMON_H
#define PTXOPT_TOOLS_COMMON_H

#include "tools/common/cli.h"
#include "tools/common/fault.h"
#include "tools/common/fileio.h"
#include "tools/common/json_read.h"
#include "tools/common/optimize.h"
#include "tools/common/progress.h"
#include "tools/common/record.h"
#include "tools/common/report.h"
#include "tools/common/worker.h"

#endif
