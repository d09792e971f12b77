## opt/local.mk — pass manager, remarks and passes (included by Makefile.am).
libptxopt_a_SOURCES += opt/pass.h opt/pipeline.c opt/registry.c opt/remarks.c opt/remarks.h opt/guard.c opt/guard.h opt/run.c opt/run.h opt/regtune.c opt/regtune.h \
	opt/shuffle/shuffle.h opt/shuffle/internal.h opt/shuffle/options.c opt/shuffle/sites.c opt/shuffle/legality.c \
	opt/shuffle/lanes.c opt/shuffle/proof.c opt/shuffle/profit.c opt/shuffle/pass.c opt/shuffle/emit.c \
	opt/tinylock/tinylock.h opt/tinylock/internal.h opt/tinylock/options.c opt/tinylock/primitives.c \
	opt/tinylock/sites.c opt/tinylock/legality.c opt/tinylock/flag.c opt/tinylock/resources.c opt/tinylock/emit.c opt/tinylock/pass.c
check_PROGRAMS += testsuite/unit/tinylock_prims
testsuite_unit_tinylock_prims_LDADD = $(PTXOPT_LIBS)
