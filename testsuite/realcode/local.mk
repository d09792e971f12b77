## testsuite/realcode/local.mk — `make sweep`: the real-code sweep (issue 21),
## a rung of the test ladder above `make check`.  build_corpus.py builds (or
## updates) the corpus of real PTX from the suites' snapshots into
## $(PTXOPT_SWEEP_CACHE) (default ~/.cache/ptxopt-sweep), then sweep.py runs
## every pass setting over it.  Not part of `make check`: it needs the
## snapshots and takes about an hour on two cores.  See
## testsuite/realcode/README.md.
##   make sweep SWEEP_ARGS='--passes=shuffle --limit=200'
##   make sweep SWEEP_BUILD_ARGS='--suites=rodinia'
## (the files of testsuite/ reach the tarball through dist-testsuite)
SWEEP_ARGS ?=
SWEEP_BUILD_ARGS ?=
sweep: ptxopt$(EXEEXT)
	$(PYTHON) $(srcdir)/testsuite/realcode/build_corpus.py --jobs=2 $(SWEEP_BUILD_ARGS)
	$(PYTHON) $(srcdir)/testsuite/realcode/sweep.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) $(SWEEP_ARGS)
.PHONY: sweep
