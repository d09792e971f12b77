## man/local.mk — manual pages (included by Makefile.am).
dist_man_MANS += man/ptxopt.1 man/ptxopt-passes.7 man/ptxopt-ptxas.1 man/ptxopt-nvcc.1
