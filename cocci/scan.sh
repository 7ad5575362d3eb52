#!/usr/bin/env bash
# make cocci: run sg_flat_walk.cocci over pristine Linux 6.12 and 6.1 the
# kernel's way (make coccicheck MODE=report, the tree's .cocciconfig and
# --use-gitgrep), time each whole tree, write the hits as one table and hold
# them to the triage (cocci/triage.tsv).
#
# Each scan reads a git worktree of the cached tree at its 'pristine' tag
# (SGCHAIN_CACHE/cocci/linux-VERSION), so the series in KSRC never shows
# up as a hit. Usage: cocci/scan.sh OUT_DIR [VERSION...] (default 6.12 6.1).
# Ends with "N passed, N failed".
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RULE=$REPO/cocci/sg_flat_walk.cocci
out=${1:?usage: cocci/scan.sh OUT_DIR [VERSION...]}
shift
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(6.12 6.1)
mkdir -p "$out"
out=$(realpath "$out")

say() { printf '[cocci] %s\n' "$*"; }
die() { printf '[cocci] error: %s\n' "$*" >&2; exit 1; }

# A worktree of KSRC at 'pristine', made once and checked every time.
pristine_tree() { # KSRC DIR
	local ksrc=$1 dir=$2 want
	want=$(git -C "$ksrc" rev-parse -q --verify 'pristine^{commit}') ||
		die "$ksrc has no 'pristine' tag (kport/tree.sh makes it)"
	if [ -e "$dir" ] && [ "$(git -C "$dir" rev-parse -q --verify HEAD 2>/dev/null)" != "$want" ]; then
		say "$dir is not $ksrc at pristine: making it again"
		rm -rf "$dir"
	fi
	git -C "$ksrc" worktree prune
	if [ ! -e "$dir" ]; then
		say "checking out $ksrc at pristine into $dir (about 10 s, 1.7 GB)"
		mkdir -p "$(dirname "$dir")"
		git -C "$ksrc" worktree add -q --detach "$dir" pristine
	fi
	[ -z "$(git -C "$dir" status --porcelain)" ] ||
		die "$dir has changes; it must stay the pristine tree: 'git -C $dir checkout -f pristine && git -C $dir clean -fdx'"
}

# The words a file must hold for spatch to read it (its token filter),
# as spatch itself reports them.
rule_tokens() {
	local empty
	empty=$(mktemp --suffix=.c)
	spatch -D report --local-includes --sp-file "$RULE" "$empty" 2>&1 |
		sed -n 's/^(ONCE) Expected tokens //p' | tr ' ' '|'
	rm -f "$empty"
}

tokens=$(rule_tokens)
[ -n "$tokens" ] || die "spatch reports no token filter for $RULE: every file of the tree would be parsed"
hit_args=()
for v in "${versions[@]}"; do
	# The version's default tree, as the other kernel targets make it.
	mapfile -t where < <(KVER=$v KSRC= KBUILD= bash -c \
		"source '$REPO/kport/env.sh' >/dev/null && printf '%s\n' \"\$KSRC\" \"\$SGCHAIN_CACHE\"")
	ksrc=${where[0]} tree=${where[1]}/cocci/linux-$v
	pristine_tree "$ksrc" "$tree"
	files=$(git -C "$tree" ls-files -- '*.c' '*.h' | wc -l)
	read_files=$(git -C "$tree" grep -l -w -E "$tokens" -- '*.c' '*.h' | wc -l)
	say "Linux $v: make coccicheck over the whole tree (about 1.5 to 2.5 min on two cores)"
	rm -f "$out/spatch-$v.log"
	start=$(date +%s%N)
	if ! make -s -C "$tree" coccicheck MODE=report COCCI="$RULE" \
		DEBUG_FILE="$out/spatch-$v.log" > "$out/report-$v.txt"; then
		tail -n 20 "$out/report-$v.txt" >&2
		die "coccicheck failed on Linux $v (spatch's messages: $out/spatch-$v.log)"
	fi
	seconds=$((($(date +%s%N) - start) / 1000000000))
	python3 "$REPO/cocci/hits.py" < "$out/report-$v.txt" > "$out/hits-$v.tsv"
	printf 'Linux %s: %d of %d .c and .h files read, %d hits, %d s whole tree\n' \
		"$v" "$read_files" "$files" "$(($(wc -l < "$out/hits-$v.tsv") - 1))" "$seconds" |
		tee "$out/figures-$v.txt"
	hit_args+=("$v=$out/hits-$v.tsv")
done
python3 "$REPO/cocci/triage.py" --table "$REPO/cocci/triage.tsv" \
	--markdown "$out/hits.md" "${hit_args[@]}"
