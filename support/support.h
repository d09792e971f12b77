/* support.h — what support/ is for: the process and clock utilities that
 * the library (sass/ runs ptxas and nvdisasm) and the programs in tools/
 * share.  Nothing here knows PTX.
 *
 *   spawn.h     run a program and wait for it (the real ptxas, nvdisasm)
 *   cleanup.h   what a program that runs children must undo when a signal
 *               ends it: its children's process groups, its temporary trees
 *   clock.h     a monotonic millisecond clock for budgets and timings
 *
 * Include the one you use; this header only includes them all for readers
 * who want the whole folder at once. */
#ifndef PTXOPT_SUPPORT_H
#define PTXOPT_SUPPORT_H

#include "support/cleanup.h"
#include "support/clock.h"
#include "support/spawn.h"

#endif
