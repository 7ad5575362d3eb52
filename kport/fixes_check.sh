#!/usr/bin/env bash
# make kport-fixes-check: the committed fix series (kport/fixes_env.sh:
# append, sg_split, dma_boundary, megaraid_sas), in their three forms, checked without
# building:
#  - the mainline form applies with git am, patch by patch, to a tree
#    assembled from $UPSTREAM's mainline files (with the stand-ins
#    fixes_env.sh names), and scripts/kernel-doc -none accepts the files
#    it changes;
#  - each backport applies to the pristine Debian tree it is for, and
#    each 6.1 backport request (kport/fixes-6.1/stable) to pristine 6.1;
#  - the forms carry the same patches and, in the files they fix, the same
#    changed lines (6.1's append fixes differ: 6.1 merges in one loop);
#  - subjects: the prefix of the files' subsystem, at most 72 characters;
#  - scripts/checkpatch.pl --strict reports nothing;
#  - every patch that changes a file of FIXED_FILES has a Fixes: tag
#    naming a commit $UPSTREAM/README.md or kport/fixes-commits lists,
#    or none if NO_FIXES_TAG names it, and then its message says why;
#    test patches have none; Cc: stable only on STABLE_SUBJECTS;
#    a backport request names its mainline commit, listed the same way;
#  - a patch names only people kport/fixes-credits credits, and no file of
#    the project the invented identity the series once had.
set -euo pipefail
source "$(dirname "$0")/env.sh"
: "${UPSTREAM:=$REPO/../shared/upstream}"
source "$(dirname "$0")/fixes_env.sh"
FORMS=(mainline 6.12 6.1)

subject() { # PATCH: the subject without [PATCH n/m], unfolded
	awk '/^Subject: / { s = $0; getline; while (/^ /) { s = s $0; getline } print s; exit }' "$1" |
		sed -e 's/^Subject: \[PATCH[^]]*\] //'
}
touches() { # PATCH FILE...
	local f
	for f in "${@:2}"; do grep -qxF "diff --git a/$f b/$f" "$1" && return 0; done
	return 1
}

applies_upstream() { # git am in turn, then kernel-doc on the changed files
	local work f out
	work=$(mktemp -d)
	trap 'rm -rf "$work"' RETURN
	mainline_base "$work" >/dev/null
	git -C "$work" init -q && git -C "$work" add -A &&
		git -C "$work" -c user.name=check -c user.email=check@localhost commit -qm base
	mapfile -t patches < <(form_patches mainline)
	am_unnamed "$work" "${patches[@]}" || return 1
	for f in "${FIXED_FILES[@]}"; do
		out=$(perl "$SGCHAIN_CACHE/linux-source-6.12/scripts/kernel-doc" -none "$work/$f" 2>&1)
		[ -z "$out" ] || { echo "kernel-doc on $f after the series:"; printf '%s\n' "$out"; return 1; }
	done
}
check "the mainline form applies with git am to a tree of $(realpath -m "$UPSTREAM")'s files; kernel-doc accepts them" \
	applies_upstream

applies_to_tree() { # KVER: cumulatively, on a scratch index of the pristine tree
	local tree=$SGCHAIN_CACHE/linux-source-$1 index patch
	[ -d "$tree/.git" ] || { echo "no tree at $tree: run 'make kport-series KVER=$1'"; return 1; }
	index=$(mktemp)
	trap 'rm -f "$index"' RETURN
	GIT_INDEX_FILE=$index git -C "$tree" read-tree pristine
	# 6.1's backport requests go first, as stable would take them.
	while IFS= read -r patch; do
		GIT_INDEX_FILE=$index git -C "$tree" apply --cached "$patch" ||
			{ echo "$(basename "$patch") does not apply to linux-source-$1"; return 1; }
	done < <([ "$1" != 6.1 ] || stable_requests; form_patches "$1")
}
for kver in 6.12 6.1; do
	check "the $kver backport applies to Debian's linux-source-$kver$([ "$kver" != 6.1 ] || echo ", on its backport requests")" applies_to_tree "$kver"
done
requests_apply() {
	local tree=$SGCHAIN_CACHE/linux-source-6.1 index patch
	index=$(mktemp)
	trap 'rm -f "$index"' RETURN
	while IFS= read -r patch; do
		GIT_INDEX_FILE=$index git -C "$tree" read-tree pristine
		GIT_INDEX_FILE=$index git -C "$tree" apply --cached "$patch" ||
			{ echo "$(basename "$patch") does not apply to linux-source-6.1"; return 1; }
	done < <(stable_requests)
}
check "each 6.1 backport request applies to Debian's linux-source-6.1" requests_apply

same_patches() { # per series: the same subjects, the same changed lines in FIXED_FILES
	local form series a b n
	for series in "${SERIES[@]}"; do
		mapfile -t a < <(series_patches mainline "$series")
		for form in 6.12 6.1; do
			mapfile -t b < <(series_patches "$form" "$series")
			[ ${#a[@]} -eq ${#b[@]} ] ||
				{ echo "$form's $series has ${#b[@]} patches, mainline's ${#a[@]}"; return 1; }
			for n in "${!a[@]}"; do
				[ "$(subject "${a[$n]}")" = "$(subject "${b[$n]}")" ] ||
					{ echo "$series patch $((n + 1)): '$(subject "${b[$n]}")' in $form"; return 1; }
				cmp -s <(changed_lines "${a[$n]}") <(changed_lines "${b[$n]}") && continue
				# 6.1's append fixes differ in form: 6.1 merges in one loop.
				[ "$form:$series" != 6.1:append ] || continue
				echo "$series patch $((n + 1)) changes $form's fixed files other than mainline's:"
				diff <(changed_lines "${a[$n]}") <(changed_lines "${b[$n]}") | head -10
				return 1
			done
		done
	done
}
changed_lines() { # PATCH: its +/- lines in FIXED_FILES
	awk -v files="${FIXED_FILES[*]}" '
		BEGIN { n = split(files, f, " "); for (i = 1; i <= n; i++) fixed["b/" f[i]] = 1 }
		/^diff --git / { in_fixed = ($4 in fixed); next }
		in_fixed && /^[-+]/ && !/^(---|\+\+\+) / { print }' "$1"
}
check "the three forms carry the same patches and the same fixes" same_patches

subjects_right() { # the subsystem's prefix for the files, and short enough to read
	local form patch subj want
	for form in "${FORMS[@]}"; do
		while IFS= read -r patch; do
			subj=$(subject "$patch")
			# As each subsystem's log spells its patches.
			want="lib/scatterlist: |tools/testing/scatterlist: "
			touches "$patch" arch/sparc/kernel/iommu.c && want="sparc64: "
			touches "$patch" arch/powerpc/kernel/iommu.c && want="powerpc/iommu: "
			touches "$patch" arch/alpha/kernel/pci_iommu.c && want="alpha: "
			touches "$patch" drivers/scsi/megaraid/megaraid_sas_base.c && want="scsi: megaraid_sas: "
			[[ $subj =~ ^($want) ]] || { echo "'$subj': the prefix is ${want/|/ or }"; return 1; }
			[ ${#subj} -le 72 ] || { echo "'$subj' has ${#subj} characters, more than 72"; return 1; }
		done < <(form_patches "$form")
	done
}
check "subjects: their subsystem's prefix, at most 72 characters" subjects_right

# Suppressions, each for a reason the patches cannot remove:
#  MISSING_SIGN_OFF   the committed patches name nobody: the sender signs
#                     off with 'make kport-fixes-send' (checked below);
#  UNKNOWN_COMMIT_ID  Debian's trees carry no history: the Fixes: hashes
#                     are checked against $UPSTREAM/README.md below;
#  FILE_PATH_CHANGES  no MAINTAINERS entry covers lib/sg_split.c or the
#                     harness for the new files to join.
#  BAD_REPORTED_BY_LINK  backport requests only: they keep the upstream
#                     commit's trailers as it has them (2023, before
#                     Closes: was asked for).
checkpatch_clean() { # PATCH
	local out ignore=MISSING_SIGN_OFF,UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES
	[[ $1 != */kport/fixes-6.1/stable/* ]] || ignore+=,BAD_REPORTED_BY_LINK
	out=$(cd "$SGCHAIN_CACHE/linux-source-6.12" && PATH="/usr/bin:$PATH" perl scripts/checkpatch.pl \
		--strict --quiet --ignore "$ignore" "$1" 2>&1) ||
		{ printf '%s\n' "$out"; return 1; }
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
while IFS= read -r patch; do
	check "checkpatch --strict ${patch#"$REPO"/}" checkpatch_clean "$patch"
done < <(for form in "${FORMS[@]}"; do form_patches "$form"; done; stable_requests)

verified_commit() { # "HASH (\"TITLE\")" as $UPSTREAM/README.md or kport/fixes-commits lists it
	grep -qF -- "\`$1\`" "$UPSTREAM/README.md" ||
		grep -v '^#' "$REPO/kport/fixes-commits" | cut -f1 | grep -qxF -- "$1" ||
		grep -v '^#' "$REPO/kport/fixes-commits" | cut -f1 |
			sed -E 's/^([0-9a-f]{12})[0-9a-f]*/\1/' | grep -qxF -- "$1"
}
tags_right() {
	local form patch fixes subj stable
	for form in "${FORMS[@]}"; do
		while IFS= read -r patch; do
			subj=$(subject "$patch")
			mapfile -t fixes < <(sed -n 's/^Fixes: //p' "$patch")
			if touches "$patch" "${FIXED_FILES[@]}" && [ -n "${NO_FIXES_TAG[$subj]+x}" ]; then
				[ ${#fixes[@]} -eq 0 ] || { echo "'$subj' is in NO_FIXES_TAG but has a Fixes: tag"; return 1; }
				grep -q 'the Fixes: tag is left to be added' "$patch" ||
					{ echo "'$subj' has no Fixes: tag and its message does not say why"; return 1; }
			elif touches "$patch" "${FIXED_FILES[@]}"; then
				[ ${#fixes[@]} -eq 1 ] || { echo "'$subj' needs one Fixes: tag, has ${#fixes[@]}"; return 1; }
				verified_commit "${fixes[0]}" ||
					{ echo "'$subj': Fixes: ${fixes[0]} is not a commit $UPSTREAM/README.md lists"; return 1; }
			else
				[ ${#fixes[@]} -eq 0 ] || { echo "'$subj' fixes no file but has a Fixes: tag"; return 1; }
			fi
			stable=false
			printf '%s\n' "${STABLE_SUBJECTS[@]}" | grep -qxF -- "$subj" && stable=true
			if grep -qx 'Cc: stable@vger.kernel.org' "$patch"; then
				$stable || { echo "'$subj' has Cc: stable but is not in STABLE_SUBJECTS"; return 1; }
			else
				! $stable || { echo "'$subj' lacks Cc: stable@vger.kernel.org"; return 1; }
			fi
		done < <(form_patches "$form")
	done
}
check "Fixes: tags name verified commits, Cc: stable only where a caller can hit it" tags_right

requests_right() { # "commit HASH upstream." naming a listed commit, its title the subject's
	local patch hash title
	while IFS= read -r patch; do
		hash=$(sed -n 's/^commit \([0-9a-f]\{40\}\) upstream\.$/\1/p' "$patch")
		[ -n "$hash" ] || { echo "$(basename "$patch") has no 'commit <40 hex> upstream.' line"; return 1; }
		title=$(subject "$patch")
		verified_commit "$hash (\"$title\")" ||
			{ echo "$(basename "$patch"): $hash (\"$title\") is not in kport/fixes-commits"; return 1; }
	done < <(stable_requests)
}
check "each backport request names its mainline commit, as kport/fixes-commits lists it" requests_right

only_credited() {
	local line named=()
	while IFS= read -r line; do
		credited "${line#*: }" || named+=("$line")
	done < <(grep -hE '^(From|Signed-off-by|Co-developed-by|Reported-by): ' \
		"$REPO"/kport/fixes*/*/*.patch | sort -u)
	[ ${#named[@]} -eq 0 ] ||
		{ echo "named in a patch, not in kport/fixes-credits:"; printf '  %s\n' "${named[@]}"; return 1; }
	named=($(git -C "$REPO" grep -lI -e 'sgchain\.invalid' -e 'sgchain developer' -- ':!kport/fixes_check.sh' || true))
	[ ${#named[@]} -eq 0 ] || { echo "files naming the invented identity:"; printf '  %s\n' "${named[@]}"; return 1; }
}
check "patches name only the people kport/fixes-credits credits; no file the invented identity" only_credited

echo "kport-fixes-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
