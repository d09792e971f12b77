## tools/ptxopt/local.mk — the optimizer's command line, single files and
## batch mode (included by Makefile.am).
bin_PROGRAMS += ptxopt
ptxopt_SOURCES = tools/ptxopt/main.c tools/ptxopt/options.c tools/ptxopt/options.h \
	tools/ptxopt/batch.c tools/ptxopt/batch.h tools/ptxopt/batch_inputs.c tools/ptxopt/batch_inputs.h \
	tools/ptxopt/sass_report.c tools/ptxopt/sass_report.h \
	$(TOOLS_COMMON_SOURCES)
ptxopt_LDADD = $(PTXOPT_LIBS)
