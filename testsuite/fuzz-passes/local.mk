## testsuite/fuzz-passes/local.mk — the random-program differential tester
## of every pass (issue 10 §5; included by Makefile.am).  `make check` runs
## a short fixed-seed campaign (campaign.test) and the reduced reproducers
## (found.test); `make fuzz-passes` runs a long one:
##   make fuzz-passes FUZZ_PASSES_MINUTES=30   (or FUZZ_PASSES_MINUTES=0 FUZZ_PASSES_COUNT=500 seeds)
##   make fuzz-passes FUZZ_PASSES_SEED=1000 FUZZ_PASSES_CONFIGS=shuffle
##   make fuzz-passes FUZZ_PASSES_SOURCE=sync FUZZ_PASSES_CONFIGS=tinylock   (gen_sync.py's lock kernels)
## It prints programs per minute, the coverage of each pass configuration
## and the failures, reduced into fuzz-passes.work/found/.  (Distributed with
## testsuite/, which testsuite/local.mk adds whole.)
FUZZ_PASSES_SEED ?= 100000
FUZZ_PASSES_MINUTES ?= 10
FUZZ_PASSES_COUNT ?= 0
FUZZ_PASSES_CONFIGS ?= .
FUZZ_PASSES_SOURCE ?=
fuzz-passes: ptxopt$(EXEEXT) ptxopt-emu$(EXEEXT)
	$(PYTHON) $(srcdir)/testsuite/fuzz-passes/fuzz.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) \
	  --emu=$(abs_top_builddir)/ptxopt-emu$(EXEEXT) --seed=$(FUZZ_PASSES_SEED) \
	  --minutes=$(FUZZ_PASSES_MINUTES) --count=$(FUZZ_PASSES_COUNT) --configs='$(FUZZ_PASSES_CONFIGS)' \
	  $(if $(FUZZ_PASSES_SOURCE),--source=$(FUZZ_PASSES_SOURCE) --validate-all) \
	  --work=fuzz-passes.work --found=fuzz-passes.work/found
.PHONY: fuzz-passes
