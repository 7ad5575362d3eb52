#!/usr/bin/env bash
# The scatterlist fixes as standalone series for Linux's maintainers, two
# series (kport/fixes_env.sh: append, sg_split) in three forms that carry
# the same fixes:
#   kport/fixes-mainline  mainline's, on a tree assembled from the public
#                         mainline files in $UPSTREAM (docs/upstream-fixes.md)
#   kport/fixes-6.12      the backport to Debian's 6.12
#   kport/fixes-6.1       the backport to Debian's 6.1 (and, in stable/, 6.1's
#                         backport requests of mainline commits)
# Each form is written from a git tree in the cache, made from the committed
# patches: edit there with git (commit --fixup, rebase), then write again.
#
#   fixes.sh tree FORM     make $SGCHAIN_CACHE/fixes-FORM from the patches
#   fixes.sh series FORM   write the patches from that tree
#   fixes.sh write FORM    the tree if there is none, then the patches: a
#                          tree that exists is never made again here
#   fixes.sh check         the committed forms: they apply, checkpatch,
#                          Fixes: and Cc: tags, only credited names
#   fixes.sh test FORM     the tests pass, and reverting any one fix's
#                          code makes exactly its own test fail
#   fixes.sh send DIR      the mainline form in the sender's own git
#                          identity, signed off, To/Cc from get_maintainer.pl
# FORM is mainline, 6.12 or 6.1.
set -euo pipefail
source "$(dirname "$0")/env.sh"
source "$(dirname "$0")/fixes_env.sh"

make_tree() { # FORM
	local form=$1 tree patches
	tree=$(form_tree "$form")
	if [ -e "$tree" ]; then
		[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
			die "$tree has uncommitted changes: commit them (git commit --fixup) or drop them first"
		! unwritten_work "$tree" ||
			die "$tree has commits that $(form_dir "$form") does not hold: write them first ('make kport-fixes FORM=$form'), or drop them ('git -C $tree reset --hard $(cat "$(head_stamp "$tree")")')"
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
			commit -qm "mainline base, assembled" -m "$(cat "$tree/.sources")"
	else
		[ -d "$SGCHAIN_CACHE/linux-source-$form/.git" ] ||
			die "no tree at $SGCHAIN_CACHE/linux-source-$form: run 'make kport-series KVER=$form'"
		git -C "$SGCHAIN_CACHE/linux-source-$form" worktree add -q --detach "$tree" pristine
		if [ "$form" = 6.1 ]; then
			mapfile -t patches < <(stable_requests)
			[ ${#patches[@]} -eq 0 ] || git -C "$tree" -c user.name="$(ident_name)" \
				-c user.email="$(ident_email)" am -q "${patches[@]}" ||
				die "kport/fixes-6.1/stable does not apply to pristine 6.1"
		fi
	fi
	git -C "$tree" tag -f fixes-base >/dev/null
	mapfile -t patches < <(form_patches "$form")
	am_unnamed "$tree" "${patches[@]}" || die "$(form_dir "$form") does not apply"
	record_tree "$tree" "$form"
	say "$tree: $(git -C "$tree" rev-list --count fixes-base..HEAD) patches of $(form_dir "$form")"
}

cover_of() { # FORM SERIES: the cover letter's text, first paragraph the subject
	local text=$REPO/kport/fixes-cover-$2.txt
	[ "$1" = mainline ] || text=$REPO/kport/fixes-cover-$2-stable.txt
	sed "s/@KVER@/$1/g" "$text"
}

write_series() { # FORM
	local form=$1 dir tree old_cover s first last split n=0
	dir=$REPO/$(form_dir "$form") tree=$(form_tree "$form")
	[ -d "$tree" ] || die "no tree at $tree: run 'fixes.sh tree $form' first"
	[ -z "$(git -C "$tree" status --porcelain --untracked-files=no)" ] ||
		die "$tree has uncommitted changes: commit them first"
	split=$(split_series "$tree") || exit 1
	while read -r s first last; do
		mkdir -p "$dir/$s"
		old_cover=$(mktemp)
		cp "$dir/$s/0000-cover-letter.patch" "$old_cover" 2>/dev/null || true
		rm -f "$dir/$s"/*.patch
		# A named branch, for the description format-patch takes the cover from.
		git -C "$tree" branch -f "fixes-$s" "$last"
		git -C "$tree" config "branch.fixes-$s.description" "$(cover_of "$form" "$s")"
		git -C "$tree" -c core.abbrev=12 -c diff.noprefix=false -c diff.mnemonicPrefix=false \
			format-patch -q --zero-commit --no-signature --cover-letter \
			--cover-from-description=subject -o "$dir/$s" "$first~1..fixes-$s"
		# Only the people kport/fixes-credits credits stay named.
		UNNAME_KEEP=$CREDITS unname_patches "$dir/$s"/*.patch
		keep_cover_date "$dir/$s/0000-cover-letter.patch" "$old_cover"
		rm -f "$old_cover"
		n=$((n + $(ls "$dir/$s"/*.patch | wc -l)))
	done <<< "$split"
	record_tree "$tree" "$form"
	say "wrote $n files to $(form_dir "$form") ($(echo "${SERIES[@]}"))"
}

case "${1:-}" in
tree) make_tree "${2:?FORM}" ;;
series) write_series "${2:?FORM}" ;;
write)
	# make kport-fixes: a tree that exists holds the work; only a missing
	# one is made from the patches.
	[ -d "$(form_tree "${2:?FORM}")" ] || make_tree "$2"
	write_series "$2"
	;;
check) exec "$REPO/kport/fixes_check.sh" ;;
test) exec "$REPO/kport/fixes_test.sh" "${2:?FORM}" ;;
send) exec "$REPO/kport/fixes_send.sh" "${2:?OUTDIR}" ;;
*) die "usage: fixes.sh tree|series|write FORM, check, test FORM, send OUTDIR" ;;
esac
