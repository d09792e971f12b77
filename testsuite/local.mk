## testsuite/local.mk — `make check`: unit programs are built, then lit runs
## every test under testsuite/ (FileCheck tests, unit-program wrappers and
## the corpus round-trip ladder).  lit's summary is what .ci/run reports.

LIT_ARGS ?= -sv
check-local: all $(check_PROGRAMS)
	@if test -z "$(LIT)" || test -z "$(FILECHECK)"; then \
	  echo "make check: lit/FileCheck missing; install the Debian package llvm-14-tools" >&2; exit 1; fi
	$(PYTHON) $(LIT) $(LIT_ARGS) $(builddir)/testsuite

EXTRA_DIST += testsuite

## Regenerate the corpus from testsuite/kernels/*.cu and kernelgen/*.cu
## (needs nvcc) and from testsuite/llvm/*.ll (needs llc-14).
regen-corpus:
	bash $(srcdir)/testsuite/kernels/regen.sh $(abs_top_srcdir)
	bash $(srcdir)/testsuite/kernels/kernelgen/regen.sh $(abs_top_srcdir)
	bash $(srcdir)/testsuite/llvm/regen.sh $(abs_top_srcdir)
.PHONY: regen-corpus

## lit leaves its scratch files in Output/ directories of the build tree.
clean-local:
	-rm -rf testsuite/Output testsuite/*/Output testsuite/*/*/Output testsuite/.lit_test_times.txt

## testsuite/ is distributed whole; not what a test run left in it.
dist-hook:
	-rm -rf $(distdir)/testsuite/Output $(distdir)/testsuite/*/Output $(distdir)/testsuite/*/*/Output \
	    $(distdir)/testsuite/.lit_test_times.txt $(distdir)/testsuite/lit.site.cfg.py
	-find $(distdir)/testsuite -name __pycache__ -type d -prune -exec rm -rf {} +
