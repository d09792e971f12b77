## opt/local.mk — pass manager, remarks and passes (included by Makefile.am).
libptxopt_a_SOURCES += opt/pass.h opt/pipeline.c opt/registry.c opt/remarks.c opt/remarks.h opt/guard.c opt/guard.h opt/run.c opt/run.h opt/regtune.c opt/regtune.h opt/shuffle.c opt/shuffle.h opt/shuffle_emit.c opt/shuffle_lanes.c opt/shuffle_impl.h
