## tools/ptxopt-model-query/local.mk — the model's command-line face (see
## man/ptxopt-model-query.1; included by Makefile.am).  It needs only the
## core of model/, so it lists those sources (as the model's unit tests do).
bin_PROGRAMS += ptxopt-model-query
ptxopt_model_query_SOURCES = tools/ptxopt-model-query/main.c $(MODEL_CORE)
dist_man_MANS += man/ptxopt-model-query.1
