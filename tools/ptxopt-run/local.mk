## tools/ptxopt-run/local.mk — ptxopt-run, the GPU timing harness (included by Makefile.am).
## Built when configure finds cuda.h; it opens libcuda.so.1 at run time.
if HAVE_CUDA
bin_PROGRAMS += ptxopt-run
ptxopt_run_SOURCES = tools/ptxopt-run/main.c tools/common/cli.c tools/common/cli.h tools/ptxopt-run/gpu_driver.c tools/ptxopt-run/gpu_driver.h tools/ptxopt-run/gpu_bench.c tools/ptxopt-run/gpu_bench.h
ptxopt_run_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
ptxopt_run_LDADD = $(PTXOPT_LIBS)
man_MANS = man/ptxopt-run.1
endif
EXTRA_DIST += man/ptxopt-run.1

## A stand-in for the NVIDIA driver, so that the tests run ptxopt-run from
## end to end without a GPU (testsuite/run/, PTXOPT_LIBCUDA).
if HAVE_CUDA
check_PROGRAMS += testsuite/run/libcuda-mock.so
testsuite_run_libcuda_mock_so_SOURCES = testsuite/run/mock_cuda.c
testsuite_run_libcuda_mock_so_CPPFLAGS = $(CUDA_CPPFLAGS)
testsuite_run_libcuda_mock_so_CFLAGS = $(AM_CFLAGS) -fPIC
testsuite_run_libcuda_mock_so_LDFLAGS = -shared
endif

## make bench-gpu: the shuffle and regtune passes timed on the GPU with
## ptxopt-run (bench/gpu/gpu_bench.py; needs an NVIDIA driver and a GPU,
## so it is not part of `make bench`).
if HAVE_CUDA
bench-gpu: ptxopt$(EXEEXT) ptxopt-run$(EXEEXT) ptxopt-tune$(EXEEXT)
	@$(PYTHON) $(srcdir)/bench/gpu/gpu_bench.py --ptxopt=$(abs_top_builddir)/ptxopt$(EXEEXT) \
	  --run=$(abs_top_builddir)/ptxopt-run$(EXEEXT) --tune=$(abs_top_builddir)/ptxopt-tune$(EXEEXT) \
	  --srcdir=$(abs_top_srcdir)
endif
.PHONY: bench-gpu
EXTRA_DIST += bench/gpu/gpu_bench.py
