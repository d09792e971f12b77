## tools/ptxopt-emu/local.mk — the emulator's command line (the emulator
## itself is emu/; included by Makefile.am).
bin_PROGRAMS += ptxopt-emu
ptxopt_emu_SOURCES = tools/ptxopt-emu/main.c
ptxopt_emu_LDADD = $(PTXOPT_LIBS)
dist_man_MANS += man/ptxopt-emu.1

## ptxopt-emu-measure: a ptxopt-tune --measure command on the emulator's
## cache model, for tuning without a GPU (POSIX sh and awk).
dist_bin_SCRIPTS = tools/ptxopt-emu/ptxopt-emu-measure
dist_man_MANS += man/ptxopt-emu-measure.1
