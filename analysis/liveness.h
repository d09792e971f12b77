/* liveness.h — live registers and register pressure. */
#ifndef PTXOPT_ANALYSIS_LIVENESS_H
#define PTXOPT_ANALYSIS_LIVENESS_H

#include <stdint.h>
#include <stdbool.h>

#include "analysis/cfg.h"
#include "analysis/defuse.h"

/* Pressure classes (what occupies which kind of hardware register). */
typedef enum PressClass {
    PRESS_PRED, PRESS_B16 /* b8, b16, f16 */, PRESS_B32 /* b32, f32, f16x2 */,
    PRESS_B64 /* b64, f64 */, PRESS_B128, PRESS_OTHER, PRESS_N
} PressClass;

typedef struct Liveness {
    const Cfg *cfg;
    uint32_t nvars, words;    /* variables (registers + memory), 64-bit words per set */
    uint64_t *live_in, *live_out;  /* [n * words] registers live at block entry/exit
                                      (specials excluded; %mem included) */
    /* Pressure at every point.  The point before instruction i counts the
     * registers live there; press[i * PRESS_N + c] per class, units[i] in
     * 32-bit register units (b64 = 2, b128 = 4, b8/b16 = 1; vectors scale;
     * predicates are not counted in units).  %mem is never counted. */
    uint16_t *press;          /* [ninstr * PRESS_N] */
    uint32_t *units;          /* [ninstr] */
    uint32_t max_press[PRESS_N];
    uint32_t max_units;
    uint32_t max_units_instr; /* where max_units is reached (ANA_NONE if no instruction) */
} Liveness;

const Liveness *liveness_get(Function *fn);
static inline bool live_bit(const uint64_t *set, uint32_t v) { return (set[v >> 6] >> (v & 63)) & 1; }
static inline bool liveness_in(const Liveness *l, uint32_t b, uint32_t reg) { return live_bit(l->live_in + (size_t)b * l->words, reg); }
static inline bool liveness_out(const Liveness *l, uint32_t b, uint32_t reg) { return live_bit(l->live_out + (size_t)b * l->words, reg); }
/* The set live just before instruction i (set: `words` words). */
void liveness_before(const Liveness *l, const RegRefs *r, uint32_t i, uint64_t *set);
PressClass press_class(const Reg *r);
uint32_t press_units(const Reg *r);

#endif
