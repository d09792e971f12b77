## emu/local.mk — the functional SIMT emulator (its command line is
## tools/ptxopt-emu/; included by Makefile.am)
libptxopt_a_SOURCES += \
	emu/emu.h emu/internal.h emu/fp.h emu/fp.c emu/types.c emu/layout.c \
	emu/decode.c emu/postdom.c emu/memory.c emu/report.c emu/calls.c \
	emu/exec_int.c emu/exec_float.c emu/exec_cmp.c emu/exec_mov.c emu/exec_cvt.c \
	emu/exec_mem.c emu/ncload.c emu/collective.c emu/sched.c emu/machine.c emu/args.c \
	emu/dump.c emu/compare.c emu/cache.c emu/cache_config.c emu/cache_report.c \
	emu/approx_error.c emu/error_metric.c emu/spin.c emu/mbarrier.c emu/globals.c
check_PROGRAMS += testsuite/unit/test_emu testsuite/unit/test_emu_fp testsuite/unit/test_emu_approx \
	testsuite/unit/test_emu_sync
testsuite_unit_test_emu_SOURCES = testsuite/unit/test_emu.c
testsuite_unit_test_emu_LDADD = $(PTXOPT_LIBS)
testsuite_unit_test_emu_fp_SOURCES = testsuite/unit/test_emu_fp.c
testsuite_unit_test_emu_fp_LDADD = $(PTXOPT_LIBS)
testsuite_unit_test_emu_approx_SOURCES = testsuite/unit/test_emu_approx.c
testsuite_unit_test_emu_approx_LDADD = $(PTXOPT_LIBS)
testsuite_unit_test_emu_sync_SOURCES = testsuite/unit/test_emu_sync.c
testsuite_unit_test_emu_sync_LDADD = $(PTXOPT_LIBS)

EXTRA_DIST += bench/emu/emu-speed.sh bench/emu/alu_loop.ptx
