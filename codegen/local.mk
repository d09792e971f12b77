## codegen/local.mk — the PTX printer (included by Makefile.am).
libptxopt_a_SOURCES += codegen/print.c codegen/print.h
