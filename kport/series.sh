#!/usr/bin/env bash
# make kport-series: regenerate KVER's series (kport/patches for 6.1,
# kport/patches-6.12 for 6.12) from the commits on top of 'pristine' in
# $KSRC. A core or case-table change copied into the tree by 'make qemu' is
# folded into the patch that adds that file first, so the committed series
# always carries the repository's copies byte for byte.
set -euo pipefail
source "$(dirname "$0")/env.sh"

[ -d "$KSRC/.git" ] || die "no tree at $KSRC: run 'make qemu' (or kport/tree.sh) first"
kgit rev-parse -q --verify pristine >/dev/null || die "$KSRC has no 'pristine' tag"

for pair in "${KPORT_COPIES[@]}"; do
	tree_path=${pair%%:*}
	cp "$REPO/${pair#*:}" "$KSRC/$tree_path"
	if ! kgit diff --quiet HEAD -- "$tree_path"; then
		adder=$(kgit log --format=%H --diff-filter=A pristine..HEAD -- "$tree_path" | tail -n 1)
		[ -n "$adder" ] || die "no commit on top of pristine adds $tree_path"
		say "folding the new $tree_path into $(kgit log -1 --format='%h %s' "$adder")"
		kgit add -f "$tree_path"
		kgit commit -q --fixup="$adder"
	fi
done
if [ -n "$(kgit status --porcelain --untracked-files=no)" ]; then
	kgit status --short --untracked-files=no
	die "uncommitted changes in $KSRC: commit them (or git commit --fixup) first"
fi
# Not a pipe into grep -q: under pipefail, git's SIGPIPE would read as "no".
subjects=$(kgit log --format=%s pristine..HEAD)
if grep -q '^fixup! ' <<< "$subjects"; then
	GIT_SEQUENCE_EDITOR=true kgit rebase -q -i --autosquash pristine ||
		die "autosquash rebase failed in $KSRC; resolve it there"
fi

rm -f "$REPO/$KPATCHES"/*.patch
kgit config branch."$(kgit rev-parse --abbrev-ref HEAD)".description "$(cover_letter)"
kgit format-patch -q --zero-commit --no-signature --cover-letter \
	--cover-from-description=subject -o "$REPO/$KPATCHES" pristine..HEAD
say "wrote $(ls "$REPO/$KPATCHES"/*.patch | wc -l) files to $KPATCHES"

# The tree now holds exactly the new series: record it as applied.
series_hash > "$KSRC/.git/sgchain-series"
kgit rev-parse HEAD > "$KSRC/.git/sgchain-head"
