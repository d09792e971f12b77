## codegen/local.mk — the PTX printer and output files (included by Makefile.am).
libptxopt_a_SOURCES += codegen/print.c codegen/print.h codegen/outfile.c codegen/outfile.h
