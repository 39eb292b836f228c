# ptxrun: a PTX assembler-and-executor: warps, blocks and grids.
#   make            build build/ptxrun
#   make check      unit tests (libcheck), command-line tests, the kernel corpus, fuzz regressions
#   make demo       check and dump a sample
#   make bench      executor, front-end, lanes-reader and mma GEMM speed, memory, many small launches
#   make fuzz       build the fuzz targets (clang, libFuzzer); FUZZ_SECONDS=N runs each N s
#   make lib        build/lib/libptxrun.so and .a, the C library (api/ptxrun.h, docs/library.md)
#   make valgrind   samples, kernels and the library's tests under memcheck;  make fault-tests: allocation failures
#   make deps       install the Debian packages the build needs
#   make tsan-tests the library's tests on 8 threads under ThreadSanitizer (build/tsan), and the CUDA libraries under 8 host threads
#   make python     install the Python package ptxrun (python/, docs/python.md) with pip, offline
# SANITIZE=1 builds with ASan and UBSan into build/san; TSAN=1 with ThreadSanitizer into build/tsan;
# WERROR=1 makes warnings errors.

CC      ?= cc
RE2C    ?= re2c
BISON   ?= bison
PREFIX  ?= /usr/local

BUILD   := build
ifeq ($(FAULT_INJECTION),1)
BUILD   := build/fi
FIFLAGS := -DPTXRUN_FAULT_INJECTION
endif
ifeq ($(TSAN),1)
BUILD   := build/tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
endif
ifeq ($(SANITIZE),1)
BUILD   := build/san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

WARN    := -Wall -Wextra -pedantic -Wshadow -Wstrict-prototypes
CFLAGS  ?= -O3 -g
ifeq ($(WERROR),1)
WARN    += -Werror
endif
# -ffp-contract=off: never fuse a * b + c into one rounding; each PTX instruction rounds as it says.
# -fPIC -fvisibility=hidden: one set of objects serves the program and libptxrun.so, which exports
# only what api/ptxrun.h marks PTXRUN_API.
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -ffp-contract=off -fPIC -fvisibility=hidden $(WARN) $(CFLAGS) $(SANFLAGS) $(FIFLAGS) -Ilexer -Iparser -Iexec -Iapi -Icuda -Icli -I$(BUILD)
LDLIBS  := $(shell pkg-config --libs jansson 2>/dev/null || echo -ljansson) -lm -pthread

CHECK_CFLAGS := $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   := $(shell pkg-config --libs check 2>/dev/null)

# The library: everything but main.c, room by room in pipeline order (docs/architecture.md):
# lexer/ -> parser/ -> exec/ -> api/ -> cuda/ -> cli/, each using only the rooms before it.
LEXER_SRC  := lexer/util.c lexer/pages.c lexer/arena.c lexer/intern.c lexer/source.c lexer/diag.c $(BUILD)/lexer.c
PARSER_SRC := $(BUILD)/parser.c parser/streamparse.c parser/quick.c parser/parse.c parser/ops.c parser/decode.c parser/checkop.c parser/labels.c parser/check.c \
              parser/suffixes.c parser/ir.c parser/cexpr.c parser/opaque.c parser/perf.c \
              parser/initshape.c
EXEC_SRC   := exec/slab.c exec/kernels.c exec/vbits.c exec/layout.c exec/cfg.c exec/operand.c exec/callsite.c exec/lower.c exec/contract.c exec/lowercheck.c exec/bounds.c exec/mem.c exec/gridtrack.c exec/atomic.c exec/multimem.c exec/tensormap.c exec/bulk.c exec/report.c exec/alu.c exec/pack.c exec/wide.c exec/atom128.c exec/bitops.c exec/video.c exec/surface.c exec/sample.c exec/texture.c \
              exec/mathops.c exec/approx.c exec/half.c exec/fold.c exec/convert.c exec/format.c exec/warpops.c exec/mma.c exec/mma884.c exec/mmasp.c exec/mmafloat.c exec/mmafp8.c exec/wmma.c exec/wmmalayout.c exec/wgmma.c exec/wgmmadesc.c exec/mmaview.c exec/mmasource.c exec/matrix.c exec/barrier.c exec/sync.c \
               exec/asyncwrite.c exec/async.c exec/mbarrier.c exec/call.c exec/builtin.c exec/tracefrag.c exec/trace.c exec/warp.c exec/spin.c exec/block.c exec/blockcopy.c exec/ahead.c exec/gang.c exec/cluster.c exec/clusterasync.c exec/grid.c
API_SRC    := api/demangle.c api/kernelname.c api/reach.c api/apidiag.c api/hostmem.c api/library.c api/apilaunch.c api/ocelot.c
# cuda/: what the CUDA runtime and driver shims need; fatbin.c needs libzstd, linked only by what uses it.
CUDA_SRC   := cuda/fatbin.c
# The driver API shim (libcuda.so.1): libptxrun's objects, fatbin.c and these (docs/cuda.md).
DRV_SRC    := cuda/drvsettings.c cuda/drvstate.c cuda/drverror.c cuda/drvdevice.c cuda/drvmem.c cuda/drvmodule.c \
              cuda/drvlaunch.c cuda/drvstream.c cuda/drvctx.c cuda/drvnames.c cuda/drvtex.c cuda/drvtmap.c
DRV_OBJ    := $(patsubst %.c,$(BUILD)/obj/%.o,$(notdir $(DRV_SRC)))
CUDA_LIBS  := $(BUILD)/cuda/libcuda.so.1
ZSTD_LIBS  := $(shell pkg-config --libs libzstd 2>/dev/null || echo -lzstd)
CLI_SRC    := cli/jsonread.c cli/values.c cli/images.c cli/imageinit.c cli/npy.c cli/launch.c cli/lanes.c cli/tmapjson.c cli/b128.c cli/dump.c cli/expect.c cli/srcline.c cli/matview.c cli/progress.c cli/checkstream.c cli/entry.c cli/runstream.c cli/driver.c cli/testrun.c cli/testfind.c cli/testreport.c cli/testshard.c cli/exec.c
LIB_SRC := $(LEXER_SRC) $(PARSER_SRC) $(EXEC_SRC) $(API_SRC) $(CUDA_SRC) $(CLI_SRC)
# The public library: the rooms up to api/, nothing of cli/.
PUB_SRC := $(LEXER_SRC) $(PARSER_SRC) $(EXEC_SRC) $(API_SRC)
PUB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(notdir $(PUB_SRC)))
PUB_LIBS := $(BUILD)/lib/libptxrun.so $(BUILD)/lib/libptxrun.a
LIB_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(notdir $(LIB_SRC)))
HEADERS := lexer/lexer.h parser/ir.h parser/parse.h parser/checker.h parser/ops.def parser/types.def parser/mods.def parser/sregs.def \
           exec/exec.h exec/memory.h exec/program.h exec/block.h exec/family.h exec/tensor.h exec/kernels_body.h exec/mufu_fits.h exec/mufu_tanh.h \
           api/ptxrun.h api/api.h cuda/cuda.h cuda/cudrv.h cli/cli.h $(BUILD)/parser.h \
           $(BUILD)/parser_stream.c

FUZZERS := fuzz_frontend fuzz_pipeline fuzz_lanes

TESTS   := check_lexer check_parser check_checker check_diag check_roundtrip check_exec check_video check_math check_half \
           check_kernels check_builtin check_jsonread check_stream check_demangle check_mma check_mma884 check_mmasp check_mmafloat check_mmafp8 check_matrix check_matview check_launch check_api check_fatbin check_cudrv check_cudrvtmap check_tensormap
TEST_BIN := $(addprefix $(BUILD)/tests/,$(TESTS))

.PHONY: tsan-tests lib-example python python-tests python-valgrind
.PHONY: all lib check structure bench-builds approx-tables unit-tests cli-tests kernel-tests fuzz-regressions valgrind fault-tests demo bench fuzz install clean deps docs

all: $(BUILD)/ptxrun $(PUB_LIBS) $(CUDA_LIBS)

# The CUDA shims alone: make cuda
.PHONY: cuda
cuda: $(CUDA_LIBS)

deps:
	sh scripts/deps.sh

$(BUILD)/parser.c $(BUILD)/parser.h &: parser/parser.y
	@mkdir -p $(BUILD)
	$(BISON) -Wall -Werror --defines=$(BUILD)/parser.h -o $(BUILD)/parser.c $<

# The same grammar without LAC, for streaming (parser/streamparse.c includes it).
$(BUILD)/parser_stream.c $(BUILD)/parser_stream.h &: parser/parser.y
	@mkdir -p $(BUILD)
	$(BISON) -Wall -Werror -Fparse.lac=none --defines=$(BUILD)/parser_stream.h -o $(BUILD)/parser_stream.c $<

$(BUILD)/lexer.c: lexer/lexer.re $(BUILD)/parser.h
	@mkdir -p $(BUILD)
	$(RE2C) -W -Werror --no-generation-date -o $@ $<

vpath %.c lexer parser exec api cuda cli
$(BUILD)/obj/%.o: %.c $(HEADERS)
	@mkdir -p $(BUILD)/obj
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/obj/%.o: $(BUILD)/%.c $(HEADERS)
	@mkdir -p $(BUILD)/obj
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# approx.c includes the generated coefficient tables.
$(BUILD)/obj/approx.o: exec/mufu_fits.h exec/mufu_tanh.h

# Instructions with .rz/.rm/.rp switch the host's rounding mode around the operation.
$(BUILD)/obj/alu.o $(BUILD)/obj/convert.o $(BUILD)/obj/mathops.o: ALL_CFLAGS += -frounding-math

# Everything but main.c, for the program, the tests and the benchmarks (every internal name).
$(BUILD)/libptxrun.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/ptxrun: $(BUILD)/obj/main.o $(BUILD)/libptxrun.a
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDLIBS)

# libptxrun for other programs: api/ptxrun.h's names and nothing else. The shared library hides the
# rest by visibility; the static one is one object, linked from the same objects, whose hidden
# names are made local.
lib: $(PUB_LIBS)

# libptxrun.so.1 is the file (its soname: what a program linked against it loads), libptxrun.so the
# link to it that -lptxrun and OCELOT_PATH find.
$(BUILD)/lib/libptxrun.so: $(PUB_OBJ)
	@mkdir -p $(BUILD)/lib
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libptxrun.so.1 -Wl,--no-undefined -o $(BUILD)/lib/libptxrun.so.1 $^ -lm -pthread
	ln -sf libptxrun.so.1 $@

$(BUILD)/lib/libptxrun.a: $(PUB_OBJ)
	@mkdir -p $(BUILD)/lib
	$(LD) -r -o $(BUILD)/lib/ptxrun.o $^
	objcopy --localize-hidden $(BUILD)/lib/ptxrun.o
	rm -f $@
	ar rcs $@ $(BUILD)/lib/ptxrun.o && rm -f $(BUILD)/lib/ptxrun.o

$(BUILD)/tests/%: tests/%.c tests/testutil.h $(BUILD)/libptxrun.a $(HEADERS)
	@mkdir -p $(BUILD)/tests
	$(CC) $(ALL_CFLAGS) $(CHECK_CFLAGS) -o $@ $< $(BUILD)/libptxrun.a $(CHECK_LIBS) $(LDLIBS)

# check_fatbin reads fatbinaries, zstd-compressed ones too.
$(BUILD)/tests/check_fatbin: LDLIBS += $(ZSTD_LIBS)

# libcuda.so.1, the CUDA driver API (cuda/drv*.c) over libptxrun's objects: only the cu* names
# (and ptxrunCuda*) of cuda/libcuda.map are exported, with no version node (as NVIDIA's).
$(BUILD)/cuda/libcuda.so.1: $(PUB_OBJ) $(BUILD)/obj/fatbin.o $(DRV_OBJ) cuda/libcuda.map
	@mkdir -p $(BUILD)/cuda
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libcuda.so.1 -Wl,--version-script=cuda/libcuda.map -Wl,--no-undefined \
	    -o $@ $(filter %.o,$^) $(ZSTD_LIBS) -lm -pthread

# check_cudrv and check_cudrvtmap use cudrv.h alone, linked against libcuda.so.1 (found by its RPATH).
$(BUILD)/tests/check_cudrv $(BUILD)/tests/check_cudrvtmap: $(BUILD)/tests/%: tests/%.c tests/drvtest.h cuda/cudrv.h $(BUILD)/cuda/libcuda.so.1
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) $(SANFLAGS) $(CHECK_CFLAGS) -Icuda -o $@ $< \
	    -L$(BUILD)/cuda -l:libcuda.so.1 -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/../cuda' $(CHECK_LIBS) -lm -pthread

# Driver API programs built with CUDA's own cuda.h (tests/cudrv/regen.sh: the _v2/_v4 names and
# structure layouts it compiles to), run against libcuda.so.1; no CUDA needed. A SANITIZE=1 library
# needs the ASan runtime first in the (uninstrumented) programs.
CUDRV_ENV := $(if $(filter 1,$(SANITIZE)),LD_PRELOAD=$(shell $(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0)
.PHONY: cudrv-abi
cudrv-abi: $(BUILD)/cuda/libcuda.so.1
	@$(CUDRV_ENV) sh tests/cudrv/run.sh $(BUILD)/cuda

# check_api uses ptxrun.h alone, linked against the public static library: what it exports is enough.
$(BUILD)/tests/check_api: tests/check_api.c api/ptxrun.h $(BUILD)/lib/libptxrun.a
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) $(SANFLAGS) $(CHECK_CFLAGS) -Iapi -o $@ $< \
	    $(BUILD)/lib/libptxrun.a $(CHECK_LIBS) -lm -pthread

# libcudart.so.13 and libcudart.so.12, the CUDA runtime (cuda/rt*.c) on libcuda.so.1's driver API
# alone (DT_NEEDED libcuda.so.1, found beside it through RUNPATH $ORIGIN): the same objects, each
# with its soname, version node (cuda/libcudart.map; .12's made from it by sed) and rtversion.c.
RT_SRC  := cuda/rterror.c cuda/rtstate.c cuda/rtregister.c cuda/rtlaunch.c cuda/rtmemory.c cuda/rtcopy.c \
           cuda/rtdevice.c cuda/rtprops.c cuda/rtstream.c cuda/rtunsupported.c cuda/rttex.c
# graphs, stream capture, stream-ordered memory, stream attributes (helper G's block)
RT_SRC  += cuda/rtgraph.c cuda/rtgraphedit.c cuda/rtgraphexec.c cuda/rtcapture.c cuda/rtpool.c cuda/rtstreamattr.c
RT_OBJ  := $(patsubst %.c,$(BUILD)/obj/%.o,$(notdir $(RT_SRC)))
RT_HEADERS := cuda/cudart.h cuda/rt.h cuda/rterrors.def cuda/cudrv.h cuda/rtgraph.h
RT_LIBS := $(BUILD)/cuda/libcudart.so.13 $(BUILD)/cuda/libcudart.so.12
TEST_BIN += $(BUILD)/tests/check_cudart $(BUILD)/tests/check_cudatex
TEST_BIN += $(BUILD)/tests/check_cudagraph

all: $(RT_LIBS)
cuda: $(RT_LIBS)

# the driver's private calls for the runtime (ptxrunCuda*)
$(BUILD)/cuda/libcuda.so.1: $(BUILD)/obj/drvhook.o

$(RT_OBJ): $(RT_HEADERS)

$(BUILD)/obj/rtversion13.o $(BUILD)/obj/rtversion12.o: $(BUILD)/obj/rtversion%.o: cuda/rtversion.c $(RT_HEADERS)
	@mkdir -p $(BUILD)/obj
	$(CC) $(ALL_CFLAGS) -DRT_CUDART_VERSION=$(if $(filter 13,$*),13000,12080) -c -o $@ $<

$(BUILD)/cuda/libcudart12.map: cuda/libcudart.map
	@mkdir -p $(BUILD)/cuda
	sed 's/libcudart\.so\.13/libcudart.so.12/; s/cudaGetDeviceProperties_v2;/cudaGetDeviceProperties;/' $< > $@

$(BUILD)/cuda/libcudart.so.13: MAP := cuda/libcudart.map
$(BUILD)/cuda/libcudart.so.12: MAP := $(BUILD)/cuda/libcudart12.map
$(BUILD)/cuda/libcudart.so.%: $(RT_OBJ) $(BUILD)/obj/rtversion%.o cuda/libcudart.map $(BUILD)/cuda/libcudart12.map \
                              $(BUILD)/cuda/libcuda.so.1
	$(CC) $(ALL_CFLAGS) -shared -Wl,-soname,libcudart.so.$* -Wl,--version-script=$(MAP) -Wl,--no-undefined \
	    -Wl,--enable-new-dtags,-rpath,'$$ORIGIN' -o $@ $(filter %.o,$^) -L$(BUILD)/cuda -l:libcuda.so.1 -pthread

# check_cudatex uses cudart.h and cudrv.h alone, linked against libcudart.so.13 and libcuda.so.1.
$(BUILD)/tests/check_cudatex: tests/check_cudatex.c tests/drvtest.h cuda/cudart.h cuda/cudrv.h $(RT_LIBS)
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) $(SANFLAGS) $(CHECK_CFLAGS) -Icuda -o $@ $< \
	    -L$(BUILD)/cuda -l:libcudart.so.13 -l:libcuda.so.1 -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/../cuda' \
	    $(CHECK_LIBS) -lm -pthread

# The runtime's tests in one process under memcheck (a faulting test resets the device).
.PHONY: cudart-valgrind
valgrind: cudart-valgrind
cudart-valgrind: $(BUILD)/tests/check_cudart
	CK_FORK=no PTXRUN_ROOT=$(CURDIR) valgrind --quiet --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect $(BUILD)/tests/check_cudart

# check_cudart uses cudart.h alone, linked against libcudart.so.13 (found by its RPATH), and registers
# tests/cudart/kernels.fatbin by hand as nvcc's code would.
$(BUILD)/tests/check_cudart: tests/check_cudart.c cuda/cudart.h cuda/rterrors.def tests/cudart/exports.sh $(RT_LIBS)
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) $(SANFLAGS) $(CHECK_CFLAGS) -Icuda -o $@ $< \
	    -L$(BUILD)/cuda -l:libcudart.so.13 -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/../cuda' $(CHECK_LIBS) -ldl -lm -pthread
	@sh tests/cudart/exports.sh $(BUILD)/cuda

# check_cudagraph: graphs, capture and pools (helper G's block), as check_cudart is built;
# under memcheck in one process too.
.PHONY: cudagraph-valgrind
valgrind: cudagraph-valgrind
cudagraph-valgrind: $(BUILD)/tests/check_cudagraph
	CK_FORK=no PTXRUN_ROOT=$(CURDIR) valgrind --quiet --error-exitcode=99 --leak-check=full \
	    --errors-for-leak-kinds=definite,indirect $(BUILD)/tests/check_cudagraph

$(BUILD)/tests/check_cudagraph: tests/check_cudagraph.c cuda/cudart.h cuda/rterrors.def tests/cudagraph/conditional.fatbin $(RT_LIBS)
	@mkdir -p $(BUILD)/tests
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L $(WARN) $(CFLAGS) $(SANFLAGS) $(CHECK_CFLAGS) -Icuda -o $@ $< \
	    -L$(BUILD)/cuda -l:libcudart.so.13 -Wl,--disable-new-dtags,-rpath,'$$ORIGIN/../cuda' $(CHECK_LIBS) -ldl -lm -pthread

check: structure unit-tests cli-tests kernel-tests fuzz-regressions bench-builds lib-example python-tests cudrv-abi

# docs/library.md's worked example compiled against libptxrun.so and run; the man page
# libptxrun(3) against ptxrun.h; the libraries' exports against ptxrun.h.
lib-example: $(BUILD)/lib/libptxrun.so $(BUILD)/lib/libptxrun.a
	@python3 tests/library_example.py docs/library.md $(BUILD)/lib $(CC) $(SANFLAGS)

# The benchmarks are not run by check (they print figures), but they must keep building.
bench-builds: $(BUILD)/bench_frontend $(BUILD)/bench_exec $(BUILD)/bench_lanes $(BUILD)/bench_entry $(BUILD)/bench_gemm \
              $(BUILD)/bench_launch $(BUILD)/bench_coop

# The shape docs/architecture.md describes: file sizes, no loop of calls between files.
structure:
	python3 scripts/structure.py lexer parser exec api cuda cli

unit-tests: $(TEST_BIN)
	@set -e; for t in $(TEST_BIN); do echo "== $$t"; \
	    PTXRUN_ROOT=$(CURDIR) $$t 2>$(BUILD)/unit.err || { cat $(BUILD)/unit.err; exit 1; }; \
	    cat $(BUILD)/unit.err; \
	    if grep -q 'internal error' $(BUILD)/unit.err; then echo "$$t: an internal error in its log"; exit 1; fi; \
	done

# The README's tour links a program against build/lib/libptxrun.a: the plain build's, made here
# when another build (SANITIZE=1) runs the tour (a prerequisite too, so that make -j never makes it
# twice at once).
# Its CUDA step runs a committed program through `ptxrun exec` on the plain build's CUDA libraries
# (a program nvcc built cannot load sanitized ones without their runtime preloaded), prerequisites
# too for the same reason.
cli-tests: $(BUILD)/ptxrun $(BUILD)/lib/libptxrun.a $(BUILD)/cuda/libcuda.so.1 $(BUILD)/cuda/libcudart.so.13
	@PTXRUN=$(BUILD)/ptxrun sh tests/cli.sh
	@$(MAKE) --no-print-directory SANITIZE= TSAN= FAULT_INJECTION= build/lib/libptxrun.a build/cuda/libcuda.so.1 \
	    build/cuda/libcudart.so.13 >/dev/null
	@PTXRUN_CUDA_LIB=$(CURDIR)/build/cuda python3 tests/readme_tour.py README.md $(BUILD)

# The CUDA programs of tests/cuda (nvcc's binaries, committed; each checks itself) on the CUDA
# libraries, by tests/cuda/run.sh against their expect files; where nvcc is, a few are built again
# from their sources into $(BUILD)/cuda-tests and run the same way. SANITIZE=1: the libraries'
# sanitizer runtime preloaded into each program (leaks not looked for: valgrind does that).
NVCC ?= /usr/local/cuda/bin/nvcc
CUDA_REBUILT := vecadd printf oob drvapi
ifeq ($(SANITIZE),1)
CUDA_TEST_ENV := CUDA_TEST_PRELOAD=$(shell $(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
endif
.PHONY: cuda-tests cuda-valgrind
check: cuda-tests
cuda-tests: $(CUDA_LIBS) $(RT_LIBS) $(BUILD)/ptxrun
	@$(CUDA_TEST_ENV) sh tests/cuda/run.sh -l $(BUILD)/cuda -p $(BUILD)/ptxrun
	@if [ -x $(NVCC) ]; then \
	    sh tests/cuda/regen.sh $(NVCC) $(BUILD)/cuda-tests $(CUDA_REBUILT) && \
	    $(CUDA_TEST_ENV) sh tests/cuda/run.sh -b $(BUILD)/cuda-tests -l $(BUILD)/cuda -p $(BUILD)/ptxrun $(CUDA_REBUILT); \
	else echo "cuda-tests: $(NVCC) is not here: the committed programs ran, none was built again from its source"; fi

# threads.cu (8 host threads using CUDA at once) on ThreadSanitizer builds of the libraries: any
# report fails it. Part of make tsan-tests.
.PHONY: cuda-tsan
tsan-tests: cuda-tsan
cuda-tsan:
	$(MAKE) TSAN=1 build/tsan/cuda/libcuda.so.1 build/tsan/cuda/libcudart.so.13
	@CUDA_TEST_PRELOAD=$(shell $(CC) -print-file-name=libtsan.so) TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
	    sh tests/cuda/run.sh -l build/tsan/cuda threads streams

# A few of them under memcheck: no error in the libraries, nothing definitely lost.
CUDA_VALGRIND := vecadd reduce symbols memory streams printf oob fault assert uninit notsupported drvapi
cuda-valgrind: $(CUDA_LIBS) $(RT_LIBS) $(BUILD)/ptxrun
	@CUDA_TEST_WRAP="valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite" \
	    sh tests/cuda/run.sh -l $(BUILD)/cuda -p $(BUILD)/ptxrun $(CUDA_VALGRIND)

# The fuzz targets without libFuzzer, on the committed seeds and on every input that once
# crashed, hung or leaked (tests/fuzz/regressions/<target>/): a normal (or SANITIZE=1) build.
REPLAY_BIN := $(addprefix $(BUILD)/replay/,$(FUZZERS))

$(BUILD)/replay/%: tests/fuzz/%.c tests/fuzz/replay.c $(BUILD)/libptxrun.a $(HEADERS)
	@mkdir -p $(BUILD)/replay
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/fuzz/replay.c $(BUILD)/libptxrun.a $(LDLIBS)

fuzz-regressions: $(REPLAY_BIN)
	@set -e; for f in $(FUZZERS); do \
	    case $$f in fuzz_lanes) seeds=tests/fuzz/seeds/lanes ;; *) seeds=tests/fuzz/seeds/ptx ;; esac; \
	    $(BUILD)/replay/$$f $$seeds tests/fuzz/regressions/$$f; \
	done

# ptxrun's .approx models against every entry of the H100's dense tables (when they are here).
# mufu_fit rebuilds exec/mufu_fits.h from them: build/mufu_fit ../shared/hw/approx > exec/mufu_fits.h,
# tanh_fit exec/mufu_tanh.h: build/tanh_fit ../shared/hw/approx > exec/mufu_tanh.h
APPROX_DIR ?= ../shared/hw/approx

$(BUILD)/approx_tables: tests/approx/approx_tables.c tests/approx/tables.h $(BUILD)/libptxrun.a $(HEADERS)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/libptxrun.a $(LDLIBS)

$(BUILD)/mufu_fit: tests/approx/mufu_fit.c tests/approx/tables.h
	$(CC) $(ALL_CFLAGS) -o $@ $< -lm

$(BUILD)/tanh_fit: tests/approx/tanh_fit.c tests/approx/tables.h
	$(CC) $(ALL_CFLAGS) -o $@ $< -lm

approx-tables: $(BUILD)/approx_tables
	@if [ -d $(APPROX_DIR) ]; then $(BUILD)/approx_tables $(APPROX_DIR); \
	else echo "approx-tables: skipped ($(APPROX_DIR) is not here)"; fi

# The library's tests (tests/check_api.c) in a ThreadSanitizer build of its own: 8 threads launching
# one module's kernel at once, 8 loading and lowering at once, ptx_run's cache from 8 threads; then
# the rest of the suite on one thread. Any report fails it.
tsan-tests:
	$(MAKE) TSAN=1 build/tsan/tests/check_api
	CK_FORK=no TSAN_OPTIONS="halt_on_error=1 exitcode=66 second_deadlock_stack=1" PTXRUN_ROOT=$(CURDIR) \
	    build/tsan/tests/check_api

# The Python package (python/, docs/python.md): ctypes over $(BUILD)/lib/libptxrun.so. Debian's
# python3 has numpy and pytest from make deps; a python3 earlier on the PATH may not.
PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
PIP_FLAGS ?=
PYTHON_ENV := PYTHONPATH=$(CURDIR)/python PTXRUN_LIBRARY=$(CURDIR)/$(BUILD)/lib/libptxrun.so PYTHONDONTWRITEBYTECODE=1
PYTEST := -m pytest -q -p no:cacheprovider
# SANITIZE=1: the interpreter is not built with ASan, so its runtime is preloaded for the library's
# (leaks are not looked for: the interpreter keeps its own objects at exit).
ifeq ($(SANITIZE),1)
PYTHON_ENV += LD_PRELOAD=$(shell $(CC) -print-file-name=libasan.so) ASAN_OPTIONS=detect_leaks=0
endif
PYTHON_NEEDS = @$(PYTHON) -c 'import numpy, pytest' 2>/dev/null || { \
	    echo "python-tests: $(PYTHON) cannot import numpy and pytest: run make deps (python3-numpy, python3-pytest)," \
	         "or name a Python that has them: make PYTHON=..."; exit 1; }

# pip install, offline (Debian's setuptools, no build isolation); the package gets the library's
# copy. Debian's own python3 refuses pip installs (PEP 668): use a venv (python3 -m venv
# --system-site-packages .venv; make python PYTHON=.venv/bin/python) or PIP_FLAGS=--user or --target DIR.
python: $(BUILD)/lib/libptxrun.so
	PTXRUN_LIBRARY=$(CURDIR)/$(BUILD)/lib/libptxrun.so $(PYTHON) -m pip install --no-build-isolation --no-deps \
	    --no-index $(PIP_FLAGS) ./python

python-tests: $(BUILD)/lib/libptxrun.so
	$(PYTHON_NEEDS)
	$(PYTHON_ENV) $(PYTHON) $(PYTEST) python/tests

# A few of the tests under valgrind's memcheck (the interpreter's own allocator off): no errors in
# the library or the module. Leaks are not counted: the interpreter keeps its objects at exit.
PYTHON_VALGRIND_TESTS := python/tests/test_launch.py::test_saxpy_against_numpy \
    python/tests/test_results.py::test_undefined_mask_from_a_register \
    python/tests/test_results.py::test_fault_carries_the_ptx_line \
    python/tests/test_results.py::test_parse_error_gives_line_and_column \
    python/tests/test_nvcc.py::test_printf_text python/tests/test_params.py::test_struct_parameter_from_numpy_and_bytes
python-valgrind: $(BUILD)/lib/libptxrun.so
	$(PYTHON_NEEDS)
	$(PYTHON_ENV) PYTHONMALLOC=malloc valgrind --quiet --error-exitcode=99 --leak-check=no \
	    $(PYTHON) $(PYTEST) $(PYTHON_VALGRIND_TESTS)

# Every allocation failing in turn, in a build of its own.
fault-tests:
	$(MAKE) FAULT_INJECTION=1 build/fi/ptxrun
	@PTXRUN=build/fi/ptxrun sh tests/fault_injection.sh

# Every sample and corpus kernel under valgrind's memcheck: no errors, no leaks; then the library's
# tests (tests/check_api.c, its threads included) in one process, and a few Python tests.
valgrind: $(BUILD)/ptxrun $(BUILD)/tests/check_api $(BUILD)/tests/check_cudrv $(BUILD)/tests/check_cudrvtmap $(BUILD)/tests/check_cudatex python-valgrind cuda-valgrind
	@PTXRUN=$(BUILD)/ptxrun sh tests/valgrind.sh
	CK_FORK=no PTXRUN_ROOT=$(CURDIR) valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=all \
	    --show-leak-kinds=all $(BUILD)/tests/check_api
	@# the driver's tests each in a process of its own (the driver's state is the process's): what a test
	@# leaves made is freed or still reachable from that state at its exit, never lost
	PTXRUN_ROOT=$(CURDIR) valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	    --trace-children=no $(BUILD)/tests/check_cudrv
	PTXRUN_ROOT=$(CURDIR) valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	    --trace-children=no $(BUILD)/tests/check_cudatex
	PTXRUN_ROOT=$(CURDIR) valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
	    --trace-children=no $(BUILD)/tests/check_cudrvtmap

# The samples, and the nvcc kernels of tests/kernels against their C references
# (regenerate those with tests/kernels/regen.sh), through ptxrun's own test runner; then the
# atomics, bar.red and fp8/tf32 cases recorded on an H100, cases2/ (integer forms, vector
# atomics and warp groups recorded later) and cases3/ (carry chains, half compares and
# conversions; tests/h100_more/README.md; its disagree/ folder, which ptxrun does not reproduce
# yet, is not run). tests/entry runs a kernel of nvcc's templates named in the expect file by
# its C++ name (tests/entry/regen.sh). tests/corpus: whole GEMMs on the asynchronous machinery (its README.md).
kernel-tests: $(BUILD)/ptxrun
	$(BUILD)/ptxrun test samples tests/kernels tests/gang tests/h100 tests/memory tests/definedness tests/forms tests/misc tests/images tests/entry tests/wmma tests/wgmma tests/bulk tests/cluster tests/async tests/corpus
	$(BUILD)/ptxrun test --differs tests/h100_more/differs.txt tests/h100_more/cases
	$(BUILD)/ptxrun test tests/h100_more/cases2
	$(BUILD)/ptxrun test tests/h100_more/cases3
	$(BUILD)/ptxrun test tests/h100_more/printf_hh

# The cases recorded on an H100: the selection in tests/hw, then the full set in ../shared/hw
# when it is there (not approx/, which holds tables). Cases listed in tests/hw/not-yet.txt pass
# while ptxrun refuses them; those in tests/hw/differs.txt (results of .approx instructions not
# yet bit for bit, NaN choices ptxas makes) pass within the tolerance listed there; each folder's
# failures go to build/hw-tests/. hw-select regenerates the selection (one-instruction cases cut
# from ../shared/hw, and whole cases; it checks what it wrote against ../shared/hw), hw-not-yet
# and hw-differs the two lists (scripts/hw_select.py, scripts/hw_differs.py).
HW_SHARED ?= ../shared/hw
HW_JOBS   ?= 2
.PHONY: hw-tests hw-select hw-not-yet hw-differs
check: hw-tests approx-tables

hw-tests: $(BUILD)/ptxrun
	@rm -rf $(BUILD)/hw-tests; status=0; \
	for root in tests/hw $(wildcard $(HW_SHARED)); do \
	    logs=$(BUILD)/hw-tests/$$(printf '%s' "$$root" | tr -c 'A-Za-z0-9_' '_' | sed 's/^_*//'); \
	    mkdir -p $$logs; \
	    for dir in $$root/*/; do \
	        case $$dir in */approx/) continue ;; esac; \
	        log=$$logs/$$(basename $$dir).log; \
	        $(BUILD)/ptxrun test -j $(HW_JOBS) --not-yet tests/hw/not-yet.txt --differs tests/hw/differs.txt \
	            $$dir > $$log || status=1; \
	        printf '%-28s %s\n' "$$dir" "$$(tail -n 1 $$log)"; \
	    done; \
	    tail -q -n 1 $$logs/*.log | awk -v root=$$root '{ for (i = 2; i <= NF; i++) { w = $$i; sub(/,$$/, "", w); \
	            if (w == "passed") p += $$(i - 1); else if (w == "failed") f += $$(i - 1); \
	            else if (w == "unsupported") u += $$(i - 1); else if (w == "not") n += $$(i - 1); \
	            else if (w == "of") t += $$(i - 1) } } \
	        END { printf "%-28s %d passed, %d failed, %d unsupported, %d not yet executable, %d of them within a tolerance\n", \
	              root " (all)", p, f, u, n, t }'; \
	done; \
	if [ $$status -ne 0 ]; then echo "hw-tests: the failing cases are listed in $(BUILD)/hw-tests/*/*.log"; fi; \
	exit $$status

hw-select:
	python3 scripts/hw_select.py --from $(HW_SHARED)

hw-not-yet: $(BUILD)/ptxrun
	python3 scripts/hw_select.py --from $(HW_SHARED) --not-yet --ptxrun $(BUILD)/ptxrun --jobs $(HW_JOBS)

hw-differs: $(BUILD)/ptxrun
	python3 scripts/hw_differs.py --ptxrun $(BUILD)/ptxrun tests/hw $(wildcard $(HW_SHARED))

demo: $(BUILD)/ptxrun
	@echo '== samples/scan.ptx: an inclusive plus-scan across the warp'
	@cat samples/scan.ptx
	@echo '== ptxrun samples/scan.ptx --lanes samples/scan.lanes.json --expect samples/scan.expect.json'
	$(BUILD)/ptxrun samples/scan.ptx --lanes samples/scan.lanes.json --expect samples/scan.expect.json
	@echo '== a mistake, as ptxrun reports it'
	@printf 'shfl.sync.up.b32 Ry|p, Rx, 1, 0;\n' | $(BUILD)/ptxrun --check - || echo "== exit $$? (bad input), as expected"
	@echo '== a block of three warps whose barriers can never complete'
	@$(BUILD)/ptxrun tests/blocks/barrier_deadlock.ptx --lanes tests/blocks/barrier_deadlock.lanes.json --regs %r1 --threads 0,32,64 || echo "== exit $$? (an execution fault), as expected"

$(BUILD)/bench_frontend: bench/bench_frontend.c $(BUILD)/obj/bench_reference.o $(BUILD)/libptxrun.a $(HEADERS)
	$(CC) $(ALL_CFLAGS) -Ibench -o $@ $< $(BUILD)/obj/bench_reference.o $(BUILD)/libptxrun.a $(LDLIBS)

$(BUILD)/bench_entry: bench/bench_entry.c
	@mkdir -p $(BUILD)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDLIBS)

# Many small launches through libptxrun, linked as another program links it: ptxrun.h and the
# public static library alone.
$(BUILD)/bench_launch: bench/bench_launch.c $(BUILD)/obj/bench_reference.o $(BUILD)/lib/libptxrun.a api/ptxrun.h
	$(CC) $(ALL_CFLAGS) -Ibench -o $@ $< $(BUILD)/obj/bench_reference.o $(BUILD)/lib/libptxrun.a $(LDLIBS)

# CTAs that run together: 1,024 cooperative CTAs with grid.sync() against the same without (issue 37).
$(BUILD)/bench_coop: bench/bench_coop.c $(BUILD)/lib/libptxrun.a api/ptxrun.h
	$(CC) $(ALL_CFLAGS) -o $@ $< $(BUILD)/lib/libptxrun.a $(LDLIBS)

# bench_launch.py's Python: Debian's, which has NumPy.
BENCH_PYTHON ?= /usr/bin/python3

$(BUILD)/bench_lanes: bench/bench_lanes.c $(BUILD)/obj/bench_reference.o $(BUILD)/libptxrun.a $(HEADERS)
	$(CC) $(ALL_CFLAGS) -Ibench -o $@ $< $(BUILD)/obj/bench_reference.o $(BUILD)/libptxrun.a $(LDLIBS)

# The plain C reference is built as well as the host allows, apart from ptxrun's portable build.
$(BUILD)/obj/bench_reference.o: bench/reference.c bench/reference.h
	@mkdir -p $(BUILD)/obj
	$(CC) -std=c11 -D_POSIX_C_SOURCE=200809L -O2 -march=native -ffp-contract=off $(WARN) -c -o $@ $<

# What bench_exec and bench_gemm share: a program loaded into a block, run and timed.
$(BUILD)/obj/benchload.o: bench/benchload.c bench/benchload.h $(HEADERS)
	@mkdir -p $(BUILD)/obj
	$(CC) $(ALL_CFLAGS) -Ibench -c -o $@ $<

$(BUILD)/bench_exec: bench/bench_exec.c $(BUILD)/obj/bench_reference.o $(BUILD)/obj/benchload.o $(BUILD)/libptxrun.a $(HEADERS)
	$(CC) $(ALL_CFLAGS) -Ibench -o $@ $< $(BUILD)/obj/bench_reference.o $(BUILD)/obj/benchload.o $(BUILD)/libptxrun.a $(LDLIBS)

$(BUILD)/bench_gemm: bench/bench_gemm.c $(BUILD)/obj/bench_reference.o $(BUILD)/obj/benchload.o $(BUILD)/libptxrun.a $(HEADERS)
	$(CC) $(ALL_CFLAGS) -Ibench -o $@ $< $(BUILD)/obj/bench_reference.o $(BUILD)/obj/benchload.o $(BUILD)/libptxrun.a $(LDLIBS)

bench: $(BUILD)/bench_frontend $(BUILD)/bench_exec $(BUILD)/bench_lanes $(BUILD)/bench_entry $(BUILD)/bench_gemm $(BUILD)/ptxrun \
       $(BUILD)/bench_launch $(BUILD)/bench_coop $(BUILD)/lib/libptxrun.so
	$(BUILD)/bench_exec $(BUILD)/ptxrun samples
	$(BUILD)/bench_gemm
	$(BUILD)/bench_frontend $(BUILD)/bench_corpus.ptx $(BUILD)/ptxrun tests/ptx/nvcc/*.ptx
	$(BUILD)/bench_lanes $(BUILD)/bench_lanes.json
	$(BUILD)/bench_entry $(BUILD)/bench_entry.ptx $(BUILD)/ptxrun
	@sh bench/compare_ptxas.sh $(BUILD)/ptxrun $(BUILD)/bench_corpus.ptx
	$(BUILD)/bench_launch $(BUILD)/ptxrun tests/kernels/bitonic_sort.sm_90.ptx $(BUILD)
	$(BUILD)/bench_coop bench/coop_sync.ptx
	PYTHONPATH=python PTXRUN_LIBRARY=$(BUILD)/lib/libptxrun.so $(BENCH_PYTHON) bench/bench_launch.py
	PYTHONPATH=python PTXRUN_LIBRARY=$(BUILD)/lib/libptxrun.so $(BENCH_PYTHON) bench/bench_python.py

docs: $(BUILD)/ptxrun
	$(BUILD)/ptxrun --list-ops > docs/instructions.md

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 0
FUZZ_BIN := $(addprefix $(BUILD)/fuzz/,$(FUZZERS))

# The targets are linked from the sources, not the archive: cuda/ (and its libzstd) left out.
FUZZ_SRC := $(filter-out $(CUDA_SRC),$(LIB_SRC))
$(BUILD)/fuzz/%: tests/fuzz/%.c $(FUZZ_SRC) $(HEADERS)
	@mkdir -p $(BUILD)/fuzz
	$(FUZZ_CC) -std=c11 -D_POSIX_C_SOURCE=200809L -g -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=all -Ilexer -Iparser -Iexec -Iapi -Icuda -Icli -I$(BUILD) -o $@ $< $(FUZZ_SRC) $(LDLIBS)

# make fuzz: build the targets; FUZZ_SECONDS=N also runs each for N seconds. New inputs go to
# build/fuzz/corpus-*; the committed seeds (tests/fuzz/seeds) are only read.
fuzz: $(FUZZ_BIN)
	@set -e; if [ "$(FUZZ_SECONDS)" -gt 0 ]; then \
	    for f in $(FUZZERS); do \
	        case $$f in fuzz_lanes) seeds=tests/fuzz/seeds/lanes ;; *) seeds=tests/fuzz/seeds/ptx ;; esac; \
	        mkdir -p $(BUILD)/fuzz/corpus-$$f; \
	        echo "== $$f for $(FUZZ_SECONDS) s"; \
	        log=$(BUILD)/fuzz/$$f.log; \
	        if ! $(BUILD)/fuzz/$$f -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	            -artifact_prefix=$(BUILD)/fuzz/$$f- $(BUILD)/fuzz/corpus-$$f $$seeds tests/fuzz/regressions/$$f > $$log 2>&1; then \
	            tail -n 60 $$log; echo "$$f: FAILED (the input is in $(BUILD)/fuzz/$$f-*)"; exit 1; fi; \
	        grep -E '^(INFO: seed corpus|#[0-9]+ +DONE|Done)' $$log; \
	    done; \
	else echo "built: $(FUZZ_BIN) (make fuzz FUZZ_SECONDS=60 runs them)"; fi

install: $(BUILD)/ptxrun $(PUB_LIBS) $(CUDA_LIBS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3 \
	    $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib
	install -m 755 $(BUILD)/ptxrun $(DESTDIR)$(PREFIX)/bin/ptxrun
	install -m 644 docs/ptxrun.1 $(DESTDIR)$(PREFIX)/share/man/man1/ptxrun.1
	install -m 644 docs/libptxrun.3 $(DESTDIR)$(PREFIX)/share/man/man3/libptxrun.3
	install -m 644 api/ptxrun.h $(DESTDIR)$(PREFIX)/include/ptxrun.h
	install -m 755 $(BUILD)/lib/libptxrun.so.1 $(DESTDIR)$(PREFIX)/lib/libptxrun.so.1
	ln -sf libptxrun.so.1 $(DESTDIR)$(PREFIX)/lib/libptxrun.so
	install -m 644 $(BUILD)/lib/libptxrun.a $(DESTDIR)$(PREFIX)/lib/libptxrun.a

clean:
	rm -rf build
