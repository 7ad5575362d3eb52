#!/usr/bin/env bash
# make kport-fixes-test: the fix series' tests on a backport's tree (6.12 or
# 6.1), which builds: the scatterlist harness (tools/testing/scatterlist)
# and the sg_split KUnit suite as User Mode Linux, where
# CONFIG_NEED_SG_DMA_LENGTH is off. With every fix, all pass; then each
# fix's code is reverted in turn, alone, and exactly its own test must
# fail: the harness for a lib/scatterlist.c fix, the KUnit cases its patch
# adds for a lib/sg_split.c fix. Each KUnit case boots on its own, so a
# case that oopses (as the one for parts after the list's end does without
# its fix) takes no other case with it.
set -euo pipefail
source "$(dirname "$0")/env.sh"
form=${1:?usage: fixes_test.sh 6.12|6.1}
case "$form" in 6.12 | 6.1) ;; *) die "fixes_test.sh: 6.12 or 6.1 (the mainline form has no tree that builds here)" ;; esac
source "$(dirname "$0")/fixes_env.sh"
tree=$SGCHAIN_CACHE/fixes-$form
build=$SGCHAIN_CACHE/fixes-$form.build/uml
kunitconfig=lib/sg_split.kunitconfig

# The tree is the committed series, or made again from it.
stamp() { form_patches "$form" | xargs cat | sha1sum | cut -c1-40; }
stamp_file=$tree/.sgchain-fixes
if [ ! -d "$tree" ] || [ "$(cat "$stamp_file" 2>/dev/null)" != "$(stamp)" ]; then
	"$REPO/kport/fixes.sh" tree "$form"
	stamp > "$stamp_file"
fi
# The stamp is not the tree's: git must not see it.
grep -qxF /.sgchain-fixes "$(git -C "$tree" rev-parse --git-path info/exclude)" 2>/dev/null ||
	echo /.sgchain-fixes >> "$(git -C "$tree" rev-parse --git-path info/exclude)"
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes: commit them (git commit --fixup) or drop them"
mkdir -p "$build"

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
kunit_build() { # W=1; no new warning in the files the series touches
	local out new known=()
	out=$(cd "$tree" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS python3 tools/testing/kunit/kunit.py build --build_dir "$build" \
		--kunitconfig "$kunitconfig" --make_options W=1 --jobs "$(nproc)" 2>&1) ||
		{ printf '%s\n' "$out" | tail -20; return 1; }
	[ "$form" != 6.1 ] || known=("${KNOWN_WARNINGS_6_1[@]}")
	new=$(grep -E '(lib/sg_split|lib/scatterlist|sg_split_kunit)[^ :]*:[0-9]+:([0-9]+:)? (warning|error)' <<< "$out" |
		sed -E "s|^$tree/||; s|^([^:]*):[0-9]+:([0-9]+:)?|\1:|" |
		grep -vxF -f <(printf '%s\n' "${known[@]}" '') || true)
	[ -z "$new" ] || { printf '%s\n' "$new"; return 1; }
}
kunit_case() { # CASE: passes? (one boot each)
	local out
	out=$(cd "$tree" && python3 tools/testing/kunit/kunit.py exec --build_dir "$build" \
		--timeout 120 "sg_split.$1" 2>&1) && return 0
	grep -E 'FAILED|EXPECTATION|Expected|part [0-9]|crash|panic|missing' <<< "$out" | head -6 >&2
	return 1
}
cases() { grep -oP '^\tKUNIT_CASE_PARAM\(\K\w+' "$tree/$(suite_file)"; }
suite_file() { git -C "$tree" ls-files | grep -m1 'sg_split_kunit\.c$'; }

say "the fix series of $form in $tree; UML build in $build"
check "the harness passes with every fix" harness
check "the sg_split suite builds with W=1, no warning in the files the series touches" kunit_build
mapfile -t all_cases < <(cases)
for c in "${all_cases[@]}"; do
	check "sg_split.$c passes with every fix" kunit_case "$c"
done

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
	if kunit_build >/dev/null; then
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
while IFS= read -r fix; do
	want=()
	if git -C "$tree" diff --quiet "$fix~1" "$fix" -- tools/testing/scatterlist; then :; else
		want+=(harness)
	fi
	while IFS= read -r c; do want+=("sg_split.$c"); done < <(git -C "$tree" diff "$fix~1" "$fix" |
		grep -oP '^\+\tKUNIT_CASE_PARAM\(\K\w+' || true)
	check "without '$(git -C "$tree" log -1 --format=%s "$fix")', only ${want[*]} fails" \
		only_its_test_fails "$fix" "${want[@]}"
done < <(git -C "$tree" log --reverse --format=%H fixes-base..HEAD -- "${FIXED_FILES[@]}")

# Leave the build as the series is, for the next run.
kunit_build >/dev/null || true
echo "kport-fixes-test $form: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
