#!/usr/bin/env bash
# Extract Linux 6.1's own scatterlist code from Debian's linux-source-6.1
# tarball into OUTDIR, for the benchmark to compile beside sgchain's:
#   OUTDIR/linux/scatterlist.h   the 6.1 header, as shipped
#   OUTDIR/k61_scatterlist.c     lib/scatterlist.c up to the append-table
#                                code: sg_next .. sg_alloc_table
#   OUTDIR/k61_sg_pool.c         lib/sg_pool.c, as shipped
# Nothing extracted here is ever committed: OUTDIR is under the build dir.
set -euo pipefail
out=$1
tarball=${KTARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$tarball" ] || { echo "k61-extract: $tarball missing (apt-get install linux-source-6.1)" >&2; exit 1; }
stamp="$out/.extracted"
[ -f "$stamp" ] && [ "$stamp" -nt "$tarball" ] && exit 0

echo "[bench] extracting 6.1 scatterlist code from $tarball"
tmp="$out/tmp"
rm -rf "$out" && mkdir -p "$tmp" "$out/linux" "$out/asm"
tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
	linux-source-6.1/include/linux/scatterlist.h \
	linux-source-6.1/lib/scatterlist.c linux-source-6.1/lib/sg_pool.c
cp "$tmp/include/linux/scatterlist.h" "$out/linux/scatterlist.h"
# The part of lib/scatterlist.c the benchmark compares; the rest (append
# tables, sgl_alloc, iterators, copies) needs highmem and page allocation.
sed -n '1,/^static struct scatterlist \*get_next_sg(/p' "$tmp/lib/scatterlist.c" |
	sed '$d' > "$out/k61_scatterlist.c"
cp "$tmp/lib/sg_pool.c" "$out/k61_sg_pool.c"
: > "$out/linux/highmem.h"
: > "$out/asm/io.h"
rm -rf "$tmp"
touch "$stamp"
