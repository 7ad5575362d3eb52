#!/usr/bin/env bash
# The Linux 6.1 scatterlist files that sgchain compiles in userspace (the
# differential suite, the benchmark), taken from Debian's linux-source-6.1
# tarball into OUTDIR, twice:
#   OUTDIR/pristine/   as 6.1 ships them
#   OUTDIR/patched/    with kport/series-6.1 applied to those files alone
# Each holds include/linux/scatterlist.h, lib/scatterlist.c, lib/sg_pool.c,
# lib/sg_split.c, tools/testing/scatterlist/main.c (the kernel's own
# userspace test), lib/scatterlist-part.c: lib/scatterlist.c up to the
# lists built from pages, what the differential suite compares, and
# lib/scatterlist-rest.c: the rest of it (iterators and copies), which the
# suite links so that sg_split() parts are read by each side's own walkers.
# usim compiles the patched lib/ files whole (make usim).
# The patched header includes <linux/scatterlist_chain.h>, which usim's
# include directory resolves to core/, so an edit of the core is seen
# without regenerating the series. Redone only when the tarball or the
# series changes. Nothing here is ever committed: OUTDIR is a build dir.
#
# Usage: kernel-files.sh OUTDIR
set -euo pipefail
out=$1
repo="$(cd "$(dirname "$0")/.." && pwd)"
tarball=${KTARBALL:-/usr/src/linux-source-6.1.tar.xz}
files=(include/linux/scatterlist.h lib/scatterlist.c lib/sg_pool.c lib/sg_split.c
       tools/testing/scatterlist/main.c)

[ -f "$tarball" ] ||
	{ echo "kernel-files: $tarball missing (apt-get install linux-source-6.1)" >&2; exit 1; }
mapfile -t patches < <(find "$repo/kport/series-6.1" -name '[0-9]*.patch' ! -name '0000-*' | sort)
want=$( { stat -c '%s %Y' "$tarball"; cat "$0" "${patches[@]}"; } | sha1sum | cut -c1-40)
stamp="$out/.stamp"
[ "$(cat "$stamp" 2>/dev/null)" = "$want" ] && exit 0

echo "[kernel-files] 6.1's ${files[*]} from $tarball, pristine and patched (about 15 s)"
# git apply works as a plain patch tool only outside a git repository, and
# OUTDIR is inside sgchain's: stage the files in a scratch directory.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xJf "$tarball" -C "$tmp" --strip-components=1 "${files[@]/#/linux-source-6.1/}"
rm -rf "$out" && mkdir -p "$out"
cp -r "$tmp" "$out/pristine"
includes=()
for f in "${files[@]}"; do includes+=(--include="$f"); done
(cd "$tmp" && git apply "${includes[@]}" "${patches[@]}") ||
	{ echo "kernel-files: the series does not apply to 6.1's ${files[*]}" >&2; exit 1; }
cp -r "$tmp" "$out/patched"
for side in pristine patched; do
	sl="$out/$side/lib/scatterlist.c"
	sed -n '1,/^EXPORT_SYMBOL(sg_alloc_table_from_pages_segment);/p' "$sl" \
		> "$out/$side/lib/scatterlist-part.c"
	# The rest (iterators, copies, sgl_alloc) with the file's includes.
	{ grep '^#include' "$sl"
	  sed '1,/^EXPORT_SYMBOL(sg_alloc_table_from_pages_segment);/d' "$sl"; } \
		> "$out/$side/lib/scatterlist-rest.c"
done
echo "$want" > "$stamp"
