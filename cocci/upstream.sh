#!/usr/bin/env bash
# The rule as a patch for Linux's maintainers: a new
# scripts/coccinelle/api/sg_flat_walk.cocci, with a cover letter that
# carries the triage's figures (cocci/upstream/).
#
#   upstream.sh write   make the patch and cover letter from the repository's
#                       rule, cocci/upstream-cover.txt and the triage, in a
#                       scratch git tree; nobody named, no sign-off
#   upstream.sh check   the patch adds exactly cocci/sg_flat_walk.cocci, applies
#                       to pristine 6.12, checkpatch --strict is quiet and the
#                       cover letter's figures are the triage table's
# Ends with "N passed, N failed" (check).
set -euo pipefail
KVER=6.12 KSRC= KBUILD=
source "$(dirname "$0")/../kport/env.sh"

DIR=$REPO/cocci/upstream
PATH_IN_TREE=scripts/coccinelle/api/sg_flat_walk.cocci
SUBJECT="coccinelle: api: add sg_flat_walk.cocci, for walks past a chain link"

# The figures of the triage, as the cover letter states them.
figures() {
	python3 - "$REPO/cocci/triage.tsv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
for v in ("6.12", "6.1"):
    walks = [r for r in rows if r[v] != "-"]
    lines = sum(len(r[v].split(",")) for r in walks)
    by = {}
    for r in walks:
        by[r["class"]] = by.get(r["class"], 0) + 1
    print("Linux %s: %d walks at %d lines: %s." % (
        v, len(walks), lines,
        ", ".join("%s %d" % (c, by.get(c, 0))
                  for c in ("reachable", "flat", "chain-aware", "unknown"))))
EOF
}

write() {
	local work
	work=$(mktemp -d)
	trap 'rm -rf "$work"' RETURN
	git -C "$work" init -q
	mkdir -p "$work/scripts/coccinelle/api"
	git -C "$work" -c user.name=x -c user.email=x@x commit -q --allow-empty -m base
	cp "$REPO/cocci/sg_flat_walk.cocci" "$work/$PATH_IN_TREE"
	git -C "$work" add "$PATH_IN_TREE"
	git -C "$work" -c user.name=x -c user.email=x@x commit -q -F - <<EOF
$SUBJECT

$(cat "$REPO/cocci/upstream-commit.txt")
EOF
	rm -rf "$DIR" && mkdir -p "$DIR"
	git -C "$work" format-patch -q --cover-letter --zero-commit --no-signature -o "$DIR" HEAD~1
	python3 - "$DIR/0000-cover-letter.patch" "$REPO/cocci/upstream-cover.txt" "$(figures)" <<'EOF'
import sys
path, body, figures = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
text = open(path).read()
text = text.replace("*** SUBJECT HERE ***", body.split("\n", 1)[0])
text = text.replace("*** BLURB HERE ***", body.split("\n", 1)[1].strip().replace("@FIGURES@", figures))
open(path, "w").write(text)
EOF
	unname_patches "$DIR"/*.patch
	say "wrote $DIR"
}

adds_the_rule() {
	local added
	added=$(awk '/^\+\+\+ b\//{on=1; next} on && /^\+/{print substr($0, 2)}' "$DIR/0001-"*.patch)
	cmp -s <(printf '%s\n' "$added") "$REPO/cocci/sg_flat_walk.cocci" ||
		{ echo "the patch does not add cocci/sg_flat_walk.cocci as it is: cocci/upstream.sh write"; return 1; }
}
applies() {
	local index
	index=$(mktemp)
	trap 'rm -f "$index"' RETURN
	GIT_INDEX_FILE=$index kgit read-tree pristine
	GIT_INDEX_FILE=$index kgit apply --cached "$DIR/0001-"*.patch
}
checkpatch_clean() {
	local out
	out=$(cd "$KSRC" && PATH="/usr/bin:$PATH" perl scripts/checkpatch.pl --strict --quiet \
		--ignore MISSING_SIGN_OFF,FILE_PATH_CHANGES "$DIR/0001-"*.patch 2>&1) ||
		{ printf '%s\n' "$out"; return 1; }
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
figures_current() {
	local line
	while IFS= read -r line; do
		grep -qF -- "$line" "$DIR/0000-cover-letter.patch" ||
			{ echo "the cover letter lacks '$line': cocci/upstream.sh write"; return 1; }
	done < <(figures)
}
nobody_named() {
	! grep -qE '^(From: |Signed-off-by: )' "$DIR"/*.patch || { echo "a patch names an author or signs off"; return 1; }
}

case "${1:-}" in
write) write ;;
check)
	# Suppressions: MISSING_SIGN_OFF, the patch names nobody (the sender
	# signs off); FILE_PATH_CHANGES, scripts/coccinelle/ is covered by the
	# COCCINELLE/Semantic Patches entry's F: line already.
	check "cocci/upstream adds cocci/sg_flat_walk.cocci as it is" adds_the_rule
	check "cocci/upstream applies to pristine linux-source-6.12" applies
	check "cocci/upstream: checkpatch --strict" checkpatch_clean
	check "cocci/upstream's cover letter has the triage's figures" figures_current
	check "cocci/upstream names nobody" nobody_named
	echo "cocci-upstream-check: $passed passed, $failed failed"
	[ "$failed" -eq 0 ] ;;
*) die "usage: $0 write|check" ;;
esac
