## driver/local.mk — the programs (included by Makefile.am).
bin_PROGRAMS += ptxopt
ptxopt_SOURCES = driver/ptxopt.c driver/options.c driver/options.h driver/fileio.c driver/fileio.h
ptxopt_LDADD = $(PTXOPT_LIBS)
