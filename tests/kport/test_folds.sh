#!/usr/bin/env bash
# make kport-series and the copies tree.sh makes, as TAP, without a kernel:
# on a tiny fake tree whose one-commit series adds the repository's copied
# files, in a scratch copy of the repository. An edit of the repository's
# file folds into the series; an edit made in the tree, a commit of the
# tree changing a copy, uncommitted work elsewhere and a series changed
# behind the tree's back are refused, and nothing is lost.
source "$(dirname "$0")/tap.sh"
echo "1..11"

# The scratch repository: what the kport scripts read, nothing built.
mkdir -p "$tmp/repo"
(cd "$repo" && git ls-files -z kport core tests/unit tests/diff/compare.py scripts/times.sh |
	xargs -0 tar -cf -) | tar -xf - -C "$tmp/repo"
git -C "$tmp/repo" init -q && git -C "$tmp/repo" add -A &&
	git -C "$tmp/repo" -c user.name=t -c user.email=t@t commit -qm scratch
rm "$tmp/repo/kport/series-6.1"/*.patch

# The fake tree: a pristine commit, then one commit adding every copy.
export SGCHAIN_CACHE="$tmp/cache" KSRC="$tmp/cache/linux-source-6.1"
unset KBUILD KVER
k() { git -C "$KSRC" -c user.name=t -c user.email=t@t "$@"; }
mkdir -p "$KSRC" && k init -q && echo "not a kernel" > "$KSRC/README" &&
	k add README && k commit -qm "Linux 6.1 from Debian's linux-source-6.1" && k tag pristine
copies=$(bash -c 'source "$0/kport/env.sh" && printf "%s\n" "${KPORT_COPIES[@]}"' "$tmp/repo")
while IFS=: read -r tree_path repo_path; do
	mkdir -p "$KSRC/$(dirname "$tree_path")"
	cp "$tmp/repo/$repo_path" "$KSRC/$tree_path"
	k add -f "$tree_path"
done <<< "$copies"
k commit -qm "lib: add the copies"
# The empty series the tree is taken to hold, then the series it makes.
printf '' | sha1sum | cut -c1-40 > "$KSRC/.git/sgchain-series"
series() { (cd "$tmp/repo" && kport/series.sh 2>&1); }
tree() { (cd "$tmp/repo" && kport/tree.sh 2>&1); }
out=$(series); rc=$?
ok "the fake tree's commit becomes a one-patch series" \
	eval '[ $rc -eq 0 ] && [ -f "$tmp/repo/kport/series-6.1/0001-lib-add-the-copies.patch" ]'
committed() { python3 "$tmp/repo/kport/series_file.py" "$1" "$tmp"/repo/kport/series-6.1/0001-*.patch; }

suite=kport/lib/sg_chain/sg_chain_kunit.c
tsuite=lib/sg_chain/sg_chain_kunit.c
sed -i '1s|$| v1|' "$tmp/repo/$suite"
tree >/dev/null
sed -i '1s| v1$| v2|' "$tmp/repo/$suite"
out=$(series); rc=$?
ok "an edit copied in by tree.sh, then edited again, folds as the repository holds it" \
	eval '[ $rc -eq 0 ] && [ "$(committed "$tsuite")" = "$(cat "$tmp/repo/$suite")" ]'

before=$(cat "$tmp/repo/$suite")
echo "/* edited in the tree */" >> "$KSRC/$tsuite"
out=$(series); rc=$?
ok "an edit made in the tree's copy stops make kport-series, named" \
	eval '[ $rc -ne 0 ] && has "$out" "$tsuite in $KSRC holds an edit made there"'
out=$(tree); rc=$?
ok "... and tree.sh (make qemu)" \
	eval '[ $rc -ne 0 ] && has "$out" "holds an edit made there"'
ok "... and neither touched the tree's edit or the repository's file" \
	eval 'grep -q "edited in the tree" "$KSRC/$tsuite" && [ "$(cat "$tmp/repo/$suite")" = "$before" ]'
advice=$(sed -n "s/.*carry it over, then drop it from the tree: '\(.*\)'$/\1/p" <<< "$out")
bash -c "$advice" >/dev/null 2>&1
out=$(series); rc=$?
ok "the refusal's own advice carries the edit into the series" \
	eval '[ $rc -eq 0 ] && committed "$tsuite" | grep -q "edited in the tree"'

echo "/* elsewhere */" >> "$KSRC/README"
sed -i '1s|$| v3|' "$tmp/repo/$suite"
out=$(series); rc=$?
ok "uncommitted work outside the copies stops it, and is kept" \
	eval '[ $rc -ne 0 ] && has "$out" "uncommitted changes" && grep -q elsewhere "$KSRC/README"'
k checkout -q -- README

echo "/* committed in the tree */" >> "$KSRC/$tsuite"
k commit -qam "a tree commit"
out=$(series); rc=$?
ok "a commit of the tree that changed a copy stops it, named" \
	eval '[ $rc -ne 0 ] && has "$out" "$tsuite was changed by a commit in $KSRC"'
k reset -q --hard HEAD~1

out=$(series); rc=$?
ok "with the tree clean again, the pending edit folds" \
	eval '[ $rc -eq 0 ] && committed "$tsuite" | grep -q " v3"'

sed -i 's/^Subject: \[PATCH 1\/1\] lib: add the copies$/Subject: [PATCH 1\/1] lib: add the copies, renamed/' \
	"$tmp"/repo/kport/series-6.1/0001-*.patch
out=$(series); rc=$?
ok "a series changed since the tree was made from it is not regenerated over" \
	eval '[ $rc -ne 0 ] && has "$out" "changed since $KSRC was made from it" &&
	      grep -q "copies, renamed" "$tmp"/repo/kport/series-6.1/0001-*.patch'
out=$(tree); rc=$?
ok "... and tree.sh applies it" \
	eval '[ $rc -eq 0 ] && has "$out" "applying kport/series-6.1 (1 patches)" &&
	      [ "$(k log -1 --format=%s)" = "lib: add the copies, renamed" ]'

tap_done
