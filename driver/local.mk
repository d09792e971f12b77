## driver/local.mk — the programs (included by Makefile.am).
bin_PROGRAMS += ptxopt
ptxopt_SOURCES = driver/ptxopt.c driver/options.c driver/options.h \
	driver/batch.c driver/batch.h driver/batch_inputs.c driver/batch_inputs.h \
	$(DRIVER_COMMON_SOURCES)
ptxopt_LDADD = $(PTXOPT_LIBS)

## Shared by ptxopt (batch mode) and the ptxas wrapper.
DRIVER_COMMON_SOURCES = driver/fileio.c driver/fileio.h driver/optimize.c driver/optimize.h \
	driver/fault.c driver/fault.h driver/worker.c driver/worker.h \
	driver/record.c driver/record.h driver/progress.c driver/progress.h \
	driver/report.c driver/report.h driver/cleanup.c driver/cleanup.h

## Unit test of driver/cleanup.h (tree removal, the signal handler).
check_PROGRAMS += testsuite/unit/test_cleanup
testsuite_unit_test_cleanup_SOURCES = testsuite/unit/test_cleanup.c driver/cleanup.c driver/cleanup.h

## The drop-in ptxas (see man/ptxopt-ptxas.1).
bin_PROGRAMS += ptxopt-ptxas
ptxopt_ptxas_SOURCES = driver/ptxopt-ptxas.c driver/ptxas_args.c driver/ptxas_args.h \
	driver/ptxas_options.def driver/ptxas_find.c driver/ptxas_find.h driver/spawn.c driver/spawn.h \
	driver/wrapper_config.c driver/wrapper_config.h $(DRIVER_COMMON_SOURCES)
ptxopt_ptxas_LDADD = $(PTXOPT_LIBS)

## ptxopt-nvcc: a POSIX sh script, its install paths filled in at build time.
bin_SCRIPTS = ptxopt-nvcc
CLEANFILES += ptxopt-nvcc
EXTRA_DIST += driver/ptxopt-nvcc.in
ptxopt-nvcc: $(srcdir)/driver/ptxopt-nvcc.in Makefile
	$(AM_V_GEN)sed -e 's|@pkglibexecdir[@]|$(pkglibexecdir)|g' -e 's|@VERSION[@]|$(VERSION)|g' \
	  $(srcdir)/driver/ptxopt-nvcc.in > $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

## The wrapper is also installed as $(pkglibexecdir)/cuda/bin/ptxas, for
## tools that take ptxas from PATH or from a CUDA root's bin directory.
install-exec-hook:
	$(MKDIR_P) "$(DESTDIR)$(pkglibexecdir)/cuda/bin"
	$(INSTALL_PROGRAM) ptxopt-ptxas$(EXEEXT) "$(DESTDIR)$(pkglibexecdir)/cuda/bin/ptxas$(EXEEXT)"
uninstall-hook:
	rm -f "$(DESTDIR)$(pkglibexecdir)/cuda/bin/ptxas$(EXEEXT)"
	-rmdir "$(DESTDIR)$(pkglibexecdir)/cuda/bin" "$(DESTDIR)$(pkglibexecdir)/cuda" \
	  "$(DESTDIR)$(pkglibexecdir)" 2>/dev/null
