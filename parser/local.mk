## parser/local.mk — the bison grammar and the IR builder it drives (included by Makefile.am).
libptxopt_a_SOURCES += parser/ptx.y parser/parse.c parser/parse.h parser/build.c parser/build.h parser/decl.c parser/directives.c parser/operands.c
BUILT_SOURCES += parser/ptx.h
CLEANFILES += parser/ptx.c parser/ptx.h
