## sass/local.mk — the SASS reader: ptxas → cubin → nvdisasm, per-kernel
## instruction classes (included by Makefile.am).
libptxopt_a_SOURCES += sass/sass.h sass/classes.def sass/opcodes.def sass/classify.c sass/listing.c \
	sass/ptxas_v.c sass/tools.c sass/compile.c sass/compare.c
check_PROGRAMS += testsuite/unit/test_sass
testsuite_unit_test_sass_SOURCES = testsuite/unit/test_sass.c
testsuite_unit_test_sass_LDADD = $(PTXOPT_LIBS)
