## man/local.mk — sources of man/ (included by Makefile.am)
