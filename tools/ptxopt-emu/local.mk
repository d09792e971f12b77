## tools/ptxopt-emu/local.mk — the emulator's command line (the emulator
## itself is emu/; included by Makefile.am).
bin_PROGRAMS += ptxopt-emu
ptxopt_emu_SOURCES = tools/ptxopt-emu/main.c
ptxopt_emu_LDADD = $(PTXOPT_LIBS)
dist_man_MANS += man/ptxopt-emu.1
