## model/local.mk — per-architecture limits, occupancy, critical points and
## the cost model (included by Makefile.am).  model/ needs nothing else of
## ptxopt, so its tests list the model sources directly and build even when
## the rest of the library does not.

MODEL_CORE = model/arch.c model/arch.h model/arch_data.c \
	model/occupancy.c model/occupancy.h model/critical.c model/critical.h
MODEL_CACHE = model/cache.c model/cache.h
MODEL_COST = model/costmodel.c model/costmodel.h model/cost_data.c model/neighbour.c model/neighbour.h

libptxopt_a_SOURCES += model/model.h $(MODEL_CORE) $(MODEL_COST) $(MODEL_CACHE)

check_PROGRAMS += testsuite/unit/test_occupancy testsuite/unit/test_critical testsuite/unit/test_costmodel testsuite/unit/test_cachegeom
testsuite_unit_test_occupancy_SOURCES = testsuite/unit/test_occupancy.c $(MODEL_CORE)
testsuite_unit_test_occupancy_LDADD = -lm
testsuite_unit_test_critical_SOURCES = testsuite/unit/test_critical.c $(MODEL_CORE)
testsuite_unit_test_critical_LDADD = -lm
testsuite_unit_test_costmodel_SOURCES = testsuite/unit/test_costmodel.c $(MODEL_CORE) $(MODEL_COST)
testsuite_unit_test_costmodel_LDADD = -lm
testsuite_unit_test_cachegeom_SOURCES = testsuite/unit/test_cachegeom.c $(MODEL_CORE) $(MODEL_CACHE)
