#!/usr/bin/env bash
# make kport-fixes writes a form's patches from its tree in the cache, the
# documented place to edit a fix: it must never make that tree again over
# work committed there. Runs make in a copy of the repository, with the
# cache where kport/env.sh puts it by default (SGCHAIN_CACHE unset), on a
# small fake mainline tree holding one commit of each series. The Debian
# trees and QEMU are not needed here: FIXES_TREES (which installs and
# makes them) is emptied and qemu-deps taken as made.
source "$(dirname "$0")/tap.sh"
echo "1..5"

# A copy of the repository's files, as they are now.
copy_repo "$tmp/repo"
git -C "$tmp/repo" init -q

# The default cache: no SGCHAIN_CACHE, XDG_CACHE_HOME in the sandbox.
unset SGCHAIN_CACHE
export XDG_CACHE_HOME="$tmp/xdg"
tree=$tmp/xdg/sgchain/fixes-mainline
g() { git -C "$tree" -c user.name=test -c user.email=test@localhost "$@"; }
mkdir -p "$tree/lib" "$tree/tools/testing/scatterlist"
echo base > "$tree/lib/sg_split.c"
echo base > "$tree/tools/testing/scatterlist/main.c"
g init -q && g add -A && g commit -qm base && g tag fixes-base
echo edit > "$tree/tools/testing/scatterlist/main.c"
g commit -qam "tools/testing/scatterlist: a harness change"
echo edit > "$tree/lib/sg_split.c"
g commit -qam "lib/scatterlist: the developer's edit"
edit=$(g rev-parse HEAD)

out=$(make -s -C "$tmp/repo" -o qemu-deps kport-fixes FORM=mainline FIXES_TREES=: 2>&1); rc=$?
ok "make kport-fixes on an edited tree succeeds" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || printf '# %s\n' "$out" | tail -5
ok "... and the tree still holds the commit made there" \
	[ "$(g rev-parse HEAD)" = "$edit" ]
ok "... and the series written holds it" \
	grep -q "^Subject: .*lib/scatterlist: the developer's edit" "$tmp/repo"/kport/fixes-mainline/sg_split/0001-*.patch

# A tree whose HEAD moved since it was written is never made again.
echo again > "$tree/lib/sg_split.c"
g commit -qam "lib/scatterlist: a second edit, not written"
out=$("$tmp/repo/kport/fixes.sh" tree mainline 2>&1); rc=$?
ok "fixes.sh tree refuses to make a tree with unwritten commits again" \
	eval '[ $rc -ne 0 ] && has "$out" "does not hold: write them first"'
ok "... and leaves them in place" \
	eval '[ "$(g log -1 --format=%s)" = "lib/scatterlist: a second edit, not written" ]'
tap_done
