#!/usr/bin/env bash
# make mutate-check (mutate.py --check) on a scratch copy of the
# repository: the list's checkout entries find their texts; a core line an
# entry plants in, edited, fails the check naming the entry and its line
# in the list; so do a find text that occurs twice and a file that is gone.
source "$(dirname "$0")/../kport/tap.sh"
echo "1..7"

copy=$tmp/repo
copy_repo "$copy"
list=$copy/tests/mutate/mutations
# The entries of the checkout (core/, usim/): the others' files are 6.1's
# patched files and the kernel tree, which this test has not.
python3 - "$list" > "$tmp/list" <<'F'
import sys
blocks = open(sys.argv[1]).read().split("\n\n")
print("\n\n".join(b for b in blocks if "\nfile: core/" in "\n" + b or "\nfile: usim/" in "\n" + b))
F
check() { python3 "$copy/tests/mutate/mutate.py" --list "${1:-$tmp/list}" --check "$tmp/none" 2>&1; }

out=$(check); rc=$?
ok "the checkout's entries all find their texts" \
	eval '[ $rc -eq 0 ] && has "$out" " 0 failed" && ! has "$out" FAIL'

# The line core/check-max-ents-one plants in, rewritten as a change to the
# core might rewrite it.
sed -i 's/if (cap < 2 || max_ents < 2)/if (max_ents < 2 || cap < 2)/' "$copy/core/scatterlist_chain.h"
line=$(grep -n '^id: core/check-max-ents-one$' "$tmp/list" | cut -d: -f1)
out=$(check); rc=$?
ok "a core line an entry plants in, edited, fails the check" eval '[ $rc -ne 0 ] && ! has "$out" " 0 failed"'
ok "... naming the entry and its line in the list" \
	eval 'has "$out" "FAIL core/check-max-ents-one ($tmp/list:$line): find text occurs 0 times in core/scatterlist_chain.h"'
ok "... and the other entry that plants in that line" eval 'has "$out" "FAIL core/check-first-cap-one ("'

printf 'id: x/twice\nfile: core/scatterlist_chain.h\nfind: struct scatterlist\nreplace: struct x\nbug: b\n' > "$tmp/twice"
out=$(check "$tmp/twice"); rc=$?
ok "a find text that occurs more than once, without occurrence:, fails" \
	eval '[ $rc -ne 0 ] && has "$out" "FAIL x/twice" && has "$out" "times in core/scatterlist_chain.h"'

printf 'id: x/gone\nfile: kernel:lib/gone.c\nfind: a\nreplace: b\nbug: b\n' > "$tmp/gone"
out=$(check "$tmp/gone"); rc=$?
ok "an entry whose file is missing fails, naming it" \
	eval '[ $rc -ne 0 ] && has "$out" "FAIL x/gone" && has "$out" "cannot read kernel:lib/gone.c"'
# A tree: entry reads the kernel tree's HEAD, not its working file (where
# a run may have a mutation planted).
ksrc=$tmp/linux
mkdir -p "$ksrc/drivers"
printf 'int cur = 1;\n' > "$ksrc/drivers/x.c"
git -C "$ksrc" init -q && git -C "$ksrc" add -A &&
	git -C "$ksrc" -c user.name=t -c user.email=t@t commit -qm tree
printf 'int cur = 2;\n' > "$ksrc/drivers/x.c"
printf 'id: x/tree\nfile: tree:drivers/x.c\nfind: cur = 1\nreplace: cur = 3\nbug: b\n\nid: x/tree-gone\nfile: tree:drivers/x.c\nfind: cur = 2\nreplace: cur = 3\nbug: b\n' > "$tmp/tree"
out=$(KSRC=$ksrc check "$tmp/tree"); rc=$?
ok "tree: entries are checked at the kernel tree's HEAD" \
	eval '[ $rc -ne 0 ] && ! has "$out" "FAIL x/tree (" && has "$out" "FAIL x/tree-gone" && has "$out" "1 passed, 1 failed"'
tap_done
