## bench/local.mk — benchmarks: `make bench` prints figures (not timed tests).
EXTRA_DIST += bench/mkbig.py bench/throughput.sh
BENCH_TARGETS = bench-throughput
bench: $(BENCH_TARGETS)
bench-throughput: ptxopt$(EXEEXT)
	@bash $(srcdir)/bench/throughput.sh $(abs_top_srcdir) $(abs_top_builddir)/ptxopt$(EXEEXT)
.PHONY: bench $(BENCH_TARGETS)
