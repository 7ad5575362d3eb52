#!/usr/bin/env bash
# make cocci: run sg_flat_walk.cocci over pristine Linux 6.12 and 6.1 whole,
# time each tree, write the hits as one table and hold them to the triage
# (cocci/triage.tsv); hold the rule's table of include/ fields to each
# tree's headers.
#
# Each scan reads a git worktree of the cached tree at its 'pristine' tag
# (SGCHAIN_CACHE/cocci/linux-VERSION), so the series in KSRC never shows
# up as a hit. It runs spatch as 'make coccicheck MODE=report' does, with
# the tree's .cocciconfig, the rule's Options: line and coccicheck's
# include flags, over the files --use-gitgrep would pick (the rule's
# tokens), but one file per spatch process: spatch 1.1.1 drops the types
# of a local header's nested structs in the later files of a process (see
# the rule's header), which cost a whole-tree coccicheck 23 walks in
# net/rds alone.
#
# Usage: cocci/scan.sh OUT_DIR [VERSION...] (default 6.12 6.1); JOBS=N
# spatch processes at once (default: the CPUs). Ends with
# "N passed, N failed".
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
RULE=$REPO/cocci/sg_flat_walk.cocci
out=${1:?usage: cocci/scan.sh OUT_DIR [VERSION...]}
shift
versions=("$@")
[ ${#versions[@]} -gt 0 ] || versions=(6.12 6.1)
mkdir -p "$out"
out=$(realpath "$out")
jobs=${JOBS:-$(nproc)}

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
# as spatch itself reports them: what --use-gitgrep greps for.
rule_tokens() {
	local empty
	empty=$(mktemp --suffix=.c)
	# From / : a tree's .cocciconfig (--use-gitgrep) would hide the message.
	(cd / && spatch -D report --local-includes --sp-file "$RULE" "$empty" 2>&1) |
		sed -n 's/^(ONCE) Expected tokens //p' | tr ' ' '|'
	rm -f "$empty"
}

# spatch's options as coccicheck gives them for x86: the rule's, the
# tree's .cocciconfig's but --use-gitgrep (the file list is grepped here),
# and the include flags of LINUXINCLUDE.
spatch_options() { # TREE
	local line
	printf '%s\n' -D report --no-show-diff --very-quiet
	sed -n 's|^// Options:||p' "$RULE" | tr ' ' '\n' | sed '/^$/d'
	sed -n 's/^[[:space:]]*options[[:space:]]*=[[:space:]]*//p' "$1/.cocciconfig" |
		tr ' ' '\n' | sed '/^$/d' | grep -vx -- --use-gitgrep || true
	for line in -I ./arch/x86/include -I ./arch/x86/include/generated -I ./include \
		-I ./arch/x86/include/uapi -I ./arch/x86/include/generated/uapi -I ./include/uapi \
		-I ./include/generated/uapi --include ./include/linux/compiler-version.h \
		--include ./include/linux/kconfig.h; do
		printf '%s\n' "$line"
	done
}

tokens=$(rule_tokens)
[ -n "$tokens" ] || die "spatch reports no token filter for $RULE: every file of the tree would be parsed"
passed=0 failed=0
hit_args=()
for v in "${versions[@]}"; do
	# The version's default tree, as the other kernel targets make it.
	mapfile -t where < <(KVER=$v KSRC= KBUILD= bash -c \
		"source '$REPO/kport/env.sh' >/dev/null && printf '%s\n' \"\$KSRC\" \"\$SGCHAIN_CACHE\"")
	ksrc=${where[0]} tree=${where[1]}/cocci/linux-$v
	pristine_tree "$ksrc" "$tree"

	say "Linux $v: HEADER_FIELDS against include/"
	if python3 "$REPO/cocci/header_fields.py" "$RULE" "$tree" > "$out/header-fields-$v.txt"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		grep '^FAIL' "$out/header-fields-$v.txt"
	fi

	files=$(git -C "$tree" ls-files -- '*.c' '*.h' | wc -l)
	git -C "$tree" grep -l -w -E "$tokens" -- '*.c' '*.h' > "$out/files-$v.txt"
	mapfile -t options < <(spatch_options "$tree")
	rm -rf "$out/reports-$v" && mkdir -p "$out/reports-$v"
	say "Linux $v: $(wc -l < "$out/files-$v.txt") files, one spatch each, $jobs at once (about 3 to 5 min on two cores)"
	start=$(date +%s%N)
	# A file's report, or spatch's own messages when it fails on one.
	if ! (cd "$tree" && tr '\n' '\0' < "$out/files-$v.txt" |
		xargs -0 -P "$jobs" -I{} sh -c 'dir=$0 file=$1; shift
			name=$(printf %s "$file" | tr / _)
			spatch "$@" "$file" > "$dir/$name.txt" 2> "$dir/$name.err" ||
				{ echo "spatch failed on $file:"; tail -n 5 "$dir/$name.err"; exit 255; }' \
			"$out/reports-$v" {} "${options[@]}" --sp-file "$RULE"); then
		die "spatch failed on Linux $v (its messages: $out/reports-$v/*.err)"
	fi
	seconds=$((($(date +%s%N) - start) / 1000000000))
	cat "$out/reports-$v"/*.txt | python3 "$REPO/cocci/hits.py" > "$out/hits-$v.tsv"
	printf 'Linux %s: %d of %d .c and .h files read, %d hits, %d s whole tree (%d spatch at once)\n' \
		"$v" "$(wc -l < "$out/files-$v.txt")" "$files" "$(($(wc -l < "$out/hits-$v.tsv") - 1))" \
		"$seconds" "$jobs" | tee "$out/figures-$v.txt"
	hit_args+=("$v=$out/hits-$v.tsv")
done
echo "header fields: $passed passed, $failed failed"
python3 "$REPO/cocci/triage.py" --table "$REPO/cocci/triage.tsv" \
	--markdown "$out/hits.md" --passed "$passed" --failed "$failed" "${hit_args[@]}"
