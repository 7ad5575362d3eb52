#!/usr/bin/env bash
# sgsim from the outside, as TAP: the 2007 article's figures, a chain the
# layout formula predicts, mapping summaries, the Graphviz output, --help
# naming every option, and exit status 2 with a message for bad usage.
set -u
sgsim=${SGSIM:-build/usim/sgsim}
src="$(dirname "$0")/../../usim/sgsim.c"
n=0
fails=0
echo "1..15"

# check DESCRIPTION COMMAND...: ok when COMMAND succeeds.
check() {
	local desc=$1
	shift
	n=$((n + 1))
	if "$@" >/dev/null 2>&1; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		fails=$((fails + 1))
	fi
}
has() { grep -qF -- "$2" <<< "$1"; }

out=$("$sgsim" --entry-size 20 --table-size 4096)
check "20-byte entries: 204 in a page, 835584 bytes (about 800 KB) per command" \
	has "$out" "largest command without chaining: 204 entries = 816 KiB (835584 bytes"
out=$("$sgsim" --entry-size 40)
check "40-byte entries: half, 102 entries, 417792 bytes" \
	has "$out" "largest command without chaining: 102 entries = 408 KiB (417792 bytes"
out=$("$sgsim" --io-size 8M)
check "chaining: 2048 entries, 8 MiB in one command" \
	has "$out" "largest command with chaining: 2048 entries (max-segments) = 8 MiB (8388608 bytes"
# 2048 entries in tables of 128: 16 tables hold 127 each, the 17th the last 16.
check "8 MiB in page tables of 32-byte entries: 17 tables, 16 links" \
	has "$out" "chain: 17 tables, 16 links"
out=$("$sgsim" --io-size 8M --layout contiguous --mapper iommu)
check "merging IOMMU: 8 MiB in 64 KiB segments is 128 segments" \
	has "$out" "DMA segments: 128 for 2048 entries"
out=$("$sgsim" --io-size 1M --mapper swiotlb --layout random --seed 7)
check "32-bit device, pages above 4 GiB: every one of 256 entries bounced" \
	has "$out" "DMA segments: 256 for 256 entries (256 bounced)"
out=$("$sgsim" --io-size 64K --layout misaligned --mapper iommu)
check "misaligned 64 KiB: 17 entries, one IOMMU segment" \
	has "$out" "DMA segments: 1 for 17 entries"

# Built as the kernel builds lists from pages (lib/scatterlist.c, compiled in usim).
out=$("$sgsim" --io-size 1M --layout contiguous --from-pages --max-segment 64K)
check "from pages: 256 adjacent pages in 64 KiB entries are 16 entries" \
	has "$out" "from pages: 256 pages merged into 16 entries"
out=$("$sgsim" --io-size 8M --from-pages)
check "from pages, none adjacent: 2048 entries in 17 page-sized tables" \
	has "$out" "chain: 17 tables, 16 links"
out=$("$sgsim" --from-pages --pools 2>&1)
check "--from-pages with --pools: refused with a reason, exit 2" \
	bash -c '"$0" --from-pages --pools >/dev/null 2>&1; [ $? -eq 2 ] && grep -qF -- "no --pools" <<< "$1"' "$sgsim" "$out"

dot=$(mktemp)
"$sgsim" --io-size 1M --table-size 1024 --dot "$dot" >/dev/null
# 256 entries in tables of 32: 8 tables of 31, then 8 left: 9 tables, 8 links.
check "--dot draws 9 tables and 8 links" \
	test "$(grep -c '^	t[0-9]* \[label' "$dot"):$(grep -c ':link -> ' "$dot")" = "9:8"
rm -f "$dot"

help=$("$sgsim" --help)
missing=""
for opt in $(sed -n 's/^		{ "\([a-z-]*\)",.*/\1/p' "$src"); do
	has "$help" "--$opt" || missing+=" --$opt"
done
check "--help names every option${missing:+ (missing:$missing)}" test -z "$missing"

usage_error() { # exit status 2 and a message naming the problem
	local msg
	msg=$("$sgsim" "${@:2}" 2>&1 >/dev/null)
	[ $? -eq 2 ] && has "$msg" "$1"
}
check "unknown option: exit 2, says which" usage_error "unknown option --frobnicate" --frobnicate
check "bad size: exit 2, says why" usage_error "bad size suffix in 3Q" --io-size 3Q
check "unknown mapper: exit 2, lists the choices" usage_error "direct, iommu, swiotlb" --mapper gart

echo "# sgsim: $((n - fails)) of $n passed"
[ "$fails" -eq 0 ]
