#!/usr/bin/env bash
# make kport-series: regenerate KVER's series (kport/series-6.1 for 6.1,
# kport/series-6.12 for 6.12) from the commits on top of 'pristine' in
# $KSRC. A change to a file the series takes from the repository (the core,
# the case tables, kport/lib/), copied into the tree by 'make qemu', is first
# folded into the last commit that touches that file: the commit that adds
# it, or for a file several patches grow (a suite's Makefile, Kconfig), the
# last of them. Folded there, it never conflicts with a later commit, and
# the committed series always ends with the repository's copies byte for
# byte. To put a change elsewhere, commit it in $KSRC yourself first.
set -euo pipefail
source "$(dirname "$0")/env.sh"

# No tree yet (the other kernel's, say): make one with the committed series,
# into which the repository's files then fold.
[ -d "$KSRC/.git" ] || "$REPO/kport/tree.sh"
kgit rev-parse -q --verify pristine >/dev/null || die "$KSRC has no 'pristine' tag"
# The tree must hold the committed series: regenerated from an older one,
# the series would undo what changed in it since (a pull, a hand edit).
[ "$(cat "$KSRC/.git/sgchain-series" 2>/dev/null)" = "$(series_hash)" ] ||
	die "$KPATCHES changed since $KSRC was made from it: regenerating it from the tree would undo that change. Run 'make qemu' (or kport/tree.sh) to apply it first"
mapfile -t patches < <(series_patches)

# A fixup commits what is staged: work in the tree outside the copies must
# be committed first (a mutation a killed run left is not such work).
restore_planted
if [ -n "$(uncommitted_outside_copies)" ]; then
	kgit status --short --untracked-files=no
	die "uncommitted changes in $KSRC: commit them (or git commit --fixup) first"
fi

# A copy has three versions besides the repository's: the tree's file, its
# last commit in the tree, and the committed series'. An edit made in the
# tree, committed or not, would be overwritten by the fold without a word;
# a commit of the repository's own version (a new file's, say) is fine.
refuse_tree_edits
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for pair in "${KPORT_COPIES[@]}"; do
	tree_path=${pair%%:*} repo_path=${pair#*:}
	kgit cat-file -e "HEAD:$tree_path" 2>/dev/null || continue
	kgit show "HEAD:$tree_path" > "$work/committed"
	if python3 "$REPO/kport/series_file.py" "$tree_path" "${patches[@]}" > "$work/series" 2>/dev/null &&
	   cmp -s "$work/committed" "$work/series"; then
		continue
	fi
	repo_had "$work/committed" "$tree_path" "$repo_path" ||
		die "$tree_path was changed by a commit in $KSRC that $repo_path does not hold: carry that change into $repo_path ('git -C $KSRC log -p pristine..HEAD -- $tree_path' shows it), drop the commit, then run 'make kport-series' again"
done

for pair in "${KPORT_COPIES[@]}"; do
	tree_path=${pair%%:*}
	sync_copy "$tree_path" "${pair#*:}" || true
	if [ -n "$(kgit status --porcelain --ignored -- "$tree_path")" ]; then
		last=$(kgit log -1 --format=%H pristine..HEAD -- "$tree_path")
		[ -n "$last" ] ||
			die "no commit of the series adds $tree_path (new in ${pair#*:}?): in $KSRC, 'git add -f $tree_path' and commit it into the patch where it belongs ('git commit --fixup=COMMIT'), then run 'make kport-series' again"
		say "folding the new $tree_path into $(kgit log -1 --format='%h %s' "$last")"
		kgit add -f "$tree_path"
		kgit commit -q --fixup="$last" -- "$tree_path"
	fi
done
# Not a pipe into grep -q: under pipefail, git's SIGPIPE would read as "no".
subjects=$(kgit log --format=%s pristine..HEAD)
if grep -q '^fixup! ' <<< "$subjects"; then
	# The rebase rewrites every file the series touches, and each ends as
	# it was (the fixups are already in the working tree): give each its
	# time back, or the next build recompiles about 200 objects for nothing.
	times="$work/times"
	mkdir "$times"
	mapfile -t touched < <(kgit diff --name-only pristine)
	for i in "${!touched[@]}"; do
		f="$KSRC/${touched[$i]}"
		if [ -f "$f" ]; then
			touch -r "$f" "$times/$i"
			cp "$f" "$times/$i.content"
		fi
	done
	GIT_SEQUENCE_EDITOR=true kgit rebase -q -i --autosquash pristine ||
		die "autosquash rebase failed in $KSRC; resolve it there"
	for i in "${!touched[@]}"; do
		f="$KSRC/${touched[$i]}"
		if [ -f "$times/$i" ] && cmp -s "$f" "$times/$i.content"; then
			touch -r "$times/$i" "$f"
		fi
	done
fi

old_cover="$work/old-cover"
cp "$REPO/$KPATCHES/0000-cover-letter.patch" "$old_cover" 2>/dev/null || true
rm -f "$REPO/$KPATCHES"/*.patch
kgit config branch."$(kgit rev-parse --abbrev-ref HEAD)".description "$(cover_letter)"
# core.abbrev fixed: git's default grows with the number of objects, which
# would rewrite every index line of a series regenerated in a new tree. The
# a/ b/ prefixes fixed: a user's diff.noprefix would make a series that
# neither git am -p1 nor kport/series_file.py reads.
kgit -c core.abbrev=9 -c diff.noprefix=false -c diff.mnemonicPrefix=false format-patch -q --zero-commit --no-signature --cover-letter \
	--cover-from-description=subject -o "$REPO/$KPATCHES" pristine..HEAD
unname_patches "$REPO/$KPATCHES"/*.patch
keep_cover_date "$REPO/$KPATCHES/0000-cover-letter.patch" "$old_cover"
say "wrote $(ls "$REPO/$KPATCHES"/*.patch | wc -l) files to $KPATCHES"

# The tree now holds exactly the new series: record it as applied.
series_hash > "$KSRC/.git/sgchain-series"
kgit rev-parse HEAD > "$KSRC/.git/sgchain-head"
