#!/usr/bin/env bash
# Kernel text with and without sgchain's series, same config: kport's, with
# every sgchain KUnit suite off (each "config ..._KUNIT_TEST" of
# kport/lib/sg_chain/Kconfig), so no test code is in the figure. Checks
# that: no test option is on in either build, no symbol of the suites'
# objects is in either image, and the size config is the same whether the
# source config had the suites on or off. Prints a markdown section.
# Builds two extra kernels in the cache: minutes the first time, seconds
# after. SIZE_CONFIG: kport (default: tinyconfig with kport's fragments,
# make qemu's config) or a defconfig target of the tree (x86_64_defconfig),
# each measured in its own pair of build directories.
set -euo pipefail
source "$(dirname "$0")/../kport/env.sh"

# The patched tree and its config, as make qemu leaves them (quick if done).
"$REPO/kport/tree.sh" >&2
"$REPO/kport/build.sh" >&2
# Beside the tree's other builds, so they belong to this KSRC alone.
: "${SIZE_CONFIG:=kport}"
case "$SIZE_CONFIG" in
kport) suffix="" what="kport config" ;;
*defconfig) suffix="-$SIZE_CONFIG" what="$SIZE_CONFIG" ;;
*) die "SIZE_CONFIG=$SIZE_CONFIG: kport or a defconfig target (x86_64_defconfig)" ;;
esac
patched_out="$KBUILD_ROOT/size-patched$suffix"
pristine_src="$KBUILD_ROOT/size-pristine-src"
pristine_out="$KBUILD_ROOT/size-pristine$suffix"

if [ ! -d "$pristine_src" ]; then
	say "checking out the pristine tree for comparison" >&2
	kgit worktree add -q --detach "$pristine_src" pristine
fi

# Every sgchain KUnit option, from the Kconfig that declares them.
tests=$(sed -n 's/^config \(.*_KUNIT_TEST\)$/CONFIG_\1/p' "$REPO/kport/lib/sg_chain/Kconfig")
[ -n "$tests" ] || die "no KUnit option in kport/lib/sg_chain/Kconfig"
tests_re=$(echo "$tests" | paste -sd'|')
suites_off() { # CONFIG: the same with every sgchain suite off
	sed -E "/^(# )?($tests_re)[= ]/d" "$1"
	for t in $tests; do echo "# $t is not set"; done
}
# The size config comes out the same from a source config with the suites
# on (make qemu's) or off: olddefconfig on each, in scratch directories.
derived() { # SOURCE-CONFIG OUT: the size config olddefconfig makes of it
	mkdir -p "$2"
	suites_off "$1" > "$2/.config"
	make -C "$KSRC" O="$2" -s olddefconfig >/dev/null
}
if [ "$SIZE_CONFIG" = kport ]; then
	source_config="$KBUILD/.config"
	suites_on=$(grep -cE "^($tests_re)=y" "$source_config" || true)
	[ "$suites_on" -gt 0 ] || die "$source_config has no sgchain suite on: not make qemu's config"
	derived "$source_config" "$KBUILD_ROOT/size-from-on"
	suites_off "$source_config" > "$KBUILD_ROOT/size-source-off.config"
	derived "$KBUILD_ROOT/size-source-off.config" "$KBUILD_ROOT/size-from-off"
	cmp -s "$KBUILD_ROOT/size-from-on/.config" "$KBUILD_ROOT/size-from-off/.config" ||
		die "the size config differs with the suites on or off in the source config (diff $KBUILD_ROOT/size-from-on/.config $KBUILD_ROOT/size-from-off/.config)"
	same="the size config is the same whether the source config had the suites on or off"
else
	# The defconfig as the patched tree makes it (its KUnit is off, so
	# are the suites).
	mkdir -p "$KBUILD_ROOT/size-source$suffix"
	make -C "$KSRC" O="$KBUILD_ROOT/size-source$suffix" -s "$SIZE_CONFIG" >/dev/null
	source_config="$KBUILD_ROOT/size-source$suffix/.config"
	same="$SIZE_CONFIG turns no suite on"
fi

build() { # SRC OUT: vmlinux with the shared config
	KSRC=$1 kbuild_check "$2"
	mkdir -p "$2"
	suites_off "$source_config" > "$2/.config.want"
	cmp -s "$2/.config.want" "$2/.config.base" || {
		cp "$2/.config.want" "$2/.config"
		cp "$2/.config.want" "$2/.config.base"
	}
	say "building $(basename "$2")/vmlinux (a few minutes the first time)" >&2
	make -C "$1" O="$2" -s olddefconfig >/dev/null
	make -C "$1" O="$2" -j"${JOBS:-$(nproc)}" vmlinux >"$2/build.log" 2>&1 ||
		die "build in $2 failed, see $2/build.log"
	! grep -E "^($tests_re)=" "$2/.config" ||
		die "$2/.config turns an sgchain suite on"
}
build "$KSRC" "$patched_out"
build "$pristine_src" "$pristine_out"

# The suites' own symbols may be in neither image: in make qemu's build
# (suites on), the sg_chain_* names that only the suites' objects define
# (as many times in its vmlinux as in those objects; an inline helper the
# suites emit a copy of, such as sg_next, is not theirs alone).
names() { awk 'NF == 3 && $3 ~ /^[A-Za-z][A-Za-z0-9_]*$/ { print $3 }' | sort | uniq -c; }
test_syms=$(awk 'NR == FNR { n[$2] = $1; next } n[$2] == $1 && $2 ~ /^sg_chain_/ { print $2 }' \
	<(nm "$KBUILD/vmlinux" | names) \
	<(nm --defined-only "$KBUILD"/lib/sg_chain/*_kunit.o | names) | sort)
[ -n "$test_syms" ] || die "no symbol of the suites in $KBUILD/lib/sg_chain/*_kunit.o"
for out in "$patched_out" "$pristine_out"; do
	found=$(nm "$out/vmlinux" | awk 'NF == 3 { print $3 }' | sort -u | comm -12 - <(echo "$test_syms" | sort -u))
	[ -z "$found" ] || die "$out/vmlinux holds test code: $(echo $found | head -c 300)"
done
ntests=$(echo "$test_syms" | wc -l)

text() { size "$1/vmlinux" | awk 'NR == 2 { print $1 }'; }
span() { # _stext .. _etext from the symbol table: text without the padding
	local s e
	s=$(nm "$1/vmlinux" | awk '$3 == "_stext" { print $1 }')
	e=$(nm "$1/vmlinux" | awk '$3 == "_etext" { print $1 }')
	echo $((16#$e - 16#$s))
}
pt=$(text "$pristine_out") st=$(text "$patched_out")
ps=$(span "$pristine_out") ss=$(span "$patched_out")
echo "## Kernel text: Linux 6.1.192, $what with every sgchain KUnit suite off"
echo
echo "Off: $(echo $tests | sed 's/ /, /g')."
echo "None of the $ntests symbols only the suites define is in either image, and"
echo "$same."
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
