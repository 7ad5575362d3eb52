#!/usr/bin/env bash
# make kport-fixes-check: the committed fix series, in its three forms,
# checked without building anything:
#  - the mainline form applies to $UPSTREAM's lib/scatterlist.c and
#    lib/sg_split.c (git apply --check, restricted to the files it has);
#  - each backport applies to the pristine Debian tree it is for;
#  - the forms carry the same patches and, in the files they fix, the same
#    changed lines;
#  - scripts/checkpatch.pl --strict reports nothing;
#  - every patch that changes lib/scatterlist.c or lib/sg_split.c has a
#    Fixes: tag naming a commit $UPSTREAM/README.md lists as verified, with
#    its title; test patches have none; Cc: stable only on STABLE_SUBJECTS;
#  - no patch names an author or carries a Signed-off-by, and no file of
#    the project names the invented identity the series once had.
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

applies_upstream() {
	local work patch includes=()
	[ -f "$UPSTREAM/lib/scatterlist.c" ] && [ -f "$UPSTREAM/lib/sg_split.c" ] || {
		echo "no mainline files in UPSTREAM=$UPSTREAM (lib/scatterlist.c, lib/sg_split.c)"
		return 1
	}
	work=$(mktemp -d)
	trap 'rm -rf "$work"' RETURN
	mkdir "$work/lib"
	cp "$UPSTREAM/lib/scatterlist.c" "$UPSTREAM/lib/sg_split.c" "$work/lib/"
	for f in "${FIXED_FILES[@]}"; do includes+=("--include=$f"); done
	# Applied in turn, as git am would: a later patch needs the earlier.
	while IFS= read -r patch; do
		touches "$patch" "${FIXED_FILES[@]}" || continue
		(cd "$work" && git apply --check "${includes[@]}" "$patch" &&
			git apply "${includes[@]}" "$patch") ||
			{ echo "$(basename "$patch") does not apply to $UPSTREAM"; return 1; }
	done < <(form_patches mainline)
}
check "the mainline form applies to $(realpath -m "$UPSTREAM")'s lib/scatterlist.c and lib/sg_split.c" \
	applies_upstream

applies_to_tree() { # KVER: cumulatively, on a scratch index of the pristine tree
	local tree=$SGCHAIN_CACHE/linux-source-$1 index patch
	[ -d "$tree/.git" ] || { echo "no tree at $tree: run 'make kport-series KVER=$1'"; return 1; }
	index=$(mktemp)
	trap 'rm -f "$index"' RETURN
	GIT_INDEX_FILE=$index git -C "$tree" read-tree pristine
	while IFS= read -r patch; do
		GIT_INDEX_FILE=$index git -C "$tree" apply --cached "$patch" ||
			{ echo "$(basename "$patch") does not apply to linux-source-$1"; return 1; }
	done < <(form_patches "$1")
}
for kver in 6.12 6.1; do
	check "the $kver backport applies to Debian's linux-source-$kver" applies_to_tree "$kver"
done

same_patches() { # the same subjects, and the same changed lines in FIXED_FILES
	local form a b n
	mapfile -t a < <(form_patches mainline)
	for form in 6.12 6.1; do
		mapfile -t b < <(form_patches "$form")
		[ ${#a[@]} -eq ${#b[@]} ] || { echo "$form has ${#b[@]} patches, mainline ${#a[@]}"; return 1; }
		for n in "${!a[@]}"; do
			[ "$(subject "${a[$n]}")" = "$(subject "${b[$n]}")" ] ||
				{ echo "patch $((n + 1)): '$(subject "${b[$n]}")' in $form"; return 1; }
			cmp -s <(changed_lines "${a[$n]}") <(changed_lines "${b[$n]}") || {
				# The append fixes differ in form: 6.1 merges in one loop.
				case "$form:$(subject "${a[$n]}")" in
				"6.1:lib/scatterlist: "*) continue ;;
				esac
				echo "patch $((n + 1)) changes $form's fixed files other than mainline's:"
				diff <(changed_lines "${a[$n]}") <(changed_lines "${b[$n]}") | head -10
				return 1
			}
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

# Suppressions, each for a reason the patches cannot remove:
#  MISSING_SIGN_OFF   the committed patches name nobody: the sender signs
#                     off with 'make kport-fixes-send' (checked below);
#  UNKNOWN_COMMIT_ID  Debian's trees carry no history: the Fixes: hashes
#                     are checked against $UPSTREAM/README.md below;
#  FILE_PATH_CHANGES  no MAINTAINERS entry covers lib/sg_split.c or the
#                     harness for the new files to join.
checkpatch_clean() { # PATCH
	local out
	out=$(cd "$SGCHAIN_CACHE/linux-source-6.12" && PATH="/usr/bin:$PATH" perl scripts/checkpatch.pl \
		--strict --quiet --ignore MISSING_SIGN_OFF,UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES "$1" 2>&1) ||
		{ printf '%s\n' "$out"; return 1; }
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
for form in "${FORMS[@]}"; do
	while IFS= read -r patch; do
		check "checkpatch --strict $(form_dir "$form")/$(basename "$patch")" checkpatch_clean "$patch"
	done < <(form_patches "$form")
done

verified_commit() { # "HASH (\"TITLE\")" as $UPSTREAM/README.md lists it
	grep -qF -- "\`$1\`" "$UPSTREAM/README.md"
}
tags_right() {
	local form patch fixes subj stable
	for form in "${FORMS[@]}"; do
		while IFS= read -r patch; do
			subj=$(subject "$patch")
			mapfile -t fixes < <(sed -n 's/^Fixes: //p' "$patch")
			if touches "$patch" "${FIXED_FILES[@]}"; then
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

nobody_named() {
	local named
	named=$(grep -lE '^(From|Signed-off-by): ' "$REPO"/kport/fixes*/*.patch || true)
	[ -z "$named" ] || { echo "patches that name an author or sign-off:"; printf '  %s\n' $named; return 1; }
	named=$(git -C "$REPO" grep -lI -e 'sgchain\.invalid' -e 'sgchain developer' -- ':!kport/fixes_check.sh' || true)
	[ -z "$named" ] || { echo "files naming the invented identity:"; printf '  %s\n' $named; return 1; }
}
check "no patch names an author or a sign-off, no file the invented identity" nobody_named

echo "kport-fixes-check: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
