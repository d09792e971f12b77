/* fault.c — see fault.h. */
#include "tools/common/fault.h"

#include <stdio.h>
#include <string.h>

static const char *const names[] = {
    [FAULT_NONE] = "none",
    [FAULT_PARSE] = "parse",
    [FAULT_PASS] = "pass",
    [FAULT_CRASH] = "crash",
    [FAULT_TIMEOUT] = "timeout",
    [FAULT_PTXAS_REJECT] = "ptxas-reject",
};

const char *fault_name(FaultKind k) { return names[k]; }

bool fault_parse(const char *spec, Fault *f, char *err, size_t errsz)
{
    memset(f, 0, sizeof *f);
    if (!spec || !*spec) return true;
    const char *at = strchr(spec, '@');
    size_t klen = at ? (size_t)(at - spec) : strlen(spec);
    for (int k = FAULT_NONE; k <= FAULT_PTXAS_REJECT; k++) {
        if (strlen(names[k]) == klen && memcmp(names[k], spec, klen) == 0) {
            f->kind = (FaultKind)k;
            if (at) {
                if (strlen(at + 1) >= sizeof f->only) break;
                strcpy(f->only, at + 1);
            }
            return true;
        }
    }
    snprintf(err, errsz, "invalid fault '%s' (expected parse, pass, crash, timeout or ptxas-reject, "
             "optionally followed by @SUFFIX)", spec);
    memset(f, 0, sizeof *f);
    return false;
}

FaultKind fault_for(const Fault *f, const char *name)
{
    if (f->kind == FAULT_NONE || !f->only[0]) return f->kind;
    size_t n = strlen(name), s = strlen(f->only);
    return n >= s && strcmp(name + n - s, f->only) == 0 ? f->kind : FAULT_NONE;
}
