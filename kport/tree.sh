#!/usr/bin/env bash
# Make $KSRC the pristine Linux $KVER tree with sgchain's series applied and the
# core copied in. Extracts once (a git repository with a 'pristine' tag);
# re-applies the series only when $KPATCHES changed, and copies the
# core only when its content changed, so the kernel build stays incremental.
set -euo pipefail
source "$(dirname "$0")/env.sh"
source "$(dirname "$0")/../scripts/times.sh"
t0=$(date +%s)

if [ -d "$KSRC/.git" ]; then
	kgit rev-parse -q --verify pristine >/dev/null ||
		die "KSRC=$KSRC is a git tree without sgchain's 'pristine' tag; give an empty directory, or leave KSRC unset"
	# One tree per kernel version: the 6.12 series never lands on 6.1.
	pristine=$(kgit log -1 --format=%s pristine)
	[[ "$pristine" == *"linux-source-$KVER" ]] ||
		die "KSRC=$KSRC holds '$pristine', not linux-source-$KVER (KVER=$KVER); leave KSRC unset or give the $KVER tree"
elif ! ksrc_creatable; then
	if [ -e "$KSRC" ]; then
		die "KSRC=$KSRC is not a tree sgchain prepared, and not empty; give an empty directory, or leave KSRC unset"
	fi
	die "KSRC=$KSRC does not exist; sgchain creates a tree only under SGCHAIN_CACHE ($SGCHAIN_CACHE) or in an empty directory: 'mkdir -p $KSRC' if you meant a new tree there"
else
	[ -f "$KTARBALL" ] || die "$KTARBALL missing: apt-get install linux-source-$KVER"
	say "extracting $KTARBALL to $KSRC (about 15 s, 1.5 GB)"
	rm -rf "$KSRC.tmp" && mkdir -p "$KSRC.tmp"
	tar -xJf "$KTARBALL" -C "$KSRC.tmp" --strip-components=1
	say "recording the pristine tree in git (about a minute)"
	git -C "$KSRC.tmp" init -q
	# -f: Debian's top-level .gitignore ignores every top-level entry.
	git -C "$KSRC.tmp" add -A -f
	git -C "$KSRC.tmp" -c user.name="$(ident_name)" -c user.email="$(ident_email)" \
		commit -q -m "Linux $KVER from Debian's linux-source-$KVER"
	git -C "$KSRC.tmp" tag pristine
	# KSRC is missing or an empty directory here.
	rmdir "$KSRC" 2>/dev/null || true
	mv "$KSRC.tmp" "$KSRC"
fi

refuse_tree_edits
restore_planted
stamp="$KSRC/.git/sgchain-series"
want=$(series_hash)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	[ -n "$(series_patches)" ] || die "$KPATCHES holds no patches"
	# Work done in the tree since the series was applied would be lost.
	if [ -f "$stamp" ] &&
	   [ "$(kgit rev-parse HEAD)" != "$(cat "$KSRC/.git/sgchain-head" 2>/dev/null)" ]; then
		die "$KSRC has commits not in $KPATCHES, which changed since the tree was made from it: applying the new series would drop them. Save them ('git -C $KSRC format-patch $(cat "$KSRC/.git/sgchain-head" 2>/dev/null)..'), reset the tree to the old series ('git -C $KSRC reset --hard $(cat "$KSRC/.git/sgchain-head" 2>/dev/null)'), run this again and apply them on the new one"
	fi
	# Only pending copies of the repository's files may be overwritten
	# (refuse_tree_edits has made sure that is all they are).
	dirty=$(uncommitted_outside_copies)
	[ -z "$dirty" ] || die "uncommitted changes in $KSRC would be lost: $(echo $dirty)"
	say "applying $KPATCHES ($(series_patches | wc -l) patches) to the pristine tree"
	kgit am --abort >/dev/null 2>&1 || true
	kgit reset -q --hard pristine
	mapfile -t patches < <(series_patches)
	am_unnamed "$KSRC" "${patches[@]}" ||
		die "the series does not apply to pristine $KVER (tree left mid-am in $KSRC)"
	echo "$want" > "$stamp"
	kgit rev-parse HEAD > "$KSRC/.git/sgchain-head"
fi

# A changed copy (the core, a case table, a file of kport/lib/) goes in as
# a working-tree change; 'make kport-series' folds it into the series.
for pair in "${KPORT_COPIES[@]}"; do
	tree_path=${pair%%:*} repo_path=${pair#*:}
	if sync_copy "$tree_path" "$repo_path"; then
		say "copied $repo_path to $tree_path"
	fi
done

# An edit made in the tree itself, outside the copies, is built too: said
# on every build, and refused under CI, whose run is of the repository.
dirty=$(uncommitted_outside_copies)
dirty=${dirty//$'\n'/ }
if [ -n "$dirty" ]; then
	[ "${CI:-}" != true ] ||
		die "$KSRC has changes the series does not: $dirty. CI tests the repository: put them in $KPATCHES, or drop them ('git -C $KSRC checkout -- $dirty')"
	say "note: building changes of $KSRC that the series does not have: $dirty"
fi
time_record tree $(( $(date +%s) - t0 )) "linux-source-$KVER"
