/* fault.h — deliberate failures, so that tests can drive every fallback path.
 *
 * PTXOPT_FAULT=KIND[@SUFFIX] (or --ptxopt-fault=) makes the optimization of
 * an input fail in one chosen way; with @SUFFIX only inputs whose name ends
 * in SUFFIX are affected (batch tests break one file of many).  Faults are
 * honoured only where the failure is survivable: in the forked worker of
 * the ptxas wrapper and of batch mode, never in single-file ptxopt. */
#ifndef PTXOPT_FAULT_H
#define PTXOPT_FAULT_H

#include <stdbool.h>
#include <stddef.h>

typedef enum FaultKind {
    FAULT_NONE,
    FAULT_PARSE,        /* the input is made unparsable before parsing */
    FAULT_PASS,         /* the pipeline reports a failed pass */
    FAULT_CRASH,        /* the worker dies of SIGSEGV after parsing */
    FAULT_TIMEOUT,      /* the worker hangs after parsing */
    FAULT_PTXAS_REJECT, /* the printed PTX gets a line ptxas rejects */
} FaultKind;

typedef struct Fault {
    FaultKind kind;
    char only[256];     /* "" or the name suffix the fault is limited to */
} Fault;

/* Parses "KIND[@SUFFIX]"; NULL or "" is no fault.  On error writes a
 * message to err and returns false. */
bool fault_parse(const char *spec, Fault *f, char *err, size_t errsz);
/* The fault to inject for the input called `name` (FAULT_NONE if none). */
FaultKind fault_for(const Fault *f, const char *name);
const char *fault_name(FaultKind k);

#endif
