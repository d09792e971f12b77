/* internal.h — data structures shared by the files of emu/ (not public).
 *
 * Pipeline: decode.c turns every function of a Module into one flat array
 * of EInst (operands resolved: registers as dense ids, immediates with the
 * instruction's type, symbols as addresses, labels as instruction indices,
 * "pc" below).  layout.c places module variables and parameters.  The
 * runtime (machine.c, sched.c) keeps per-thread state (pc, call frames,
 * registers with a poison shadow) and runs a *group* of lanes of one warp
 * that share a pc through the exec_*.c semantic functions, one instruction
 * at a time, lane by lane.
 *
 * Addresses.  A generic address carries its space in its upper 32 bits
 * (its "tag"): tag 1 is the CTA's shared window, 2 the thread's local
 * window, 3 the kernel parameter block, 4 device functions, and 0x100+k
 * global/const allocation k (kernel buffers and module variables), so an
 * address that leaves its allocation is detected.  Shared and local
 * *space* addresses (ld.shared, ld.local) are plain offsets. */
#ifndef PTXOPT_EMU_INTERNAL_H
#define PTXOPT_EMU_INTERNAL_H

#include <stdarg.h>

#include "emu/emu.h"
#include "ir/arena.h"

/* ------------------------------------------------------------------ types */

enum {
    TY_NONE, TY_PRED, TY_B8, TY_B16, TY_B32, TY_B64, TY_B128,
    TY_U8, TY_U16, TY_U32, TY_U64, TY_S8, TY_S16, TY_S32, TY_S64,
    TY_F16, TY_F16X2, TY_BF16, TY_BF16X2, TY_F32, TY_F64, TY_TF32,
    TY_COUNT
};
int ty_bits(int t);               /* 1 for pred */
bool ty_signed(int t);
bool ty_is_float(int t);          /* f16 ... f64, tf32 */
int ty_from_mod(Str m);           /* ".f32" -> TY_F32; TY_NONE when not a type */
const char *ty_name(int t);

static inline uint64_t mask_bits(int bits) { return bits >= 64 ? ~0ull : ((1ull << bits) - 1); }
static inline int64_t sext(uint64_t v, int bits) { return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits); }

/* --------------------------------------------------------------- spaces */

enum { SP_GENERIC, SP_GLOBAL, SP_SHARED, SP_LOCAL, SP_PARAM, SP_FPARAM, SP_CONST, SP_NONE };
const char *space_name(int sp);

#define TAG_SHARED 0x1u
#define TAG_LOCAL  0x2u
#define TAG_KPARAM 0x3u
#define TAG_FUNC   0x4u
#define TAG_ALLOC0 0x100u
#define TAG_OF(a)  ((uint32_t)((a) >> 32))
#define WINDOW(t)  ((uint64_t)(t) << 32)

/* -------------------------------------------------------- special registers */

enum {
    SR_TID, SR_NTID = 3, SR_CTAID = 6, SR_NCTAID = 9,
    SR_LANEID = 12, SR_WARPID, SR_NWARPID, SR_SMID, SR_NSMID, SR_GRIDID,
    SR_LANEMASK_EQ, SR_LANEMASK_LE, SR_LANEMASK_LT, SR_LANEMASK_GE, SR_LANEMASK_GT,
    SR_CLOCK, SR_CLOCK_HI, SR_CLOCK64, SR_GLOBALTIMER, SR_GLOBALTIMER_LO, SR_GLOBALTIMER_HI,
    SR_DYN_SMEM, SR_TOTAL_SMEM, SR_AGGR_SMEM,
    SR_CLUSTERID, SR_NCLUSTERID = SR_CLUSTERID + 3, SR_CLUSTER_CTAID = SR_NCLUSTERID + 3,
    SR_CLUSTER_NCTAID = SR_CLUSTER_CTAID + 3, SR_CLUSTER_CTARANK = SR_CLUSTER_NCTAID + 3,
    SR_CLUSTER_NCTARANK, SR_IS_EXPLICIT_CLUSTER, SR_ENVREG, SR_PM, SR_ZERO,
    SR_COUNT
};

/* --------------------------------------------------------------- operands */

enum {
    EO_NONE, EO_REG, EO_REGNEG, EO_IMM, EO_SREG, EO_LOCALSYM, EO_ADDR, EO_VEC,
    EO_SINK, EO_LABEL, EO_FUNC, EO_LIST, EO_FPARAMSYM
};
/* EO_ADDR bases */
enum { AB_REG, AB_ABS, AB_FLOCAL, AB_FPARAM };

typedef struct EOp {
    uint8_t kind;
    uint8_t ab;        /* EO_ADDR: base kind */
    uint8_t n;         /* EO_VEC / EO_LIST: number of elements (in the pool at reg) */
    uint8_t bits;      /* EO_REG: register width (1 for .pred) */
    uint32_t reg;      /* register id, special-register id, pool index, function index */
    int64_t imm;       /* immediate bits, address offset, label pc, size (list elems) */
} EOp;

/* ------------------------------------------------------------ instructions */

enum {
    EK_UNSUP, EK_NOP,
    /* integer */
    EK_ADD, EK_SUB, EK_MUL, EK_MAD, EK_MUL24, EK_MAD24, EK_SAD, EK_DIV, EK_REM, EK_ABS, EK_NEG,
    EK_MIN, EK_MAX, EK_POPC, EK_CLZ, EK_BFIND, EK_FNS, EK_BREV, EK_BFE, EK_BFI, EK_SZEXT, EK_BMSK,
    EK_DP4A, EK_DP2A, EK_AND, EK_OR, EK_XOR, EK_NOT, EK_CNOT, EK_LOP3, EK_SHL, EK_SHR, EK_SHF,
    EK_PRMT,
    /* floating point */
    EK_FADD, EK_FSUB, EK_FMUL, EK_FFMA, EK_FDIV, EK_FABS, EK_FNEG, EK_FMIN, EK_FMAX, EK_FRCP,
    EK_FSQRT, EK_FRSQRT, EK_FSIN, EK_FCOS, EK_FLG2, EK_FEX2, EK_FTANH, EK_TESTP, EK_COPYSIGN,
    /* compare / select / move / convert */
    EK_SETP, EK_SET, EK_SELP, EK_SLCT, EK_MOV, EK_CVT, EK_CVTPACK, EK_CVTA, EK_ISSPACEP,
    /* memory */
    EK_LD, EK_ST, EK_ATOM, EK_CPASYNC,
    /* control */
    EK_BRA, EK_BRX, EK_CALL, EK_RET, EK_EXIT, EK_TRAP,
    /* synchronisation and warp collectives */
    EK_BAR, EK_BARWARP, EK_SHFL, EK_VOTE, EK_MATCH, EK_REDUX, EK_ELECT, EK_ACTIVEMASK, EK_NANOSLEEP,
    EK_MBAR, EK_FENCE,
    EK_COUNT
};

/* Control class, what the scheduler must do around the instruction. */
enum { FL_NORMAL, FL_BRANCH, FL_BRX, FL_CALL, FL_RET, FL_EXIT, FL_TRAP, FL_BAR, FL_COLL, FL_YIELD, FL_UNSUP };

/* Modifier flags (EInst.flags). */
enum {
    F_FTZ = 1, F_SAT = 2, F_APPROX = 4, F_CC = 8,   /* .cc: writes the carry flag */
    F_CARRYIN = 16,                                  /* addc/subc/madc */
    F_UNI = 32, F_FULL = 64, F_RELU = 128
};
/* Integer multiply forms (EInst.sub for MUL/MAD/MUL24/MAD24/DP). */
enum { MW_LO, MW_HI, MW_WIDE };
/* Rounding (EInst.rnd). */
enum { RND_NONE, RND_RN, RND_RZ, RND_RM, RND_RP, RND_RNA, RND_RNI, RND_RZI, RND_RMI, RND_RPI, RND_RS };
/* Comparisons (setp/set/slct). */
enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, CMP_LO, CMP_LS, CMP_HI, CMP_HS,
       CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN };
enum { BOP_NONE, BOP_AND, BOP_OR, BOP_XOR };
/* Atomic operations. */
enum { AO_ADD, AO_MIN, AO_MAX, AO_INC, AO_DEC, AO_AND, AO_OR, AO_XOR, AO_EXCH, AO_CAS };
/* Collectives. */
enum { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX };
enum { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT };
enum { BAR_SYNC, BAR_ARRIVE, BAR_RED_POPC, BAR_RED_AND, BAR_RED_OR };
/* Loads (EInst.sub of EK_LD): LD_NC is ld.global.nc or ldu, whose data must
 * stay unwritten for the whole launch (ncload.c). */
enum { LD_PLAIN, LD_NC };
/* Cache behaviour of a global access (EInst.cl1, cl2), decoded from its
 * modifiers by decode.c and used only by the cache model (cache.c).
 * cl1: an L1 mode (bits 0-1) and an eviction priority (bits 2-3);
 * cl2: a priority (bits 0-1), CL2_REFETCH (.cv: the L2 copy is stale,
 * fetch from DRAM again) and CL2_HINT (.L2::cache_hint: the policy is
 * operand o[2]). */
enum { CL1_ALLOC, CL1_NOALLOC, CL1_BYPASS, CL1_INVALIDATE };
enum { CPRI_FIRST, CPRI_NORMAL, CPRI_LAST, CPRI_UNCHANGED };
#define CL1(mode, pri) ((uint8_t)((mode) | ((pri) << 2)))
#define CL1_MODE(c) ((c) & 3)
#define CL1_PRI(c) (((c) >> 2) & 3)
#define CL2_PRI(c) ((c) & 3)
#define CL2_REFETCH 4
#define CL2_HINT 8
/* createpolicy's value (an opaque 64-bit handle in PTX): the emulator's
 * encoding, so that the cache model can read a policy back from a register
 * (exec_mov.c writes it with or without the model).  Bits 0-1 primary
 * priority, 2-3 secondary, 4-12 the primary fraction in 1/256 (256 = all),
 * 56-63 CPOL_TAG. */
#define CPOL_TAG 0xc9ull
static inline uint64_t cpol_encode(int primary, int secondary, uint32_t frac256)
{
    return (CPOL_TAG << 56) | ((uint64_t)frac256 << 4) | ((uint64_t)secondary << 2) | (uint64_t)primary;
}
/* EInst.sub2 of EK_LD: a load that may wait for another thread
 * (.volatile, .relaxed, .acquire): its re-reads are counted as spins. */
enum { LD_WEAK, LD_SYNC };
/* mbarrier operations (EInst.sub of EK_MBAR); EInst.sub2: MBF_* */
enum { MB_INIT, MB_ARRIVE, MB_ARRIVE_DROP, MB_EXPECT_TX, MB_COMPLETE_TX, MB_TEST_WAIT, MB_TRY_WAIT, MB_PENDING,
       MB_INVAL, MB_CP_ARRIVE };
enum { MBF_PARITY = 1, MBF_EXPECT_TX = 2, MBF_NOINC = 4 };
/* Memory-model semantics of ld/st/atom/red and fences (EInst.msem, used
 * only by the weak-memory mode, weak.c): the order in bits 0-3, the scope
 * in bits 4-5.  A plain ld/st is MS_WEAK with no scope; .volatile is
 * .relaxed.sys; atom/red without a qualifier are .relaxed.gpu.  Fences
 * (EK_FENCE): MS_SC (fence.sc, membar) or MS_ACQREL (fence.acq_rel). */
enum { MS_WEAK, MS_RELAXED, MS_ACQUIRE, MS_RELEASE, MS_ACQREL, MS_SC };
enum { WS_NONE, WS_CTA, WS_GPU };
#define MSEM(sem, scope) ((uint8_t)((sem) | ((scope) << 4)))
#define MSEM_ORDER(m) ((m) & 15)
#define MSEM_SCOPE(m) (((m) >> 4) & 3)

typedef struct EInst {
    uint16_t op;       /* EK_* */
    uint8_t flow;      /* FL_* */
    uint8_t cls;       /* EMU_CLS_* */
    uint8_t t, t2;     /* main type (destination), second type (cvt source, setp compare) */
    uint8_t sub, sub2; /* operation details: MW_*, CMP_*, BOP_*, AO_*, SHFL_*, mode ... */
    uint8_t rnd;       /* RND_* */
    uint8_t flags;     /* F_* */
    uint8_t space;     /* SP_* of memory instructions, cvta, isspacep */
    uint8_t vec;       /* ld/st vector length (1, 2, 4, 8) */
    uint8_t nops;
    uint8_t guard_neg;
    uint8_t aligned;   /* bar: .aligned semantics */
    uint8_t loophead;  /* hanoi: a virtual YIELD precedes this instruction */
    uint8_t cl1, cl2;  /* ld/st/atom/cp.async: cache behaviour (CL1_*, CL2_*) */
    uint8_t msem;      /* ld/st/atom/fence: memory semantics MS_* | scope WS_* << 4 (weak.c) */
    int32_t guard;     /* register id of the guard predicate, -1 when none */
    uint32_t aux;      /* branch target pc, brx table index, reconvergence pc, ... */
    uint32_t fn;       /* function index */
    uint32_t rpc;      /* hanoi: reconvergence pc of a branch (NO_PC when none) */
    EOp o[6];          /* operands; o[5] is the predicate output of d|p forms */
    const Stmt *stmt;  /* for reports: line and text */
    const char *unsup; /* EK_UNSUP: why */
} EInst;

#define NO_PC 0xffffffffu

/* ----------------------------------------------------------- the program */

typedef struct EParam {
    bool isreg;        /* a .reg parameter (register id in reg) */
    uint32_t off;      /* frame parameter offset */
    uint32_t size;
    uint32_t reg;
    uint8_t bits;
} EParam;

typedef struct EFunc {
    Function *f;
    char *name;
    bool entry, has_body;
    uint32_t pc0, pcn;          /* code range [pc0, pcn) */
    uint32_t nregs;
    uint8_t *regbits;           /* width of each register (1 for .pred) */
    uint32_t local_size, local_align;
    uint32_t fparam_size;       /* parameters, return values and .param declarations of the body */
    uint32_t nparams, nrets;
    EParam *params, *rets;
    uint32_t uninit0;           /* global index of register 0 (poison origin of never-written registers) */
    uint32_t kparam_size;       /* entries: size of the kernel parameter block */
    uint32_t *kparam_off;       /* entries: offset of each parameter */
    uint32_t *kparam_size_of;
} EFunc;

/* A module variable (.global, .const, .shared, .local at module or function scope). */
typedef struct EVar {
    char *name;
    uint8_t space;
    bool dyn_shared;            /* extern .shared x[] */
    uint32_t align;
    uint64_t size;
    uint8_t *init;              /* initial image (global/const), NULL = zeros */
    bool init_failed;           /* an initializer the emulator cannot evaluate: contents undefined */
    uint64_t offset;            /* shared: offset in the CTA block; local: offset in module locals */
    uint32_t alloc;             /* global/const: index among allocations */
} EVar;

struct EmuProgram {
    Module *m;
    Arena arena;
    EInst *code;
    uint32_t ncode, capcode;
    EFunc *funcs;
    uint32_t nfuncs;
    EOp *pool;
    uint32_t npool, cappool;
    uint32_t *tabs;             /* brx.idx target tables: tabs[k] = count, then pcs */
    uint32_t ntabs, captabs;
    EVar *vars;
    uint32_t nvars, capvars;
    int32_t *vbucket, *vnext;   /* name index of vars (layout.c) */
    uint32_t nvbucket, vindexed;
    uint32_t nglobal_allocs;    /* module global/const variables */
    uint64_t shared_static;     /* bytes of static shared memory */
    uint32_t dyn_align;
    uint32_t modlocal_size;
    uint32_t nregs_total;
    bool has_nc;                /* some load is .nc or ldu: global stores record their writer (ncload.c) */
    FILE *diag;
};

bool emu_decode(EmuProgram *p);                     /* decode.c */
bool emu_layout_module(EmuProgram *p);              /* layout.c: module variables */
uint64_t decl_elem_size(const Decl *d);             /* layout.c */
uint64_t decl_var_size(const Decl *d, uint32_t k);  /* layout.c: size of declarator k */
uint32_t decl_align(const Decl *d);
int emu_find_var(const EmuProgram *p, Str name);
void emu_postdom(EmuProgram *p);                    /* postdom.c: rpc and loop headers */
char *emu_inst_text(const EmuProgram *p, const EInst *I, char *buf, size_t cap);
uint32_t emu_inst_line(const EInst *I);
int emu_func_of_reg(const EmuProgram *p, uint32_t global_reg, uint32_t *reg);
const char *emu_reg_name(const EmuProgram *p, uint32_t fn, uint32_t reg, char *buf, size_t cap);

/* ------------------------------------------------------------ the runtime */

typedef struct Alloc {
    uint8_t *data, *sh;         /* bytes and their shadow (0 defined, 1 never written, 2 poison) */
    uint64_t size;
    uint8_t space;              /* SP_GLOBAL or SP_CONST */
    bool readonly;
    int arg;                    /* kernel argument index, or -1 */
    const char *name;
    uint32_t poison_origin;     /* first poison value stored here */
    uint32_t *wpc;              /* per byte: pc + 1 of the last store or atomic of this launch, 0 when
                                   never written; allocated at the first write, only when P->has_nc */
    struct WHist *hist;         /* weak memory: the recent writes (weak.c), NULL in SC mode */
} Alloc;

typedef struct Frame {
    uint32_t fn, ret_pc, call_pc;
    uint64_t *r;
    uint32_t *p;                /* poison shadow: 0 clean, else origin (see poison.c) */
    uint32_t cap;
    uint32_t local_base, fparam_base;
} Frame;

enum { TS_RUN, TS_BAR, TS_COLL, TS_EXIT, TS_ABSENT };

typedef struct Thread {
    uint32_t pc;
    uint8_t status, lane, cc;
    uint32_t cc_psn;
    uint32_t tid[3];
    uint32_t linear;            /* thread index in the CTA */
    Frame *fr;
    Frame *frames;
    uint32_t depth, fcap;
    uint8_t *local, *local_sh;
    uint32_t local_top, local_cap;
    uint8_t *fparam, *fparam_sh;
    uint32_t fparam_top, fparam_cap;
    /* blocked at a collective or barrier */
    uint32_t wait_key, wait_mask, wait_pc, bar_id;
    uint64_t coll_val;          /* value contributed to a collective */
    uint32_t coll_psn;
    uint8_t coll_pred;
    /* the synchronisation-load sites this thread waits at since its last
     * memory write (spin.c): pc + 1 (0 = free) and address */
    uint32_t spin_pc1[4];
    uint64_t spin_addr[4];
    uint8_t spin_next;
    uint32_t spin_last1;        /* pc + 1 of its latest site (reports) */
    uint64_t last_run;          /* its: M->clock when it last ran (fairness bound) */
    struct WThread *wk;         /* weak memory: store buffer and views (weak.c), NULL until used */
} Thread;

typedef struct Split { uint32_t pc, mask, yield_pc; } Split;
typedef struct Rec { uint32_t rpc, mask, waiting, yields, branch_pc; } Rec;

struct Cta;
typedef struct Warp {
    struct Cta *cta;
    uint32_t id;
    Thread *t[32];
    uint32_t exist, exited, runnable;
    Split *ws; int nws, capws;
    Rec *rec; int nrec, caprec;
    bool listed;
    uint32_t loop_streak;       /* consecutive loop-header yields without progress */
    uint32_t yield_streak;      /* hanoi: loop-header yields since the split stack last rotated (progress or not) */
    uint64_t last_pick;         /* its: M->clock when it was last picked */
    uint32_t picks;
} Warp;

typedef struct Barrier {
    uint32_t arrived;           /* threads arrived in this phase */
    uint32_t expected;          /* thread count given by the instruction, 0 = all live threads */
    bool counted;               /* the phase was started with a thread count */
    uint32_t sync_pc;           /* first waiting arrival of an aligned, count-less phase */
    uint32_t wpc[32];           /* per warp: pc of its first arrival in this phase (aligned check) */
    uint32_t popc, all, any;    /* bar.red accumulators */
    uint32_t red_psn;
} Barrier;

typedef struct Cta {
    uint32_t id[3];
    uint64_t linear;
    Warp *warps;
    uint32_t nwarps;
    Thread *threads;
    uint32_t nthreads;
    uint32_t live;              /* threads that have not exited */
    uint8_t *shared, *shared_sh;
    uint64_t shared_size;
    Barrier bar[16];
    uint32_t sm;                /* the cache model's SM (cache.c) */
    struct WHist *hist;         /* weak memory: recent writes to shared memory (weak.c) */
    uint64_t last_sc;           /* weak memory: time of the CTA's latest fence.sc (any scope) */
} Cta;

typedef struct PoisonEvent {
    uint8_t kind;               /* PE_* */
    uint8_t lane;
    uint32_t pc;
    uint64_t cta;
    uint32_t warp;
    uint64_t addr;
    uint8_t space;
} PoisonEvent;
enum { PE_NEVER_WRITTEN_MEM, PE_POISON_MEM, PE_SHFL_SOURCE, PE_COLL_SOURCE, PE_CARRY, PE_DIV_ZERO, PE_COUNT };

typedef struct Machine {
    EmuProgram *P;
    const EmuLaunch *L;
    EmuResult *res;
    uint32_t kernel;            /* function index */
    Alloc *allocs;
    uint32_t nallocs;
    uint8_t *kparam;
    uint32_t kparam_size;
    uint64_t coop_addr;         /* cooperative launch workspace (0: not cooperative) */
    /* CTAs */
    uint64_t ncta, next_cta;
    Cta **res_cta;
    uint32_t nres, capres;
    uint32_t threads_per_cta, warps_per_cta;
    /* scheduling */
    Warp **active;
    uint32_t nactive, capactive;
    uint32_t rr;                /* round-robin position (hanoi/strict) */
    uint32_t picks;             /* its: warp picks (every FAIR_EVERY-th takes the longest-waiting) */
    uint64_t rng;
    uint64_t steps;             /* thread-instructions executed */
    uint64_t clock;             /* warp issues, the value of %clock */
    /* outcome */
    bool failed;
    EmuStatus status;
    char *kind;
    char *msg;
    size_t msglen, msgcap;
    char *ev;
    size_t evlen, evcap;
    uint32_t nevents;
    EmuCounters cnt;
    PoisonEvent *pev;
    uint32_t npev, cappev;
    uint32_t *pev_index;        /* first event per (pc, kind), for deduplication */
    uint32_t more_lanes;        /* other lanes that failed the same check */
    struct CacheSim *cache;     /* the cache model, NULL when off (cache.c) */
    /* synchronisation sites and progress (spin.c) */
    struct SpinStat *spin;      /* per pc, allocated at the first site */
    uint8_t *inloop;            /* per pc: inside a backward branch's range */
    uint64_t last_progress;     /* M->steps at the last memory write, exit or rendezvous */
    /* weak memory (weak.c; all zero in SC mode) */
    bool weak;
    bool hoist_yield;           /* a store was performed ahead of a load: failed is set only to end the group */
    uint64_t wrng;              /* the weak-memory seed's stream */
    uint64_t wts;               /* time: the number of writes performed on memory so far */
    uint64_t last_sc_gpu;       /* time of the latest fence.sc at .gpu/.sys scope */
    uint32_t wuid;              /* threads given a weak-memory identity */
    struct Thread **wlist;      /* threads whose store buffer is not empty */
    uint32_t nwlist, capwlist;
} Machine;

/* Execution context for one group of lanes. */
typedef struct Exec {
    Machine *M;
    Warp *w;
    uint32_t mask;              /* lanes of the group (at the instruction) */
    uint64_t *R[32];
    uint32_t *P[32];
    Thread *T[32];
} Exec;

typedef void (*ExecFn)(Exec *x, const EInst *I, uint32_t em);
extern const ExecFn emu_exec_table[EK_COUNT];

/* exec_*.c entry points (the table above points at them) */
void exec_int(Exec *x, const EInst *I, uint32_t em);
void exec_float(Exec *x, const EInst *I, uint32_t em);
void exec_cmp(Exec *x, const EInst *I, uint32_t em);
void exec_mov(Exec *x, const EInst *I, uint32_t em);
void exec_cvt(Exec *x, const EInst *I, uint32_t em);
void exec_ld(Exec *x, const EInst *I, uint32_t em);
void exec_st(Exec *x, const EInst *I, uint32_t em);
void exec_atom(Exec *x, const EInst *I, uint32_t em);
void exec_cpasync(Exec *x, const EInst *I, uint32_t em);
void exec_activemask(Exec *x, const EInst *I, uint32_t em);
void exec_nop(Exec *x, const EInst *I, uint32_t em);

/* ---------------------------------------------- operand access (hot path) */

uint64_t opnd_slow(const Exec *x, const EOp *o, int l);

static inline uint64_t opv(const Exec *x, const EOp *o, int l)
{
    if (o->kind == EO_REG) return x->R[l][o->reg];
    if (o->kind == EO_IMM) return (uint64_t)o->imm;
    if (o->kind == EO_REGNEG) return x->R[l][o->reg] ^ 1;
    return opnd_slow(x, o, l);
}
static inline uint32_t opp(const Exec *x, const EOp *o, int l)
{
    return (o->kind == EO_REG || o->kind == EO_REGNEG) ? x->P[l][o->reg] : 0;
}
static inline uint32_t psn2(uint32_t a, uint32_t b) { return a ? a : b; }
static inline void opw(Exec *x, const EOp *o, int l, uint64_t v, uint32_t psn)
{
    if (o->kind == EO_REG) {
        x->R[l][o->reg] = v & mask_bits(o->bits);
        x->P[l][o->reg] = psn;
    }
}
/* Writes a signed value of `bits` bits, sign-extending into a wider register. */
static inline void opw_s(Exec *x, const EOp *o, int l, uint64_t v, int bits, uint32_t psn)
{
    if (o->kind == EO_REG) {
        x->R[l][o->reg] = (uint64_t)sext(v, bits) & mask_bits(o->bits);
        x->P[l][o->reg] = psn;
    }
}

/* Loops over the set bits of a lane mask; `continue` (and `break`, which acts
 * like it) moves to the next lane: leave the loop with return or goto. */
#define FOR_LANES(l, m) for (uint32_t _m = (m); _m; _m &= _m - 1) for (int l = __builtin_ctz(_m), _once = 1; _once; _once = 0)

/* ----------------------------------------------------------- machine API */

/* Stops the run with a report.  `lanes` may be 0. */
void emu_fail(Machine *M, EmuStatus st, const char *kind, const EInst *I, const Warp *w, uint32_t lanes,
              const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* Appends more lines to the current report. */
void emu_fail_more(Machine *M, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emu_event(Machine *M, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void emu_describe_poison(Machine *M, uint32_t psn);   /* appends "origin: ..." to the report */
uint32_t emu_poison_new(Machine *M, int kind, const Exec *x, int lane, uint32_t pc, uint64_t addr, int space);
/* Stops the run: a poisoned value (origin psn) reached `what` in `lanes`. */
void emu_poison_fail(Exec *x, const EInst *I, uint32_t lanes, uint32_t psn, const char *what);
char *emu_lanes_text(uint32_t lanes, char *buf, size_t cap);

/* Memory (memory.c).  Translates an address of `size` bytes in space `sp`
 * for lane l, checking bounds and alignment; returns pointers to the bytes
 * and their shadow, or NULL after emu_fail. */
typedef struct MemRef { uint8_t *p, *sh; Alloc *alloc; int space; } MemRef;
bool mem_ref(Exec *x, const EInst *I, int l, int sp, uint64_t addr, uint32_t size, bool write, MemRef *out);
uint64_t mem_load(const MemRef *r, uint32_t size);
void mem_store(const MemRef *r, uint32_t size, uint64_t v);
uint32_t mem_load_psn(Exec *x, const MemRef *r, uint32_t size, int l, const EInst *I, uint64_t addr, int sp);
void mem_store_psn(Machine *M, const MemRef *r, uint32_t size, uint32_t psn);
uint64_t mem_addr_of(Exec *x, const EOp *a, int l, uint32_t *psn);
void mem_count_access(Exec *x, const EInst *I, uint32_t em, const uint64_t *addr, uint32_t size, bool store);

/* The cache model (cache.c), all no-ops when M->cache is NULL.
 * cache_setup builds it after machine_setup (false: a setup error was
 * reported); the scheduler asks cache_resident_limit how many CTAs may be
 * resident and tells it when a CTA starts and retires; memory
 * instructions report each warp access (addresses of the lanes in em);
 * cache_finish moves the counters into the result. */
bool cache_setup(Machine *M);
uint32_t cache_resident_limit(const Machine *M, uint32_t dflt);
void cache_cta_start(Machine *M, Cta *c);
void cache_cta_end(Machine *M, Cta *c);
void cache_access(Exec *x, const EInst *I, uint32_t em, const uint64_t *addr, uint32_t size);
void cache_finish(Machine *M);
void cache_free(Machine *M);

/* Non-coherent loads (ncload.c).  nc_note_write records a store or atomic
 * to global memory; nc_check_load stops the run (UB_NC_WRITTEN, returns
 * false) when an ld.global.nc/ldu of lane l reads a byte this launch wrote. */
void nc_note_write(Exec *x, const EInst *I, const MemRef *r, uint32_t size);
bool nc_check_load(Exec *x, const EInst *I, int l, const MemRef *r, uint64_t addr, uint32_t size);

/* Calls (calls.c). */
bool emu_do_call(Exec *x, const EInst *I, int l, uint32_t callee, uint32_t call_pc);
void emu_do_return(Exec *x, const EInst *I, int l);

/* Threads (machine.c). */
bool thread_push_frame(Machine *M, Thread *T, uint32_t fn, uint32_t ret_pc, uint32_t call_pc);
void thread_pop_frame(Thread *T);
uint8_t *thread_local_grow(Thread *T, uint32_t need);
void exec_refresh_lane(Exec *x, int l);

/* Collectives and barriers (collective.c).  They block lanes; the
 * scheduler resumes them when the rendezvous completes. */
void coll_arrive(Exec *x, const EInst *I, uint32_t em, uint32_t pc);
void bar_arrive(Exec *x, const EInst *I, uint32_t em, uint32_t pc);
void bar_recheck_after_exit(Machine *M, Cta *c);
void coll_recheck_after_exit(Machine *M, Warp *w);
void coll_describe_waits(Machine *M, Warp *w);

/* Scheduler (sched.c). */
void warp_release(Machine *M, Warp *w, uint32_t lanes);   /* blocked lanes become runnable at their pc */
void warp_list(Machine *M, Warp *w);                      /* make the scheduler consider w */
void warp_exit_lanes(Machine *M, Warp *w, uint32_t lanes);
bool emu_schedule(Machine *M);                            /* runs the launch to completion or failure */

/* Machine (machine.c). */
bool machine_setup(Machine *M);
Cta *cta_new(Machine *M, uint64_t linear);
void cta_free(Machine *M, Cta *c);
void machine_free(Machine *M);

/* Synchronisation sites and the bounded-progress check (spin.c).
 * spin_site: lane l executed the synchronisation instruction I on addr;
 * outcome SPIN_OK (a successful CAS/exchange acquire or wait test),
 * SPIN_FAIL (a failed attempt), SPIN_READ (a spin-capable load: a spin
 * when it re-reads the address of the thread's previous site at the same
 * pc).  Sites outside loops are not counted. */
enum { SPIN_OK, SPIN_FAIL, SPIN_READ };
typedef struct SpinStat { uint64_t acquires, spins; } SpinStat;
void spin_site(Exec *x, const EInst *I, int l, uint64_t addr, int outcome);
/* Lane l wrote memory: its next synchronisation load starts a new wait. */
static inline void spin_wrote(Thread *T)
{
    if (T->spin_pc1[0] | T->spin_pc1[1] | T->spin_pc1[2] | T->spin_pc1[3]) {
        T->spin_pc1[0] = T->spin_pc1[1] = T->spin_pc1[2] = T->spin_pc1[3] = 0;
    }
}
static inline void emu_progress(Machine *M, Warp *w)
{
    if (w) w->loop_streak = 0;
    M->last_progress = M->steps;
}
/* The run made no progress for more than --spin-limit thread-instructions:
 * report LIVELOCK with the sites the running threads spin on. */
void spin_report_livelock(Machine *M);
void spin_result(Machine *M, EmuResult *res);
void spin_free(Machine *M);

/* The weak-memory mode (weak.c; EmuLaunch.memory = EMU_MEMORY_WEAK).
 * exec_ld/st/atom hand global and shared accesses to weak_ld/st/atom;
 * the other hooks are called only when M->weak. */
void weak_setup(Machine *M);
void weak_ld(Exec *x, const EInst *I, uint32_t em);
void weak_st(Exec *x, const EInst *I, uint32_t em);
void weak_atom(Exec *x, const EInst *I, uint32_t em);
void exec_fence(Exec *x, const EInst *I, uint32_t em);
void weak_release(Machine *M, Thread *T);        /* drains T's store buffer (barrier arrival, exit, mbarrier) */
void weak_acquire_all(Machine *M, Thread *T, const Cta *c);    /* T sees every write performed so far (barrier completion) */
void weak_direct_write(Exec *x, int l, const MemRef *r, const uint8_t *data, const uint8_t *dsh, uint32_t size);
void weak_tick(Machine *M);                      /* the scheduler's step: some buffered stores drain */
void weak_end_group(Machine *M);                 /* run_group ended: clears a hoist yield */
void weak_thread_free(Thread *T);
void weak_hist_free(struct WHist *h);
void weak_free(Machine *M);

/* mbarrier objects (mbarrier.c). */
void exec_mbar(Exec *x, const EInst *I, uint32_t em);

/* Floating point helpers live in fp.h. */

#endif
