## ir/analysis.mk — analyses (owned by the analyses work; included by Makefile.am)
