/* cache_report.c — the cache model's counters for people (--cache-report)
 * and for scripts (the "cache" member of --counters' JSON).  Rates are
 * derived here from the raw counts, which are what a script should use. */
#include <inttypes.h>
#include <stdio.h>

#include "emu/emu.h"

static const char *const kind_names[EMU_CACHE_NKIND] = { "loads", "stores", "atomics" };
static const char *const kind_short[EMU_CACHE_NKIND] = { "load", "store", "atomic" };
static const char *const part_names[EMU_CACHE_NPART] = { "caching", "bypassing" };

static EmuCacheCounts sum2(const EmuCacheCounts *a, const EmuCacheCounts *b)
{
    EmuCacheCounts s = *a;
    s.requests += b->requests;
    s.sectors += b->sectors;
    s.l1_hits += b->l1_hits;
    s.l1_misses += b->l1_misses;
    s.l1_bypassed += b->l1_bypassed;
    s.l2_hits += b->l2_hits;
    s.l2_misses += b->l2_misses;
    s.dram_sectors += b->dram_sectors;
    return s;
}

static double rate(uint64_t hit, uint64_t miss) { return hit + miss ? (double)hit / (double)(hit + miss) : 0.0; }

static void counts_json(FILE *out, const EmuCacheCounts *c)
{
    fprintf(out,
            "{\"requests\": %" PRIu64 ", \"sectors\": %" PRIu64 ", \"l1_hits\": %" PRIu64 ", \"l1_misses\": %" PRIu64
            ", \"l1_bypassed\": %" PRIu64 ", \"l2_hits\": %" PRIu64 ", \"l2_misses\": %" PRIu64 ", \"dram_sectors\": %" PRIu64
            ", \"l1_hit_rate\": %.6f, \"l2_hit_rate\": %.6f}",
            c->requests, c->sectors, c->l1_hits, c->l1_misses, c->l1_bypassed, c->l2_hits, c->l2_misses, c->dram_sectors,
            rate(c->l1_hits, c->l1_misses), rate(c->l2_hits, c->l2_misses));
}

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') fprintf(out, "\\%c", ch);
        else if (ch < 0x20) fprintf(out, "\\u%04x", ch);
        else fputc(ch, out);
    }
    fputc('"', out);
}

void emu_cache_report_json(FILE *out, const EmuCacheReport *c, int indent)
{
    int in = indent;
    fprintf(out, "{\n%*s\"model\": \"%s\", \"gpu\": ", in + 2, "", c->arch);
    json_string(out, c->gpu);
    fprintf(out, ",\n%*s\"line_bytes\": %u, \"sector_bytes\": %u,\n", in + 2, "", c->line_bytes, c->sector_bytes);
    fprintf(out, "%*s\"l1\": {\"bytes\": %" PRIu64 ", \"sets\": %u, \"assoc\": %u, \"carveout_kb\": %d},\n", in + 2, "", c->l1_bytes,
            c->l1_sets, c->l1_assoc, c->carveout_kb);
    fprintf(out, "%*s\"l2\": {\"bytes\": %" PRIu64 ", \"sets\": %u, \"assoc\": %u},\n", in + 2, "", c->l2_bytes, c->l2_sets, c->l2_assoc);
    fprintf(out, "%*s\"index\": \"%s\",\n", in + 2, "", c->index_mod ? "mod" : "hash");
    fprintf(out, "%*s\"sms\": %u, \"ctas_per_sm\": %u, \"warps_per_cta\": %u, \"partition\": ", in + 2, "", c->sms, c->ctas_per_sm,
            c->warps_per_cta);
    if (c->partition >= 0) fprintf(out, "%d,\n", c->partition);
    else fprintf(out, "null,\n");
    for (int k = 0; k < EMU_CACHE_NKIND; k++) {
        EmuCacheCounts t = sum2(&c->kind[k][0], &c->kind[k][1]);
        fprintf(out, "%*s\"%s\": {\"total\": ", in + 2, "", kind_names[k]);
        counts_json(out, &t);
        for (int p = 0; p < EMU_CACHE_NPART; p++) {
            fprintf(out, ",\n%*s\"%s\": ", in + 4, "", part_names[p]);
            counts_json(out, &c->kind[k][p]);
        }
        fprintf(out, "},\n");
    }
    uint64_t dram_read = 0;
    for (int k = 0; k < EMU_CACHE_NKIND; k++)
        for (int p = 0; p < EMU_CACHE_NPART; p++) dram_read += c->kind[k][p].dram_sectors;
    fprintf(out, "%*s\"dram_read_sectors\": %" PRIu64 ", \"dram_write_sectors\": %" PRIu64 ",\n", in + 2, "", dram_read,
            c->dram_write_sectors);
    fprintf(out, "%*s\"sites\": [", in + 2, "");
    for (uint32_t i = 0; i < c->nsites; i++) {
        const EmuCacheSite *s = &c->sites[i];
        EmuCacheCounts t = sum2(&s->part[0], &s->part[1]);
        fprintf(out, "%s\n%*s{\"line\": %u, \"pc\": %u, \"kind\": \"%s\", \"inst\": ", i ? "," : "", in + 4, "", s->line, s->pc,
                kind_short[s->kind]);
        json_string(out, s->text);
        fprintf(out, ",\n%*s \"total\": ", in + 4, "");
        counts_json(out, &t);
        for (int p = 0; p < EMU_CACHE_NPART; p++) {
            fprintf(out, ",\n%*s \"%s\": ", in + 4, "", part_names[p]);
            counts_json(out, &s->part[p]);
        }
        fputc('}', out);
    }
    if (c->nsites) fprintf(out, "\n%*s", in + 2, "");
    fprintf(out, "]\n%*s}", in, "");
}

static void row(FILE *out, const char *label, const EmuCacheCounts *c)
{
    fprintf(out, "  %-30s %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %6.1f%% %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "\n",
            label, c->requests, c->sectors, c->l1_hits, c->l1_misses, c->l1_bypassed, 100.0 * rate(c->l1_hits, c->l1_misses), c->l2_hits,
            c->l2_misses, c->dram_sectors);
}

static void header(FILE *out, const char *what)
{
    fprintf(out, "  %-30s %9s %9s %9s %9s %9s %7s %9s %9s %9s\n", what, "requests", "sectors", "L1 hit", "L1 miss", "L1 bypass",
            "L1 rate", "L2 hit", "L2 miss", "DRAM");
}

void emu_cache_report_text(FILE *out, const EmuCacheReport *c)
{
    fprintf(out, "cache model %s (defaults from %s) -- a model, not the hardware (see ptxopt-emu(1))\n", c->arch, c->gpu);
    fprintf(out, "  L1 %" PRIu64 " B per SM (%u sets x %u ways, carve-out %d KiB), L2 %" PRIu64 " B (%u sets x %u ways), lines %u B, sectors %u B, %s sets\n",
            c->l1_bytes, c->l1_sets, c->l1_assoc, c->carveout_kb, c->l2_bytes, c->l2_sets, c->l2_assoc, c->line_bytes, c->sector_bytes,
            c->index_mod ? "modulo" : "hashed");
    fprintf(out, "  %u SM%s, %u CTA%s per SM, %u warp%s per CTA", c->sms, c->sms == 1 ? "" : "s", c->ctas_per_sm, c->ctas_per_sm == 1 ? "" : "s",
            c->warps_per_cta, c->warps_per_cta == 1 ? "" : "s");
    if (c->partition >= 0) fprintf(out, ", partition: warps < %d caching, the others bypassing\n", c->partition);
    else fprintf(out, ", no partition (every warp counts as caching)\n");
    fprintf(out, "  (counts are 32-byte sectors except requests)\n");
    header(out, "totals");
    for (int k = 0; k < EMU_CACHE_NKIND; k++) {
        EmuCacheCounts t = sum2(&c->kind[k][0], &c->kind[k][1]);
        if (!t.requests) continue;
        row(out, kind_names[k], &t);
        if (c->partition >= 0)
            for (int p = 0; p < EMU_CACHE_NPART; p++) {
                char label[48];
                snprintf(label, sizeof label, "  %s warps", part_names[p]);
                row(out, label, &c->kind[k][p]);
            }
    }
    uint64_t dram_read = 0;
    for (int k = 0; k < EMU_CACHE_NKIND; k++)
        for (int p = 0; p < EMU_CACHE_NPART; p++) dram_read += c->kind[k][p].dram_sectors;
    fprintf(out, "  DRAM sectors read %" PRIu64 ", written back %" PRIu64 "\n", dram_read, c->dram_write_sectors);
    if (!c->nsites) return;
    header(out, "per site (line: instruction)");
    for (uint32_t i = 0; i < c->nsites; i++) {
        const EmuCacheSite *s = &c->sites[i];
        EmuCacheCounts t = sum2(&s->part[0], &s->part[1]);
        char label[48];
        snprintf(label, sizeof label, "%u: %s", s->line, kind_short[s->kind]);
        row(out, label, &t);
        fprintf(out, "      %s\n", s->text);
        if (c->partition >= 0)
            for (int p = 0; p < EMU_CACHE_NPART; p++) {
                snprintf(label, sizeof label, "  %s warps", part_names[p]);
                row(out, label, &s->part[p]);
            }
    }
}
