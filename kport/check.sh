#!/usr/bin/env bash
# make kport-check: the committed series against the repository and the
# kernel's own checkers.
#  - the files the series adds from the repository (the core, the case
#    table) are byte for byte the repository's: edit core/, then run
#    'make kport-series', never the other way round;
#  - scripts/checkpatch.pl --strict reports nothing on the series;
#  - scripts/kernel-doc -none accepts the core's comments.
set -euo pipefail
source "$(dirname "$0")/env.sh"

[ -x "$KSRC/scripts/checkpatch.pl" ] || die "no tree at $KSRC: run 'make qemu' first"
failed=0 passed=0
check() { # NAME COMMAND...: run, count, and show the output of a failure
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		passed=$((passed + 1)); echo "  ok    $name"
	else
		failed=$((failed + 1)); echo "  FAIL  $name"; printf '%s\n' "$out" | sed 's/^/        /' | head -40
	fi
}

copy_matches() { # TREE_PATH REPO_PATH: the series' version of the file is the repo's
	python3 "$REPO/kport/series_file.py" "$1" $(series_patches) |
		cmp -s - "$REPO/$2" ||
		{ echo "$KPATCHES carries a different $1 than $2: run 'make kport-series'"; return 1; }
}
for pair in "${KPORT_COPIES[@]}"; do
	check "series carries ${pair#*:} unchanged" copy_matches "${pair%%:*}" "${pair#*:}"
done

# The cover letter in the series is $KCOVER with the rows of
# kport/declared-differences, as kport/series.sh writes it.
cover_matches() {
	local want
	# Its first paragraph is the subject, which git folds.
	want=$(cover_letter | sed '1,/^$/d')
	[[ "$(cat "$REPO/$KPATCHES/0000-cover-letter.patch")" == *"$want"* ]] || {
		echo "the cover letter in $KPATCHES is not $KCOVER with"
		echo "kport/declared-differences: run 'make kport-series'"
		return 1
	}
}
check "cover letter lists kport/declared-differences" cover_matches

# Suppressions, each for a reason the patches cannot remove:
#  MACRO_ARG_REUSE     for_each_sg() must name its lvalue arguments in the
#                      init, test and step of the loop; the kernel's own
#                      definition, moved unchanged, draws the same check.
#  FILE_PATH_CHANGES   6.1 has no MAINTAINERS entry for lib/scatterlist.c
#                      or its headers for the new files to join.
#  AVOID_BUG           the core keeps exactly 6.1's BUG_ONs (the check
#                      below lists them): misuse that a void function cannot
#                      report, where going on would send data to the wrong
#                      page. A WARN that left the entry as it was turned a
#                      crash into silent misdirected DMA.
# Debian's python3 first: checkpatch's spdxcheck.py needs python3-ply,
# which another python3 on the PATH may lack.
checkpatch() {
	cd "$KSRC" && PATH="/usr/bin:$PATH" perl scripts/checkpatch.pl --strict --quiet \
		--ignore MACRO_ARG_REUSE,FILE_PATH_CHANGES,AVOID_BUG "$1"
}
checkpatch_clean() { # PATCH: no report, and no helper that failed to run
	local out
	out=$(checkpatch "$1" 2>&1) || { printf '%s\n' "$out"; return 1; }
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
for patch in $(series_patches); do
	check "checkpatch --strict $(basename "$patch")" checkpatch_clean "$patch"
done

# The BUG_ONs of 6.1's scatterlist.h (sg_assign_page, sg_page, sg_set_buf),
# lib/scatterlist.c (sg_last) and lib/sg_pool.c (sg_pool_index), and no
# other; 6.1's BUG_ON(!nents) in sg_alloc_table_chained() is a declared
# difference (-EINVAL).
core_bugs_are_6_1s() {
	local want got
	want=$(printf '%s\n' \
		'BUG_ON((unsigned long)page & SG_PAGE_LINK_MASK);' \
		'BUG_ON(sg_is_chain(sg));' \
		'BUG_ON(sg_is_chain(sg));' \
		'BUG_ON(!virt_addr_valid(buf));' \
		'BUG_ON(sg && !sg_is_last(sg));' \
		'BUG_ON(nents > SG_CHUNK_SIZE);')
	got=$(grep -oE '\<BUG(_ON)?\(.*' "$REPO/core/scatterlist_chain.h")
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); return 1; }
}
check "the core BUGs only where 6.1 does" core_bugs_are_6_1s

# The core, and every file of the tree the series adds or changes.
kerneldoc() {
	local files
	mapfile -t files < <(series_sources | sed "s|^|$KSRC/|")
	[ ${#files[@]} -ge 8 ] || { echo "the series touches only ${#files[@]} files?"; return 1; }
	out=$(perl "$KSRC/scripts/kernel-doc" -none "$REPO/core/scatterlist_chain.h" \
		"${files[@]}" 2>&1)
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
check "kernel-doc -none on the core and the files the series touches" kerneldoc

echo "kport-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
