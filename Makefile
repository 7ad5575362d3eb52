# sgchain: scatterlist chaining, one core header run in userspace and in a
# kernel. `make help` lists the targets.

O ?= build
# bash with pipefail: a runner piped into tee still fails the target.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -ec
# No built-in rules: their '%: %.o' would try to rebuild every .d file.
MAKEFLAGS += --no-builtin-rules
V ?= 0
CC ?= gcc

ifeq ($(V),1)
Q :=
else
Q := @
endif

# -Wno-array-bounds as the kernel builds with gcc >= 10 (CC_NO_ARRAY_BOUNDS):
# gcc 12 flags sg_next() on the last entry of a table on the stack, on the
# path that reads sg[1], which runs only when the entry is not the last.
CFLAGS_COMMON := -std=gnu11 -Wall -Wextra -Werror -Wno-array-bounds -O2 -g -MMD -MP
CFLAGS_nochain := -DCONFIG_ARCH_NO_SG_CHAIN
# Without CONFIG_NEED_SG_DMA_LENGTH, as UML, riscv and most 32-bit
# architectures build: sg_dma_len() is then the entry's own length.
CFLAGS_nodmalen := -DUSIM_NO_SG_DMA_LENGTH
VARIANTS := chain nochain nodmalen
# The differential suite compares the two x86-64 shapes.
DIFF_VARIANTS := chain nochain

CORE_H := core/scatterlist_chain.h
SHIM_H := $(wildcard usim/include/linux/*.h) $(wildcard usim/*.h)
# sgsim.c is a program, not part of the library.
USIM_SRCS := $(filter-out usim/sgsim.c,$(wildcard usim/*.c))
# The DMA mappers keep a segment's length in dma_length, which a kernel
# without it does not have (no architecture without it merges segments).
USIM_DMA_SRCS := $(addprefix usim/,dma_direct.c dma_mapping.c iommu_merge.c swiotlb_bounce.c \
		 mock_dma_device.c)
USIM_SRCS_chain := $(USIM_SRCS)
USIM_SRCS_nochain := $(USIM_SRCS)
USIM_SRCS_nodmalen := $(filter-out $(USIM_DMA_SRCS),$(USIM_SRCS))
SGSIM := $(O)/usim/sgsim
UNIT_CASES_H := tests/unit/sg_chain_cases.h tests/unit/sg_chain_dma_cases.h \
		tests/unit/sg_chain_pages_cases.h tests/unit/usim_test.h

# Suites on the shared fixture; test_api_compat uses the kernel API only.
UNIT_SUITES := test_sg_entry test_sg_alloc test_sg_faults test_scsi_sgtable test_dma_mappers \
	       test_sg_validate test_sg_pages test_sg_copy \
	       test_bad_input test_usim_mocks
UNIT_TESTS := $(UNIT_SUITES) test_api_compat
UNIT_TESTS_chain := $(UNIT_TESTS)
UNIT_TESTS_nochain := $(UNIT_TESTS)
UNIT_TESTS_nodmalen := $(filter-out test_dma_mappers test_scsi_sgtable,$(UNIT_TESTS))
# The kernel's own tools/testing/scatterlist, over the chaining build only:
# its append cases need chaining, as in the kernel.
UNIT_BINS := $(foreach v,$(VARIANTS),$(addprefix $(O)/unit/$(v)/,$(UNIT_TESTS_$(v)))) \
	     $(O)/unit/chain/test_kernel_scatterlist

# KVER picks the kernel and its series: 6.1 (kport/series-6.1) or 6.12
# (kport/series-6.12); a 6.12 run writes to $(O)/TARGET-6.12.
KVER ?= 6.1
KSUFFIX := $(if $(filter 6.1,$(KVER)),,-$(KVER))

# tar and xz: scripts/kernel-files.sh takes the kernel files usim compiles
# from linux-source-6.1's tarball.
DEB_UNIT := gcc make libcmocka-dev valgrind tar xz-utils linux-source-6.1
# python3-ply and python3-git: checkpatch's SPDX check (scripts/spdxcheck.py).
DEB_QEMU := linux-source-$(KVER) qemu-system-x86 busybox-static gcc make libc6-dev \
	    bc bison flex libelf-dev libssl-dev cpio xz-utils file git \
	    python3 python3-ply python3-git

# The parisc kernel's packages (make lint builds it), from its file.
DEB_PARISC := $(shell bash -c 'source kport/kernels/parisc.sh && echo "$${KDEBS[*]}"')
# linux-config-6.1: Debian's own config, for the kernel text of a distribution
# kernel; openssl makes its module signing key.
DEB_BENCH := linux-source-6.1 linux-config-6.1 openssl valgrind gnuplot-nox python3

# Kernel tree and build directory: outside the repository (kport/env.sh).
export KVER KSRC KBUILD UPSTREAM MAINLINE KBUILD_PARISC KBUILD_KASAN SGCHAIN_CACHE QEMU_TIMEOUT JOBS
# apt-get's output, kept out of the test output (scripts/deps.sh).
export DEPS_LOG := $(abspath $(O))/deps.log

.SECONDARY:
.PHONY: all usim sgsim unit-build unit diff diff-deps valgrind check deps help clean list-tests mutate mutate-check mutate-kernel \
	machines check-steps qemu-deps kunit kunit-parse kport-series kport-check kport-fixes kport-fixes-check kport-fixes-test kport-fixes-send kport-bisect cocci cocci-test walk-fixes-check walkfix-test ktap-test script-test bench sanitize fuzz fuzz-deps \
	docs docs-deps lint lava lava-jobs lava-deps lava-test

all: usim unit-build sgsim

# Linux 6.1's own scatterlist files, as shipped and with the series applied
# (scripts/kernel-files.sh: extracted from the tarball, never committed).
KFILES ?= $(O)/kfiles
KFILES_STAMP := $(KFILES)/.stamp
KSERIES := $(wildcard kport/series-6.1/*.patch)
$(KFILES_STAMP): scripts/kernel-files.sh $(KSERIES)
	$(Q)scripts/kernel-files.sh $(KFILES)
	$(Q)touch $@
KFILES_SRCS := $(foreach side,pristine patched,$(addprefix $(KFILES)/$(side)/lib/,\
		scatterlist-part.c scatterlist-rest.c sg_pool.c)) $(KFILES)/pristine/lib/sg_split.c
$(KFILES_SRCS): $(KFILES_STAMP) ;

# The kernel's own scatterlist library in usim: the patched lib/scatterlist.c
# (the core comes in through it) and lib/sg_split.c, compiled unchanged over
# usim's headers; lib/sg_pool.c through usim/klib_sg_pool.c.
KLIB_SRCS := $(addprefix $(KFILES)/patched/lib/,scatterlist.c sg_split.c)
$(KLIB_SRCS): $(KFILES_STAMP) ;
# 6.1's files are built as the kernel builds them: without -Wextra's
# unused-parameter and sign-compare warnings, and without gcc's
# maybe-uninitialized (the kernel's Makefile turns it off: false positives,
# such as get_next_sg()'s next_sg under ASan).
KFILE_CFLAGS := $(CFLAGS_COMMON) -Wno-unused-parameter -Wno-sign-compare \
	-Wno-maybe-uninitialized
KLIB_CFLAGS := $(KFILE_CFLAGS) -DCONFIG_SGL_ALLOC

# Per variant: libusim.a from usim/*.c and the kernel's files, then one
# binary per test.
define variant_rules
$(O)/usim-$(1)/%.o: usim/%.c $(CORE_H) $(SHIM_H) $(KFILES_STAMP)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $$<"
	$(Q)$(CC) $(CFLAGS_COMMON) $(CFLAGS_$(1)) -Iusim/include -Iusim -I$(KFILES)/patched -c $$< -o $$@

$(O)/usim-$(1)/klib/%.o: $(KFILES)/patched/lib/%.c $(CORE_H) $(SHIM_H)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] linux-6.1/lib/$$(notdir $$<)"
	$(Q)$(CC) $(KLIB_CFLAGS) $(CFLAGS_$(1)) -Iusim/include -c $$< -o $$@

$(O)/usim-$(1)/libusim.a: $(patsubst usim/%.c,$(O)/usim-$(1)/%.o,$(USIM_SRCS_$(1))) \
		$(patsubst $(KFILES)/patched/lib/%.c,$(O)/usim-$(1)/klib/%.o,$(KLIB_SRCS))
	@echo "  AR [$(1)] $$@"
	$(Q)rm -f $$@ && ar rcs $$@ $$^

$(O)/unit/$(1)/%.o: tests/unit/%.c $(CORE_H) $(SHIM_H) $(UNIT_CASES_H)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $$<"
	$(Q)$(CC) $(CFLAGS_COMMON) $(CFLAGS_$(1)) -Iusim/include -Iusim -Itests/unit -c $$< -o $$@

# Proves the kernel API is enough: only usim/include, only libusim.a.
$(O)/unit/$(1)/test_api_compat.o: tests/unit/test_api_compat.c $(CORE_H) $(SHIM_H)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $$<"
	$(Q)$(CC) $(CFLAGS_COMMON) $(CFLAGS_$(1)) -Iusim/include -c $$< -o $$@

$(O)/unit/$(1)/test_api_compat: $(O)/unit/$(1)/test_api_compat.o $(O)/usim-$(1)/libusim.a
	@echo "  LD [$(1)] $$@"
	$(Q)$(CC) -o $$@ $$^ -lcmocka

$(O)/unit/$(1)/test_%: $(O)/unit/$(1)/test_%.o $(O)/unit/$(1)/usim_test.o $(O)/usim-$(1)/libusim.a
	@echo "  LD [$(1)] $$@"
	$(Q)$(CC) -o $$@ $$^ -lcmocka
endef
$(foreach v,$(VARIANTS),$(eval $(call variant_rules,$(v))))

# The differential suite (tests/diff): one program per side and variant,
# the same inputs run over 6.1's code (k61) and the patched code (sgchain).
DIFF_SIDES := k61 sgchain
KSIDE_k61 := pristine
KSIDE_sgchain := patched
DIFF_BINS := $(foreach v,$(DIFF_VARIANTS),$(foreach s,$(DIFF_SIDES),$(O)/diff/$(v)/diff-$(s)))

define diff_rules
$(O)/diff/$(1)/$(2)/%.o: $(KFILES)/$(KSIDE_$(2))/lib/%.c $(CORE_H) $(SHIM_H)
	@mkdir -p $$(@D)
	@echo "  CC [$(1) $(2)] $$<"
	$(Q)$(CC) $(KFILE_CFLAGS) $(CFLAGS_$(1)) -I$(KFILES)/$(KSIDE_$(2))/include \
		-Iusim/include -c $$< -o $$@

$(O)/diff/$(1)/$(2)/diff_cases.o: tests/diff/diff_cases.c $(KFILES_STAMP) $(CORE_H) $(SHIM_H) $(UNIT_CASES_H)
	@mkdir -p $$(@D)
	@echo "  CC [$(1) $(2)] $$<"
	$(Q)$(CC) $(CFLAGS_COMMON) $(CFLAGS_$(1)) -I$(KFILES)/$(KSIDE_$(2))/include \
		-Iusim/include -Iusim -Itests/unit -c $$< -o $$@

$(O)/diff/$(1)/diff-$(2): $(addprefix $(O)/diff/$(1)/$(2)/,diff_cases.o scatterlist-part.o \
		scatterlist-rest.o sg_pool.o sg_split.o) \
		$(O)/usim-$(1)/libusim.a
	@echo "  LD [$(1)] $$@"
	$(Q)$(CC) -o $$@ $$^
endef
$(foreach v,$(DIFF_VARIANTS),$(foreach s,$(DIFF_SIDES),$(eval $(call diff_rules,$(v),$(s)))))

# tools/testing/scatterlist/main.c from the tree, unchanged, over usim's
# headers and library; only its main() is renamed, for the TAP driver.
KERNEL_SL_TEST := $(KFILES)/patched/tools/testing/scatterlist/main.c
$(KERNEL_SL_TEST): $(KFILES_STAMP) ;
$(O)/unit/chain/test_kernel_scatterlist: $(KERNEL_SL_TEST) tests/unit/kernel_test_tap.c \
		$(O)/usim-chain/libusim.a $(SHIM_H) $(CORE_H)
	@mkdir -p $(@D)
	@echo "  CC [chain] linux-6.1/tools/testing/scatterlist/main.c"
	$(Q)$(CC) $(KFILE_CFLAGS) -Iusim/include -Dmain=kernel_test_main \
		-c $(KERNEL_SL_TEST) -o $@-main.o
	$(Q)$(CC) $(CFLAGS_COMMON) \
		-DKERNEL_TEST_NAME='"tools/testing/scatterlist/main.c"' \
		-c tests/unit/kernel_test_tap.c -o $@-tap.o
	$(Q)$(CC) -o $@ $@-tap.o $@-main.o $(O)/usim-chain/libusim.a

# The chain variant is the usim library a kernel-API test links against.
$(O)/usim/libusim.a: $(O)/usim-chain/libusim.a
	@mkdir -p $(@D)
	$(Q)cp $< $@

usim: deps $(O)/usim/libusim.a

$(SGSIM): $(O)/usim-chain/sgsim.o $(O)/usim-chain/libusim.a
	@mkdir -p $(@D)
	@echo "  LD      $@"
	$(Q)$(CC) -o $@ $^

sgsim: deps $(SGSIM)

unit-build: deps $(UNIT_BINS)

# The script takes longest: started first, it ends with the binaries.
# UNIT_TIMEOUT: seconds a binary may run (make mutate shortens it).
UNIT_TIMEOUT ?= 60
unit: unit-build $(SGSIM)
	$(Q)SGSIM=$(SGSIM) tests/unit/run-tests.sh --timeout $(UNIT_TIMEOUT) --out $(O)/unit \
		tests/unit/test_sgsim.sh $(UNIT_BINS)

# The kport scripts without a kernel, so not in make unit: their handling
# of KSRC and KBUILD on a tiny fake tree (git, tar and xz make it),
# kport-check's copy checks on both series and on planted bugs (python3),
# make kport-series' folds and refusals on a fake tree, and the check that
# the config fragments reached .config; make kport-fixes keeps the work
# committed in a fixes tree; scripts/deps.sh recovers an interrupted dpkg
# and waits for another install (a fake dpkg); make help and
# docs/targets.md name every knob; a kernel mutation that make
# mutate-kernel could not put back is put back by the next kport/tree.sh,
# which refuses tree edits under CI (a fake tree); make mutate-check
# names an entry whose find text a core edit removed. test_copies.sh
# takes about 70 s on an idle two-core machine, mostly git: 600 s guards
# against a hang only.
script-test:
	$(Q)scripts/deps.sh git tar xz-utils python3 procps
	$(Q)tests/unit/run-tests.sh --timeout 600 --out $(O)/script-test tests/kport/test_args.sh \
		tests/kport/test_copies.sh tests/kport/test_folds.sh tests/kport/test_fragments.sh \
		tests/kport/test_fixes_write.sh tests/scripts/test_deps.sh tests/scripts/test_knobs.sh tests/scripts/test_machines.sh \
		tests/scripts/test_planted.sh tests/scripts/test_mutate_check.sh tests/bench/test_summarise.sh

# Linux 6.1's own code against the series, input by input (tests/diff).
diff: diff-deps $(DIFF_BINS)
	$(Q)tests/diff/run.sh $(O)/diff

# The tarball the kernel files come from; python3 for the comparison.
diff-deps:
	$(Q)scripts/deps.sh $(DEB_UNIT) linux-source-6.1 python3

# $(call summarised,SCRIPT OUTDIR [ARGS]): run SCRIPT, its output also in
# OUTDIR/summary.log and its last line ("N passed, N failed") in
# OUTDIR/summary, which make check adds up.
define summarised
$(Q)mkdir -p $(word 2,$(1))
$(Q)$(1) | tee $(word 2,$(1))/summary.log
$(Q)tail -n 1 $(word 2,$(1))/summary.log > $(word 2,$(1))/summary
endef

valgrind: unit-build
	$(Q)tests/unit/run-tests.sh --valgrind $(UNIT_BINS)

# The QEMU boots: tests/qemu/boots/LIST/NAME.sh, each one guest of one
# kernel of kport/kernels on one machine (tests/qemu/boots.sh). Each LIST
# (qemu, qemu-dma, qemu-fault, qemu-kasan, qemu-parisc, qemu-arch, qemu-repro) is a
# target that boots the boots of its directory, building each kernel once
# (tests/qemu/run.sh); make machines boots MACHINES='NAME ..', any of them
# (and only it reads MACHINES: a list is always its directory). A list of
# one boot keeps its outputs in $(O)/LIST, the others' go to $(O)/LIST/NAME.
BOOT_LISTS := $(sort $(notdir $(patsubst %/,%,$(dir $(wildcard tests/qemu/boots/*/*.sh)))))
list_boots = $(sort $(basename $(notdir $(wildcard tests/qemu/boots/$(1)/*.sh))))
ALL_BOOTS := $(foreach l,$(BOOT_LISTS),$(call list_boots,$(l)))
define boot_list_rule
$(1): qemu-deps
	$$(call summarised,tests/qemu/run.sh $$(O)/$(1)$$(KSUFFIX) $$(O) $(call list_boots,$(1)))
endef
$(foreach l,$(BOOT_LISTS),$(eval $(call boot_list_rule,$(l))))
.PHONY: $(BOOT_LISTS)
machines: qemu-deps
	$(if $(MACHINES),,$(error make machines: name the boots, MACHINES='NAME ..', of: $(ALL_BOOTS)))
	$(call summarised,tests/qemu/run.sh $(O)/machines$(KSUFFIX) $(O) $(MACHINES))

# make qemu's console log read again by the tree's own kunit.py parse: the
# two parsers' counts must agree, suite by suite.
kunit-parse: qemu-deps
	$(call summarised,tests/qemu/run-ktap-agree.sh $(O)/kunit-parse$(KSUFFIX) \
		$(O)/qemu$(KSUFFIX)/console.log)

# The suites through kunit.py with lib/sg_chain/.kunitconfig: User Mode
# Linux, and with KUNIT_ARCHS="um x86_64" under QEMU too.
KUNIT_ARCHS ?= um
kunit: qemu-deps
	$(call summarised,tests/kunit/run.sh $(O)/kunit$(KSUFFIX) $(KUNIT_ARCHS))

# The fault runs' knobs (tests/qemu/boots/qemu-fault/x86_64-fault.sh).
export FAULT_PROCS FAULT_ROUNDS FAULT_FAILSLAB

# The boots as LAVA jobs (tests/lava, docs/lava.md): make lava-jobs writes
# and validates them, make lava runs them here with lava-run and judges
# LAVA's results against the console and, where the direct run of the same
# boot is in $(O), against its counts. LAVA_BOOTS: lists or boots, @6.12
# for that kernel (default: every list, and those make check boots on
# 6.12 too); LAVA_URL: where a lab fetches the artifacts (default: file://
# the job's directory).
LAVA_BOOTS ?= $(BOOT_LISTS) $(filter $(addsuffix @6.12,$(BOOT_LISTS)),$(CHECK_STEPS))
# make check: the main boot and the Intel IOMMU boot, compared with the
# direct runs make check has just done.
CHECK_LAVA := LAVA_BOOTS="qemu x86_64-intel" LAVA_REQUIRE_REFERENCE=1
export LAVA_URL LAVA_REQUIRE_REFERENCE
lava-deps: qemu-deps
	$(Q)tests/lava/deps.sh
lava: lava-deps
	$(Q)mkdir -p $(O)/lava
	$(Q)tests/lava/run.sh lava $(O) $(LAVA_BOOTS) | tee $(O)/lava/summary.log
	$(Q)tail -n 1 $(O)/lava/summary.log > $(O)/lava/summary
lava-jobs: lava-deps
	$(Q)mkdir -p $(O)/lava-jobs
	$(Q)tests/lava/run.sh lava-job $(O) $(LAVA_BOOTS) | tee $(O)/lava-jobs/summary.log
	$(Q)tail -n 1 $(O)/lava-jobs/summary.log > $(O)/lava-jobs/summary

# The benchmark: sgchain, Linux 6.1's own code (the differential suite's
# copy of the 6.1 files, never committed) and a flat array, in one binary.
BENCH_DIR := $(O)/bench
K61_DIR := $(KFILES)/pristine
# 6.1's code with its exported names prefixed (bench/k61_shim.h), so that
# it links beside sgchain's.
K61_CFLAGS := $(KFILE_CFLAGS) -I$(K61_DIR)/include -Iusim/include -Ibench \
	-include bench/k61_shim.h
# At one cycle per entry, where a walk's loop lands in the instruction
# cache's lines moves its time by a tenth. An x86-64 kernel packs loops and
# jumps and starts functions on 16 bytes, so an inline walk lands wherever
# its caller puts it. The benchmark packs loops and jumps the same way, and
# every object is built once per offset of its functions from a 64-byte
# line (nops before the entry, never run).
BENCH_PLACEMENTS := 0 8 16 24 32 40 48 56
bench_placed = -falign-functions=64 -falign-loops=1 -falign-jumps=1 \
	-fpatchable-function-entry=$(1),$(1)
# A binary puts sgchain's objects at one placement and 6.1's at another,
# BENCH_SHIFTS bytes on, so that across the binaries each side sees all
# eight placements and the two sides are at three distances from each
# other: a distance that favoured one side would otherwise favour it in
# every process. sgchain's lib/scatterlist.c and lib/sg_pool.c are placed
# too, linked before libusim.a, whose copies they stand in for.
BENCH_SHIFTS := 0 24 40
BENCH_SGCHAIN_OBJS := impl_sgchain.o flat.o sgchain_scatterlist.o sgchain_sg_pool.o
# sgchain's side as a kernel without KUnit builds it: what only KUnit sees
# is static there, and inlined into its one caller.
BENCH_SGCHAIN_CFLAGS := -DUSIM_NO_KUNIT
# 6.1's code with its names prefixed $(1): k61, and k61b for the control,
# a second copy half a 64-byte line from the first, in which what
# placement alone does to a ratio of identical code shows.
bench_k61_objs = impl_$(1).o $(1)_scatterlist-part.o $(1)_sg_pool.o
bench_mod64 = $(shell echo $$((($(1)) % 64)))

$(BENCH_DIR)/bench.o: bench/bench.c bench/bench_impl.h $(CORE_H) $(SHIM_H)
	@mkdir -p $(@D)
	@echo "  CC [bench] $<"
	$(Q)$(CC) $(CFLAGS_COMMON) -Iusim/include -Iusim -Ibench -c $< -o $@

# 6.1's objects at placement $(1), names prefixed $(2).
define bench_k61_at
$(BENCH_DIR)/at-$(1)/$(2)_%.o: $(K61_DIR)/lib/%.c bench/k61_shim.h $(SHIM_H) Makefile
	@mkdir -p $$(@D)
	@echo "  CC [bench at +$(1), $(2)] $$<"
	$(Q)$(CC) $(K61_CFLAGS) -DK61=$(2) $(call bench_placed,$(1)) -c $$< -o $$@

$(BENCH_DIR)/at-$(1)/impl_$(2).o: bench/impl_k61.c bench/impl_template.h $(KFILES_STAMP) Makefile
	@mkdir -p $$(@D)
	@echo "  CC [bench at +$(1), $(2)] $$<"
	$(Q)$(CC) $(K61_CFLAGS) -DK61=$(2) $(call bench_placed,$(1)) -c $$< -o $$@
endef

# Every object at one placement; the Makefile holds their flags.
define bench_at
$(call bench_k61_at,$(1),k61)
$(call bench_k61_at,$(1),k61b)
$(BENCH_DIR)/at-$(1)/sgchain_scatterlist.o: $(KFILES)/patched/lib/scatterlist.c $(CORE_H) $(SHIM_H) Makefile
	@mkdir -p $$(@D)
	@echo "  CC [bench at +$(1)] $$<"
	$(Q)$(CC) $(KLIB_CFLAGS) $(BENCH_SGCHAIN_CFLAGS) $(call bench_placed,$(1)) -Iusim/include -c $$< -o $$@

$(BENCH_DIR)/at-$(1)/sgchain_sg_pool.o: usim/klib_sg_pool.c $(CORE_H) $(SHIM_H) Makefile
	@mkdir -p $$(@D)
	@echo "  CC [bench at +$(1)] $$<"
	$(Q)$(CC) $(CFLAGS_COMMON) $(BENCH_SGCHAIN_CFLAGS) $(call bench_placed,$(1)) -Iusim/include -Iusim \
		-I$(KFILES)/patched -c $$< -o $$@

$(BENCH_DIR)/at-$(1)/%.o: bench/%.c bench/bench_impl.h bench/impl_template.h $(CORE_H) $(SHIM_H) Makefile
	@mkdir -p $$(@D)
	@echo "  CC [bench at +$(1)] $$<"
	$(Q)$(CC) $(CFLAGS_COMMON) $(BENCH_SGCHAIN_CFLAGS) $(call bench_placed,$(1)) -Iusim/include -Iusim -Ibench -c $$< -o $$@
endef
$(foreach p,$(BENCH_PLACEMENTS),$(eval $(call bench_at,$(p))))

# One binary: sgchain at +$(1), 6.1 $(2) bytes on, the control 32 more.
# The Makefile too: under .SECONDARY, an object it adds to the list would
# not be built for a binary already up to date.
define bench_bin
$(BENCH_DIR)/bin-$(1)-$(2)/bench: $(BENCH_DIR)/bench.o \
		$(addprefix $(BENCH_DIR)/at-$(1)/,$(BENCH_SGCHAIN_OBJS)) \
		$(addprefix $(BENCH_DIR)/at-$(call bench_mod64,$(1) + $(2))/,$(call bench_k61_objs,k61)) \
		$(addprefix $(BENCH_DIR)/at-$(call bench_mod64,$(1) + $(2) + 32)/,$(call bench_k61_objs,k61b)) \
		$(O)/usim-chain/libusim.a Makefile
	@mkdir -p $$(@D)
	@echo "  LD [bench] $$@"
	$(Q)$(CC) -o $$@ $$(filter-out Makefile,$$^)
endef
$(foreach p,$(BENCH_PLACEMENTS),$(foreach d,$(BENCH_SHIFTS),$(eval $(call bench_bin,$(p),$(d)))))
BENCH_BINS := $(foreach p,$(BENCH_PLACEMENTS),$(foreach d,$(BENCH_SHIFTS),$(BENCH_DIR)/bin-$(p)-$(d)/bench))

bench: bench-deps qemu-deps $(BENCH_BINS)
	$(Q)bench/run.sh $(BENCH_DIR) $(BENCH_BINS)

bench-deps:
	$(Q)scripts/deps.sh $(DEB_UNIT) $(DEB_BENCH)
	$(Q)mkdir -p $(BENCH_DIR)

# Every unit suite again, built with ASan and UBSan (any report aborts).
SANITIZE_CC := $(CC) -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
sanitize: deps
	$(Q)ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$(MAKE) --no-print-directory O=$(O)/sanitize KFILES=$(abspath $(KFILES)) \
		CC="$(SANITIZE_CC)" unit

# Mutation testing: each bug of tests/mutate/mutations planted alone in a
# scratch copy (MUTATE_WORK), make unit and make diff run on it; every one
# must be killed or marked equivalent with its reason. MUTATIONS= picks ids
# (globs). Slow (docs/mutate.md), so not in make check.
MUTATE_WORK ?= $(O)/mutate
mutate: deps diff-deps
	$(Q)mkdir -p $(MUTATE_WORK)
	$(Q)tests/mutate/mutate.py --work $(MUTATE_WORK) $(MUTATIONS) | tee $(MUTATE_WORK)/summary.log
	$(Q)tail -n 1 $(MUTATE_WORK)/summary.log > $(MUTATE_WORK)/summary

# Seconds, no build (a minute more if the 6.1 tree must be extracted first,
# as make qemu would): every entry of the list still finds its text where
# its run would plant it (the checkout, 6.1's patched files, the kernel
# tree's HEAD), so that a change that makes an entry stale fails make
# check at once, naming it; make mutate itself stays out of make check.
mutate-check: $(KFILES_STAMP)
	$(Q)scripts/deps.sh git python3 linux-source-6.1 xz-utils
	$(Q)kport/tree.sh
	$(Q)mkdir -p $(O)/mutate-check
	$(Q)tests/mutate/mutate.py --check $(KFILES) | tee $(O)/mutate-check/summary.log
	$(Q)tail -n 1 $(O)/mutate-check/summary.log > $(O)/mutate-check/summary

# The list's kernel-only mutations: each planted in $(KSRC) (or the core,
# through a scratch copy), rebuilt incrementally and booted in the run it
# names, which must fail; the tree is put back after each. Slower still.
mutate-kernel: qemu-deps diff-deps
	$(Q)mkdir -p $(O)/mutate-kernel
	$(Q)tests/mutate/mutate.py --kernel --work $(O)/mutate-kernel $(MUTATIONS) | \
		tee $(O)/mutate-kernel/summary.log
	$(Q)tail -n 1 $(O)/mutate-kernel/summary.log > $(O)/mutate-kernel/summary

# The fuzzer: clang's libFuzzer with ASan and UBSan over usim and the core.
FUZZ_SECONDS ?= 600
CHECK_FUZZ_SECONDS ?= 30
FUZZER := $(O)/fuzz/fuzz_sg_chain
DEB_FUZZ := clang libclang-rt-14-dev
# One clang command for usim and the kernel's files: with the kernel's
# warnings (no unused-parameter or sign-compare) for all of them.
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-array-bounds \
	-Wno-unused-parameter -Wno-sign-compare -DCONFIG_SGL_ALLOC \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-Iusim/include -Iusim -Itests/unit -I$(KFILES)/patched

$(FUZZER): tests/fuzz/fuzz_sg_chain.c $(USIM_SRCS) $(KLIB_SRCS) $(CORE_H) $(SHIM_H) $(UNIT_CASES_H)
	@mkdir -p $(@D)
	@echo "  CLANG   $@"
	$(Q)clang $(FUZZ_CFLAGS) -o $@ tests/fuzz/fuzz_sg_chain.c $(USIM_SRCS) $(KLIB_SRCS)

fuzz-deps:
	$(Q)scripts/deps.sh $(DEB_UNIT) $(DEB_FUZZ)

fuzz: fuzz-deps $(FUZZER)
	$(Q)tests/fuzz/run-fuzz.sh $(FUZZER) $(FUZZ_SECONDS) $(O)/fuzz | tee $(O)/fuzz/summary.log
	$(Q)tail -n 1 $(O)/fuzz/summary.log > $(O)/fuzz/summary

# HTML for the core API from its kernel-doc comments and of the Markdown
# pages; any warning fails. Then every relative link of the pages resolves.
docs: docs-deps
	$(Q)rm -rf $(O)/docs && mkdir -p $(O)/docs
	$(Q)DOXYGEN_OUT=$(O)/docs doxygen Doxyfile
	@echo "docs: $(O)/docs/html/index.html"
	$(Q)scripts/check-links.py README.md docs/*.md | tee $(O)/docs/links.log
	$(Q)tail -n 1 $(O)/docs/links.log | \
		awk '{ print $$2 + 1 " passed, " $$4 " failed" }' > $(O)/docs/summary

# Doxygen runs dot (graphviz) for the include graphs.
docs-deps:
	$(Q)scripts/deps.sh doxygen graphviz python3

# Static checks: cppcheck, clang-tidy, checkpatch, kernel-doc, sparse.
# Both series: 6.1 in KSRC (x86_64 and parisc), 6.12 in its default tree.
lint: qemu-deps $(KFILES_STAMP)
	$(Q)scripts/deps.sh cppcheck clang-tidy sparse linux-source-6.12 $(DEB_PARISC)
	$(Q)mkdir -p $(O)
	$(Q)KFILES=$(KFILES) scripts/lint.sh | tee $(O)/lint.log
	$(Q)tail -n 1 $(O)/lint.log | sed 's/^lint: //' > $(O)/lint.summary

# Makes KSRC first if it is missing: linux-source-KVER's tarball.
kport-series: qemu-deps
	$(Q)kport/series.sh

kport-check: qemu-deps
	$(Q)kport/tree.sh
	$(Q)kport/check.sh

# The standalone fix series, kport/fixes* (docs/upstream-fixes.md). Both
# Debian trees in their default place: the backports apply to them, and
# the 6.12 one lends checkpatch and the mainline form's stand-ins.
FIXES_TREES := scripts/deps.sh linux-source-6.1 linux-source-6.12 && \
	for v in 6.1 6.12; do KVER=$$v KSRC= KBUILD= kport/tree.sh || exit; done
kport-fixes-check: qemu-deps
	$(Q)$(FIXES_TREES)
	$(Q)mkdir -p $(O)/kport-fixes-check
	$(Q)kport/fixes_check.sh | tee $(O)/kport-fixes-check/summary.log
	$(Q)tail -n 1 $(O)/kport-fixes-check/summary.log | sed 's/^[^:]*: //' > $(O)/kport-fixes-check/summary

# sg_flat_walk.cocci, the checker for walks that step past a chain link
# (cocci/): make cocci scans pristine 6.12 and 6.1 whole and holds every hit
# to cocci/triage.tsv; make cocci-test holds the rule to its marked cases
# and to the fixes Linux made of this bug class (tests/cocci), in seconds.
DEB_COCCI := coccinelle python3 git patch linux-source-6.1
cocci: qemu-deps
	$(Q)scripts/deps.sh $(DEB_COCCI) linux-source-6.12
	$(Q)$(FIXES_TREES)
	$(Q)mkdir -p $(O)/cocci
	$(Q)cocci/scan.sh $(O)/cocci | tee $(O)/cocci/summary.log
	$(Q)tail -n 1 $(O)/cocci/summary.log > $(O)/cocci/summary

cocci-test: qemu-deps
	$(Q)scripts/deps.sh $(DEB_COCCI) linux-source-6.12
	$(Q)$(FIXES_TREES)
	$(Q)mkdir -p $(O)/cocci-test
	$(Q){ rc=0; python3 tests/cocci/cases.py || rc=$$?; \
	  python3 tests/cocci/recall.py --ksrc "$$(KVER=6.1 KSRC= KBUILD= bash -c \
		'source kport/env.sh >/dev/null && echo "$$KSRC"')" --work $(O)/cocci-test/work || rc=$$?; \
	  cocci/upstream.sh check | sed 's/^cocci-upstream-check: //' || rc=$$?; \
	  exit $$rc; } | tee $(O)/cocci-test/summary.log
	$(Q)grep -E '^[0-9]+ passed, [0-9]+ failed$$' $(O)/cocci-test/summary.log | \
		awk '{ p += $$1; f += $$3 } END { print p " passed, " f " failed"; exit f > 0 || NR != 3 }' \
		> $(O)/cocci-test/summary

# The fixes for the walks cocci/triage.tsv finds reachable (kport/walk-fixes,
# one patch per driver against 6.12) and their tests (tests/walkfix): each
# walk, compiled over usim from a scratch copy of pristine 6.12, is wrong on
# a chained list, and right with its fix.
walk-fixes-check: qemu-deps
	$(Q)scripts/deps.sh linux-source-6.12 git
	$(Q)KVER=6.12 KSRC= KBUILD= kport/tree.sh
	$(Q)mkdir -p $(O)/walk-fixes-check
	$(Q)kport/walk_fixes.sh check | tee $(O)/walk-fixes-check/summary.log
	$(Q)tail -n 1 $(O)/walk-fixes-check/summary.log | sed 's/^[^:]*: //' > $(O)/walk-fixes-check/summary

walkfix-test: qemu-deps $(O)/usim/libusim.a
	$(Q)scripts/deps.sh linux-source-6.12 git patch python3
	$(Q)KVER=6.12 KSRC= KBUILD= kport/tree.sh
	$(Q)mkdir -p $(O)/walkfix-test
	$(Q)python3 tests/walkfix/run.py --usim $(O)/usim/libusim.a --work $(O)/walkfix-test/work \
		--ksrc "$$(KVER=6.12 KSRC= KBUILD= bash -c 'source kport/env.sh >/dev/null && echo "$$KSRC"')" | \
		tee $(O)/walkfix-test/summary.log
	$(Q)tail -n 1 $(O)/walkfix-test/summary.log > $(O)/walkfix-test/summary

kport-fixes-test: qemu-deps
	$(Q)$(FIXES_TREES)
	$(Q)mkdir -p $(O)/kport-fixes-test
	$(Q){ kport/fixes_test.sh mainline; kport/fixes_test.sh 6.12; kport/fixes_test.sh 6.1; } | \
		tee $(O)/kport-fixes-test/summary.log
	$(Q)grep -E '^kport-fixes-test [a-z0-9.]+: ' $(O)/kport-fixes-test/summary.log | \
		awk '{ p += $$3; f += $$5 } END { print p " passed, " f " failed"; exit f > 0 || NR != 3 }' \
		> $(O)/kport-fixes-test/summary

# Every prefix of each series builds (UML and x86_64, W=1, no new warning
# in its files) and passes its tests: slow, outside make check.
BISECT ?= fixes-6.12 fixes-6.1 6.1 6.12
kport-bisect: qemu-deps
	$(Q)$(FIXES_TREES)
	$(Q)mkdir -p $(O)/kport-bisect
	$(Q)kport/bisect.sh $(BISECT) | tee $(O)/kport-bisect/summary.log
	$(Q)tail -n 1 $(O)/kport-bisect/summary.log > $(O)/kport-bisect/summary

# Write FORM's patches (kport/fixes-mainline, -6.12, -6.1) from its tree, made from
# the committed patches first if missing: edit there with git, then run this.
FORM ?= mainline
kport-fixes: qemu-deps
	$(Q)$(FIXES_TREES)
	$(Q)kport/fixes.sh write $(FORM)

# The mainline form in the sender's git identity, signed off, To/Cc from
# get_maintainer.pl: OUT=DIR (default $(O)/send).
kport-fixes-send: qemu-deps
	$(Q)scripts/deps.sh linux-source-6.12
	$(Q)KVER=6.12 KSRC= KBUILD= kport/tree.sh
	$(Q)kport/fixes.sh send $(or $(OUT),$(O)/send)

ktap-test:
	$(Q)scripts/deps.sh python3
	$(Q)mkdir -p $(O)
	$(Q)tests/qemu/test_ktap.py | tee $(O)/ktap-test.log
	$(Q)tail -n 1 $(O)/ktap-test.log | sed 's/^ktap parser: //' > $(O)/ktap-test.summary

# make lava's pieces on saved logs: the monitors over golden consoles as
# lava-dispatcher runs them, agree.py's every failure, log.py, job.py.
lava-test: lava-deps
	$(Q)mkdir -p $(O)
	$(Q)tests/lava/test_lava.py | tee $(O)/lava-test.log
	$(Q)tail -n 1 $(O)/lava-test.log > $(O)/lava-test.summary

# make check's steps, in order: the one list (make help and the docs name
# it, and a step is a target, @6.12 for that kernel). Some steps run with
# arguments of their own (CHECK_ARGS_target): lava only on the main boot
# and the Intel IOMMU boot, compared with the direct runs check has just
# made; 30 s of fuzzing.
CHECK_STEPS := unit script-test diff valgrind sanitize docs ktap-test lava-test \
	qemu mutate-check kunit-parse kunit qemu-dma qemu-fault qemu-kasan qemu-parisc lava qemu-arch \
	qemu@6.12 qemu-dma@6.12 kunit-parse@6.12 \
	kport-fixes-check kport-fixes-test cocci-test walk-fixes-check walkfix-test lint fuzz
CHECK_ARGS_lava := $(CHECK_LAVA)
CHECK_ARGS_fuzz := FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS)
# The 6.12 runs use the default tree and builds (KSRC and the KBUILD knobs,
# if given, name 6.1's).
CHECK_ARGS_6.12 := KVER=6.12 KSRC= KBUILD= KBUILD_KASAN= KBUILD_PARISC=
check_target = $(firstword $(subst @, ,$(1)))
check_kver = $(word 2,$(subst @, ,$(1)))
# Where each step's runner writes its closing line ("N passed, N failed"),
# which check adds up: $(O)/TARGET[-KVER]/summary unless named here.
CHECK_SUMMARY_unit := unit/summary-plain
CHECK_SUMMARY_script-test := script-test/summary-plain
CHECK_SUMMARY_valgrind := unit/summary-valgrind
CHECK_SUMMARY_sanitize := sanitize/unit/summary-plain
CHECK_SUMMARY_ktap-test := ktap-test.summary
CHECK_SUMMARY_lava-test := lava-test.summary
CHECK_SUMMARY_lint := lint.summary
check_summary = $(O)/$(or $(CHECK_SUMMARY_$(1)),$(call check_target,$(1))$(if $(call check_kver,$(1)),-$(call check_kver,$(1)))/summary)
CHECK_SUMMARIES := $(foreach s,$(CHECK_STEPS),$(call check_summary,$(s)))
# Each step's time, and its kernel builds, trees and boots (scripts/times.sh).
CHECK_TIMES := $(O)/check-times
check:
	$(Q)mkdir -p $(O) && rm -f $(CHECK_SUMMARIES) $(CHECK_TIMES)
	$(Q)$(foreach s,$(CHECK_STEPS),scripts/check-step.sh $(abspath $(CHECK_TIMES)) $(s) \
		$(MAKE) --no-print-directory $(call check_target,$(s)) $(CHECK_ARGS_$(call check_target,$(s))) \
		$(if $(call check_kver,$(s)),$(CHECK_ARGS_$(call check_kver,$(s)))) &&) true
	$(Q)scripts/check-times.sh $(CHECK_TIMES)
	@cat $(CHECK_SUMMARIES) | \
		awk '{ p += $$1; f += $$3 } END { print "check: " p " passed, " f " failed"; exit f > 0 }'

# The steps as make help and the docs give them, each list of boots with
# its boots.
check-steps:
	@$(foreach s,$(CHECK_STEPS),echo "$(s)$(if $(filter $(call check_target,$(s)),$(BOOT_LISTS)),: $(call list_boots,$(call check_target,$(s))))";)

deps:
	$(Q)scripts/deps.sh $(DEB_UNIT)

qemu-deps:
	$(Q)scripts/deps.sh $(DEB_QEMU)

list-tests:
	@$(foreach t,$(UNIT_BINS),echo $(t);)

help:
	@echo "sgchain targets:"
	@echo "  make qemu          the main job: patch, build and boot Linux 6.1 (KVER=6.12: 6.12) with the core;"
	@echo "                     KUnit suites + big I/O through scsi_debug and virtio-blk"
	@echo "  make qemu-dma      the x86 kernel on q35 behind an Intel IOMMU, an AMD IOMMU and"
	@echo "                     swiotlb=force: KUnit + I/O through virtio-scsi, megasas, AHCI (and"
	@echo "                     lsi53c895a)"
	@echo "  make qemu-fault    6 processes of big I/O while failslab fails the sg pools"
	@echo "                     (10, 30, 100 %) and fail_page_alloc pages; FAULT_PROCS,"
	@echo "                     FAULT_ROUNDS, FAULT_FAILSLAB=10,30,100"
	@echo "  make qemu-kasan    the same on a second x86 build with KASAN and kmemleak"
	@echo "  make qemu-parisc   the same series on parisc (no chaining: one table per list)"
	@echo "                     under qemu-system-hppa: KUnit in its no-chain form + big I/O"
	@echo "  make qemu-arch     the series on the seed series' other architectures, each on its"
	@echo "                     machine, a boot per way of mapping: KUnit + big I/O through disks"
	@echo "                     its own mapper maps for (README)"
	@echo "  make qemu-repro    reproducers of the QEMU bugs that runs declare: each passes while"
	@echo "                     the bug is there (docs/qemu-ahci-prdt.md, docs/qemu-megasas-frame.md:"
	@echo "                     KVER=6.12 for megasas); not in make check"
	@echo "  make machines      the boots MACHINES='NAME ..' names, any of them. Each list's boots"
	@echo "                     (tests/qemu/boots/LIST), which its target above boots:"
	@$(foreach l,$(BOOT_LISTS),echo "                       $(l): $(call list_boots,$(l))";)
	@echo "  make lava-jobs     each boot of LAVA_BOOTS (default: $(LAVA_BOOTS))"
	@echo "                     as a LAVA job with its artifacts in $(O)/lava-jobs, checked to run the"
	@echo "                     runner's QEMU command and to pass lava-server's schema (LAVA_URL=)"
	@echo "  make lava          run those jobs here with lava-run (offline, as root) and judge"
	@echo "                     LAVA's results against the console and the direct run (docs/lava.md)"
	@echo "  make kunit         the suites through the tree's kunit.py with lib/sg_chain/.kunitconfig,"
	@echo "                     as User Mode Linux; KUNIT_ARCHS='um x86_64' adds QEMU (TCG)"
	@echo "  make kunit-parse   kunit.py parse on make qemu's console log: its counts must equal"
	@echo "                     make qemu's own parser's, suite by suite"
	@echo "  make check         everything CI runs, step by step (CHECK_STEPS; @6.12: KVER=6.12):"
	@echo "$(CHECK_STEPS)" | fold -s -w 70 | sed 's/^/                     /'
	@echo "                     lava on the main boot and the Intel IOMMU boot, $(CHECK_FUZZ_SECONDS) s of fuzz;"
	@echo "                     ends with each step's time (trees, kernel builds, boots, the rest, CPU)"
	@echo "                     and one 'check: N passed, N failed'"
	@echo "  make check-steps   print make check's steps"
	@echo "  make lint          cppcheck, clang-tidy, checkpatch --strict, kernel-doc, sparse,"
	@echo "                     W=1 on the series' files (6.1 on x86_64 and parisc, 6.12 on x86_64)"
	@echo "  make docs          HTML of the core API (Doxygen over kernel-doc) and of README.md and"
	@echo "                     docs/, warnings fail; every relative link in them resolves"
	@echo "  make fuzz          libFuzzer on the core, mocks and mappers (FUZZ_SECONDS, default 600)"
	@echo "  make unit          every cmocka suite: chaining, no-chain and no-dma_length builds, the kernel's own"
	@echo "                     tools/testing/scatterlist over usim, and sgsim's CLI checks"
	@echo "  make mutate        plant each bug of tests/mutate/mutations in a scratch copy and run"
	@echo "                     unit and diff: each must be killed or marked equivalent (slow;"
	@echo "                     MUTATIONS='core/*' picks some; docs/mutate.md)"
	@echo "  make mutate-check  seconds: each entry of tests/mutate/mutations still finds its text"
	@echo "                     where its run would plant it (in make check)"
	@echo "  make mutate-kernel the list's kernel-only bugs, planted in KSRC, rebuilt and booted in"
	@echo "                     the run each names, which must fail; the tree put back (slower)"
	@echo "  make diff          Linux 6.1's own scatterlist code against the series, every input,"
	@echo "                     both builds; differences only as kport/declared-differences says"
	@echo "  make valgrind      every unit binary under memcheck, full leak check"
	@echo "  make sanitize      every unit suite rebuilt with ASan + UBSan, in $(O)/sanitize"
	@echo "  make ktap-test     the console-log parser on saved logs (tests/qemu/golden)"
	@echo "  make lava-test     make lava's monitors, judge and job writer on saved logs"
	@echo "  make script-test   the scripts without a kernel: KSRC/KBUILD handling on a fake tree,"
	@echo "                     kport-check's copy checks on both series and planted bugs,"
	@echo "                     kport-series' folds and refusals on a fake tree, deps.sh on a fake"
	@echo "                     dpkg, every knob named, a fake architecture found (docs/targets.md)"
	@echo "  make kport-check   the series leaves every file it adds as the repository holds it"
	@echo "                     (core/, the case tables, kport/lib/); checkpatch --strict; kernel-doc"
	@echo "  make kport-series  fold changed repository files into the series, then regenerate"
	@echo "                     kport/series-6.1 (KVER=6.12: kport/series-6.12) from KSRC, made if missing"
	@echo "  make kport-fixes-check  the fix series, append and sg_split (kport/fixes*,"
	@echo "                     docs/upstream-fixes.md): mainline form git-ams onto UPSTREAM's files,"
	@echo "                     backports and 6.1's backport requests apply to Debian's trees; same"
	@echo "                     fixes in all three; subjects; checkpatch --strict; kernel-doc;"
	@echo "                     Fixes:/Cc: tags; only the people kport/fixes-credits credits"
	@echo "  make kport-fixes-test  the harness on mainline's lib/scatterlist.c; on the 6.12 and 6.1"
	@echo "                     backports the harness and the sg_split KUnit suite (UML, W=1 on the touched files); all"
	@echo "                     pass, and reverting any one fix fails only the tests FIX_TESTS names"
	@echo "  make kport-fixes   write FORM's fix series (FORM=mainline|6.12|6.1) from its tree in"
	@echo "                     SGCHAIN_CACHE/fixes-FORM; a missing tree is made from the patches,"
	@echo "                     an existing one is never made again"
	@echo "  make kport-fixes-send  the mainline series in your git identity, signed off, To/Cc from"
	@echo "                     get_maintainer.pl, into OUT=DIR/append and OUT=DIR/sg_split"
	@echo "                     (default $(O)/send), for git send-email"
	@echo "  make cocci         scripts/coccinelle's way (make coccicheck MODE=report) over pristine 6.12"
	@echo "                     and 6.1 whole: cocci/sg_flat_walk.cocci's hits as one table, held to"
	@echo "                     cocci/triage.tsv (an untriaged hit or a row without one fails), with"
	@echo "                     files read, the classes, precision and each tree's time (about 5 min)"
	@echo "  make cocci-test    the rule on its marked cases, and on 6.1 with each historical fix's walk"
	@echo "                     reverted and each kernel-side sg++ plant planted: all reported (tests/cocci);"
	@echo "                     the rule's upstream patch (cocci/upstream) adds the rule as it is"
	@echo "  make walk-fixes-check  kport/walk-fixes, the fixes for the reachable walks: each applies"
	@echo "                     to pristine 6.12, checkpatch --strict, a verified Fixes: tag (or"
	@echo "                     kport/walk-fixes/no-fixes says why none), nobody named"
	@echo "  make walkfix-test  each fixed walk compiled over usim from pristine 6.12: wrong on a chained"
	@echo "                     list without its fix, right with it (tests/walkfix)"
	@echo "  make kport-bisect  every prefix of BISECT (default: fixes-6.12 fixes-6.1 6.1 6.12) builds"
	@echo "                     for UML and x86_64 with W=1 and passes its KUnit suites and the"
	@echo "                     harness; slow (see docs/upstream-fixes.md), not in make check"
	@echo "  make bench         sgchain vs Linux 6.1's code vs a flat array, and the kernel text of"
	@echo "                     tinyconfig+kport, x86_64_defconfig and Debian's config with and without"
	@echo "                     the series: $(BENCH_DIR)/results.md (the first run builds six kernels,"
	@echo "                     about an hour; BENCH_SIZE_CONFIGS=kport for the quick one only);"
	@echo "                     timings from $(words $(BENCH_BINS)) processes, each with its own code placement"
	@echo "  make usim          build $(O)/usim/libusim.a for tests written against the kernel API:"
	@echo "                     usim's mocks and 6.1's lib/scatterlist.c, sg_split.c, sg_pool.c (patched)"
	@echo "  make sgsim         build $(SGSIM), the chain and DMA mapping explorer (sgsim --help)"
	@echo "  make deps          apt-get install what the unit targets need, if missing"
	@echo "  make list-tests    print the unit test binaries"
	@echo "  make clean         remove $(O)/ (the kernel tree and build stay in the cache)"
	@echo "knobs: O=DIR (build directory, now $(O))  V=1 (show commands)  CC=compiler"
	@echo "       SGCHAIN_CACHE=DIR (default ~/.cache/sgchain)"
	@echo "       KVER=6.1|6.12 (the kernel and its series for qemu*, kunit*, kport-*: now $(KVER);"
	@echo "                 6.12 outputs go to $(O)/TARGET-6.12)"
	@echo "       KSRC=DIR (kernel tree, default SGCHAIN_CACHE/linux-source-KVER; a new tree is"
	@echo "                 extracted only into a missing KSRC inside SGCHAIN_CACHE or an empty directory)"
	@echo "       KBUILD=DIR (kernel objects, default KSRC.build/x86_64; refused if it holds another tree's build)"
	@echo "       KBUILD_PARISC=DIR (the parisc kernel's objects, default KSRC.build/parisc)"
	@echo "       KBUILD_KASAN=DIR (the KASAN kernel's objects, default KSRC.build/x86_64-kasan)"
	@echo "       UPSTREAM=DIR (the public mainline files the mainline fix series is based on,"
	@echo "                 default ../shared/upstream)"
	@echo "       MAINLINE=DIR (a mainline checkout: its files replace UPSTREAM's and the 6.12"
	@echo "                 stand-ins in the mainline fix tree, its get_maintainer.pl is used; default none)"
	@echo "       JOBS=N (kernel make -j)  QEMU_TIMEOUT=S (watchdog)"
	@echo "       MACHINES='NAME ..' (make machines: the boots to run)"
	@echo "       FAULT_PROCS=N FAULT_ROUNDS=N FAULT_FAILSLAB=P,P,.. (make qemu-fault, qemu-kasan)"
	@echo "       KUNIT_ARCHS='um x86_64' (make kunit)  UNIT_TIMEOUT=S (a unit binary's limit, 60)"
	@echo "       LAVA_BOOTS='LIST|BOOT[@6.12] ..'  LAVA_URL=URL (make lava, make lava-jobs)"
	@echo "       LAVA_REQUIRE_REFERENCE=1 (make lava: each job's direct run must be in O)"
	@echo "       FUZZ_SECONDS=S (make fuzz)  CHECK_FUZZ_SECONDS=S (the fuzzing in check, 30)"
	@echo "       MUTATIONS='GLOB ..'  MUTATE_WORK=DIR (make mutate, mutate-kernel)"
	@echo "       BISECT='SERIES ..' (make kport-bisect)  FORM=mainline|6.12|6.1 (make kport-fixes)"
	@echo "       OUT=DIR (make kport-fixes-send)  BENCH_SIZE_CONFIGS=kport (make bench)"
	@echo "       KFILES=DIR (6.1's scatterlist files for usim, default O/kfiles)"

clean:
	rm -rf $(O)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
