# Sourced by the kport scripts: where the kernel tree, build and tarball live.
# Everything here stays outside the repository; override from the make line.
: "${SGCHAIN_CACHE:=${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/sgchain}"
: "${KSRC:=$SGCHAIN_CACHE/linux-source-6.1}"
: "${KBUILD:=$SGCHAIN_CACHE/build-6.1}"
: "${KTARBALL:=/usr/src/linux-source-6.1.tar.xz}"
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The files the series carries that are sgchain's own, tree path -> repo path.
KPORT_COPIES=(
	"include/linux/scatterlist_chain.h:core/scatterlist_chain.h"
	"lib/sg_chain_cases.h:tests/unit/sg_chain_cases.h"
)

say() { printf '[kport] %s\n' "$*"; }
die() { printf '[kport] error: %s\n' "$*" >&2; exit 1; }

# Refuse a tree inside the repository: it must never be committed.
case "$KSRC/" in "$REPO"/*) die "KSRC=$KSRC is inside the repository" ;; esac
case "$KBUILD/" in "$REPO"/*) die "KBUILD=$KBUILD is inside the repository" ;; esac

kgit() { git -C "$KSRC" -c user.name="sgchain developer" -c user.email=dev@sgchain.invalid "$@"; }

# The series' patches in order, without the cover letter; and their hash.
series_patches() {
	find "$REPO/kport/patches" -name '[0-9]*.patch' ! -name '0000-*' | sort
}
series_hash() { series_patches | xargs -r cat | sha1sum | cut -c1-40; }
