## bench/local.mk — benchmarks: `make bench` prints figures (not timed tests).
EXTRA_DIST += bench/mkbig.py bench/throughput.sh bench/shuffle/regdelta.sh \
	bench/shuffle/table2.sh bench/shuffle/sectors.py bench/shuffle/provetime.sh bench/sass/table.py \
	bench/tinylock/table.py
BENCH_TARGETS = bench-throughput bench-analysis bench-emu bench-table2 bench-sectors bench-prove bench-sass bench-tinylock
bench: $(BENCH_TARGETS)
bench-throughput: ptxopt$(EXEEXT)
	@bash $(srcdir)/bench/throughput.sh $(abs_top_srcdir) $(abs_top_builddir)/ptxopt$(EXEEXT)
bench-analysis: bench/analysis/bench_analysis$(EXEEXT)
	@bench/analysis/bench_analysis$(EXEEXT)
bench-emu: ptxopt-emu$(EXEEXT)
	@sh $(srcdir)/bench/emu/emu-speed.sh $(abs_top_builddir)/ptxopt-emu$(EXEEXT)
# shuffle pass: the PTXASW paper's Table 2 beside ours (issue 6 a), and
# global-load sectors per warp before/after in the emulator (issue 6 b)
bench-table2: ptxopt$(EXEEXT)
	@PYTHON=$(PYTHON) sh $(srcdir)/bench/shuffle/table2.sh $(abs_top_builddir)/ptxopt$(EXEEXT)
bench-sectors: ptxopt$(EXEEXT) ptxopt-emu$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/shuffle/sectors.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) \
	  --emu=$(abs_top_builddir)/ptxopt-emu$(EXEEXT) --srcdir=$(abs_top_srcdir)
bench-prove: ptxopt$(EXEEXT)
	@sh $(srcdir)/bench/shuffle/provetime.sh $(abs_top_builddir)/ptxopt$(EXEEXT)
# machine code (SASS via ptxas + nvdisasm) before/after each pass on the
# KernelGen ports: global loads, shuffles, instructions, registers (issue 11)
bench-sass: ptxopt$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/sass/table.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) --srcdir=$(abs_top_srcdir)
# tinylock pass: SASS size, registers, shared memory added, CTA barriers and
# fences per rewritten kernel, before -> after (issue 15 §4)
bench-tinylock: ptxopt$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/tinylock/table.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) --srcdir=$(abs_top_srcdir)
.PHONY: bench $(BENCH_TARGETS)
