#!/usr/bin/env bash
# The fixes for the walks sg_flat_walk.cocci found reachable by a chained
# list (cocci/triage.tsv): one standalone patch per driver, against Debian's
# Linux 6.12, in kport/walk-fixes/. Each is a commit in a git worktree of
# the cached 6.12 tree at 'pristine' ($SGCHAIN_CACHE/walk-fixes-6.12), made
# from the committed patches: edit there with git (commit --amend, rebase
# -i), then write them again.
#
#   walk_fixes.sh tree     make the worktree from kport/walk-fixes
#   walk_fixes.sh series   write kport/walk-fixes from the worktree
#   walk_fixes.sh check    each patch applies to pristine 6.12 alone;
#                          checkpatch --strict; one Fixes: tag naming a
#                          commit kport/walk-fixes/commits lists, with its
#                          title, or none and a line in
#                          kport/walk-fixes/no-fixes saying why; no author
#                          and no sign-off
# Their tests are tests/walkfix (make walkfix-test). Ends with
# "N passed, N failed" (check).
set -euo pipefail
KVER=6.12 KSRC= KBUILD=
source "$(dirname "$0")/env.sh"

DIR=kport/walk-fixes
TREE=$SGCHAIN_CACHE/walk-fixes-6.12
patches() { find "$REPO/$DIR" -name '[0-9]*.patch' | sort; }

make_tree() {
	[ ! -e "$TREE" ] || die "$TREE exists: remove it ('git -C $KSRC worktree remove --force $TREE') to make it again"
	kgit rev-parse -q --verify pristine >/dev/null || die "no pristine tag in $KSRC: run 'make kport-series KVER=6.12'"
	kgit worktree prune
	kgit worktree add -q --detach "$TREE" pristine
	mapfile -t list < <(patches)
	[ ${#list[@]} -eq 0 ] || am_unnamed "$TREE" "${list[@]}"
	say "$TREE: pristine 6.12 and ${#list[@]} fixes"
}

write_series() {
	[ -d "$TREE" ] || die "no $TREE: run '$0 tree' first"
	[ -z "$(git -C "$TREE" status --porcelain --untracked-files=no)" ] ||
		die "$TREE has uncommitted changes: commit them first"
	rm -f "$REPO/$DIR"/[0-9]*.patch
	# Standalone patches ([PATCH], not [PATCH n/m]): each goes to its own
	# maintainers.
	git -C "$TREE" format-patch -q --no-numbered --zero-commit --no-signature \
		-o "$REPO/$DIR" pristine..HEAD
	mapfile -t list < <(patches)
	unname_patches "${list[@]}"
	say "wrote ${#list[@]} patches to $DIR"
}

subject() {
	awk '/^Subject: / { s = $0; getline; while (/^ /) { s = s $0; getline } print s; exit }' "$1" |
		sed -e 's/^Subject: \[PATCH[^]]*\] //'
}
applies() { # PATCH: alone, on a scratch index of pristine 6.12
	local index
	index=$(mktemp)
	trap 'rm -f "$index"' RETURN
	GIT_INDEX_FILE=$index kgit read-tree pristine
	GIT_INDEX_FILE=$index kgit apply --cached "$1"
}
# Suppressions: MISSING_SIGN_OFF, the patches name nobody (the sender signs
# off); UNKNOWN_COMMIT_ID, Debian's tree has no history: the Fixes: hashes
# are checked against kport/walk-fixes/commits instead.
checkpatch_clean() { # PATCH
	local out
	out=$(cd "$KSRC" && PATH="/usr/bin:$PATH" perl scripts/checkpatch.pl --strict --quiet \
		--ignore MISSING_SIGN_OFF,UNKNOWN_COMMIT_ID "$1" 2>&1) || { printf '%s\n' "$out"; return 1; }
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
# A patch whose walk came with a commit that could not be verified carries
# no Fixes: tag (an unverified one would be invented); it must then be
# listed, by subject and with the reason, in kport/walk-fixes/no-fixes.
tags_right() { # PATCH
	local fixes subj
	mapfile -t fixes < <(sed -n 's/^Fixes: //p' "$1")
	subj=$(subject "$1")
	if [ ${#fixes[@]} -eq 0 ]; then
		grep -qF -- "$subj	" "$REPO/$DIR/no-fixes" ||
			{ echo "no Fixes: tag, and $DIR/no-fixes does not say why"; return 1; }
	else
		[ ${#fixes[@]} -eq 1 ] || { echo "one Fixes: tag wanted, ${#fixes[@]} found"; return 1; }
		grep -qxF -- "${fixes[0]}" <(cut -f1 "$REPO/$DIR/commits") ||
			{ echo "Fixes: ${fixes[0]} is not a commit $DIR/commits lists"; return 1; }
		! grep -qF -- "$subj	" "$REPO/$DIR/no-fixes" ||
			{ echo "has a Fixes: tag but $DIR/no-fixes lists it"; return 1; }
	fi
	! grep -qE '^(From: |Signed-off-by: )' "$1" || { echo "names an author or signs off"; return 1; }
}
check_series() {
	local patch name
	while IFS= read -r patch; do
		name="$DIR/$(basename "$patch")"
		check "$name applies to pristine linux-source-6.12" applies "$patch"
		check "$name: checkpatch --strict" checkpatch_clean "$patch"
		check "$name: Fixes: names a verified commit (or no-fixes says why not); nobody named" tags_right "$patch"
	done < <(patches)
	echo "walk-fixes-check: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

case "${1:-}" in
tree) make_tree ;;
series) write_series ;;
check) check_series ;;
*) die "usage: $0 tree|series|check" ;;
esac
