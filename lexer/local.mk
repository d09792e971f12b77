## lexer/local.mk — the flex scanner (included by Makefile.am).
libptxopt_a_SOURCES += lexer/ptx.l lexer/lexer.h
BUILT_SOURCES += lexer/ptx.c
CLEANFILES += lexer/ptx.c
