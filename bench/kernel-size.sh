#!/usr/bin/env bash
# Kernel text with and without sgchain's series, same config: kport's, with
# every sgchain KUnit suite off (each "config ..._KUNIT_TEST" of
# kport/lib/sg_chain/Kconfig) and KUnit itself, so no test code is in the
# figure. Checks
# that: no test option is on in either build, no symbol of the suites'
# objects is in either image, and the size config is the same whether the
# source config had the suites on or off. Prints a markdown section.
# Builds two extra kernels in the cache: minutes the first time, seconds
# after. SIZE_CONFIG: kport (default: tinyconfig with kport's fragments,
# make qemu's config), a defconfig target of the tree (x86_64_defconfig) or
# debian (linux-config-6.1's amd64 config: vmlinux, and the modules of the
# directories that use scatterlists most), each measured in its own pair of
# build directories.
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
debian) suffix="-debian" what="Debian's amd64 config (linux-config-6.1)" ;;
*) die "SIZE_CONFIG=$SIZE_CONFIG: kport, debian or a defconfig target (x86_64_defconfig)" ;;
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
# KUnit goes too: what only KUnit sees (VISIBLE_IF_KUNIT, such as the
# series' __sg_alloc_table_mempool()) is test code as well.
off="CONFIG_KUNIT $tests"
off_re=$(echo $off | tr ' ' '|')
suites_off() { # CONFIG: the same with KUnit and every sgchain suite off
	sed -E "/^(# )?($off_re)[= ]/d" "$1"
	for t in $off; do echo "# $t is not set"; done
}
# The size config comes out the same from a source config with the suites
# on (make qemu's) or off: olddefconfig on each, in scratch directories.
derived() { # SOURCE-CONFIG OUT: the size config olddefconfig makes of it
	mkdir -p "$2"
	suites_off "$1" > "$2/.config"
	make -C "$KSRC" O="$2" -s olddefconfig >/dev/null
}
# Debian's flavour as its kernel package is built, with three changes that
# change no code: no debug info (its DWARF and BTF are not text, and take
# most of the build's time), and no key files of Debian's signing tree,
# which the source package does not hold.
debian_config() { # OUT
	local deb=/usr/src/linux-config-6.1/config.amd64_none_amd64.xz
	[ -f "$deb" ] || die "$deb missing: apt-get install linux-config-6.1 (make bench-deps)"
	xz -dc "$deb" > "$1"
	"$KSRC/scripts/config" --file "$1" \
		-d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT -d DEBUG_INFO_BTF -e DEBUG_INFO_NONE \
		--set-str SYSTEM_TRUSTED_KEYS "" --set-str SYSTEM_REVOCATION_KEYS ""
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
	# The config as the patched tree makes it (its KUnit is off, so are
	# the suites).
	mkdir -p "$KBUILD_ROOT/size-source$suffix"
	source_config="$KBUILD_ROOT/size-source$suffix/.config"
	if [ "$SIZE_CONFIG" = debian ]; then
		debian_config "$source_config"
		make -C "$KSRC" O="$KBUILD_ROOT/size-source$suffix" -s olddefconfig >/dev/null
	else
		make -C "$KSRC" O="$KBUILD_ROOT/size-source$suffix" -s "$SIZE_CONFIG" >/dev/null
	fi
	same="$SIZE_CONFIG turns no suite on"
fi

# The directories whose modules are measured beside vmlinux: those that use
# scatterlists most, where building every module would take hours.
module_dirs=""
[ "$SIZE_CONFIG" != debian ] ||
	module_dirs="drivers/scsi drivers/block drivers/nvme crypto drivers/infiniband/core net/sunrpc"

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
	[ -z "$module_dirs" ] || {
		say "building the modules of $module_dirs in $(basename "$2")" >&2
		make -C "$1" O="$2" -j"${JOBS:-$(nproc)}" $(printf '%s/ ' $module_dirs) \
			>>"$2/build.log" 2>&1 || die "build in $2 failed, see $2/build.log"
	}
	! grep -E "^($off_re)=" "$2/.config" ||
		die "$2/.config turns KUnit or an sgchain suite on"
}
build "$KSRC" "$patched_out"
build "$pristine_src" "$pristine_out"
# SIZE_OUTLINE=1: a third build, the series with its walk helpers out of
# line, in a worktree at the series' last commit.
outline_out=""
if [ -n "${SIZE_OUTLINE:-}" ]; then
	outline_src="$KBUILD_ROOT/size-outline-src"
	outline_out="$KBUILD_ROOT/size-outline$suffix"
	series_head=$(kgit rev-parse HEAD)
	[ -d "$outline_src" ] || kgit worktree add -q --detach "$outline_src" "$series_head"
	[ "$(git -C "$outline_src" rev-parse HEAD)" = "$series_head" ] ||
		git -C "$outline_src" checkout -q -f --detach "$series_head"
	python3 "$REPO/bench/outline-helpers.py" "$outline_src"
	build "$outline_src" "$outline_out"
fi

# The suites' own symbols may be in neither image: in make qemu's build
# (suites on), the sg_chain_* names that only the suites' objects define
# (as many times in its vmlinux as in those objects; an inline helper the
# suites emit a copy of, such as sg_next, is not theirs alone).
names() { awk 'NF == 3 && $3 ~ /^[A-Za-z][A-Za-z0-9_]*$/ { print $3 }' | sort | uniq -c; }
test_syms=$(awk 'NR == FNR { n[$2] = $1; next } n[$2] == $1 && $2 ~ /^sg_chain_/ { print $2 }' \
	<(nm "$KBUILD/vmlinux" | names) \
	<(nm --defined-only "$KBUILD"/lib/sg_chain/*_kunit.o | names) | sort)
[ -n "$test_syms" ] || die "no symbol of the suites in $KBUILD/lib/sg_chain/*_kunit.o"
ntests=$(echo "$test_syms" | wc -l)
no_test_code() { # OUT FILE...: none of the suites' symbols in OUT's FILEs
	local out=$1 found
	shift
	found=$(cd "$out" && nm "$@" | awk 'NF >= 2 { print $NF }' | sort -u |
		comm -12 - <(echo "$test_syms" | sort -u))
	[ -z "$found" ] || die "$out holds test code: $(echo $found | head -c 300)"
}

# The module objects built in OUT's module directories (modules.order
# names each module's .ko; its .o is the module's code, before modpost
# adds the same few bytes to both builds).
modules() { # OUT DIR
	sed 's/\.ko$/.o/' "$1/$2/modules.order" | sort
}
for out in "$pristine_out" "$patched_out" $outline_out; do
	no_test_code "$out" vmlinux
	for d in $module_dirs; do
		cmp -s <(modules "$pristine_out" "$d") <(modules "$out" "$d") ||
			die "$d: $(basename "$out") and 6.1 made different modules"
		no_test_code "$out" $(modules "$out" "$d")
	done
done

# Code: the sizes of the function symbols (nm's t and T), the bytes
# bloat-o-meter compares. size(1)'s text would not do: vmlinux's .text ends
# at a 2 MiB boundary and came out the same for every build here, and the
# rest of its figure is ORC tables, symbol tables and padding.
code_bytes() { # FILE...
	nm -S --defined-only "$@" | awk 'NF == 4 && $3 ~ /^[tT]$/ { s += strtonum("0x" $2) } END { print s + 0 }'
}
# The helpers 6.1 exports and sgchain makes inline, and the calls to them
# or to a copy that gcc kept out of line (sg_next.part.0, say): call and
# jump instructions in a linked vmlinux (whose relocations, kept for KASLR,
# are not read); in a module object, call relocations (PLT32: calls and
# tail calls, not address loads), and calls to a local copy, which need
# none.
helpers_re='(sg_next|sg_nents|sg_nents_for_len|sg_last|sg_init_table)(\.[a-z]+\.[0-9]+)*'
calls_in() { # FILE...: vmlinux, or module objects
	local dis
	dis=$(mktemp)
	if [ "$1" = vmlinux ]; then
		objdump -d --no-show-raw-insn "$@" > "$dis" || die "objdump failed on $*"
		grep -cE "(call|jmp) +[0-9a-f]+ <$helpers_re>" "$dis" || true
	else
		objdump -dr --no-show-raw-insn "$@" > "$dis" || die "objdump failed on $*"
		grep -cE "(call|jmp) +[0-9a-f]+ <$helpers_re>|R_X86_64_PLT32[[:space:]]+$helpers_re-0x4" "$dis" || true
	fi
	rm -f "$dis"
}
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.3f %%", 100 * (b - a) / a }'; }

# One row per build of a part: its code, the change from 6.1's, and the
# calls left to the helpers. bloat-o-meter's lines for sgchain, summed
# over the part's files, give the largest changes.
part_rows() { # LABEL FILE... (relative to each build directory)
	local label=$1 b out c c0 f change
	shift
	c0=$(cd "$pristine_out" && code_bytes "$@")
	for b in "${!builds[@]}"; do
		out=${builds[$b]}
		c=$(cd "$out" && code_bytes "$@")
		change="$((c - c0)) | $(pct "$c0" "$c")"
		[ "$out" != "$pristine_out" ] || change="|"
		echo "| $label | ${labels[$b]} | $c | $change | $(cd "$out" && calls_in "$@") |"
	done
	for f in "$@"; do
		python3 "$KSRC/scripts/bloat-o-meter" "$pristine_out/$f" "$patched_out/$f" |
			awk -v m="$([ "$f" = vmlinux ] || basename "$f" .o | sed 's/$/:/')" \
				'NF == 4 && $4 ~ /^[-+][0-9]+$/ { print m $1, $2, $3, $4 }'
	done >> "$patched_out/bloat-o-meter.txt"
}

# The modules not built here: the calls to the five helpers in every module
# of Debian's own 6.1 kernel package (the newest in the archive; downloaded
# into the cache, not installed), beside its counts for the directories
# built here, which tell whether the two agree.
shipped_calls() {
	local dir="$SGCHAIN_CACHE/debian-image" pkg deb mods d n all
	pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$' |
		awk '{ print $1 }' | sort -t- -k4,4n | tail -n 1)
	[ -n "$pkg" ] || die "no linux-image-6.1.0-N-amd64-unsigned in the package lists (apt-get update)"
	mkdir -p "$dir"
	deb=$(ls "$dir/${pkg}"_*.deb 2>/dev/null | tail -n 1 || true)
	if [ -z "$deb" ]; then
		say "downloading $pkg (70 MB) to count its modules' calls" >&2
		(cd "$dir" && apt-get download -q "$pkg" >/dev/null 2>&1) || die "apt-get download $pkg failed"
		deb=$(ls "$dir/${pkg}"_*.deb | tail -n 1)
	fi
	[ -d "$deb.x" ] || { rm -rf "$deb.tmp" && dpkg-deb -x "$deb" "$deb.tmp" && mv "$deb.tmp" "$deb.x"; }
	mods=$(echo "$deb.x"/lib/modules/*/kernel)
	shipped() { # DIR...: call relocations to the helpers in its modules
		find "$@" -name '*.ko' -print0 | xargs -0 readelf -rW |
			grep -cE "R_X86_64_PLT32[[:space:]]+[0-9a-f]+[[:space:]]+$helpers_re - 4" || true
	}
	echo
	echo "Debian's own build, $(basename "$deb" .deb): its $(find "$mods" -name '*.ko' | wc -l) modules"
	echo -n "call the five helpers from $(shipped "$mods") sites"
	for d in $module_dirs; do
		n=$(cd "$mods" && shipped "$d")
		all="${all:+$all, }$d $n"
	done
	echo " ($all)."
}

builds=("$pristine_out" "$patched_out")
labels=("6.1" "sgchain")
[ -z "$outline_out" ] || { builds+=("$outline_out"); labels+=("sgchain, helpers out of line"); }
: > "$patched_out/bloat-o-meter.txt"
say "comparing the builds and counting the calls to the walk helpers" >&2
echo "## Kernel text: Linux 6.1.192, $what with KUnit and every sgchain suite off"
echo
echo "Off: $(echo $off | sed 's/ /, /g')."
echo "None of the $ntests symbols only the suites define is in either image"
echo "${module_dirs:+or module object, }and $same."
echo "Code: the bytes of every function (nm's t and T symbols), what"
echo "bloat-o-meter compares. Calls: call and jump instructions (call"
echo "relocations, in modules) to \`sg_next\`, \`sg_nents\`, \`sg_nents_for_len\`,"
echo "\`sg_last\` or \`sg_init_table\`, or to a copy of one that gcc kept out of"
echo "line. 6.1 exports all five; sgchain makes them inline, and its calls"
echo "left are to such copies."
[ -z "$outline_out" ] || echo "\"Helpers out of line\": the series with those five moved out of line and exported, as in 6.1 (bench/outline-helpers.py)."
echo
echo "| part | build | code, bytes | vs 6.1 | | calls to the helpers |"
echo "| --- | --- | ---: | ---: | ---: | ---: |"
part_rows vmlinux vmlinux
for d in $module_dirs; do
	part_rows "$d ($(modules "$patched_out" "$d" | wc -l) modules)" $(modules "$patched_out" "$d")
done
[ "$SIZE_CONFIG" != debian ] || shipped_calls
echo
echo "Largest changes by symbol, sgchain against 6.1 (scripts/bloat-o-meter; in modules, module:function):"
echo
echo '```'
awk '{ d = ($4 < 0 ? -$4 : $4) + 0; print d, $0 }' "$patched_out/bloat-o-meter.txt" |
	sort -k1,1nr | head -n 25 | cut -d' ' -f2- | column -t
echo '```'
