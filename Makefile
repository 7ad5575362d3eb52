# sgchain: scatterlist chaining, one core header run in userspace and in a
# kernel. `make help` lists the targets.

O ?= build
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
VARIANTS := chain nochain

CORE_H := core/scatterlist_chain.h
SHIM_H := $(wildcard usim/include/linux/*.h) $(wildcard usim/*.h)
USIM_SRCS := $(wildcard usim/*.c)
UNIT_CASES_H := tests/unit/sg_chain_cases.h tests/unit/usim_test.h

# Suites on the shared fixture; test_api_compat uses the kernel API only.
UNIT_SUITES := test_sg_entry test_sg_alloc test_sg_faults test_scsi_sgtable \
	       test_bad_input test_usim_mocks
UNIT_TESTS := $(UNIT_SUITES) test_api_compat
UNIT_BINS := $(foreach v,$(VARIANTS),$(addprefix $(O)/unit/$(v)/,$(UNIT_TESTS)))

DEB_UNIT := gcc make libcmocka-dev valgrind

.SECONDARY:
.PHONY: all usim unit-build unit valgrind check deps help clean list-tests

all: usim unit-build

# Per variant: libusim.a from usim/*.c, then one binary per test.
define variant_rules
$(O)/usim-$(1)/%.o: usim/%.c $(CORE_H) $(SHIM_H)
	@mkdir -p $$(@D)
	@echo "  CC [$(1)] $$<"
	$(Q)$(CC) $(CFLAGS_COMMON) $(CFLAGS_$(1)) -Iusim/include -Iusim -c $$< -o $$@

$(O)/usim-$(1)/libusim.a: $(patsubst usim/%.c,$(O)/usim-$(1)/%.o,$(USIM_SRCS))
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

# The chain variant is the usim library a kernel-API test links against.
$(O)/usim/libusim.a: $(O)/usim-chain/libusim.a
	@mkdir -p $(@D)
	$(Q)cp $< $@

usim: deps $(O)/usim/libusim.a

unit-build: deps $(UNIT_BINS)

unit: unit-build
	$(Q)tests/unit/run-tests.sh $(UNIT_BINS)

valgrind: unit-build
	$(Q)tests/unit/run-tests.sh --valgrind $(UNIT_BINS)

# One banner over both runners, each of which wrote its closing line.
check: unit valgrind
	@cat $(O)/unit/summary-plain $(O)/unit/summary-valgrind | \
		awk '{ p += $$1; f += $$3 } END { print "check: " p " passed, " f " failed"; exit f > 0 }'

deps:
	$(Q)scripts/deps.sh $(DEB_UNIT)

list-tests:
	@$(foreach t,$(UNIT_BINS),echo $(t);)

help:
	@echo "sgchain targets:"
	@echo "  make check       everything CI runs: unit + valgrind"
	@echo "  make unit        build and run every cmocka suite, chain and no-chain builds"
	@echo "  make valgrind    every unit binary under memcheck, full leak check"
	@echo "  make usim        build $(O)/usim/libusim.a for tests written against the kernel API"
	@echo "  make deps        apt-get install what the targets need, if missing"
	@echo "  make list-tests  print the unit test binaries"
	@echo "  make clean       remove $(O)/"
	@echo "knobs: O=DIR (build directory, now $(O))  V=1 (show commands)  CC=compiler"

clean:
	rm -rf $(O)

-include $(shell find $(O) -name '*.d' 2>/dev/null)
