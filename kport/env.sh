# Sourced by the kport scripts: where the kernel tree, build and tarball live.
# Everything here stays outside the repository; override from the make line.
#
# KERNEL picks the kernel: a file of kport/kernels/ (default x86_64, make
# qemu's), which names the kernel's ARCH and cross compiler, its config
# fragments (kport/configs/), make target, image and Debian packages, and
# the compiler of the programs its guests run (kernel_load says which
# variables).
#
# The builds of a tree live beside it, in $KSRC.build/, so two trees never
# share one: the default build directory is $KSRC.build/KERNEL; a kernel
# whose file names a KBUILD_KNOB takes that knob's directory if it is set
# (KBUILD for x86_64, KBUILD_KASAN, KBUILD_PARISC), and KBUILD is then the
# build of the kernel at hand. A build directory that a build for another
# tree or architecture configured is refused (kbuild_check).
: "${SGCHAIN_CACHE:=${XDG_CACHE_HOME:-${HOME:-/var/tmp}/.cache}/sgchain}"
SGCHAIN_CACHE=$(realpath -m -- "$SGCHAIN_CACHE")
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# KVER picks the series and the Debian source package it applies to: 6.1
# (kport/series-6.1) or 6.12 (kport/series-6.12), each with its cover letter.
: "${KVER:=6.1}"
case "$KVER" in
6.1) KPATCHES=kport/series-6.1 KCOVER=kport/cover-letter.txt ;;
6.12) KPATCHES=kport/series-6.12 KCOVER=kport/cover-letter-6.12.txt ;;
*)
	printf '[kport] error: KVER=%s: 6.1 or 6.12\n' "$KVER" >&2; exit 1 ;;
esac
: "${KSRC:=$SGCHAIN_CACHE/linux-source-$KVER}"
KSRC=$(realpath -m -- "$KSRC")
KBUILD_ROOT="$KSRC.build"

# The kernels there are, by name.
kernel_names() {
	local f
	for f in "$REPO"/kport/kernels/*.sh; do basename "$f" .sh; done
}
# kernel_load NAME: the kernel's file over these defaults. It sets
#   KERNEL_ARCH    the kernel's ARCH= (x86, i386, sparc, powerpc, ...)
#   KERNEL_CROSS   its CROSS_COMPILE= (empty: the host's gcc)
#   KBASECONFIG    the config the fragments are merged onto (tinyconfig)
#   KFRAGMENTS     kport/configs/NAME.config, in order, by NAME; a kernel
#                  version other than 6.1 adds version-KVER
#   KTARGET        the make target; KIMAGE: the image it leaves
#   KCONFIG_ARCH   the .config line that names the architecture
#   KDEBS          Debian packages: cross compiler, its libc, QEMU, fio
#   GUEST_CC       compiler and flags for the guest's C programs
#   GUEST_LIBS     where there is no usable static libc: the sysroot
#                  whose loader and libraries the initramfs takes
#   KBUILD_KNOB    the make knob that names its build directory, if any
#   KCMDLINE_MAX   the architecture's COMMAND_LINE_SIZE (2048)
# and from them KMAKE_ARGS, the kernel's make arguments.
kernel_load() {
	[ -f "$REPO/kport/kernels/$1.sh" ] || {
		printf '[kport] error: KERNEL=%s: no kport/kernels/%s.sh (the kernels: %s)\n' \
			"$1" "$1" "$(kernel_names | tr '\n' ' ')" >&2
		exit 1
	}
	KERNEL=$1 KERNEL_ARCH="" KERNEL_CROSS="" KBASECONFIG=tinyconfig KFRAGMENTS=()
	KTARGET="" KIMAGE="" KCONFIG_ARCH="" KDEBS=() GUEST_CC=() GUEST_LIBS="" KBUILD_KNOB="" KCMDLINE_MAX=2048
	source "$REPO/kport/kernels/$1.sh"
	KMAKE_ARGS=(ARCH="$KERNEL_ARCH")
	[ -z "$KERNEL_CROSS" ] || KMAKE_ARGS+=(CROSS_COMPILE="$KERNEL_CROSS")
	[ "$KVER" = 6.1 ] || KFRAGMENTS+=("version-$KVER")
	KFRAGMENTS=("${KFRAGMENTS[@]/#/kport/configs/}")
	KFRAGMENTS=("${KFRAGMENTS[@]/%/.config}")
}
kernel_load "${KERNEL:-x86_64}"
if [ -n "$KBUILD_KNOB" ] && [ -n "${!KBUILD_KNOB:-}" ]; then
	KBUILD=${!KBUILD_KNOB}
else
	KBUILD=$KBUILD_ROOT/$KERNEL
fi
KBUILD=$(realpath -m -- "$KBUILD")
: "${KTARBALL:=/usr/src/linux-source-$KVER.tar.xz}"

# Every file the series adds, as "tree path:repo path": the core, the case
# tables the cmocka suites share, and kport/lib/, which mirrors the tree
# (kport/lib/sg_chain/X is lib/sg_chain/X). Both series carry each one byte
# for byte; kport/check.sh fails on a file the series adds that is not here.
KPORT_COPIES=(
	"include/linux/scatterlist_chain.h:core/scatterlist_chain.h"
	"lib/sg_chain/sg_chain_cases.h:tests/unit/sg_chain_cases.h"
	"lib/sg_chain/sg_chain_dma_cases.h:tests/unit/sg_chain_dma_cases.h"
	"lib/sg_chain/sg_chain_pages_cases.h:tests/unit/sg_chain_pages_cases.h"
)
# The files git keeps (or would: new and not ignored), and in any case no
# backup an editor or patch leaves: none may become a file of the series.
BACKUP_NAMES='(~|\.orig|\.rej|\.bak|\.sw[a-p])$|(^|/)#[^/]*#$'
kport_lib_files() {
	{
		# Git only where REPO is a checkout's top, not a copy of it inside
		# another checkout's ignored build directory (make mutate-kernel's).
		if [ "$(git -C "$REPO" rev-parse --show-toplevel 2>/dev/null)" = "$REPO" ]; then
			git -C "$REPO" ls-files --cached --others --exclude-standard -- kport/lib
		else
			(cd "$REPO" && find kport/lib -type f)
		fi
	} | { grep -vE "$BACKUP_NAMES" || true; } | LC_ALL=C sort -u
}
while IFS= read -r mirrored; do
	if [ -f "$REPO/$mirrored" ]; then
		KPORT_COPIES+=("${mirrored#kport/}:$mirrored")
	fi
done < <(kport_lib_files)

# tree.sh and series.sh copy the repository's files into the tree and keep
# what they copied last, to tell their copy from an edit made in the tree
# itself, which a copy would overwrite without a word.
copied_record() { echo "$KSRC/.git/sgchain-copied/$1"; }
record_copy() { # TREE_PATH REPO_PATH: the tree's file is now the repository's
	local record
	record=$(copied_record "$1")
	cmp -s "$REPO/$2" "$record" && return
	mkdir -p "$(dirname "$record")"
	cp "$REPO/$2" "$record"
}
# Bring the tree's copy to the repository's file; false if it already was.
# Copied only if it differs: a new mtime alone would rebuild every object
# that includes it.
sync_copy() { # TREE_PATH REPO_PATH
	local copied=1
	if ! cmp -s "$REPO/$2" "$KSRC/$1"; then
		mkdir -p "$(dirname "$KSRC/$1")"
		cp "$REPO/$2" "$KSRC/$1"
		copied=0
	fi
	record_copy "$1" "$2"
	return "$copied"
}
# FILE holds a version of the repository's file: the one last copied in,
# today's, or one in its git history (for trees made before the records).
repo_had() { # FILE TREE_PATH REPO_PATH
	local blob rev revs
	cmp -s "$1" "$(copied_record "$2")" && return 0
	cmp -s "$1" "$REPO/$3" && return 0
	git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1 || return 1
	blob=$(git hash-object -- "$1")
	mapfile -t revs < <(git -C "$REPO" log --format=%H -- "$3")
	for rev in "${revs[@]}"; do
		[ "$(git -C "$REPO" rev-parse -q --verify "$rev:$3" 2>/dev/null)" != "$blob" ] ||
			return 0
	done
	return 1
}
edited_in_tree() { # TREE_PATH REPO_PATH: neither as committed nor a copy
	[ -f "$KSRC/$1" ] || return 1
	if kgit cat-file -e "HEAD:$1" 2>/dev/null && kgit diff --quiet HEAD -- "$1"; then
		return 1
	fi
	! repo_had "$KSRC/$1" "$1" "$2"
}
# Stop, before anything is copied or reset, if a copy in the tree holds an
# edit made there.
refuse_tree_edits() {
	local pair tree_path repo_path base
	for pair in "${KPORT_COPIES[@]}"; do
		tree_path=${pair%%:*} repo_path=${pair#*:}
		if cmp -s "$REPO/$repo_path" "$KSRC/$tree_path" ||
		   ! edited_in_tree "$tree_path" "$repo_path"; then
			continue
		fi
		base="<(git -C $KSRC show HEAD:$tree_path)"
		[ ! -f "$(copied_record "$tree_path")" ] || base=$(copied_record "$tree_path")
		die "$tree_path in $KSRC holds an edit made there, which $repo_path does not: the repository's file is the one to edit (make qemu copies it in). To keep the tree's edit, carry it over, then drop it from the tree: 'diff -u $base $KSRC/$tree_path | patch $REPO/$repo_path; git -C $KSRC checkout -- $tree_path'"
	done
}
# make mutate-kernel plants each mutation in a file of the tree and
# notes it here, "PID START PATH" (START: the process's start time, so a
# reused PID is not taken for the run), until the file is back. A run
# killed in between (SIGKILL, the end of a session) leaves the line, and
# the file mutated: the next kernel target puts it back (restore_planted).
planted_list() { echo "$KSRC/.git/sgchain-planted"; }
# A process's start time (field 22 of /proc/PID/stat; the name before it
# may hold spaces), or nothing once it is gone.
proc_start() { # PID
	sed -n 's/.*) //p' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20
}
# Whether the run that listed PID and START is still going (a PID and its
# start time name one process).
planting_run() { # PID START
	[ -n "$2" ] && [ "$(proc_start "$1")" = "$2" ]
}
# The paths of the list whose runs are still going.
live_plants() {
	local list pid start path
	list=$(planted_list)
	[ -f "$list" ] || return 0
	while read -r pid start path; do
		! planting_run "$pid" "$start" || echo "$path"
	done < "$list"
}
# Put back, from the tree's HEAD, each file a run that is gone left
# planted; keep the lines of a run still going (its targets call this).
restore_planted() {
	local list pid start path keep=() dropped=0
	list=$(planted_list)
	[ -f "$list" ] || return 0
	while read -r pid start path; do
		[ -n "$path" ] || continue
		if planting_run "$pid" "$start"; then
			keep+=("$pid $start $path")
			continue
		fi
		kgit checkout -q HEAD -- "$path" ||
			die "cannot put $path back in $KSRC (make mutate-kernel's PID $pid left it planted): 'git -C $KSRC checkout HEAD -- $path'"
		say "put $path back: a make mutate-kernel run (PID $pid) stopped with a mutation planted in it"
		dropped=1
	done < "$list"
	# Rewritten only when a line went, and whole: a run adding its line
	# at the same time never reads a half-written list.
	[ "$dropped" = 1 ] || return 0
	if [ ${#keep[@]} -eq 0 ]; then
		rm -f "$list"
	else
		printf '%s\n' "${keep[@]}" > "$list.tmp" && mv "$list.tmp" "$list"
	fi
}
# Uncommitted changes in the tree to anything but the copies and the
# files a make mutate-kernel run still going has planted.
uncommitted_outside_copies() {
	kgit status --porcelain --untracked-files=no | cut -c4- |
		grep -vxF "$(printf '%s\n' "${KPORT_COPIES[@]%%:*}"; live_plants)" || true
}

# The checkers' counting: run, count, and show the output of a failure.
failed=0 passed=0
check() { # NAME COMMAND...
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		passed=$((passed + 1)); echo "  ok    $name"
	else
		failed=$((failed + 1)); echo "  FAIL  $name"; printf '%s\n' "$out" | sed 's/^/        /' | head -40
	fi
}

say() { printf '[kport] %s\n' "$*"; }
# A make of its own, not a sub-make of sgchain's: none of the top-level
# Makefile's flags (--no-builtin-rules, which the scatterlist harness needs)
# or command-line variables (O=) may leak into it.
own_make() { env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make "$@"; }
die() { printf '[kport] error: %s\n' "$*" >&2; exit 1; }

# Refuse a tree inside the repository: it must never be committed.
case "$KSRC/" in "$REPO"/*) die "KSRC=$KSRC is inside the repository" ;; esac
case "$KBUILD/" in "$REPO"/*) die "KBUILD=$KBUILD is inside the repository" ;; esac

# Where tree.sh may extract a new tree: a missing KSRC inside the cache,
# which is sgchain's own, or an empty directory the user made for it.
# Anywhere else a missing KSRC is taken for a typo.
ksrc_creatable() {
	if [ -e "$KSRC" ]; then
		[ -d "$KSRC" ] && [ -z "$(ls -A "$KSRC")" ]
		return
	fi
	case "$KSRC/" in "$SGCHAIN_CACHE"/*) return 0 ;; esac
	return 1
}

# The kernel records the tree a build directory belongs to in its 'source'
# link, and the architecture in its .config; building there for another
# tree or architecture would take that build over.
kbuild_check() { # BUILD_DIR
	local link="$1/source" owner
	if [ -L "$link" ]; then
		owner=$(realpath -m -- "$(readlink "$link")")
		[ "$owner" = "$KSRC" ] ||
			die "$1 holds a build of the tree $owner, not of KSRC=$KSRC; leave KBUILD unset (each tree gets its own, $KSRC.build/) or give another KBUILD"
	fi
	if [ -f "$1/.config" ] && ! grep -q "^$KCONFIG_ARCH=y" "$1/.config"; then
		die "$1 holds a build for another architecture than the kernel $KERNEL's; leave ${KBUILD_KNOB:-its build directory} unset or give another"
	fi
}

# The identity a tree's commits are made in: the user's own, or the
# account's. The committed series name nobody: series.sh and fixes.sh
# strip authors and sign-offs from what they write (unname_patches), and
# am_unnamed gives each patch this identity back as a tree takes it. A
# sign-off comes only from the person who sends (make kport-fixes-send).
ident_name() { git config user.name || id -un; }
ident_email() { git config user.email || echo "$(id -un)@$(hostname)"; }
kgit() { git -C "$KSRC" -c user.name="$(ident_name)" -c user.email="$(ident_email)" "$@"; }
am_unnamed() { # TREE PATCH...: git am each, authored by ident unless it names one
	local tree=$1 patch from
	shift
	from="From: $(ident_name) <$(ident_email)>"
	for patch; do
		# A patch that names its author (a credited one) keeps it.
		awk -v from="$from" '!done && /^From: / { done = 1 }
			!done && /^Subject: / { print from; done = 1 } { print }' "$patch" |
			git -C "$tree" -c user.name="$(ident_name)" -c user.email="$(ident_email)" am -q ||
			{ echo "$(basename "$patch") does not apply to $tree (git -C $tree am --abort)" >&2; return 1; }
	done
}
# format-patch dates a cover letter now: keep the old one's date when
# nothing else in it changed, so that writing a series again changes nothing.
keep_cover_date() { # NEW_COVER OLD_COVER
	[ -f "$2" ] && [ -f "$1" ] || return 0
	if cmp -s <(grep -v '^Date: ' "$1") <(grep -v '^Date: ' "$2"); then
		cp "$2" "$1"
	fi
}
unname_patches() { # PATCH...: drop the From: header (folded or not), sign-offs
	local f          # and the author line of a cover letter's shortlog; keep
	for f; do        # the names $UNNAME_KEEP lists ("Name <email>", a tab, ...)
		awk -v cover="$([[ $f == */0000-cover-letter.patch ]] && echo 1)" -v keep="${UNNAME_KEEP:-}" '
			BEGIN { while (keep != "" && (getline l < keep) > 0)
				if (l !~ /^#/) { split(l, a, "\t"); ok[a[1]] = 1 } }
			function name(line) { sub(/^[^:]*: */, "", line); return line }
			!body && /^From: / { from = !(name($0) in ok); if (!from) print; next }
			!body && from && /^[ \t]/ { next }
			{ from = 0 }
			/^$/ { body = 1 }
			/^Signed-off-by: / && !(name($0) in ok) { next }
			cover && /^[^ \t].* \([0-9]+\):$/ { next }
			{ print }' "$f" > "$f.tmp"
		mv "$f.tmp" "$f"
	done
}

# The series' patches in order, without the cover letter; and their hash.
series_patches() {
	find "$REPO/$KPATCHES" -name '[0-9]*.patch' ! -name '0000-*' | sort
}
series_hash() { series_patches | xargs -r -d '\n' cat | sha1sum | cut -c1-40; }

# The C files and headers the series adds or changes, as paths in $KSRC;
# and the objects of its .c files (what kport-check and lint go over).
series_sources() { kgit diff --name-only pristine..HEAD -- '*.c' '*.h'; }
series_objects() { series_sources | sed -n 's/\.c$/.o/p'; }

# The cover letter of KVER's series (kport/cover-letter*.txt) with the
# declared differences from 6.1 in place of its @DECLARED_DIFFERENCES@
# line: one source for the differential suite and the letters.
cover_letter() {
	local rows
	rows=$(python3 "$REPO/tests/diff/compare.py" --cover-letter \
		--declared "$REPO/kport/declared-differences") || return 1
	awk -v rows="$rows" '$0 == "@DECLARED_DIFFERENCES@" { print rows; next } { print }' \
		"$REPO/$KCOVER"
}
