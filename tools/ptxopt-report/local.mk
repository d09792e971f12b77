## tools/ptxopt-report/local.mk — ptxopt-report, the summary of a build's
## wrapper report (see man/ptxopt-report.1; included by Makefile.am).
bin_PROGRAMS += ptxopt-report
ptxopt_report_SOURCES = tools/ptxopt-report/main.c tools/ptxopt-report/summary.c tools/ptxopt-report/summary.h \
	tools/common/json_read.c tools/common/json_read.h tools/common/fileio.c tools/common/fileio.h \
	codegen/outfile.c codegen/outfile.h support/cleanup.c support/cleanup.h ir/fatal.c ir/fatal.h
dist_man_MANS += man/ptxopt-report.1
