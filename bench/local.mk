## bench/local.mk — benchmarks: `make bench` prints figures (not timed tests).
EXTRA_DIST += bench/mkbig.py bench/throughput.sh bench/shuffle/regdelta.sh bench/shuffle/provetime.sh
BENCH_TARGETS = bench-throughput bench-analysis bench-emu bench-prove
bench: $(BENCH_TARGETS)
bench-throughput: ptxopt$(EXEEXT)
	@bash $(srcdir)/bench/throughput.sh $(abs_top_srcdir) $(abs_top_builddir)/ptxopt$(EXEEXT)
bench-analysis: bench/analysis/bench_analysis$(EXEEXT)
	@bench/analysis/bench_analysis$(EXEEXT)
bench-emu: ptxopt-emu$(EXEEXT)
	@sh $(srcdir)/bench/emu/emu-speed.sh $(abs_top_builddir)/ptxopt-emu$(EXEEXT)
bench-prove: ptxopt$(EXEEXT)
	@sh $(srcdir)/bench/shuffle/provetime.sh $(abs_top_builddir)/ptxopt$(EXEEXT)
.PHONY: bench $(BENCH_TARGETS)
