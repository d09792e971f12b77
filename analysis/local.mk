## analysis/local.mk — the analyses of a function (CFG, dominators, loops, SSA overlay,
## liveness, induction variables, symbolic terms + Z3, memory, uniformity,
## LLVM-C cross-check, dumps), their tests and benchmark.  Included by
## Makefile.am.
libptxopt_a_SOURCES += \
	analysis/analysis.h analysis/internal.h analysis/cache.c \
	analysis/cfg.c analysis/cfg.h analysis/callgraph.c analysis/callgraph.h \
	analysis/dom.c analysis/dom.h analysis/loops.c analysis/loops.h \
	analysis/defuse.c analysis/defuse.h analysis/liveness.c analysis/liveness.h \
	analysis/ssa.c analysis/ssa.h analysis/ivars.c analysis/ivars.h \
	analysis/terms.c analysis/terms.h analysis/value_terms.c analysis/value_terms.h \
	analysis/z3bridge.c analysis/z3bridge.h analysis/memory.c analysis/memory.h \
	analysis/uniform.c analysis/uniform.h analysis/llvm_mirror.c analysis/llvm_mirror.h \
	analysis/dump.c analysis/dump.h

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
