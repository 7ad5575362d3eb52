#!/usr/bin/env bash
# The kport scripts' handling of KSRC and KBUILD, as TAP, without a kernel:
# where a tree may be created, that each tree gets its own build directory,
# and that a build directory of another tree is never taken over. Runs in
# a scratch directory with its own SGCHAIN_CACHE and a tiny fake tarball.
source "$(dirname "$0")/tap.sh"
echo "1..13"

# A sandbox: the cache, and a tarball holding one file, as Debian's does.
export SGCHAIN_CACHE="$tmp/cache"
unset KSRC KBUILD
mkdir -p "$tmp/fake/linux-source-6.1"
echo "# not a kernel" > "$tmp/fake/linux-source-6.1/Makefile"
tar -cJf "$tmp/fake.tar.xz" -C "$tmp/fake" linux-source-6.1
export KTARBALL="$tmp/fake.tar.xz"

env_of() { # VAR [ENV=VALUE...]: a variable as kport/env.sh leaves it
	local var=$1
	shift
	env "$@" bash -c 'source "$0/kport/env.sh"; printf "%s\n" "${!1}"' "$repo" "$var"
}
ok "default KSRC is in the cache" \
	[ "$(env_of KSRC)" = "$tmp/cache/linux-source-6.1" ]
ok "default KBUILD belongs to the default KSRC" \
	[ "$(env_of KBUILD)" = "$tmp/cache/linux-source-6.1.build/x86_64" ]
ok "default KBUILD follows a given KSRC" \
	[ "$(env_of KBUILD KSRC="$tmp/other")" = "$tmp/other.build/x86_64" ]
ok "a relative KSRC is made absolute" \
	[ "$(cd "$tmp" && env_of KSRC KSRC=rel/tree)" = "$tmp/rel/tree" ]

tree() { KSRC=$1 "$repo/kport/tree.sh" 2>&1; }

out=$(tree "$tmp/typo/x"); rc=$?
ok "a missing KSRC outside the cache is refused, by name" \
	eval '[ $rc -ne 0 ] && has "$out" "KSRC=$tmp/typo/x does not exist"'
ok "... and nothing is created" [ ! -e "$tmp/typo" ]

mkdir -p "$tmp/full" && echo keep > "$tmp/full/file"
out=$(tree "$tmp/full"); rc=$?
ok "a non-empty directory that sgchain did not prepare is refused, untouched" \
	eval '[ $rc -ne 0 ] && has "$out" "not a tree sgchain prepared" &&
	      [ "$(ls -A "$tmp/full")" = file ]'

mkdir -p "$tmp/gitrepo" && git -C "$tmp/gitrepo" init -q
out=$(tree "$tmp/gitrepo"); rc=$?
ok "a git tree without the 'pristine' tag is refused" \
	eval '[ $rc -ne 0 ] && has "$out" "without sgchain'"'"'s '"'"'pristine'"'"' tag"'

# Allowed: the tree is extracted and recorded; the series then cannot apply
# to the one-file fake, which is as far as this test goes.
extracted() { git -C "$1" rev-parse -q --verify pristine >/dev/null && [ -f "$1/Makefile" ]; }
mkdir -p "$tmp/empty"
out=$(tree "$tmp/empty")
ok "an empty directory is taken as a request for a new tree" \
	eval 'extracted "$tmp/empty" && has "$out" "does not apply"'
out=$(tree "$tmp/cache/linux-new")
ok "a missing KSRC inside the cache is created" \
	eval 'extracted "$tmp/cache/linux-new" && [ ! -e "$tmp/cache/linux-new.tmp" ]'

# The build directory of the default tree, as a build leaves it.
default_build="$tmp/cache/linux-source-6.1.build/x86_64"
mkdir -p "$tmp/cache/linux-source-6.1" "$default_build"
ln -s "$tmp/cache/linux-source-6.1" "$default_build/source"
echo "CONFIG_SGCHAIN_TEST=y" > "$default_build/.config"
snapshot() { readlink "$default_build/source"; cat "$default_build/.config"; ls -A "$default_build"; }
before=$(snapshot)

out=$(KSRC="$tmp/empty" KBUILD="$default_build" "$repo/kport/build.sh" 2>&1); rc=$?
ok "a KBUILD of another tree is refused, naming both trees" \
	eval '[ $rc -ne 0 ] && has "$out" "build of the tree $tmp/cache/linux-source-6.1, not of KSRC=$tmp/empty"'

out=$(KSRC="$tmp/typo2/x" "$repo/tests/qemu/run.sh" "$tmp/qemu-out" "$tmp/o" x86_64-pc 2>&1); rc=$?
ok "make qemu's runner with a mistyped KSRC stops before building" \
	eval '[ $rc -ne 0 ] && has "$out" "does not exist" && [ ! -e "$tmp/typo2" ]'
ok "... and the default build's source link and .config are unchanged" \
	[ "$(snapshot)" = "$before" ]

tap_done
