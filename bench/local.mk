## bench/local.mk — sources of bench/ (included by Makefile.am)
