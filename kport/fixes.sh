#!/usr/bin/env bash
# The scatterlist fixes as a standalone series, for Linux's maintainers, in
# three forms that carry the same fixes:
#   kport/fixes        mainline's (lib/tests/ layout), checked against
#                      $UPSTREAM's lib/scatterlist.c and lib/sg_split.c
#   kport/fixes-6.12   the stable backport to Debian's 6.12
#   kport/fixes-6.1    the stable backport to Debian's 6.1
# Each is written from a git tree in the cache, made from the committed
# patches: edit there with git (commit --fixup, rebase), then write again.
#
#   fixes.sh tree FORM     make $SGCHAIN_CACHE/fixes-FORM from the patches
#   fixes.sh series FORM   write the patches from that tree
#   fixes.sh check         the committed forms: they apply, checkpatch,
#                          Fixes: and Cc: tags, no sign-off, same fixes
#   fixes.sh test FORM     (6.12, 6.1) the tests pass, and reverting any one
#                          fix's code makes exactly its own test fail
#   fixes.sh send DIR      the mainline form in the sender's own git
#                          identity, signed off, To/Cc from get_maintainer.pl
# FORM is mainline, 6.12 or 6.1.
set -euo pipefail
source "$(dirname "$0")/env.sh"
source "$(dirname "$0")/fixes_env.sh"

: "${UPSTREAM:=$REPO/../shared/upstream}"
# Mainline's files for the mainline form's tree: a mainline checkout, or a
# directory with those of them this machine has (see docs/upstream-fixes.md).
: "${MAINLINE:=$SGCHAIN_CACHE/mainline-ref}"

# The base of the mainline form's tree: the files the series touches, from
# $MAINLINE where it has them, else from $UPSTREAM (lib/scatterlist.c and
# lib/sg_split.c) or, as stand-ins, from 6.12 (what cannot be checked here).
MAINLINE_FILES=(lib/scatterlist.c lib/sg_split.c lib/tests/Makefile lib/Kconfig.debug
	tools/testing/scatterlist/Makefile tools/testing/scatterlist/main.c
	tools/testing/scatterlist/linux/mm.h)
mainline_base() { # TREE
	local f src k612=$SGCHAIN_CACHE/linux-source-6.12
	for f in "${MAINLINE_FILES[@]}"; do
		mkdir -p "$1/$(dirname "$f")"
		if [ -f "$MAINLINE/$f" ]; then
			src="$MAINLINE/$f"
		elif [ -f "$UPSTREAM/$f" ]; then
			src="$UPSTREAM/$f"
		elif [ "$f" = lib/tests/Makefile ]; then
			die "no mainline lib/tests/Makefile in MAINLINE=$MAINLINE, which the suite's one-line hunk needs as context: give MAINLINE a mainline checkout"
		else
			git -C "$k612" cat-file -e "pristine:$f" 2>/dev/null ||
				die "no 6.12 tree at $k612 for the stand-in $f: run 'make kport-series KVER=6.12'"
			git -C "$k612" show "pristine:$f" > "$1/$f"
			echo "$f: 6.12's (stand-in)" >> "$1/.sources"
			continue
		fi
		cp "$src" "$1/$f"
		echo "$f: $src" >> "$1/.sources"
	done
}

make_tree() { # FORM
	local form=$1 tree patches
	tree=$(form_tree "$form")
	if [ -e "$tree" ]; then
		[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
			die "$tree has uncommitted changes: commit them (git commit --fixup) or drop them first"
		say "$tree exists: making it again from $(form_dir "$form")"
		if [ "$form" = mainline ]; then rm -rf "$tree"; else
			git -C "$SGCHAIN_CACHE/linux-source-$form" worktree remove --force "$tree"
		fi
	fi
	if [ "$form" = mainline ]; then
		mkdir -p "$tree"
		git -C "$tree" init -q
		mainline_base "$tree"
		git -C "$tree" add -A .
		git -C "$tree" -c user.name="$(ident_name)" -c user.email="$(ident_email)" \
			commit -qm "mainline base" \
			-m "$(cat "$tree/.sources")"
	else
		[ -d "$SGCHAIN_CACHE/linux-source-$form/.git" ] ||
			die "no tree at $SGCHAIN_CACHE/linux-source-$form: run 'make kport-series KVER=$form'"
		git -C "$SGCHAIN_CACHE/linux-source-$form" worktree add -q --detach "$tree" pristine
	fi
	git -C "$tree" tag -f fixes-base >/dev/null
	mapfile -t patches < <(form_patches "$form")
	am_unnamed "$tree" "${patches[@]}" || die "$(form_dir "$form") does not apply"
	say "$tree: $(git -C "$tree" rev-list --count fixes-base..HEAD) patches of $(form_dir "$form")"
}

cover_of() { # FORM: the cover letter's text, first paragraph the subject
	local text=$REPO/kport/fixes-cover.txt
	[ "$1" = mainline ] || text=$REPO/kport/fixes-cover-stable.txt
	sed "s/@KVER@/$1/g" "$text"
}

write_series() { # FORM
	local form=$1 dir tree old_cover
	dir=$REPO/$(form_dir "$form") tree=$(form_tree "$form")
	[ -d "$tree" ] || die "no tree at $tree: run 'fixes.sh tree $form' first"
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
		die "$tree has uncommitted changes: commit them first"
	mkdir -p "$dir"
	old_cover=$(mktemp)
	cp "$dir/0000-cover-letter.patch" "$old_cover" 2>/dev/null || true
	rm -f "$dir"/*.patch
	git -C "$tree" config branch.fixes.description "$(cover_of "$form")"
	# A named branch, for the description format-patch takes the cover from.
	git -C "$tree" branch -f fixes HEAD
	git -C "$tree" -c core.abbrev=9 -c diff.noprefix=false -c diff.mnemonicPrefix=false \
		format-patch -q --zero-commit --no-signature --cover-letter \
		--cover-from-description=subject -o "$dir" fixes-base..fixes
	# No identity in the committed series: the sender's comes with 'send'.
	unname_patches "$dir"/*.patch
	keep_cover_date "$dir/0000-cover-letter.patch" "$old_cover"
	rm -f "$old_cover"
	say "wrote $(ls "$dir"/*.patch | wc -l) files to $(form_dir "$form")"
}

case "${1:-}" in
tree) make_tree "${2:?FORM}" ;;
series) write_series "${2:?FORM}" ;;
check) exec "$REPO/kport/fixes_check.sh" ;;
test) exec "$REPO/kport/fixes_test.sh" "${2:?FORM}" ;;
send) exec "$REPO/kport/fixes_send.sh" "${2:?OUTDIR}" ;;
*) die "usage: fixes.sh tree|series FORM, check, test FORM, send OUTDIR" ;;
esac
