## opt/local.mk — pass manager, remarks and passes (included by Makefile.am).
libptxopt_a_SOURCES += opt/pass.h opt/pipeline.c opt/registry.c opt/remarks.c opt/remarks.h opt/guard.c opt/guard.h opt/run.c opt/run.h opt/regtune.c opt/regtune.h \
	opt/shuffle/shuffle.h opt/shuffle/internal.h opt/shuffle/options.c opt/shuffle/sites.c opt/shuffle/legality.c \
	opt/shuffle/lanes.c opt/shuffle/wrap.c opt/shuffle/plan.c opt/shuffle/trips.c opt/shuffle/proof.c opt/shuffle/profit.c opt/shuffle/pass.c opt/shuffle/emit.c \
	opt/bypass/bypass.h opt/bypass/internal.h opt/bypass/options.c opt/bypass/sites.c opt/bypass/legality.c \
	opt/bypass/profit.c opt/bypass/cacheop.c opt/bypass/partition.c opt/bypass/emit_pairs.c \
	opt/bypass/emit_versioning.c opt/bypass/emit_l2policy.c opt/bypass/pass.c \
	opt/sfu/sfu.h opt/sfu/internal.h opt/sfu/options.c opt/sfu/sites.c opt/sfu/fplib.c opt/sfu/match.c opt/sfu/fingerprints.c opt/sfu/legality.c \
	opt/sfu/reach.c opt/sfu/replace.c opt/sfu/guard.c opt/sfu/prune.c opt/sfu/split.c opt/sfu/resources.c opt/sfu/pass.c \
	opt/tinylock/tinylock.h opt/tinylock/internal.h opt/tinylock/options.c opt/tinylock/primitives.c \
	opt/tinylock/sites.c opt/tinylock/legality.c opt/tinylock/flag.c opt/tinylock/resources.c opt/tinylock/emit.c opt/tinylock/pass.c
check_PROGRAMS += testsuite/unit/tinylock_prims
testsuite_unit_tinylock_prims_LDADD = $(PTXOPT_LIBS)
EXTRA_DIST += opt/sfu/fingerprints/gen.py opt/sfu/fingerprints/cuda13.0.c
