#!/usr/bin/env bash
# make kport-fixes-send: the mainline form of the fix series, ready for git
# send-email, in the sender's own git identity: each series in its own
# directory (OUTDIR/append, OUTDIR/sg_split) with its cover letter; each
# patch signed off by you (user.name, user.email) and authored by you,
# except those kport/fixes-credits credits to someone else, which keep
# their author; To: the maintainers and Cc: the lists that
# scripts/get_maintainer.pl names for the files each series touches (the
# Cc: lines in the messages come on top, as git send-email reads them).
# Nothing is sent. Usage: fixes_send.sh OUTDIR
set -euo pipefail
source "$(dirname "$0")/env.sh"
source "$(dirname "$0")/fixes_env.sh"
out=${1:?usage: fixes_send.sh OUTDIR}
tree=$SGCHAIN_CACHE/fixes-mainline

name=$(git config user.name || true)
email=$(git config user.email || true)
[ -n "$name" ] && [ -n "$email" ] ||
	die "a Signed-off-by names the person who sends: set yours first ('git config --global user.name \"Your Name\"' and user.email)"
# The maintainers file of a mainline checkout if MAINLINE is one, else 6.12's.
gm_tree=${MAINLINE:-}
[ -n "$gm_tree" ] && [ -x "$gm_tree/scripts/get_maintainer.pl" ] || gm_tree=$SGCHAIN_CACHE/linux-source-6.12
[ -x "$gm_tree/scripts/get_maintainer.pl" ] ||
	die "no scripts/get_maintainer.pl in MAINLINE or $gm_tree: run 'make kport-series KVER=6.12'"

# What is sent is the committed patches: the tree must be exactly them.
[ -d "$tree" ] || "$REPO/kport/fixes.sh" tree mainline
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes: commit them first"
tree_is_committed "$tree" mainline ||
	die "$tree is not kport/fixes-mainline: write it ('make kport-fixes') or make it again ('kport/fixes.sh tree mainline')"

trap 'git -C "$tree" checkout -q --detach "$(cat "$(head_stamp "$tree")")" 2>/dev/null || true
	git -C "$tree" branch -q -D sgchain-send 2>/dev/null || true' EXIT
# Each commit again, signed off by the sender; authored by the sender
# unless credited to someone else.
git -C "$tree" checkout -q -B sgchain-send HEAD
export GIT_COMMITTER_NAME="$name" GIT_COMMITTER_EMAIL="$email" CREDITS
git -C "$tree" -c user.name="$name" -c user.email="$email" rebase -q fixes-base --exec \
	'a=$(git log -1 --format="%an <%ae>"); if grep -v "^#" "$CREDITS" | cut -f1 | grep -qxF -- "$a"; then r=; else r=--reset-author; fi; git log -1 --format=%B | sed "s/^\[ sender: /[ $GIT_COMMITTER_NAME: /" | git commit -q --amend $r --signoff -F -' \
	2> >(grep -v 'Executing: ' >&2)

mkdir -p "$out"
while read -r s first last; do
	mapfile -t to < <(cd "$gm_tree" && perl scripts/get_maintainer.pl --no-rolestats --no-git --nokeywords \
		--no-git-fallback --nol "$REPO/kport/fixes-mainline/$s"/0*.patch 2>/dev/null | grep '@' || true)
	mapfile -t cc < <(cd "$gm_tree" && perl scripts/get_maintainer.pl --no-rolestats --no-git --nokeywords \
		--no-git-fallback --nom --nor "$REPO/kport/fixes-mainline/$s"/0*.patch 2>/dev/null | grep '@' || true)
	args=()
	for a in "${to[@]}"; do args+=(--to="$a"); done
	for a in "${cc[@]}"; do args+=(--cc="$a"); done
	mkdir -p "$out/$s"
	rm -f "$out/$s"/*.patch
	git -C "$tree" branch -f "send-$s" "$last"
	git -C "$tree" config "branch.send-$s.description" "$(sed 's/@KVER@/mainline/g' "$REPO/kport/fixes-cover-$s.txt")"
	git -C "$tree" -c core.abbrev=12 format-patch -q --no-signature --cover-letter \
		--cover-from-description=subject "${args[@]}" -o "$out/$s" "$first~1..send-$s"
	git -C "$tree" branch -q -D "send-$s"
	say "$s: $(ls "$out/$s"/*.patch | wc -l) patches in $out/$s; To: ${to[*]:-(none found)}; Cc: ${cc[*]:-(none found)}"
done < <(split_series "$tree")
# 6.1's backport requests, for stable@: signed off, the note signed.
mkdir -p "$out/stable-6.1"
rm -f "$out/stable-6.1"/*.patch
while IFS= read -r p; do
	awk -v me="$name <$email>" -v who="$name" '
		/^\[ sender: / { sub(/^\[ sender: /, "[ " who ": ") }
		/^---$/ && !done { print "Signed-off-by: " me; done = 1 }
		{ print }' "$p" > "$out/stable-6.1/$(basename "$p")"
done < <(stable_requests)
say "stable-6.1: $(ls "$out/stable-6.1" | wc -l) backport request(s) in $out/stable-6.1, To: stable@vger.kernel.org"
say "as $name <$email>; get_maintainer.pl of $gm_tree. Read them, then, a series at a time:"
say "  git send-email $out/append/*.patch; git send-email $out/sg_split/*.patch"
say "  git send-email --to=stable@vger.kernel.org $out/stable-6.1/*.patch"
