#!/usr/bin/env bash
# make lint: static checks, each one a pass or a fail, then "N passed,
# N failed". Suppressions live beside what they suppress, with a reason:
# .clang-tidy, the kport/check.sh checkpatch flags, one inline cppcheck
# and two inline clang-tidy comments in usim.
set -uo pipefail
cd "$(dirname "$0")/.."
[ "${KVER:-6.1}" = 6.1 ] ||
	{ echo "lint: checks both series, 6.1 in KSRC and 6.12 in its default tree: leave KVER unset" >&2; exit 2; }
source kport/env.sh
passed=0 failed=0
# usim, and the core's out-of-line part (tests/lint/core_impl.c); the
# kernel's lib/ files that usim compiles are found in KFILES.
lint_srcs=(usim/*.c tests/lint/core_impl.c)
usim_flags=(-std=gnu11 -Iusim/include -Iusim -I"${KFILES:-build/kfiles}/patched")

step() { # NAME COMMAND...: run it, show its output only if it failed
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		passed=$((passed + 1)); echo "  ok    $name"
	else
		failed=$((failed + 1)); echo "  FAIL  $name"
		printf '%s\n' "$out" | grep -v '^$' | head -n 30 | sed 's/^/        /'
	fi
}

# USIM_NO_KUNIT: cppcheck's preprocessor cannot expand IS_ENABLED() of a
# defined option (the placeholder's comma), so it reads the form built
# without KUnit, as production kernels are; clang-tidy reads the other.
cppcheck_usim() {
	local variant out
	for variant in "" -DCONFIG_ARCH_NO_SG_CHAIN; do
		out=$(cppcheck --quiet --enable=warning,style,performance,portability \
			--std=c11 --inline-suppr --suppress=missingIncludeSystem \
			-Iusim/include -Iusim -I"${KFILES:-build/kfiles}/patched" \
			-DCONFIG_NEED_SG_DMA_LENGTH -DCONFIG_DEBUG_SG -DCONFIG_SG_POOL \
			-DUSIM_NO_KUNIT $variant "${lint_srcs[@]}" 2>&1)
		[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
	done
}

clang_tidy_usim() {
	clang-tidy --quiet "${lint_srcs[@]}" -- "${usim_flags[@]}" &&
	clang-tidy --quiet "${lint_srcs[@]}" -- "${usim_flags[@]}" -DCONFIG_ARCH_NO_SG_CHAIN
}

# sparse over the kernel files the series adds or changes (the header is
# checked through each of them).
sparse_kernel() {
	local out
	out=$(make -C "$KSRC" O="$KBUILD" C=2 "${objs_x86[@]}" 2>&1) ||
		{ printf '%s\n' "$out"; return 1; }
	! printf '%s\n' "$out" | grep -E 'warning:|error:'
}

# make W=1 over the same files, on x86 and on parisc (no chaining): every
# file the series adds or changes builds without a warning. W=1 also runs
# kernel-doc over them.
w1_kernel() { # KERNEL OBJECTS...: in that kernel's build
	local out kernel=$1
	shift
	out=$(KERNEL=$kernel && source kport/env.sh &&
		make -C "$KSRC" O="$KBUILD" "${KMAKE_ARGS[@]}" W=1 "$@" 2>&1) ||
		{ printf '%s\n' "$out"; return 1; }
	! printf '%s\n' "$out" | grep -E 'warning:|error:'
}

step "cppcheck core and usim (chain and no-chain)" cppcheck_usim
step "clang-tidy core and usim (chain and no-chain)" clang_tidy_usim
kport/tree.sh >/dev/null && kport/build.sh >/dev/null &&
	KERNEL=parisc kport/build.sh >/dev/null ||
	echo "lint: the kernel trees could not be built; the kernel checks will fail"
# Every .c file the series adds or changes; sg_chain_dma_kunit needs PCI,
# which the parisc config does not have.
mapfile -t objs_x86 < <(series_objects)
mapfile -t objs_parisc < <(printf '%s\n' "${objs_x86[@]}" | grep -v '^lib/sg_chain/sg_chain_dma_kunit\.o$')
step "checkpatch --strict, kernel-doc and copies of the kport series" kport/check.sh
step "sparse on the .c files the series adds or changes" sparse_kernel
step "W=1 on the series' files, x86_64" w1_kernel x86_64 "${objs_x86[@]}"
step "W=1 on the series' files, parisc" w1_kernel parisc "${objs_parisc[@]}"

# The 6.12 series, in its own tree and build at their defaults (KSRC and
# KBUILD, if given, name 6.1's): the same checks but W=1 on parisc, which
# runs on 6.1 only (the core is the same file; a third kernel build would
# be minutes more of every cold run for it).
k612() { (unset KSRC KBUILD; export KVER=6.12; "$@"); }
objs_612_of_tree() { source kport/env.sh && series_objects; }
sparse_612() { source kport/env.sh && objs_x86=("${objs_612[@]}") && sparse_kernel; }
k612 kport/tree.sh >/dev/null && k612 kport/build.sh >/dev/null ||
	echo "lint: the 6.12 tree could not be built; its kernel checks will fail"
mapfile -t objs_612 < <(k612 objs_612_of_tree)
step "checkpatch --strict, kernel-doc and copies of the 6.12 series" k612 kport/check.sh
step "sparse on the .c files the 6.12 series adds or changes" k612 sparse_612
step "W=1 on the 6.12 series' files, x86_64" k612 w1_kernel x86_64 "${objs_612[@]}"
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
