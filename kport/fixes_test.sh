#!/usr/bin/env bash
# make kport-fixes-test: the fix series' tests on a form's tree. On a
# backport (6.12, 6.1), which builds: the scatterlist harness
# (tools/testing/scatterlist) and the sg_split KUnit suite as User Mode
# Linux, where CONFIG_NEED_SG_DMA_LENGTH is off. On mainline, whose tree
# holds only the files the series touch (kport/fixes_env.sh): the harness,
# built from mainline's lib/scatterlist.c and header. With every fix, all
# pass; then each fix's code is reverted in turn, alone, and exactly the
# tests FIX_TESTS (kport/fixes_env.sh) names for it must fail. Each KUnit
# case boots on its own, so a case that oopses (as the one for parts after
# the list's end does without its fix) takes no other case with it. The
# mappers' fixes (dma_boundary) and megaraid_sas's are tested by booting
# the machines whose runs show them
# (make mutate-kernel reverts each there); here each must name the
# mutation that does.
set -euo pipefail
source "$(dirname "$0")/env.sh"
form=${1:?usage: fixes_test.sh mainline|6.12|6.1}
source "$(dirname "$0")/fixes_env.sh"
source "$REPO/scripts/times.sh"
form_dir "$form" >/dev/null
tree=$SGCHAIN_CACHE/fixes-$form
build=$SGCHAIN_CACHE/fixes-$form.build/uml
kunitconfig=$SGCHAIN_CACHE/fixes-$form.build/sg_split.kunitconfig

# The tree is the committed series, or made again from it.
[ -d "$tree" ] && tree_is_committed "$tree" "$form" || "$REPO/kport/fixes.sh" tree "$form"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes: commit them (git commit --fixup) or drop them"
[ "$form" != mainline ] || build=
[ -z "$build" ] || mkdir -p "$build"
# The suite's config, outside the tree: lib/tests has no per-suite file.
mkdir -p "$(dirname "$kunitconfig")"
printf '%s\n' CONFIG_KUNIT=y CONFIG_SG_SPLIT_KUNIT_TEST=y > "$kunitconfig"

harness() { # passes?
	local out rc=0
	out=$(own_make -s -C "$tree/tools/testing/scatterlist" 2>&1 &&
		"$tree/tools/testing/scatterlist/main" 2>&1) || rc=$?
	own_make -s -C "$tree/tools/testing/scatterlist" clean >/dev/null 2>&1 || true
	[ "$rc" -eq 0 ] || { printf '%s\n' "$out" | tail -8 >&2; return 1; }
}
# W=1 warnings the tree has of its own in the files the series touches,
# without line numbers: 6.1's kernel-doc of lib/scatterlist.c misses two
# parameters (the refactor's patch 6 describes them; these fixes do not
# touch those comments).
KNOWN_WARNINGS_6_1=(
	"lib/scatterlist.c: warning: Function parameter or member 'first_chunk' not described in '__sg_alloc_table'"
	"lib/scatterlist.c: warning: Function parameter or member 'flags' not described in 'sg_miter_start'"
)
# The kernel objects of the C files the series changes (the suite's too);
# the mappers' files under arch/ build in their own architectures' kernels
# only, which make lint builds them in.
touched_objects() {
	git -C "$tree" diff --name-only fixes-base..HEAD -- '*.c' | grep -v '^tools/\|^arch/' |
		sed 's/\.c$/.o/'
}
# The kernel as kunit.py builds it, then the touched objects again with W=1.
# W=1 over the whole kernel would also run scripts/kernel-doc on each of
# its 650 C files, which took a cold build from 2.5 to 6 minutes, for
# warnings nobody reads: only the touched files' are checked.
kunit_build() { # no new W=1 warning in the files the series touches
	local out new known=() rc=0 t0 objs
	t0=$(date +%s)
	mapfile -t objs < <(touched_objects)
	out=$(cd "$tree" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS python3 tools/testing/kunit/kunit.py build --build_dir "$build" \
		--kunitconfig "$kunitconfig" --jobs "$(nproc)" 2>&1 &&
		own_make -C "$tree" ARCH=um O="$build" W=1 "${objs[@]}" 2>&1) || rc=$?
	time_record build $(( $(date +%s) - t0 )) "fixes-$form uml"
	[ "$rc" -eq 0 ] || { printf '%s\n' "$out" | tail -20; return 1; }
	[ "$form" != 6.1 ] || known=("${KNOWN_WARNINGS_6_1[@]}")
	new=$(grep -E '(lib/sg_split|lib/scatterlist|sg_split_kunit)[^ :]*:[0-9]+:([0-9]+:)? (warning|error)' <<< "$out" |
		sed -E "s|^$tree/||; s|^([^:]*):[0-9]+:([0-9]+:)?|\1:|" |
		grep -vxF -f <(printf '%s\n' "${known[@]}" '') || true)
	[ -z "$new" ] || { printf '%s\n' "$new"; return 1; }
}
kunit_case() { # CASE: passes? (one boot each)
	local out rc=0 t0
	t0=$(date +%s)
	out=$(cd "$tree" && python3 tools/testing/kunit/kunit.py exec --build_dir "$build" \
		--timeout 120 "sg_split.$1" 2>&1) || rc=$?
	time_record boot $(( $(date +%s) - t0 )) "fixes-$form uml sg_split.$1"
	[ "$rc" -ne 0 ] || return 0
	grep -E 'FAILED|EXPECTATION|Expected|part [0-9]|crash|panic|missing' <<< "$out" | head -6 >&2
	return 1
}

suite_file() { git -C "$tree" ls-files | grep -m1 'sg_split_kunit\.c$' || true; }
cases() { grep -oP '^\tKUNIT_CASE_PARAM\(\K\w+' "$tree/$(suite_file)"; }
# The mainline tree builds no kernel: its suite runs on the backports.
kunit_here() { [ "$form" != mainline ]; }

say "the fix series of $form in $tree${build:+; UML build in $build}"
check "the harness passes with every fix" harness
all_cases=()
if kunit_here; then
	check "the sg_split suite builds, no W=1 warning in the files the series touches" kunit_build
	mapfile -t all_cases < <(cases)
	for c in "${all_cases[@]}"; do
		check "sg_split.$c passes with every fix" kunit_case "$c"
	done
fi

restore_fixed() {
	git -C "$tree" reset -q
	git -C "$tree" checkout -q HEAD -- "${FIXED_FILES[@]}"
}
# Revert FIX's code alone; which tests fail must be exactly WANT.
only_its_test_fails() { # FIX_COMMIT WANT...
	local fix=$1 got=() c rc=0
	shift
	if ! git -C "$tree" diff "$fix~1" "$fix" -- "${FIXED_FILES[@]}" |
	     git -C "$tree" apply -R -3 -q; then
		echo "the fix does not revert alone: a later patch changes lines next to its own"
		restore_fixed
		return 1
	fi
	harness 2>/dev/null || got+=(harness)
	if ! kunit_here; then
		:
	elif kunit_build >/dev/null; then
		for c in "${all_cases[@]}"; do
			kunit_case "$c" 2>/dev/null || got+=("sg_split.$c")
		done
	else
		got+=(build)
	fi
	restore_fixed
	if [ "${got[*]}" != "$*" ]; then
		echo "failing without it: ${got[*]:-nothing}; expected: $*"
		rc=1
	fi
	return "$rc"
}
# A fix whose test is a booted run of the sgchain series (FIX_TESTS
# "boot:BOOT:MUTATION"): the list's MUTATION must plant in one of the
# files the fix changes, in the tree, and be judged by that run. Booting
# it is make mutate-kernel's (minutes a fix), not this target's.
boot_test_listed() { # FIX BOOT MUTATION
	local block file run
	block=$(awk -v id="$3" '/^id: / { on = ($2 == id) } on' "$REPO/tests/mutate/mutations")
	[ -n "$block" ] || { echo "no mutation $3 in tests/mutate/mutations"; return 1; }
	file=$(sed -n 's/^file: tree://p' <<< "$block")
	run=$(sed -n 's/^run: //p' <<< "$block")
	git -C "$tree" diff --name-only "$1~1" "$1" | grep -qxF -- "$file" ||
		{ echo "$3 plants in '$file', which the fix does not change"; return 1; }
	[ "$run" = "machines MACHINES=$2" ] ||
		{ echo "$3 is judged by '$run', not by the $2 run"; return 1; }
}
while IFS= read -r fix; do
	subj=$(git -C "$tree" log -1 --format=%s "$fix")
	if [ -z "${FIX_TESTS[$subj]+x}" ]; then
		check "'$subj' names its tests in FIX_TESTS (kport/fixes_env.sh)" false
		continue
	fi
	if [[ ${FIX_TESTS[$subj]} == boot:* ]]; then
		IFS=: read -r _ boot mutation <<< "${FIX_TESTS[$subj]}"
		check "'$subj': make mutate-kernel's $mutation reverts it in the $boot run" \
			boot_test_listed "$fix" "$boot" "$mutation"
		continue
	fi
	read -ra want <<< "${FIX_TESTS[$subj]}"
	if ! kunit_here && [ "${want[*]}" != harness ]; then
		say "  '$subj': its tests are KUnit cases, run on the 6.12 and 6.1 backports"
		continue
	fi
	check "without '$subj', only ${want[*]} fails" only_its_test_fails "$fix" "${want[@]}"
done < <(git -C "$tree" log --reverse --format=%H fixes-base..HEAD -- "${FIXED_FILES[@]}")

# Leave the build as the series is, for the next run.
! kunit_here || kunit_build >/dev/null || true
echo "kport-fixes-test $form: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
