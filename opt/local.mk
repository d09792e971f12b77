## opt/local.mk — pass manager, remarks and passes (included by Makefile.am).
libptxopt_a_SOURCES += opt/pass.h opt/pipeline.c opt/registry.c opt/remarks.c opt/remarks.h opt/guard.c opt/guard.h opt/run.c opt/run.h opt/regtune.c opt/regtune.h \
	opt/shuffle/shuffle.h opt/shuffle/internal.h opt/shuffle/options.c opt/shuffle/sites.c opt/shuffle/legality.c \
	opt/shuffle/lanes.c opt/shuffle/proof.c opt/shuffle/profit.c opt/shuffle/pass.c opt/shuffle/emit.c \
	opt/sfu/sfu.h opt/sfu/internal.h opt/sfu/options.c opt/sfu/sites.c opt/sfu/fingerprints.c opt/sfu/legality.c \
	opt/sfu/replace.c opt/sfu/split.c opt/sfu/resources.c opt/sfu/pass.c
EXTRA_DIST += opt/sfu/fingerprints/gen.py opt/sfu/fingerprints/cuda13.0.c
