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
# Every .c file the series adds or changes outside arch/ and drivers/;
# sg_chain_dma_kunit needs PCI, which the parisc config does not have.
mapfile -t objs_x86 < <(series_objects | grep -v '^arch/\|^drivers/')
mapfile -t objs_parisc < <(printf '%s\n' "${objs_x86[@]}" | grep -v '^lib/sg_chain/sg_chain_dma_kunit\.o$')
step "checkpatch --strict, kernel-doc and copies of the kport series" kport/check.sh
step "sparse on the .c files the series adds or changes" sparse_kernel
step "W=1 on the series' files, x86_64" w1_kernel x86_64 "${objs_x86[@]}"
step "W=1 on the series' files, parisc" w1_kernel parisc "${objs_parisc[@]}"

# The series' files under arch/ (the mappers' fixes) build in their own
# architectures' kernels only: each is built with W=1 in every kernel of
# kport/kernels whose build makes its object, and one that no kernel
# builds fails. Only warnings in those files count; what the files had
# before the series, by name without line numbers:
KNOWN_ARCH_WARNINGS=(
	# 6.1's own: pci_sun4v.c defines it for the ATU code without a prototype.
	"arch/sparc/kernel/pci_sun4v.c: warning: no previous prototype for ‘dma_4v_iotsb_bind’ [-Wmissing-prototypes]"
)
srcarch() { case $1 in i386 | x86*) echo x86 ;; sparc*) echo sparc ;; *) echo "$1" ;; esac; }
arch_w1() {
	local k a o out new rc=0 objs files
	local -A built=()
	mapfile -t arch_objs < <(series_objects | grep '^arch/')
	[ ${#arch_objs[@]} -gt 0 ] || return 0
	for k in $(ls kport/kernels | sed -n 's/\.sh$//p'); do
		a=$(KERNEL=$k && source kport/env.sh && srcarch "$KERNEL_ARCH")
		printf '%s\n' "${arch_objs[@]}" | grep -q "^arch/$a/" || continue
		KERNEL=$k kport/build.sh >/dev/null || { echo "the $k kernel does not build"; rc=1; continue; }
		objs=() files=()
		for o in "${arch_objs[@]}"; do
			[[ $o == arch/$a/* ]] && (KERNEL=$k && source kport/env.sh && [ -f "$KBUILD/$o" ]) || continue
			objs+=("$o") files+=("${o%.o}.c") built[$o]=$k
		done
		[ ${#objs[@]} -gt 0 ] || continue
		out=$(KERNEL=$k && source kport/env.sh &&
			make -C "$KSRC" O="$KBUILD" "${KMAKE_ARGS[@]}" W=1 "${objs[@]}" 2>&1) ||
			{ printf '%s\n' "$out" | tail -20; rc=1; continue; }
		new=$(printf '%s\n' "$out" | grep -E ': (warning|error):' | sed -E "s|^$KSRC/||" |
			grep -F -f <(printf '%s:\n' "${files[@]}") |
			sed -E 's|^([^:]*):[0-9]+:([0-9]+:)?|\1:|' |
			grep -vxF -f <(printf '%s\n' "${KNOWN_ARCH_WARNINGS[@]}") || true)
		[ -z "$new" ] || { echo "$k:"; printf '%s\n' "$new"; rc=1; }
	done
	for o in "${arch_objs[@]}"; do
		[ -n "${built[$o]:-}" ] || { echo "$o: no kernel of kport/kernels builds it"; rc=1; }
	done
	return "$rc"
}
step "W=1 on the series' files under arch/, in their architectures' kernels" arch_w1

# The drivers' fixes (megaraid_sas) change a few lines of files that sparse
# and W=1 already warn about in 6.1 (megaraid_sas_base.c: 33 warnings of
# its own, mostly sparse's endianness and undeclared module parameters): in
# the x86_64 kernel, which builds them, only warnings on the lines the
# series adds count.
added_lines() { # FILE: the line numbers the series adds to it, in the tree
	git -C "$KSRC" diff -U0 pristine -- "$1" |
		sed -n 's/^@@ -[0-9,]* +\([0-9]*\)\(,\([0-9]*\)\)\{0,1\} @@.*/\1 \3/p' |
		awk '{ n = ($2 == "" ? 1 : $2); for (i = 0; i < n; i++) print $1 + i }'
}
drivers_w1_sparse() {
	local o f out new rc=0
	mapfile -t drv_objs < <(series_objects | grep '^drivers/')
	for o in "${drv_objs[@]}"; do
		f=${o%.o}.c
		out=$(make -C "$KSRC" O="$KBUILD" W=1 C=2 "$o" 2>&1) ||
			{ printf '%s\n' "$out" | tail -20; rc=1; continue; }
		new=$(printf '%s\n' "$out" | grep -E ': (warning|error):' | sed -E "s|^$KSRC/||" |
			awk -F: -v f="$f" 'NR == FNR { add[$1] = 1; next }
				$1 == f && ($2 in add)' <(added_lines "$f") - || true)
		[ -z "$new" ] || { printf '%s\n' "$new"; rc=1; }
	done
	return "$rc"
}
step "W=1 and sparse on the lines the series adds under drivers/, x86_64" drivers_w1_sparse

# The 6.12 series, in its own tree and build at their defaults (KSRC and
# KBUILD, if given, name 6.1's): the same checks but W=1 on parisc, which
# runs on 6.1 only (the core is the same file; a third kernel build would
# be minutes more of every cold run for it).
k612() { (unset KSRC KBUILD; export KVER=6.12; "$@"); }
objs_612_of_tree() { source kport/env.sh && series_objects; }
sparse_612() { source kport/env.sh && objs_x86=("${objs_612[@]}") && sparse_kernel; }
k612 kport/tree.sh >/dev/null && k612 kport/build.sh >/dev/null ||
	echo "lint: the 6.12 tree could not be built; its kernel checks will fail"
mapfile -t objs_612 < <(k612 objs_612_of_tree | grep -v '^arch/\|^drivers/')
step "checkpatch --strict, kernel-doc and copies of the 6.12 series" k612 kport/check.sh
step "sparse on the .c files the 6.12 series adds or changes" k612 sparse_612
step "W=1 on the 6.12 series' files, x86_64" k612 w1_kernel x86_64 "${objs_612[@]}"
step "W=1 and sparse on the lines the 6.12 series adds under drivers/, x86_64" k612 drivers_w1_sparse

# No 6.12 kernel of the mappers' architectures is built here (and Debian's
# 6.12 sparc64 does not build at all): each of the 6.12 series' patches
# under arch/ must change exactly the lines its 6.1 form changes, which
# the 6.1 kernels build and boot.
diff_body() { # PATCH: its changed lines and their files, without positions
	sed -n '/^diff --git /,$p' "$1" | grep -E '^(diff --git |[-+])' | grep -vE '^(---|\+\+\+) '
}
arch_patches_as_6_1() {
	local p q subj rc=0
	for p in kport/series-6.12/0*.patch; do
		grep -q '^diff --git a/arch/' "$p" || continue
		subj=$(sed -n 's/^Subject: \[PATCH [0-9/]*\] //p' "$p")
		q=$(grep -lF -- "] $subj" kport/series-6.1/0*.patch | head -1)
		[ -n "$q" ] || { echo "$(basename "$p"): no patch of that subject in kport/series-6.1"; rc=1; continue; }
		cmp -s <(diff_body "$p") <(diff_body "$q") ||
			{ echo "$(basename "$p") changes other lines than $(basename "$q")"; rc=1; }
	done
	return "$rc"
}
step "the 6.12 series' patches under arch/ change what their 6.1 forms change" arch_patches_as_6_1
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
