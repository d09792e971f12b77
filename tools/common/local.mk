## tools/common/local.mk — what the programs share (see tools/common/common.h;
## included by Makefile.am).  Not a library: each program lists the pieces it
## links.

## The optimizing engine shared by ptxopt (batch mode) and the ptxas wrapper.
TOOLS_COMMON_SOURCES = tools/common/fileio.c tools/common/fileio.h tools/common/optimize.c tools/common/optimize.h \
	tools/common/fault.c tools/common/fault.h tools/common/worker.c tools/common/worker.h \
	tools/common/record.c tools/common/record.h tools/common/progress.c tools/common/progress.h \
	tools/common/report.c tools/common/report.h support/cleanup.c support/cleanup.h
EXTRA_DIST += tools/common/common.h
