/* globals.c — --set-global=NAME=VALUE: a module variable's value chosen at
 * launch time, the way a harness overwrites it on the GPU.
 *
 * Passes that deliver a tunable value in a module-scope variable (bypass's
 * __ptxopt_bypass_threshold, sfu's __ptxopt_sfu_lambda, delivery=global)
 * compile once for every value: the harness writes the variable between
 * loading the module and launching (cuModuleGetGlobal + cuMemcpyHtoD in
 * ptxopt-run).  The parse is shared by ptxopt-run and ptxopt-emu so both
 * accept the same text; the emulator's own write replaces the variable's
 * initial image, which every launch copies into its memory (machine.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/internal.h"

bool emu_global_set_parse(const char *text, EmuGlobalSet *g, char *err, size_t errsz)
{
    memset(g, 0, sizeof *g);
    const char *eq = strchr(text, '=');
    size_t n = eq ? (size_t)(eq - text) : 0;
    if (!eq || n == 0) {
        snprintf(err, errsz, "expected NAME=VALUE");
        return false;
    }
    if (n >= sizeof g->name) {
        snprintf(err, errsz, "the name is longer than %zu characters", sizeof g->name - 1);
        return false;
    }
    memcpy(g->name, text, n);
    const char *v = eq + 1;
    char *end;
    errno = 0;
    const char *digits = v + (*v == '-');
    int base = digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') ? 16 : 10; /* 010 is ten, not octal */
    if (*v == '-') {
        long long s = strtoll(v, &end, base);
        g->value = (uint64_t)s;
        g->negative = true;
    } else {
        g->value = strtoull(v, &end, base);
    }
    if (!*v || *end || errno || *v == '+' || *v == ' ') {
        snprintf(err, errsz, "'%s' is not an integer (decimal or 0x hex, 64 bits at most)", v);
        return false;
    }
    return true;
}

bool emu_global_fits(const EmuGlobalSet *g, uint64_t size)
{
    if (size == 8) return true;
    if (size != 4) return false;
    return g->negative ? (int64_t)g->value >= INT32_MIN : g->value <= UINT32_MAX;
}

EmuGlobalStatus emu_program_set_global(EmuProgram *p, const EmuGlobalSet *g, uint64_t *size)
{
    int vi = emu_find_var(p, str_c(g->name));
    if (vi < 0 || (p->vars[vi].space != SP_GLOBAL && p->vars[vi].space != SP_CONST)) return EMU_GLOBAL_NOT_FOUND;
    EVar *v = &p->vars[vi];
    *size = v->size;
    if (v->size != 4 && v->size != 8) return EMU_GLOBAL_BAD_SIZE;
    if (!emu_global_fits(g, v->size)) return EMU_GLOBAL_TOO_WIDE;
    if (!v->init) v->init = arena_alloc(&p->arena, v->size);
    memcpy(v->init, &g->value, v->size);   /* little-endian, as the GPU */
    v->init_failed = false;
    return EMU_GLOBAL_OK;
}
