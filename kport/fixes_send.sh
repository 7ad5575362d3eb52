#!/usr/bin/env bash
# make kport-fixes-send: the mainline form of the fix series, ready for git
# send-email, in the sender's own git identity: each patch authored and
# signed off by you (user.name, user.email), To: the maintainers and Cc:
# the lists that scripts/get_maintainer.pl names for the files it touches.
# Nothing is sent. Usage: fixes_send.sh OUTDIR
set -euo pipefail
source "$(dirname "$0")/env.sh"
out=${1:?usage: fixes_send.sh OUTDIR}
: "${MAINLINE:=$SGCHAIN_CACHE/mainline-ref}"
tree=$SGCHAIN_CACHE/fixes-mainline

name=$(git config user.name || true)
email=$(git config user.email || true)
[ -n "$name" ] && [ -n "$email" ] ||
	die "a Signed-off-by names the person who sends: set yours first ('git config --global user.name \"Your Name\"' and user.email)"
# The maintainers file of a mainline checkout if MAINLINE is one, else 6.12's.
gm_tree=$MAINLINE
[ -x "$gm_tree/scripts/get_maintainer.pl" ] || gm_tree=$SGCHAIN_CACHE/linux-source-6.12
[ -x "$gm_tree/scripts/get_maintainer.pl" ] ||
	die "no scripts/get_maintainer.pl in MAINLINE or $gm_tree: run 'make kport-series KVER=6.12'"

[ -d "$tree" ] || "$REPO/kport/fixes.sh" tree mainline
[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
	die "$tree has uncommitted changes: commit them first"
# The committed patches are what is sent: the tree must be exactly them.
work=$(mktemp -d)
trap 'rm -rf "$work"; git -C "$tree" checkout -q --detach fixes 2>/dev/null || true; git -C "$tree" branch -q -D sgchain-send 2>/dev/null || true' EXIT
git -C "$tree" -c core.abbrev=9 format-patch -q --zero-commit --no-signature -o "$work/check" fixes-base..HEAD
unname_patches "$work/check"/*.patch
for p in "$work/check"/*.patch; do
	cmp -s "$p" "$REPO/kport/fixes/$(basename "$p")" ||
		die "$tree is not kport/fixes ($(basename "$p") differs): run 'kport/fixes.sh tree mainline' or write the series first"
done

# Each commit again, authored and signed off by the sender.
git -C "$tree" checkout -q -B sgchain-send HEAD
export GIT_AUTHOR_NAME="$name" GIT_AUTHOR_EMAIL="$email" GIT_COMMITTER_NAME="$name" \
	GIT_COMMITTER_EMAIL="$email"
git -C "$tree" rebase -q fixes-base --exec 'git commit -q --amend --no-edit --reset-author --signoff'

mapfile -t to < <(cd "$gm_tree" && perl scripts/get_maintainer.pl --no-rolestats --no-git --nokeywords \
	--no-git-fallback --nol "$REPO"/kport/fixes/0*.patch 2>/dev/null | grep '@' || true)
mapfile -t cc < <(cd "$gm_tree" && perl scripts/get_maintainer.pl --no-rolestats --no-git --nokeywords \
	--no-git-fallback --nom --nor "$REPO"/kport/fixes/0*.patch 2>/dev/null | grep '@' || true)
args=()
for a in "${to[@]}"; do args+=(--to="$a"); done
for a in "${cc[@]}"; do args+=(--cc="$a"); done
mkdir -p "$out"
rm -f "$out"/*.patch
git -C "$tree" config branch.sgchain-send.description "$(sed 's/@KVER@/mainline/g' "$REPO/kport/fixes-cover.txt")"
git -C "$tree" -c core.abbrev=12 format-patch -q \
	--no-signature --cover-letter --cover-from-description=subject "${args[@]}" \
	-o "$out" fixes-base..sgchain-send
say "wrote $(ls "$out"/*.patch | wc -l) patches to $out as $name <$email>"
say "To: ${to[*]:-(none found)}"
say "Cc: ${cc[*]:-(none found)}"
say "get_maintainer.pl of $gm_tree; read them, then: git send-email $out/*.patch"
