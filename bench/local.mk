## bench/local.mk — benchmarks: `make bench` prints figures (not timed tests).
EXTRA_DIST += bench/mkbig.py bench/throughput.sh bench/shuffle/regdelta.sh \
	bench/shuffle/table2.sh bench/shuffle/sectors.py bench/shuffle/provetime.sh bench/sass/table.py \
	bench/shuffle/cost.py bench/bypass/curves.py bench/sfu/lambda.py bench/tinylock/table.py
BENCH_TARGETS = bench-throughput bench-analysis bench-emu bench-table2 bench-sectors bench-prove bench-sass \
	bench-shuffle-cost bench-bypass bench-sfu bench-sfu-regs bench-tinylock
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
# the shuffle pass's cost before/after (emulator, SASS) and its profitability
# gate's prediction against the emulator, default and paper settings; timed
# on a GPU when ptxopt-run finds one (issue 12 §3)
bench-shuffle-cost: ptxopt$(EXEEXT) ptxopt-emu$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/shuffle/cost.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) \
	  --emu=$(abs_top_builddir)/ptxopt-emu$(EXEEXT) --run=$(abs_top_builddir)/ptxopt-run$(EXEEXT) \
	  --srcdir=$(abs_top_srcdir)
# bypass pass: L1 hit rate, L2 and DRAM sectors against the threshold T on
# the thesis's workloads in the emulator's cache model, the optimum T, the
# static choice (ptxopt-tune --dim=bypass on the model), outputs
# bit-identical for every T (issue 13 item 8)
bench-bypass: ptxopt$(EXEEXT) ptxopt-emu$(EXEEXT) ptxopt-tune$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/bypass/curves.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) \
	  --emu=$(abs_top_builddir)/ptxopt-emu$(EXEEXT) --tune=$(abs_top_builddir)/ptxopt-tune$(EXEEXT) \
	  --srcdir=$(abs_top_srcdir) --jobs=2 --cache=sm_80,l1=48,l2=256,sms=4 --ops=cg,no-allocate,cs
	@$(PYTHON) $(srcdir)/bench/bypass/curves.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) \
	  --emu=$(abs_top_builddir)/ptxopt-emu$(EXEEXT) --tune=$(abs_top_builddir)/ptxopt-tune$(EXEEXT) \
	  --srcdir=$(abs_top_srcdir) --jobs=2 --cache=sm_80,l1=16,l2=128,sms=2 --ops=cg
# sfu pass: per split ratio lambda, the output error in the emulator under
# the documented worst-case error model and the MUFU/FP32 instruction mix,
# beside the thesis's figures, and the lambda ptxopt-tune's HEU picks (issue 14 §7)
bench-sfu: ptxopt$(EXEEXT) ptxopt-emu$(EXEEXT) ptxopt-tune$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/sfu/lambda.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) \
	  --emu=$(abs_top_builddir)/ptxopt-emu$(EXEEXT) --tune=$(abs_top_builddir)/ptxopt-tune$(EXEEXT) --srcdir=$(abs_top_srcdir)
# sfu pass: registers of the original, split and all-approximate kernels
# per target, from ptxas -v (issue 14 item 5; research §2.5)
EXTRA_DIST += bench/sfu/regs.py bench/sfu/boxmuller_regs.cu bench/sfu/boxmuller_regs.sm_75.ptx
bench-sfu-regs: ptxopt$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/sfu/regs.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) --srcdir=$(abs_top_srcdir)
# tinylock pass: SASS size, registers, shared memory added, CTA barriers and
# fences per rewritten kernel, before -> after (issue 15 §4)
bench-tinylock: ptxopt$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/tinylock/table.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) --srcdir=$(abs_top_srcdir)
.PHONY: bench $(BENCH_TARGETS)
