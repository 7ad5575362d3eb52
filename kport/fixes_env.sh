# Sourced by the kport/fixes*.sh scripts, after env.sh: what the fix
# series are made of and where each form lives.
#
# Four series, for four sets of stakeholders:
#   append        sg_alloc_append_table_from_pages() and its harness
#                 (tools/testing/scatterlist): RDMA, vfio; the mm tree;
#   sg_split      sg_split() and its KUnit suite: crypto, SPI, camera; the
#                 mm tree;
#   dma_boundary  sparc64's, powerpc's and alpha's map_sg joining DMA
#                 segments across the device's segment boundary: a patch
#                 for each architecture's tree. Their test is sgchain's
#                 sg_chain_dma limits case, booted on each architecture
#                 (too big to send with a one-line fix);
#   megaraid_sas  megaraid_sas's SGL overrunning an MFI command's frame:
#                 the SCSI tree. Its test is the SGL-frame case of
#                 sgchain's DMA runs, booted under swiotlb.
# A form's tree holds the series in this order; each series is the commits
# that touch its files.
SERIES=(append sg_split dma_boundary megaraid_sas)
series_files() { # SERIES: the files (or directories) its commits touch
	case "$1" in
	append) echo lib/scatterlist.c tools/testing/scatterlist ;;
	sg_split) echo lib/sg_split.c lib/sg_split_kunit.c lib/tests lib/Kconfig.debug lib/Makefile ;;
	dma_boundary) echo "${ARCH_FIXED_FILES[@]}" ;;
	megaraid_sas) echo "${DRIVER_FIXED_FILES[@]}" ;;
	*) die "series $1: one of ${SERIES[*]}" ;;
	esac
}
ARCH_FIXED_FILES=(arch/sparc/kernel/iommu.c arch/sparc/kernel/iommu_common.h arch/sparc/kernel/pci_sun4v.c
	arch/powerpc/kernel/iommu.c arch/alpha/kernel/pci_iommu.c)
DRIVER_FIXED_FILES=(drivers/scsi/megaraid/megaraid_sas_base.c)
# The fixed files $UPSTREAM does not hold (the mainline form's stand-ins).
STANDIN_FILES=("${ARCH_FIXED_FILES[@]}" "${DRIVER_FIXED_FILES[@]}")

# The fixes that an in-tree caller can hit, by subject: only these carry
# Cc: stable (checked).
STABLE_SUBJECTS=(
	"lib/scatterlist: stop sg_split() at the end of the last part"
	"sparc64: keep merged DMA segments within the segment boundary"
)
# The files whose changes are fixes (each patch touching them needs a
# Fixes: tag); every other file a patch touches is a test.
FIXED_FILES=(lib/scatterlist.c lib/sg_split.c "${ARCH_FIXED_FILES[@]}" "${DRIVER_FIXED_FILES[@]}")

# Each fix, by subject, and the tests that must fail without it alone:
# "harness" (tools/testing/scatterlist) or sg_split.CASE of the KUnit
# suite. A fix's test may come in the patch after it (the stable fix is
# fix-only, so that stable can take it as it is). make kport-fixes-test
# fails for a fix that is not listed here.
declare -A FIX_TESTS=(
	["lib/scatterlist: don't merge an append into an entry ending mid-page"]="harness"
	["lib/scatterlist: don't extend an appended-to entry past @size"]="harness"
	["lib/scatterlist: stop sg_split() at the end of the last part"]="sg_split.split_last_part_mid_entry"
	["lib/scatterlist: don't start an sg_split() part with an empty entry"]="sg_split.split_skip_to_entry_end"
	["lib/scatterlist: reject empty sg_split() parts after the list's end"]="sg_split.split_parts_past_the_end"
	["lib/scatterlist: Fix SGL length in sg_split() if !NEED_SG_DMA_LENGTH"]="sg_split.split_entry_lengths"
	# "boot:BOOT:MUTATION": the case is sg_chain_dma's limits case, in the
	# run BOOT of the sgchain series, which carries the same fix; make
	# mutate-kernel's MUTATION reverts it there, and the run must fail.
	["sparc64: keep merged DMA segments within the segment boundary"]="boot:sparc64-iommu:kernel/sparc64-merge-across-boundary"
	["powerpc/iommu: don't merge DMA segments across the segment boundary"]="boot:ppc64le-iommu:kernel/ppc-merge-across-boundary"
	["alpha: don't merge a contiguous run across the segment boundary"]="boot:alpha-iommu:kernel/alpha-contiguous-across-boundary"
	["scsi: megaraid_sas: keep an MFI command's SGL within its frame"]="boot:x86_64-swiotlb:kernel/megasas-sgl-past-frame"
)
# Fixes whose Fixes: commit could not be found in public history, each
# with why: the patch says so in its message, as posted fixes do.
declare -A NO_FIXES_TAG=(
	["powerpc/iommu: don't merge DMA segments across the segment boundary"]="the commit that made powerpc's iommu_range_alloc() keep the boundary is in no public copy of mainline's log found"
	["scsi: megaraid_sas: keep an MFI command's SGL within its frame"]="the commit that fixed the MFI frame at 16 frames of 64 bytes is in no public copy of mainline's log found; 837f5fe89c84 has it, f4c9a1317d32 did not"
)

# The people the series credit as authors, with where their work was
# posted: a From: or Signed-off-by: in a committed patch must name one of
# them (checked); everything else is the sender's, added at send time.
CREDITS=$REPO/kport/fixes-credits
credited() { # "Name <email>"
	grep -v '^#' "$CREDITS" | cut -f1 | grep -qxF -- "$1"
}

form_dir() {
	case "$1" in
	mainline) echo kport/fixes-mainline ;;
	6.12 | 6.1) echo "kport/fixes-$1" ;;
	*) die "FORM=$1: mainline, 6.12 or 6.1" ;;
	esac
}
form_tree() { form_dir "$1" >/dev/null && echo "$SGCHAIN_CACHE/fixes-$1"; }
series_patches() { # FORM SERIES
	find "$REPO/$(form_dir "$1")/$2" -name '[0-9]*.patch' ! -name '0000-*' 2>/dev/null | sort
}
form_patches() { # FORM: every series' patches, in the order a tree takes them
	local s
	for s in "${SERIES[@]}"; do series_patches "$1" "$s"; done
}
# 6.1 only: mainline commits that fixed a bug 6.1 still has, as backport
# requests in stable's form ("commit X upstream."). Stable would take them
# first: 6.1's tree has them under the series (in fixes-base).
stable_requests() { find "$REPO/kport/fixes-6.1/stable" -name '*.patch' 2>/dev/null | sort; }

: "${UPSTREAM:=$REPO/../shared/upstream}"
# A mainline checkout, if there is one: its files replace $UPSTREAM's and
# the stand-ins below.
: "${MAINLINE:=}"

# The mainline form's tree: the files the series touch or build with, each
# from $MAINLINE if given, else from $UPSTREAM, whole.
MAINLINE_FILES=(lib/scatterlist.c lib/sg_split.c include/linux/scatterlist.h
	lib/sg_pool.c lib/tests/Makefile lib/Makefile lib/Kconfig.debug
	tools/testing/scatterlist/Makefile tools/testing/scatterlist/main.c
	"${STANDIN_FILES[@]}")
# Stand-ins, from Debian's 6.12, for what $UPSTREAM lacks or has stale:
#  - the harness's linux/mm.h: $UPSTREAM's copy is from about v5.14;
#    6.12's has three of the four changes mainline made since, and the
#    fourth (nth_page() removed, 84efbefa26df, v6.18) is made here;
#  - tools/include, which the harness compiles against;
#  - the files of ARCH_FIXED_FILES and DRIVER_FIXED_FILES, which $UPSTREAM
#    does not hold: 6.12's whole. The stored public mainline copies were read once by hand
#    (docs/upstream-fixes.md names their commits): the merge loops the
#    patches change are 6.12's, and the powerpc and alpha patches and
#    pci_sun4v.c's half of the sparc64 one apply to them as they are.
STANDIN_MM=tools/testing/scatterlist/linux/mm.h
mainline_base() { # TREE
	local f k612=$SGCHAIN_CACHE/linux-source-6.12
	for f in "${MAINLINE_FILES[@]}"; do
		mkdir -p "$1/$(dirname "$f")"
		if [ -n "$MAINLINE" ] && [ -f "$MAINLINE/$f" ]; then
			cp "$MAINLINE/$f" "$1/$f"
			echo "$f: $MAINLINE" >> "$1/.sources"
		elif [ -f "$UPSTREAM/$f" ]; then
			cp "$UPSTREAM/$f" "$1/$f"
			echo "$f: $(realpath "$UPSTREAM")/$f, whole (its README names the commit)" >> "$1/.sources"
		elif printf '%s\n' "${STANDIN_FILES[@]}" | grep -qxF -- "$f"; then
			git -C "$k612" show "pristine:$f" > "$1/$f" ||
				die "no 6.12 tree at $k612 for the stand-ins: run 'make kport-series KVER=6.12'"
			echo "$f: 6.12's (stand-in)" >> "$1/.sources"
		else
			die "no $f in UPSTREAM=$UPSTREAM or MAINLINE=$MAINLINE"
		fi
	done
	chmod -R u+w "$1"
	if [ -n "$MAINLINE" ] && [ -f "$MAINLINE/$STANDIN_MM" ] && [ -d "$MAINLINE/tools/include" ]; then
		cp "$MAINLINE/$STANDIN_MM" "$1/$STANDIN_MM"
		cp -r "$MAINLINE/tools/include" "$1/tools/"
		echo "$STANDIN_MM, tools/include: $MAINLINE" >> "$1/.sources"
		return
	fi
	git -C "$k612" cat-file -e "pristine:$STANDIN_MM" 2>/dev/null ||
		die "no 6.12 tree at $k612 for the stand-ins: run 'make kport-series KVER=6.12'"
	mkdir -p "$1/$(dirname "$STANDIN_MM")"
	git -C "$k612" show "pristine:$STANDIN_MM" |
		grep -vxF '#define nth_page(page,n) pfn_to_page(page_to_pfn((page)) + (n))' > "$1/$STANDIN_MM"
	git -C "$k612" archive pristine tools/include | tar -x -C "$1"
	echo "$STANDIN_MM: 6.12's without nth_page() (stand-in)" >> "$1/.sources"
	echo "tools/include: 6.12's (stand-in)" >> "$1/.sources"
}

# A file in TREE's git directory, as an absolute path: git prints it
# relative to TREE when that directory is inside it.
tree_git_file() { # TREE NAME
	local p
	p=$(git -C "$1" rev-parse --git-path "$2")
	case "$p" in /*) echo "$p" ;; *) echo "$1/$p" ;; esac
}
# HEAD as the tree was made or last written: a HEAD beyond it is work in
# the tree that the committed patches do not hold yet.
head_stamp() { tree_git_file "$1" sgchain-fixes-head; }
patches_hash() { form_patches "$1" | xargs -r cat | sha1sum | cut -c1-40; }
record_tree() { # TREE FORM: the tree's HEAD is the committed patches now
	git -C "$1" rev-parse HEAD > "$(head_stamp "$1")"
	patches_hash "$2" > "$(tree_git_file "$1" sgchain-fixes-patches)"
}
tree_is_committed() { # TREE FORM
	[ "$(git -C "$1" rev-parse HEAD)" = "$(cat "$(head_stamp "$1")" 2>/dev/null)" ] &&
		[ "$(patches_hash "$2")" = "$(cat "$(tree_git_file "$1" sgchain-fixes-patches)" 2>/dev/null)" ]
}
unwritten_work() { # TREE: true if HEAD moved since the tree was made or written
	local stamp
	stamp=$(head_stamp "$1")
	[ -f "$stamp" ] && [ "$(git -C "$1" rev-parse HEAD)" != "$(cat "$stamp")" ]
}

in_series() { # SERIES FILE: true if FILE is one of the series' files
	local p
	for p in $(series_files "$1"); do
		case "$2" in "$p" | "$p"/*) return 0 ;; esac
	done
	return 1
}
# TREE COMMIT: the series of the first file the commit touches ("none")
series_of() {
	local s f
	f=$(git -C "$1" diff-tree --no-commit-id --name-only -r "$2" | head -1)
	for s in "${SERIES[@]}"; do in_series "$s" "$f" && { echo "$s"; return; }; done
	echo none
}

# Each series' commits, and the tip of each, from the tree; the series must
# come in SERIES' order, each commit in one series only.
split_series() { # TREE: prints "SERIES FIRST LAST" per series
	local tree=$1 c s f i prev=none order=() starts=() ends=()
	while IFS= read -r c; do
		s=$(series_of "$tree" "$c")
		[ "$s" != none ] ||
			die "$(git -C "$tree" log -1 --format='%h %s' "$c") touches no series' files ($(echo "${SERIES[@]}"))"
		# A commit of one series must not touch another's files.
		while IFS= read -r f; do
			in_series "$s" "$f" ||
				die "$(git -C "$tree" log -1 --format='%h %s' "$c") is in the $s series but touches $f"
		done < <(git -C "$tree" diff-tree --no-commit-id --name-only -r "$c")
		if [ "$s" != "$prev" ]; then
			case " ${order[*]} " in *" $s "*)
				die "the $s series is not in one run in $tree: reorder (git rebase -i fixes-base)" ;;
			esac
			order+=("$s") starts+=("$c") prev=$s
		fi
		ends[${#order[@]}-1]=$c
	done < <(git -C "$tree" rev-list --reverse fixes-base..HEAD)
	for i in "${!order[@]}"; do
		[ "${order[$i]}" = "${SERIES[$i]}" ] || die "the series in $tree are not in the order ${SERIES[*]}"
		echo "${order[$i]} ${starts[$i]} ${ends[$i]}"
	done
}

