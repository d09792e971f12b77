## testsuite/local.mk — `make check`: unit programs are built, then lit runs
## every test under testsuite/ (FileCheck tests, unit-program wrappers and
## the corpus round-trip ladder).  lit's summary is what .ci/run reports.

LIT_ARGS ?= -sv
check-local: all $(check_PROGRAMS)
	@if test -z "$(LIT)" || test -z "$(FILECHECK)"; then \
	  echo "make check: lit/FileCheck missing; install the Debian package llvm-14-tools" >&2; exit 1; fi
	$(PYTHON) $(LIT) $(LIT_ARGS) $(builddir)/testsuite

## testsuite/ is not in EXTRA_DIST: a directory there takes whatever an
## in-tree build or test run left in it (objects, test programs).  The
## dist-hook below ships the files git tracks instead.

## Regenerate the corpus from testsuite/kernels/*.cu, kernelgen/*.cu, workloads/*.cu
## (needs nvcc) and from testsuite/llvm/*.ll (needs llc-14).
regen-corpus:
	bash $(srcdir)/testsuite/kernels/regen.sh $(abs_top_srcdir)
	bash $(srcdir)/testsuite/kernels/kernelgen/regen.sh $(abs_top_srcdir)
	bash $(srcdir)/testsuite/kernels/workloads/regen.sh $(abs_top_srcdir)
	bash $(srcdir)/testsuite/llvm/regen.sh $(abs_top_srcdir)
.PHONY: regen-corpus

## lit leaves its scratch files in Output/ directories of the build tree.
clean-local:
	-rm -rf testsuite/Output testsuite/*/Output testsuite/*/*/Output testsuite/.lit_test_times.txt

## The tarball's testsuite/: the files git tracks there, and their list
## (testsuite/DISTFILES), so that `make dist` in an unpacked tarball, which
## has no git (distcheck does that), ships the same files.  Never what a
## build or test run left there (objects, test programs, Output/,
## lit.site.cfg.py, __pycache__).
dist-hook: dist-testsuite
dist-testsuite:
	@dest="$$(pwd)/$(distdir)"; list="$$dest/testsuite/DISTFILES"; \
	$(MKDIR_P) "$$dest/testsuite" && cd $(srcdir) && \
	if top=$$(git rev-parse --show-toplevel 2>/dev/null) && test "$$top" = "$$(pwd -P)"; then \
	  git ls-files -- testsuite | grep -vx testsuite/DISTFILES > "$$list"; \
	elif test -f testsuite/DISTFILES; then \
	  cp testsuite/DISTFILES "$$list"; \
	else \
	  echo "make dist: neither git nor testsuite/DISTFILES lists the files of testsuite/" >&2; exit 1; \
	fi && \
	tar cf - --files-from="$$list" | (cd "$$dest" && tar xf -) && \
	echo "  DIST     testsuite/ ($$(wc -l < "$$list") files)"
.PHONY: dist-testsuite

## `make fuzz-wrapper`: a long campaign of testsuite/wrapper/fuzz_wrapper.py
## (random ptxas command lines, files and wrapper settings against plain
## ptxas; `make check` runs 60 cases with a fixed seed):
##   make fuzz-wrapper FUZZ_CASES=5000              (a random seed, printed)
##   make fuzz-wrapper FUZZ_SEED=123 FUZZ_CASES=40  (repeat a campaign)
FUZZ_CASES ?= 1000
FUZZ_SEED ?= random
fuzz-wrapper: ptxopt-ptxas$(EXEEXT)
	@ptxas=$${PTXAS:-$$(command -v ptxas || echo /usr/local/cuda/bin/ptxas)}; \
	$(PYTHON) $(srcdir)/testsuite/wrapper/fuzz_wrapper.py --wrapper=$(abs_top_builddir)/ptxopt-ptxas$(EXEEXT) \
	  --ptxas="$$ptxas" --cases=$(FUZZ_CASES) --seed=$(FUZZ_SEED) \
	  --ptx=$(srcdir)/testsuite/corpus/nvcc/vote.sm_80.ptx --ptx=$(srcdir)/testsuite/corpus/nvcc/reduce_shfl_down.sm_80.ptx
.PHONY: fuzz-wrapper
