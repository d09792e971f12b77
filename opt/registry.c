/* registry.c — every pass ptxopt knows, in the order --help lists them.
 * A new pass adds one line to `passes` below. */
#include <string.h>

#include "opt/bypass/bypass.h"
#include "opt/pass.h"
#include "opt/regtune.h"
#include "opt/sfu/sfu.h"
#include "opt/shuffle/shuffle.h"
#include "opt/tinylock/tinylock.h"

static const PassInfo *const passes[] = {
    &pass_regtune,
    &pass_shuffle,
    &pass_bypass,
    &pass_sfu,
    &pass_tinylock,
    NULL /* placeholder: keeps the array non-empty */
};

enum { NPASSES = (int)(sizeof passes / sizeof passes[0]) - 1 };

int pass_count(void) { return NPASSES; }
const PassInfo *pass_at(int i) { return passes[i]; }

const PassInfo *pass_find(const char *name, size_t len)
{
    for (int i = 0; i < NPASSES; i++)
        if (strlen(passes[i]->name) == len && memcmp(passes[i]->name, name, len) == 0) return passes[i];
    return NULL;
}
