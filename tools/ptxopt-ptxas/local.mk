## tools/ptxopt-ptxas/local.mk — the drop-in ptxas (see man/ptxopt-ptxas.1)
## and ptxopt-nvcc, the nvcc that runs it (included by Makefile.am).
bin_PROGRAMS += ptxopt-ptxas
ptxopt_ptxas_SOURCES = tools/ptxopt-ptxas/main.c tools/ptxopt-ptxas/ptxas_args.c tools/ptxopt-ptxas/ptxas_args.h \
	tools/ptxopt-ptxas/ptxas_options.def tools/ptxopt-ptxas/ptxas_find.c tools/ptxopt-ptxas/ptxas_find.h \
	tools/ptxopt-ptxas/wrapper_config.c tools/ptxopt-ptxas/wrapper_config.h $(TOOLS_COMMON_SOURCES)
ptxopt_ptxas_LDADD = $(PTXOPT_LIBS)

## ptxopt-nvcc: a POSIX sh script, its install paths filled in at build time.
bin_SCRIPTS = ptxopt-nvcc
CLEANFILES += ptxopt-nvcc
EXTRA_DIST += tools/ptxopt-ptxas/ptxopt-nvcc.in
ptxopt-nvcc: $(srcdir)/tools/ptxopt-ptxas/ptxopt-nvcc.in Makefile
	$(AM_V_GEN)sed -e 's|@pkglibexecdir[@]|$(pkglibexecdir)|g' -e 's|@VERSION[@]|$(VERSION)|g' \
	  $(srcdir)/tools/ptxopt-ptxas/ptxopt-nvcc.in > $@.tmp && chmod +x $@.tmp && mv -f $@.tmp $@

## The wrapper is also installed as $(pkglibexecdir)/cuda/bin/ptxas, for
## tools that take ptxas from PATH or from a CUDA root's bin directory.
install-exec-hook:
	$(MKDIR_P) "$(DESTDIR)$(pkglibexecdir)/cuda/bin"
	$(INSTALL_PROGRAM) ptxopt-ptxas$(EXEEXT) "$(DESTDIR)$(pkglibexecdir)/cuda/bin/ptxas$(EXEEXT)"
uninstall-hook:
	rm -f "$(DESTDIR)$(pkglibexecdir)/cuda/bin/ptxas$(EXEEXT)"
	-rmdir "$(DESTDIR)$(pkglibexecdir)/cuda/bin" "$(DESTDIR)$(pkglibexecdir)/cuda" \
	  "$(DESTDIR)$(pkglibexecdir)" 2>/dev/null
