## driver/tune.mk — the regtune pass's tuner program ptxopt-tune (included by Makefile.am)
