## driver/tune.mk — the regtune pass's tuner program ptxopt-tune (included by Makefile.am)
bin_PROGRAMS += ptxopt-tune
ptxopt_tune_SOURCES = driver/ptxopt-tune.c driver/tune.h driver/tune_driver.h driver/tune_options.c driver/cli.c driver/cli.h driver/tune_build.c driver/tune_space.c driver/tune_bypass.c driver/tune_ptxas.c \
	driver/tune_exec.c driver/tune_measure.c driver/tune_mix.c driver/tune_report.c \
	driver/tune_resume.c driver/tune_heu.c driver/tune_sfu.c driver/json_read.c driver/json_read.h driver/fileio.c driver/fileio.h driver/cleanup.c driver/cleanup.h
ptxopt_tune_LDADD = $(PTXOPT_LIBS)
dist_man_MANS += man/ptxopt-tune.1

## Unit test of the tuner's ptxas-free pieces (testsuite/unit/test_tune.c).
check_PROGRAMS += testsuite/unit/test_tune
testsuite_unit_test_tune_SOURCES = testsuite/unit/test_tune.c driver/tune.h driver/tune_space.c driver/tune_bypass.c \
	driver/tune_ptxas.c driver/tune_exec.c driver/tune_measure.c driver/cleanup.c driver/cleanup.h \
	driver/json_read.c driver/json_read.h
testsuite_unit_test_tune_LDADD = $(PTXOPT_LIBS)

## The HEU search of the sfu dimension on synthetic curves (testsuite/unit/test_tune_heu.c).
check_PROGRAMS += testsuite/unit/test_tune_heu
testsuite_unit_test_tune_heu_SOURCES = testsuite/unit/test_tune_heu.c driver/tune_heu.c driver/tune_driver.h
testsuite_unit_test_tune_heu_LDADD = $(PTXOPT_LIBS)
