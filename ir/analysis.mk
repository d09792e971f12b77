## ir/analysis.mk — the analyses of ir/ (CFG, dominators, loops, SSA overlay,
## liveness, induction variables, symbolic terms + Z3, memory, uniformity,
## LLVM-C cross-check, dumps), their tests and benchmark.  Included by
## Makefile.am.
libptxopt_a_SOURCES += \
	ir/analysis.h ir/analysis_impl.h ir/analysis_cache.c \
	ir/cfg.c ir/callgraph.c ir/dom.c ir/loops.c ir/defuse.c ir/liveness.c \
	ir/ssa.c ir/ivars.c ir/terms.c ir/value_terms.c ir/z3bridge.c \
	ir/memory.c ir/uniform.c ir/llvm_mirror.c ir/dump.c

check_PROGRAMS += testsuite/unit/analysis_tool
testsuite_unit_analysis_tool_SOURCES = testsuite/unit/analysis_tool.c
testsuite_unit_analysis_tool_LDADD = $(PTXOPT_LIBS)

check_PROGRAMS += testsuite/unit/test_cfg_random
testsuite_unit_test_cfg_random_SOURCES = testsuite/unit/test_cfg_random.c
testsuite_unit_test_cfg_random_LDADD = $(PTXOPT_LIBS)

check_PROGRAMS += testsuite/unit/test_terms
testsuite_unit_test_terms_SOURCES = testsuite/unit/test_terms.c
testsuite_unit_test_terms_LDADD = $(PTXOPT_LIBS)

## the analyses' throughput benchmark (built, not run by make check)
noinst_PROGRAMS += bench/analysis/bench_analysis
bench_analysis_bench_analysis_SOURCES = bench/analysis/bench_analysis.c
bench_analysis_bench_analysis_CPPFLAGS = $(AM_CPPFLAGS) -DPTXOPT_SRCDIR='"$(abs_top_srcdir)"'
bench_analysis_bench_analysis_LDADD = $(PTXOPT_LIBS)
