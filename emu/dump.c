/* dump.c — writing buffers (binary, text, JSON) and the counters (JSON). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "emu/fp.h"
#include "emu/internal.h"

static double elem_double(const EmuBuffer *b, size_t i, bool *isfloat)
{
    size_t es = emu_type_size(b->type);
    uint64_t v = 0;
    memcpy(&v, b->data + i * es, es);
    *isfloat = true;
    switch (b->type) {
    case EMU_T_F16: return f16_to_double((uint16_t)v);
    case EMU_T_BF16: return bf16_to_double((uint16_t)v);
    case EMU_T_F32: return (double)f32_of(v);
    case EMU_T_F64: return f64_of(v);
    default: *isfloat = false; return 0;
    }
}

void emu_format_element(char *dst, size_t cap, const EmuBuffer *b, size_t i)
{
    size_t es = emu_type_size(b->type);
    uint64_t v = 0;
    memcpy(&v, b->data + i * es, es);
    bool fl;
    double d = elem_double(b, i, &fl);
    if (fl) {
        if (isnan(d)) snprintf(dst, cap, "nan");
        else if (isinf(d)) snprintf(dst, cap, d < 0 ? "-inf" : "inf");
        else snprintf(dst, cap, "%.*g", b->type == EMU_T_F64 ? 17 : 9, d);
        return;
    }
    switch (b->type) {
    case EMU_T_S8: snprintf(dst, cap, "%d", (int8_t)v); break;
    case EMU_T_S16: snprintf(dst, cap, "%d", (int16_t)v); break;
    case EMU_T_S32: snprintf(dst, cap, "%" PRId32, (int32_t)v); break;
    case EMU_T_S64: snprintf(dst, cap, "%" PRId64, (int64_t)v); break;
    default: snprintf(dst, cap, "%" PRIu64, v); break;
    }
}

bool emu_dump_buffer(FILE *out, const EmuBuffer *b, EmuDumpFormat f)
{
    if (f == EMU_DUMP_BIN) return fwrite(b->data, 1, b->size, out) == b->size;
    char s[64];
    if (f == EMU_DUMP_TEXT) {
        for (size_t i = 0; i < b->count; i++) {
            emu_format_element(s, sizeof s, b, i);
            fprintf(out, "%s\n", s);
        }
        return !ferror(out);
    }
    fprintf(out, "{\"type\": \"%s\", \"count\": %zu, \"data\": [", emu_type_name(b->type), b->count);
    for (size_t i = 0; i < b->count; i++) {
        emu_format_element(s, sizeof s, b, i);
        bool quote = strcmp(s, "nan") == 0 || strcmp(s, "inf") == 0 || strcmp(s, "-inf") == 0;
        fprintf(out, "%s%s%s%s", i ? ", " : "", quote ? "\"" : "", s, quote ? "\"" : "");
    }
    fprintf(out, "]}\n");
    return !ferror(out);
}

void emu_counters_json(FILE *out, const EmuResult *r, const EmuLaunch *L)
{
    const EmuCounters *c = &r->counters;
    fprintf(out, "{\n  \"kernel\": \"%s\",\n  \"policy\": \"%s\",\n  \"seed\": %" PRIu64 ",\n",
            r->kernel ? r->kernel : (L->kernel ? L->kernel : ""),
            emu_policy_name(L->policy), L->seed);
    fprintf(out, "  \"grid\": [%u, %u, %u],\n  \"block\": [%u, %u, %u],\n", L->grid[0], L->grid[1], L->grid[2], L->block[0], L->block[1],
            L->block[2]);
    fprintf(out, "  \"warp_instructions\": {");
    for (int k = 0; k < EMU_CLS_COUNT; k++) fprintf(out, "%s\"%s\": %" PRIu64, k ? ", " : "", emu_class_name(k), c->issued[k]);
    uint64_t total = 0;
    for (int k = 0; k < EMU_CLS_COUNT; k++) total += c->issued[k];
    fprintf(out, ", \"total\": %" PRIu64 "},\n", total);
    fprintf(out, "  \"thread_instructions\": %" PRIu64 ",\n", c->thread_insts);
    fprintf(out, "  \"simd_efficiency\": %.6f,\n", total ? (double)c->active_lanes / (32.0 * (double)total) : 0.0);
    fprintf(out, "  \"active_lanes_per_issue\": %.4f,\n", total ? (double)c->active_lanes / (double)total : 0.0);
    fprintf(out, "  \"global_load\": {\"requests\": %" PRIu64 ", \"sectors\": %" PRIu64 ", \"sectors_per_request\": %.4f},\n",
            c->gld_requests, c->gld_sectors, c->gld_requests ? (double)c->gld_sectors / (double)c->gld_requests : 0.0);
    fprintf(out, "  \"global_store\": {\"requests\": %" PRIu64 ", \"sectors\": %" PRIu64 ", \"sectors_per_request\": %.4f},\n",
            c->gst_requests, c->gst_sectors, c->gst_requests ? (double)c->gst_sectors / (double)c->gst_requests : 0.0);
    fprintf(out, "  \"shared\": {\"accesses\": %" PRIu64 ", \"wavefronts\": %" PRIu64 ", \"bank_conflicts\": %" PRIu64 "},\n",
            c->shared_accesses, c->shared_wavefronts, c->bank_conflicts);
    fprintf(out, "  \"atomics\": %" PRIu64 ",\n  \"barriers_completed\": %" PRIu64 ",\n  \"collectives_completed\": %" PRIu64 ",\n",
            c->atomics, c->barriers_completed, c->collectives_completed);
    fprintf(out, "  \"reconvergence_abandoned\": %" PRIu64 ",\n", c->reconv_abandoned);
    /* contention: spins per acquire, per synchronisation site (spin.c) */
    uint64_t acq = 0, spins = 0;
    for (int i = 0; i < r->nspin_sites; i++) { acq += r->spin_sites[i].acquires; spins += r->spin_sites[i].spins; }
    fprintf(out, "  \"contention\": {\"acquires\": %" PRIu64 ", \"spins\": %" PRIu64 ", \"spins_per_acquire\": %.4f, \"sites\": [",
            acq, spins, acq ? (double)spins / (double)acq : 0.0);
    for (int i = 0; i < r->nspin_sites; i++) {
        const EmuSpinSite *s = &r->spin_sites[i];
        fprintf(out, "%s\n    {\"line\": %u, \"kind\": \"%s\", \"instruction\": \"", i ? "," : "", s->line, s->kind);
        for (const char *q = s->text; *q; q++) {
            if (*q == '"' || *q == '\\') fputc('\\', out);
            if ((unsigned char)*q >= 0x20) fputc(*q, out);
        }
        fprintf(out, "\", \"acquires\": %" PRIu64 ", \"spins\": %" PRIu64 ", \"spins_per_acquire\": %.4f}", s->acquires, s->spins,
                s->acquires ? (double)s->spins / (double)s->acquires : 0.0);
    }
    fprintf(out, "%s]}\n}\n", r->nspin_sites ? "\n  " : "");
}
