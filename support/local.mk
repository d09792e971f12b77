## support/local.mk — processes and clocks for the library and the programs
## (see support/support.h; included by Makefile.am).
libptxopt_a_SOURCES += support/support.h support/clock.h \
	support/spawn.c support/spawn.h support/cleanup.c support/cleanup.h

## Unit test of support/cleanup.h (tree removal, the signal handler).
check_PROGRAMS += testsuite/unit/test_cleanup
testsuite_unit_test_cleanup_SOURCES = testsuite/unit/test_cleanup.c support/cleanup.c support/cleanup.h
