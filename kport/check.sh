#!/usr/bin/env bash
# make kport-check: the committed series against the repository and the
# kernel's own checkers.
#  - every file the series adds has its home in the repository
#    (KPORT_COPIES: the core, the case tables, kport/lib/), and the series
#    leaves each byte for byte as the repository holds it: edit the
#    repository's file, then run 'make kport-series', never the other way
#    round;
#  - every prefix of the series has the files it includes, builds and
#    sources, nothing is renamed or deleted, and each Kconfig and Makefile
#    the series adds is reached from the tree (kport/series_lint.py);
#  - scripts/checkpatch.pl --strict reports nothing on the series;
#  - scripts/kernel-doc -none accepts the core's comments.
# 'check.sh --copies DIR' checks only the copies, of the series in DIR,
# without a kernel tree (tests/kport/test_copies.sh plants bugs there).
set -euo pipefail
source "$(dirname "$0")/env.sh"

copies_dir=$REPO/$KPATCHES
only_copies=false
if [ "${1:-}" = --copies ]; then
	[ -d "${2:-}" ] || die "usage: check.sh [--copies PATCH_DIR]"
	copies_dir=$2 only_copies=true
fi

mapfile -t copied < <(find "$copies_dir" -name '[0-9]*.patch' ! -name '0000-*' | sort)
copy_matches() { # TREE_PATH REPO_PATH: the series leaves the file as the repo holds it
	local series_copy rc=0
	series_copy=$(mktemp)
	python3 "$REPO/kport/series_file.py" "$1" "${copied[@]}" > "$series_copy" || rc=1
	if [ "$rc" -eq 0 ] && ! cmp -s "$series_copy" "$REPO/$2"; then
		echo "$copies_dir leaves $1 other than $2 holds it: run 'make kport-series'"
		diff "$series_copy" "$REPO/$2" | head -10
		rc=1
	fi
	rm -f "$series_copy"
	return "$rc"
}
for pair in "${KPORT_COPIES[@]}"; do
	check "series carries ${pair#*:} unchanged" copy_matches "${pair%%:*}" "${pair#*:}"
done

# A file the series adds that the repository does not hold would live only
# as patch text again.
added_are_copies() {
	local homeless
	homeless=$(awk '/^diff --git a\// { path = substr($3, 3) }
			/^new file mode/ { print path }' "${copied[@]}" |
		grep -vxF -f <(printf '%s\n' "${KPORT_COPIES[@]%%:*}") || true)
	[ -z "$homeless" ] || {
		echo "the series adds files that have no home in the repository" \
			"(kport/lib/ mirrors the tree):"
		printf '  %s\n' $homeless
		return 1
	}
}
check "every file the series adds is a file of the repository" added_are_copies
check "each prefix of the series has the files it includes, builds and sources" \
	python3 "$REPO/kport/series_lint.py" "${copied[@]}"
if $only_copies; then
	echo "kport-check: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi
[ -x "$KSRC/scripts/checkpatch.pl" ] || die "no tree at $KSRC: run 'make qemu' first"

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
#  MISSING_SIGN_OFF    the committed series name nobody: a Signed-off-by
#                      comes only from the person who sends a patch
#                      (kport/env.sh, unname_patches);
#  MACRO_ARG_REUSE     for_each_sg() must name its lvalue arguments in the
#                      init, test and step of the loop; the kernel's own
#                      definition, moved unchanged, draws the same check.
#  FILE_PATH_CHANGES   6.1 has no MAINTAINERS entry for lib/scatterlist.c
#                      or its headers for the new files to join.
#  LINUX_VERSION_CODE  both series carry the same suite files, and
#                      lib/sg_chain/sg_chain_compat.h is the one place that
#                      spells what 6.1 and 6.12 name differently (the check
#                      after this keeps it the only one).
#  AVOID_BUG           the core keeps exactly 6.1's BUG_ONs (the check
#                      below lists them): misuse that a void function cannot
#                      report, where going on would send data to the wrong
#                      page. A WARN that left the entry as it was turned a
#                      crash into silent misdirected DMA.
#  UNKNOWN_COMMIT_ID   the tree has no upstream history to look a Fixes:
#                      tag's commit up in: the check after the loop holds
#                      each to the commits kport/fixes-commits lists, with
#                      where each was seen.
# Debian's python3 first: checkpatch's spdxcheck.py needs python3-ply,
# which another python3 on the PATH may lack.
checkpatch() {
	cd "$KSRC" && PATH="/usr/bin:$PATH" perl scripts/checkpatch.pl --strict --quiet \
		--ignore MISSING_SIGN_OFF,MACRO_ARG_REUSE,FILE_PATH_CHANGES,LINUX_VERSION_CODE,AVOID_BUG,UNKNOWN_COMMIT_ID "$1"
}
checkpatch_clean() { # PATCH: no report, and no helper that failed to run
	local out
	out=$(checkpatch "$1" 2>&1) || { printf '%s\n' "$out"; return 1; }
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
mapfile -t patches < <(series_patches)
for patch in "${patches[@]}"; do
	check "checkpatch --strict $(basename "$patch")" checkpatch_clean "$patch"
done

# A Fixes: tag names a commit as kport/fixes-commits lists it: its full id
# or the first 12 digits of it, and its title.
fixes_tags_verified() {
	local patch tag listed
	listed=$(grep -v '^#' "$REPO/kport/fixes-commits" | cut -f1 |
		sed -E 's/^([0-9a-f]{12})[0-9a-f]*/\1/')
	for patch in "${patches[@]}"; do
		while IFS= read -r tag; do
			printf '%s\n' "$listed" | grep -qxF -- "$tag" ||
				{ echo "$(basename "$patch"): Fixes: $tag is not a commit kport/fixes-commits lists"; return 1; }
		done < <(sed -n 's/^Fixes: //p' "$patch")
	done
}
check "the series' Fixes: tags name commits kport/fixes-commits lists" fixes_tags_verified

# sun4v's dma_4v_map_sg() runs on no QEMU machine: the sparc64 run's limits
# case speaks for it only while its merge (the test, where the open segment
# starts) is dma_4u_map_sg()'s line for line.
sparc_merge() { # FILE FUNCTION: the function's lines from its for_each_sg() to dma_next
	sed -n "/^static int $2(/,/^}/p" "$KSRC/$1" |
		awk '/for_each_sg\(sglist, s, nelems, i\) \{/ && !done { on = 1 }
		     on { print } on && /dma_next = dma_addr \+ slen;/ { on = 0; done = 1 }' |
		grep -E 'for_each_sg|segstart|outs->|dma_next|max_seg_size|seg_boundary|out_entry|is_span_boundary'
}
sun4v_merge_is_sun4u() {
	local u v
	u=$(sparc_merge arch/sparc/kernel/iommu.c dma_4u_map_sg)
	v=$(sparc_merge arch/sparc/kernel/pci_sun4v.c dma_4v_map_sg)
	[ -n "$u" ] || { echo "no merge loop found in dma_4u_map_sg()"; return 1; }
	[ "$u" = "$v" ] || { diff <(echo "$u") <(echo "$v"); return 1; }
}
check "sun4v's dma_4v_map_sg() merges as dma_4u_map_sg(), which the sparc64 run tests" sun4v_merge_is_sun4u

version_checks_in_compat() { # no LINUX_VERSION_CODE outside sg_chain_compat.h
	local where
	where=$(awk '/^diff --git a\// { path = substr($3, 3) }
		/^[+].*LINUX_VERSION_CODE/ && path != "lib/sg_chain/sg_chain_compat.h" {
			print path }' "${patches[@]}" | sort -u)
	[ -z "$where" ] || {
		echo "LINUX_VERSION_CODE outside lib/sg_chain/sg_chain_compat.h:" $where
		return 1
	}
}
check "kernel versions are told apart in sg_chain_compat.h only" version_checks_in_compat

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
