## ir/local.mk — the IR, its builder and the opcode table (included by Makefile.am).
libptxopt_a_SOURCES += \
	ir/arena.c ir/arena.h ir/fatal.c ir/fatal.h ir/str.h \
	ir/ir.h ir/module.c ir/modsyms.c ir/instr.c ir/builder.c ir/clone.c ir/clone.h ir/regs.c ir/regs.h \
	ir/opcode.c ir/opcode.h ir/opcodes.def ir/selector.c \
	ir/diag.c ir/diag.h
check_PROGRAMS += testsuite/unit/test_opcode
testsuite_unit_test_opcode_SOURCES = testsuite/unit/test_opcode.c
testsuite_unit_test_opcode_LDADD = $(PTXOPT_LIBS)
check_PROGRAMS += testsuite/unit/test_builder
testsuite_unit_test_builder_LDADD = $(PTXOPT_LIBS)
check_PROGRAMS += testsuite/unit/test_scopes
testsuite_unit_test_scopes_LDADD = $(PTXOPT_LIBS)
check_PROGRAMS += testsuite/unit/test_clone
testsuite_unit_test_clone_LDADD = $(PTXOPT_LIBS)
