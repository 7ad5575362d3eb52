#!/usr/bin/env bash
# Kernel text with and without sgchain's series, same config (kport's,
# without the KUnit suite, which only the patched tree has). Prints a
# markdown section. Builds two extra kernels in the cache: minutes the
# first time, seconds after.
set -euo pipefail
source "$(dirname "$0")/../kport/env.sh"

# The patched tree and its config, as make qemu leaves them (quick if done).
"$REPO/kport/tree.sh" >&2
"$REPO/kport/build.sh" >&2
# Beside the tree's other builds, so they belong to this KSRC alone.
patched_out="$KBUILD_ROOT/size-patched"
pristine_src="$KBUILD_ROOT/size-pristine-src"
pristine_out="$KBUILD_ROOT/size-pristine"

if [ ! -d "$pristine_src" ]; then
	say "checking out the pristine tree for comparison" >&2
	kgit worktree add -q --detach "$pristine_src" pristine
fi

build() { # SRC OUT: vmlinux with the shared config
	KSRC=$1 kbuild_check "$2"
	mkdir -p "$2"
	sed '/^CONFIG_SG_CHAIN_KUNIT_TEST=/d' "$KBUILD/.config" > "$2/.config.want"
	cmp -s "$2/.config.want" "$2/.config.base" || {
		cp "$2/.config.want" "$2/.config"
		cp "$2/.config.want" "$2/.config.base"
	}
	say "building $(basename "$2")/vmlinux (a few minutes the first time)" >&2
	make -C "$1" O="$2" -s olddefconfig >/dev/null
	make -C "$1" O="$2" -j"${JOBS:-$(nproc)}" vmlinux >"$2/build.log" 2>&1 ||
		die "build in $2 failed, see $2/build.log"
}
build "$KSRC" "$patched_out"
build "$pristine_src" "$pristine_out"

text() { size "$1/vmlinux" | awk 'NR == 2 { print $1 }'; }
span() { # _stext .. _etext from the symbol table: text without the padding
	local s e
	s=$(nm "$1/vmlinux" | awk '$3 == "_stext" { print $1 }')
	e=$(nm "$1/vmlinux" | awk '$3 == "_etext" { print $1 }')
	echo $((16#$e - 16#$s))
}
pt=$(text "$pristine_out") st=$(text "$patched_out")
ps=$(span "$pristine_out") ss=$(span "$patched_out")
echo "## Kernel text: Linux 6.1.192, kport config without the KUnit suite"
echo
echo "| kernel | size vmlinux text | _stext.._etext |"
echo "| --- | ---: | ---: |"
echo "| pristine | $pt | $ps |"
echo "| with sgchain | $st | $ss |"
echo "| difference | $((st - pt)) | $((ss - ps)) |"
echo
echo "Largest changes by symbol (scripts/bloat-o-meter pristine patched):"
echo
echo '```'
python3 "$KSRC/scripts/bloat-o-meter" "$pristine_out/vmlinux" "$patched_out/vmlinux" \
	> "$patched_out/bloat-o-meter.txt"
head -n 25 "$patched_out/bloat-o-meter.txt"
echo '```'
