/* dump.c — analysis_dump(): the analyses as text or Graphviz dot, for
 * people debugging a pass (ptxopt --dump=WHAT).
 *
 * Text: one header line "WHAT NAME (.entry|.func): summary", function-level
 * lines, then one line per block "  bbN (label): summary" followed by that
 * block's detail lines (indented by four), then function-level trailer
 * lines.  Dot: the CFG (or the (post-)dominator tree for dom/postdom) with
 * each node labelled by the same block text. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif
#include "analysis/internal.h"

typedef struct Dumper {
    Module *m;
    Function *fn;
    CallGraph *cg;
    uint32_t fi;
} Dumper;

typedef struct DumpKind {
    const char *name;
    void (*header)(Dumper *d, FILE *summary, FILE *lines);
    void (*block)(Dumper *d, uint32_t b, FILE *summary, FILE *lines);
    void (*trailer)(Dumper *d, FILE *lines);
    int tree;                 /* dot: 0 CFG edges, 1 dominator tree, 2 post-dominator tree */
} DumpKind;

static void list_blocks(FILE *o, const Cfg *c, const uint32_t *v, uint32_t n)
{
    if (!n) fputs(" -", o);
    for (uint32_t i = 0; i < n; i++) {
        fputc(' ', o);
        dump_block_name(o, c, v[i]);
    }
}

static void value(FILE *o, const Ssa *s, SsaValue v)
{
    char buf[96];
    fputs(ssa_value_name(s, v, buf, sizeof buf), o);
}

/* ----------------------------------------------------------------- cfg */

static const char *term_name(uint8_t t)
{
    static const char *const names[] = { "fall", "bra", "brx", "ret", "exit", "trap" };
    return t < 6 ? names[t] : "?";
}

static void cfg_header(Dumper *d, FILE *sum, FILE *lines)
{
    const Cfg *c = cfg_get(d->fn);
    fprintf(sum, "%u blocks, %u reachable, %u instructions", c->n, c->nrpo, c->ninstr);
    if (c->bad_target) fputs(", unresolved branch targets", sum);
    uint32_t s0 = d->cg->site_start[d->fi], s1 = d->cg->site_start[d->fi + 1];
    if (s1 > s0) {
        fputs("calls:", lines);
        for (uint32_t k = s0; k < s1; k++) {
            const CallSite *cs = &d->cg->sites[k];
            if (cs->indirect) fputs(" (indirect)", lines);
            else fprintf(lines, " %.*s%s", STR_FMT(cs->name), cs->callee == ANA_NONE ? "(extern)" : "");
        }
        if (d->cg->recursive[d->fi]) fputs("; recursive", lines);
        fputc('\n', lines);
    }
}

static void cfg_block(Dumper *d, uint32_t b, FILE *sum, FILE *lines)
{
    const Cfg *c = cfg_get(d->fn);
    fputs("preds", sum);
    list_blocks(sum, c, cfg_preds(c, b), cfg_npred(c, b));
    fputs("; succs", sum);
    list_blocks(sum, c, cfg_succs(c, b), cfg_nsucc(c, b));
    fprintf(sum, "; end %s", term_name(c->term[b]));
    if (c->flags[b] & CFGB_UNI) fputs(".uni", sum);
    if (c->flags[b] & CFGB_GUARDED) fputs(" guarded", sum);
    if (c->flags[b] & CFGB_BAD_TARGET) fputs(" unresolved-target", sum);
    if (!cfg_reachable(c, b)) fputs("; unreachable", sum);
    (void)lines;
}

/* ------------------------------------------------------------ dominators */

static void dom_header_common(Dumper *d, FILE *sum, bool post)
{
    const DomTree *t = post ? postdom_get(d->fn) : dom_get(d->fn);
    const Cfg *c = t->cfg;
    if (post) {
        fputs("root exit", sum);
        if (t->nfake) {
            fputs("; fake exit edges from", sum);
            list_blocks(sum, c, t->fake, t->nfake);
        }
    } else {
        fputs("root bb0", sum);
    }
}

static void dom_header(Dumper *d, FILE *sum, FILE *lines) { (void)lines; dom_header_common(d, sum, false); }
static void pdom_header(Dumper *d, FILE *sum, FILE *lines) { (void)lines; dom_header_common(d, sum, true); }

static void dom_block_common(Dumper *d, uint32_t b, FILE *sum, bool post)
{
    const DomTree *t = post ? postdom_get(d->fn) : dom_get(d->fn);
    const Cfg *c = t->cfg;
    if (t->pre[b] == ANA_NONE) {
        fputs("unreachable", sum);
        return;
    }
    fputs(post ? "ipdom " : "idom ", sum);
    if (t->idom[b] == ANA_NONE) fputs("-", sum);
    else dump_block_name(sum, c, t->idom[b]);
    fputs(post ? "; pdf" : "; df", sum);
    list_blocks(sum, c, dom_dfs(t, b), dom_ndf(t, b));
}

static void dom_block(Dumper *d, uint32_t b, FILE *sum, FILE *lines) { (void)lines; dom_block_common(d, b, sum, false); }
static void pdom_block(Dumper *d, uint32_t b, FILE *sum, FILE *lines) { (void)lines; dom_block_common(d, b, sum, true); }

/* ----------------------------------------------------------------- loops */

static void loops_header(Dumper *d, FILE *sum, FILE *lines)
{
    const LoopInfo *li = loops_get(d->fn);
    const IvInfo *iv = ivars_get(d->fn);
    const Ssa *s = ssa_get(d->fn);
    const Cfg *c = li->cfg;
    fprintf(sum, "%u loops%s", li->nloops, li->irreducible ? ", irreducible control flow" : "");
    for (uint32_t l = 0; l < li->nloops; l++) {
        const Loop *L = &li->loops[l];
        fprintf(lines, "L%u: header ", l);
        dump_block_name(lines, c, L->header);
        fprintf(lines, " depth %u parent ", L->depth);
        if (L->parent == ANA_NONE) fputs("-", lines);
        else fprintf(lines, "L%u", L->parent);
        fputs(" preheader ", lines);
        if (L->preheader == ANA_NONE) fputs("-", lines);
        else dump_block_name(lines, c, L->preheader);
        fputs("; blocks", lines);
        list_blocks(lines, c, L->blocks, L->nblocks);
        fputs("; latches", lines);
        list_blocks(lines, c, L->latches, L->nlatches);
        fputs("; exits", lines);
        list_blocks(lines, c, L->exits, L->nexits);
        fputc('\n', lines);
        for (uint32_t k = 0; k < iv->n; k++) {
            const InductionVar *v = &iv->iv[k];
            if (v->loop != l) continue;
            fputs("  iv ", lines);
            value(lines, s, v->value);
            if (v->kind == IV_BASIC) {
                fputs(": basic, init ", lines);
                if (v->init == ANA_NONE) fputs("(several)", lines);
                else value(lines, s, v->init);
                fputs(", step ", lines);
                for (int j = 0; j < v->nchain; j++) {   /* a chain's earlier steps */
                    const Instr *in = &c->instr[v->chain_instr[j]]->u.instr;
                    const Operand *o = &in->ops[v->chain_opnd[j]];
                    if (j || in->op == OP_sub) fputs(in->op == OP_sub ? "-" : "+", lines);
                    if (o->kind == OPND_INT) fprintf(lines, "%lld", (long long)o->value);
                    else value(lines, s, ssa_operand_value(s, v->chain_instr[j], v->chain_opnd[j]));
                }
                if (v->nchain && !v->step_negative && (v->step_value != ANA_NONE || v->step_imm >= 0)) fputs("+", lines);
                if (v->step_value == ANA_NONE) fprintf(lines, "%lld", (long long)v->step_imm);
                else {
                    if (v->step_negative) fputs("-", lines);
                    value(lines, s, v->step_value);
                }
                fputs(", update ", lines);
                value(lines, s, v->update);
                if (v->grid_stride) fputs(", grid-stride", lines);
            } else {
                fputs(": derived from ", lines);
                value(lines, s, iv->iv[v->base].value);
                if (v->widened) fputs(", widened", lines);
            }
            fputc('\n', lines);
        }
    }
}

static void loops_block(Dumper *d, uint32_t b, FILE *sum, FILE *lines)
{
    (void)lines;
    const LoopInfo *li = loops_get(d->fn);
    uint32_t l = li->innermost[b];
    if (l == ANA_NONE) {
        fputs("not in a loop", sum);
        return;
    }
    fprintf(sum, "in L%u", l);
    for (uint32_t p = li->loops[l].parent; p != ANA_NONE; p = li->loops[p].parent) fprintf(sum, " L%u", p);
    if (li->loops[l].header == b) fputs("; header", sum);
}

/* ------------------------------------------------------------------- ssa */

static void ssa_header(Dumper *d, FILE *sum, FILE *lines)
{
    (void)lines;
    const Ssa *s = ssa_get(d->fn);
    fprintf(sum, "%u values, %u merges", s->nvalues - s->nvars, s->phi_start[s->cfg->n]);
}

static void ssa_block(Dumper *d, uint32_t b, FILE *sum, FILE *lines)
{
    const Ssa *s = ssa_get(d->fn);
    const Cfg *c = s->cfg;
    (void)sum;
    for (uint32_t k = s->phi_start[b]; k < s->phi_start[b + 1]; k++) {
        const SsaVal *p = &s->v[s->phis[k]];
        value(lines, s, s->phis[k]);
        fputs(" = phi", lines);
        for (uint32_t j = 0; j < p->nargs; j++) {
            fputs(" [", lines);
            if (j < cfg_npred(c, b)) dump_block_name(lines, c, cfg_preds(c, b)[j]);
            else fputs("entry", lines);
            fputs(": ", lines);
            value(lines, s, p->args[j]);
            fputs("]", lines);
        }
        fputc('\n', lines);
    }
    for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++) {
        const Instr *in = &c->instr[i]->u.instr;
        fprintf(lines, "i%u: %.*s", i, STR_FMT(in->full));
        for (uint32_t k = s->def_start[i]; k < s->def_start[i + 1]; k++) {
            fputc(' ', lines);
            value(lines, s, s->defs[k]);
        }
        if (s->use_start[i] < s->use_start[i + 1]) fputs(" <-", lines);
        for (uint32_t u = s->use_start[i]; u < s->use_start[i + 1]; u++) {
            const SsaUse *su = &s->uses[u];
            fputs(su->flags & REF_PARTIAL ? " old:" : " ", lines);
            value(lines, s, su->value);
            if ((su->flags & REF_SPECIAL) && su->comp) fprintf(lines, ".%c", su->comp);
        }
        fputc('\n', lines);
    }
}

/* -------------------------------------------------------------- liveness */

static const char *const press_names[PRESS_N] = { "pred", "b16", "b32", "b64", "b128", "other" };

static void liveness_header(Dumper *d, FILE *sum, FILE *lines)
{
    (void)lines;
    const Liveness *l = liveness_get(d->fn);
    fputs("max", sum);
    for (int k = 0; k < PRESS_N; k++) fprintf(sum, " %s %u", press_names[k], l->max_press[k]);
    fprintf(sum, "; max units %u", l->max_units);
    if (l->max_units_instr != ANA_NONE) fprintf(sum, " at i%u", l->max_units_instr);
}

static void reg_set(FILE *o, Function *fn, const uint64_t *set, uint32_t nvars)
{
    bool any = false;
    for (uint32_t v = 0; v < nvars; v++) {
        if (!live_bit(set, v)) continue;
        any = true;
        if (v == fn->nregs) fputs(" %mem", o);
        else fprintf(o, " %.*s", STR_FMT(fn->regs[v]->name));
    }
    if (!any) fputs(" -", o);
}

static void liveness_block(Dumper *d, uint32_t b, FILE *sum, FILE *lines)
{
    const Liveness *l = liveness_get(d->fn);
    const Cfg *c = l->cfg;
    (void)sum;
    fputs("in:", lines);
    reg_set(lines, d->fn, l->live_in + (size_t)b * l->words, l->nvars);
    fputc('\n', lines);
    for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++) {
        fprintf(lines, "i%u [", i);
        bool any = false;
        for (int k = 0; k < PRESS_N; k++) {
            uint16_t v = l->press[(size_t)i * PRESS_N + k];
            if (!v) continue;
            fprintf(lines, "%s%s %u", any ? " " : "", press_names[k], v);
            any = true;
        }
        fprintf(lines, "%s| %u]: %.*s\n", any ? " " : "", l->units[i], STR_FMT(c->instr[i]->u.instr.full));
    }
    fputs("out:", lines);
    reg_set(lines, d->fn, l->live_out + (size_t)b * l->words, l->nvars);
    fputc('\n', lines);
}

/* --------------------------------------------------------------- uniform */

static void uniform_header(Dumper *d, FILE *sum, FILE *lines)
{
    const Uniformity *u = uniform_get(d->fn);
    const LoopInfo *li = loops_get(d->fn);
    const Cfg *c = cfg_get(d->fn);
    uint32_t nd = 0;
    for (uint32_t b = 0; b < c->n; b++) nd += u->branch_div[b] == 1;
    fprintf(sum, "%u divergent branches", nd);
    for (uint32_t l = 0; l < li->nloops; l++)
        if (u->loop_div_exit[l]) fprintf(lines, "L%u: lanes may leave in different iterations\n", l);
}

static void uniform_block(Dumper *d, uint32_t b, FILE *sum, FILE *lines)
{
    const Uniformity *u = uniform_get(d->fn);
    const Ssa *s = u->ssa;
    const Cfg *c = s->cfg;
    bool first = true;
#define FLAG(txt) do { fputs(first ? txt : ", " txt, sum); first = false; } while (0)
    if (cfg_nsucc(c, b) >= 2) {
        if (u->branch_div[b] == 1) FLAG("branch divergent");
        else if (u->branch_div[b] == 2) FLAG("branch uniform (promised by .uni)");
        else FLAG("branch uniform");
    }
    if (u->partial[b]) FLAG("partial");
    if (u->join[b]) FLAG("join");
    if (u->exited_in[b]) FLAG("may-have-exited");
    if (!cfg_reachable(c, b)) FLAG("unreachable");
    if (first) fputs("-", sum);
#undef FLAG
    for (int div = 0; div < 2; div++) {
        bool any = false;
        for (int pass = 0; pass < 2; pass++) {
            uint32_t from = pass ? s->def_start[c->block_instr[b]] : s->phi_start[b];
            uint32_t to = pass ? s->def_start[c->block_instr[b + 1]] : s->phi_start[b + 1];
            for (uint32_t k = from; k < to; k++) {
                SsaValue v = pass ? s->defs[k] : s->phis[k];
                if (s->v[v].reg == s->nvars - 1 || u->div[v] != div) continue;
                if (!any) fputs(div ? "divergent:" : "uniform:", lines);
                any = true;
                fputc(' ', lines);
                value(lines, s, v);
            }
        }
        if (any) fputc('\n', lines);
    }
    for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++) {
        const Instr *in = &c->instr[i]->u.instr;
        uint32_t fl = c->iflags[i];
        if (!(fl & (OPF_COLLECTIVE | OPF_BARRIER))) continue;
        const Stmt *st = c->instr[i];
        bool ex = uniform_may_have_exited(d->fn, st);
        fprintf(lines, "i%u %.*s: %s", i, STR_FMT(in->full), uniform_converged(d->fn, st) ? "converged" : "not converged");
        if (u->partial[b]) fputs(", partial", lines);
        if (ex) fputs(", may-have-exited", lines);
        if (in->guard) fprintf(lines, ", guard %s", uniform_use(d->fn, st, in->guard) ? "uniform" : "divergent");
        fputc('\n', lines);
    }
}

/* ----------------------------------------------------------------- terms */

static void terms_header(Dumper *d, FILE *sum, FILE *lines)
{
    (void)lines;
    const ValueTerms *vt = vterms_get(d->fn);
    const MemInfo *mi = memory_get(d->fn);
    fprintf(sum, "%u terms, %u memory accesses", terms_count(vt->tt), mi->nacc);
}

static void terms_block(Dumper *d, uint32_t b, FILE *sum, FILE *lines)
{
    const ValueTerms *vt = vterms_get(d->fn);
    const Ssa *s = vt->ssa;
    const Cfg *c = s->cfg;
    const MemInfo *mi = memory_get(d->fn);
    (void)sum;
    char buf[512];
    for (uint32_t pass = 0; pass < 2; pass++) {
        uint32_t from = pass ? s->def_start[c->block_instr[b]] : s->phi_start[b];
        uint32_t to = pass ? s->def_start[c->block_instr[b + 1]] : s->phi_start[b + 1];
        for (uint32_t k = from; k < to; k++) {
            SsaValue v = pass ? s->defs[k] : s->phis[k];
            if (s->v[v].reg == s->nvars - 1) continue;
            value(lines, s, v);
            term_format(buf, sizeof buf, vterms_value(d->fn, v));
            fprintf(lines, " = %s\n", buf);
        }
    }
    for (uint32_t i = c->block_instr[b]; i < c->block_instr[b + 1]; i++) {
        uint32_t a = mi->acc_of_instr[i];
        if (a == ANA_NONE) continue;
        const MemAccess *m = &mi->acc[a];
        const Instr *in = &c->instr[i]->u.instr;
        fprintf(lines, "i%u %.*s: %s%s", i, STR_FMT(in->full), mem_space_name((MemSpace)m->space),
                m->generic ? " (inferred)" : "");
        switch (m->base.kind) {
        case BASE_PARAM: fprintf(lines, ", base param %.*s", STR_FMT(m->base.name)); break;
        case BASE_VAR: fprintf(lines, ", base var %.*s", STR_FMT(m->base.name)); break;
        default: fputs(", base unknown", lines); break;
        }
        if (m->base.kind == BASE_PARAM && m->base.index < mi->nparams && mi->param_readonly[m->base.index])
            fputs(" (read-only)", lines);
        if (m->bytes) fprintf(lines, ", %u bytes", m->bytes);
        term_format(buf, sizeof buf, m->addr);
        fprintf(lines, ", addr %s\n", buf);
    }
}

static const DumpKind kinds[] = {
    { "cfg", cfg_header, cfg_block, NULL, 0 },
    { "dom", dom_header, dom_block, NULL, 1 },
    { "postdom", pdom_header, pdom_block, NULL, 2 },
    { "loops", loops_header, loops_block, NULL, 0 },
    { "ssa", ssa_header, ssa_block, NULL, 0 },
    { "liveness", liveness_header, liveness_block, NULL, 0 },
    { "uniform", uniform_header, uniform_block, NULL, 0 },
    { "terms", terms_header, terms_block, NULL, 0 },
};

/* ------------------------------------------------------------- framework */

typedef struct MemText {
    char *p;
    size_t len;
    FILE *f;
} MemText;

static void mt_open(MemText *t)
{
    t->p = NULL;
    t->len = 0;
    t->f = open_memstream(&t->p, &t->len);
    if (!t->f) fatal_oom();
}

static void mt_close(MemText *t)
{
    fclose(t->f);
    t->f = NULL;
}

static void print_indented(FILE *out, const char *text, size_t len, const char *indent)
{
    size_t i = 0;
    while (i < len) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - (text + i)) : len - i;
        fprintf(out, "%s%.*s\n", indent, (int)n, text + i);
        i += n + 1;
    }
}

static void dot_escaped(FILE *out, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char ch = text[i];
        if (ch == '"' || ch == '\\') fputc('\\', out);   /* box labels: only these need escaping */
        if (ch == '\n') fputs("\\l", out);
        else fputc(ch, out);
    }
}

static void block_title(FILE *o, const Cfg *c, uint32_t b)
{
    fprintf(o, "bb%u", b);
    if (c->blocks[b]->label.len) fprintf(o, " (%.*s)", STR_FMT(c->blocks[b]->label));
}

static void dump_function(Dumper *d, const DumpKind *k, bool dot, FILE *out)
{
    Function *fn = d->fn;
    const Cfg *c = cfg_get(fn);
    MemText sum, lines;
    mt_open(&sum);
    mt_open(&lines);
    k->header(d, sum.f, lines.f);
    mt_close(&sum);
    mt_close(&lines);
    const char *kind = fn->is_entry ? ".entry" : ".func";
    if (!dot) {
        fprintf(out, "%s %.*s (%s)%s%.*s\n", k->name, STR_FMT(fn->name), kind, sum.len ? ": " : "", (int)sum.len, sum.p);
        print_indented(out, lines.p, lines.len, "  ");
    } else {
        fprintf(out, "digraph \"%s %.*s\" {\n  labelloc=t;\n  label=\"%s %.*s (%s)", k->name, STR_FMT(fn->name), k->name,
                STR_FMT(fn->name), kind);
        if (sum.len) {
            fputs(": ", out);
            dot_escaped(out, sum.p, sum.len);
        }
        if (lines.len) {
            fputs("\\l", out);
            dot_escaped(out, lines.p, lines.len);
        }
        fputs("\";\n  node [shape=box, fontname=\"monospace\"];\n", out);
    }
    free(sum.p);
    free(lines.p);
    for (uint32_t b = 0; b < c->n; b++) {
        mt_open(&sum);
        mt_open(&lines);
        k->block(d, b, sum.f, lines.f);
        mt_close(&sum);
        mt_close(&lines);
        if (!dot) {
            fputs("  ", out);
            block_title(out, c, b);
            fprintf(out, ":%s%.*s\n", sum.len ? " " : "", (int)sum.len, sum.p);
            print_indented(out, lines.p, lines.len, "    ");
        } else {
            MemText title;
            mt_open(&title);
            block_title(title.f, c, b);
            mt_close(&title);
            fprintf(out, "  bb%u [label=\"", b);
            dot_escaped(out, title.p, title.len);
            if (sum.len) {
                fputs(": ", out);
                dot_escaped(out, sum.p, sum.len);
            }
            fputs("\\l", out);
            dot_escaped(out, lines.p, lines.len);
            fputs("\"];\n", out);
            free(title.p);
        }
        free(sum.p);
        free(lines.p);
    }
    if (k->trailer) {
        mt_open(&lines);
        k->trailer(d, lines.f);
        mt_close(&lines);
        if (!dot) print_indented(out, lines.p, lines.len, "  ");
        free(lines.p);
    }
    if (dot) {
        if (k->tree != 1) fputs("  exit [shape=oval];\n", out);
        if (k->tree) {
            const DomTree *t = k->tree == 1 ? dom_get(fn) : postdom_get(fn);
            for (uint32_t b = 0; b <= c->n; b++)
                if (t->idom[b] != ANA_NONE) {
                    fputs("  ", out);
                    dump_block_name(out, c, t->idom[b]);
                    fputs(" -> ", out);
                    dump_block_name(out, c, b);
                    fputs(";\n", out);
                }
        } else {
            const LoopInfo *li = loops_get(fn);
            const DomTree *dt = dom_get(fn);
            for (uint32_t b = 0; b < c->n; b++)
                for (uint32_t j = 0; j < cfg_nsucc(c, b); j++) {
                    uint32_t s = cfg_succs(c, b)[j];
                    fprintf(out, "  bb%u -> ", b);
                    dump_block_name(out, c, s);
                    bool back = s < c->n && cfg_reachable(c, b) && dom_dominates(dt, s, b);
                    (void)li;
                    fputs(back ? " [style=dashed];\n" : ";\n", out);
                }
        }
        fputs("}\n", out);
    }
}

int analysis_dump(Module *m, const char *what, const char *kernel, const char *format, FILE *out)
{
    const DumpKind *k = NULL;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (what && strcmp(what, kinds[i].name) == 0) k = &kinds[i];
    if (!k) {
        fprintf(stderr, "ptxopt: unknown analysis '%s' (expected cfg, dom, postdom, loops, ssa, liveness, uniform or terms)\n",
                what ? what : "");
        return 2;
    }
    if (!format) format = "text";
    bool dot = strcmp(format, "dot") == 0;
    if (!dot && strcmp(format, "text") != 0) {
        fprintf(stderr, "ptxopt: unknown dump format '%s' (expected text or dot)\n", format);
        return 2;
    }
    bool found = false;
    Dumper d = { m, NULL, callgraph_build(m), 0 };
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        Function *fn = m->funcs[i];
        if (kernel && !str_eqc(fn->name, kernel)) continue;
        if (!fn->has_body) {
            if (kernel) {
                found = true;
                fprintf(out, "%s %.*s (%s): declaration without a body\n", k->name, STR_FMT(fn->name),
                        fn->is_entry ? ".entry" : ".func");
            }
            continue;
        }
        found = true;
        d.fn = fn;
        d.fi = i;
        dump_function(&d, k, dot, out);
    }
    callgraph_free(d.cg);
    if (kernel && !found) {
        fprintf(stderr, "ptxopt: no function named '%s' in %s\n", kernel, m->filename ? m->filename : "the input");
        return 2;
    }
    return 0;
}
