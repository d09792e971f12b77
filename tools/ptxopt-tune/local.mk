## tools/ptxopt-tune/local.mk — the tuner ptxopt-tune (included by Makefile.am)
bin_PROGRAMS += ptxopt-tune
ptxopt_tune_SOURCES = tools/ptxopt-tune/main.c tools/ptxopt-tune/tune.h tools/ptxopt-tune/internal.h tools/ptxopt-tune/options.c tools/common/cli.c tools/common/cli.h tools/ptxopt-tune/build.c tools/ptxopt-tune/space.c tools/ptxopt-tune/bypass.c tools/ptxopt-tune/ptxas.c \
	tools/ptxopt-tune/exec.c tools/ptxopt-tune/measure.c tools/ptxopt-tune/mix.c tools/ptxopt-tune/report.c \
	tools/ptxopt-tune/resume.c tools/ptxopt-tune/heu.c tools/ptxopt-tune/sfu.c tools/common/json_read.c tools/common/json_read.h tools/common/fileio.c tools/common/fileio.h support/cleanup.c support/cleanup.h
ptxopt_tune_LDADD = $(PTXOPT_LIBS)
dist_man_MANS += man/ptxopt-tune.1

## Unit test of the tuner's ptxas-free pieces (testsuite/unit/test_tune.c).
check_PROGRAMS += testsuite/unit/test_tune
testsuite_unit_test_tune_SOURCES = testsuite/unit/test_tune.c tools/ptxopt-tune/tune.h tools/ptxopt-tune/space.c tools/ptxopt-tune/bypass.c \
	tools/ptxopt-tune/ptxas.c tools/ptxopt-tune/exec.c tools/ptxopt-tune/measure.c support/cleanup.c support/cleanup.h \
	tools/common/json_read.c tools/common/json_read.h
testsuite_unit_test_tune_LDADD = $(PTXOPT_LIBS)

## The HEU search of the sfu dimension on synthetic curves (testsuite/unit/test_tune_heu.c).
check_PROGRAMS += testsuite/unit/test_tune_heu
testsuite_unit_test_tune_heu_SOURCES = testsuite/unit/test_tune_heu.c tools/ptxopt-tune/heu.c tools/ptxopt-tune/internal.h
testsuite_unit_test_tune_heu_LDADD = $(PTXOPT_LIBS)
