#!/usr/bin/env bash
# make kport-bisect: every prefix of a series builds and passes its tests,
# so that a bisection through it never lands on a broken commit.
#   bisect.sh SERIES...    SERIES: fixes-6.12, fixes-6.1 (the fix series'
#                          backports), 6.1, 6.12 (the refactor's series)
# Each series gets a worktree of its Debian tree at pristine with the
# series applied ($SGCHAIN_CACHE/bisect-SERIES, kept for the next run), and for each prefix, in order (so the builds are
# incremental):
#  - User Mode Linux and x86_64 build with W=1, and no warning appears in a
#    file the series touches that the pristine tree's same build does not
#    give (pristine is built first, for that baseline);
#  - the KUnit suites present at that prefix run (kunit.py exec: UML, and
#    x86_64 under QEMU) and pass; a prefix without a suite only builds;
#  - the scatterlist harness (tools/testing/scatterlist) passes once it has
#    built (at pristine, or since a prefix made it build); before that (6.12
#    until the fix series repairs it) that is said, and not counted.
# The .config is the one kunit.py makes for the final prefix's suites,
# given to every prefix through olddefconfig (options a prefix lacks drop
# out). Ends with "N passed, N failed". Slow: see docs/upstream-fixes.md.
set -euo pipefail
source "$(dirname "$0")/env.sh"
source "$(dirname "$0")/fixes_env.sh"
[ $# -gt 0 ] || die "usage: bisect.sh SERIES... (fixes-6.12 fixes-6.1 6.1 6.12)"
jobs=${JOBS:-$(nproc)}

series_dir() {
	case "$1" in
	fixes-6.12 | fixes-6.1) echo "kport/$1" ;;
	6.1) echo kport/series-6.1 ;;
	6.12) echo kport/series-6.12 ;;
	*) die "SERIES=$1: fixes-6.12, fixes-6.1, 6.1 or 6.12" ;;
	esac
}
kver_of() { echo "${1#fixes-}"; }
# The suites' kunitconfigs: the refactor's, a path in its tree; the fix
# series' sg_split suite has none in the tree (lib/tests keeps no
# per-suite file), so one is written outside it.
KUNITCONFIGS=(lib/sg_chain/.kunitconfig)
SPLIT_KUNITCONFIG=$SGCHAIN_CACHE/bisect-sg_split.kunitconfig
mkdir -p "$SGCHAIN_CACHE"
printf '%s\n' CONFIG_KUNIT=y CONFIG_SG_SPLIT_KUNIT_TEST=y > "$SPLIT_KUNITCONFIG"
suite_configs() { # the kunitconfigs of the suites the tree has now
	local k
	for k in "${KUNITCONFIGS[@]}"; do [ ! -f "$tree/$k" ] || echo "$tree/$k"; done
	[ ! -f "$tree/lib/sg_split_kunit.c" ] || echo "$SPLIT_KUNITCONFIG"
}

prefix_warnings() { # LOG TOUCHED...: W=1 warnings in the touched files, no line numbers
	local log=$1
	shift
	grep -E '^[^ ]+:[0-9]+:([0-9]+:)? (warning|error): ' "$log" |
		sed -E "s|^$tree/||; s|^([^:]*):[0-9]+:([0-9]+:)?|\\1:|" |
		grep -F -f <(printf '%s:\n' "$@") | sort -u || true
}

build_arch() { # ARCH LOG: configure from the final .config, build W=1
	local arch=$1 log=$2 b=$builds/$1 karch
	karch=$arch
	[ "$arch" = um ] && karch=um
	mkdir -p "$b"
	cp "$configs/$arch" "$b/.config"
	own_make -s -C "$tree" ARCH="$karch" O="$b" olddefconfig >"$log" 2>&1 &&
		own_make -C "$tree" ARCH="$karch" O="$b" W=1 -j"$jobs" >>"$log" 2>&1
}
run_suites() { # ARCH LOG: kunit.py exec on the build, if the prefix has a suite
	local arch=$1 log=$2 args=()
	[ -n "$(suite_configs)" ] || return 2
	[ "$arch" = um ] || args=(--arch="$arch")
	(cd "$tree" && python3 tools/testing/kunit/kunit.py exec --build_dir "$builds/$arch" \
		--timeout 600 "${args[@]}") >"$log" 2>&1
}
harness() { # LOG
	local rc=0
	{ own_make -s -C "$tree/tools/testing/scatterlist" && "$tree/tools/testing/scatterlist/main"; } \
		>"$1" 2>&1 || rc=$?
	own_make -s -C "$tree/tools/testing/scatterlist" clean >/dev/null 2>&1 || true
	git -C "$tree" clean -qfdx -- tools/testing/scatterlist >/dev/null 2>&1 || true
	return "$rc"
}

total_passed=0 total_failed=0
for series in "$@"; do
	dir=$(series_dir "$series") kver=$(kver_of "$series")
	main=$SGCHAIN_CACHE/linux-source-$kver
	[ -d "$main/.git" ] || die "no tree at $main: run 'make kport-series KVER=$kver'"
	tree=$SGCHAIN_CACHE/bisect-$series builds=$SGCHAIN_CACHE/bisect-$series.build
	logs=$builds/logs configs=$builds/configs
	start=$(date +%s)
	# Kept from the last run, the tree is only reset: files the series does
	# not touch keep their times, and the builds stay incremental.
	if [ -e "$tree" ]; then
		git -C "$tree" am --abort >/dev/null 2>&1 || true
		git -C "$tree" checkout -q --detach -f pristine
		git -C "$tree" clean -qfd -- tools/testing/scatterlist lib
	else
		git -C "$main" worktree add -q --detach "$tree" pristine
	fi
	mkdir -p "$logs" "$configs"
	if [[ $series == fixes-* ]]; then
		# 6.1's backport requests first, as its fix tree has them.
		mapfile -t patches < <([ "$kver" != 6.1 ] || stable_requests; form_patches "$kver")
	else
		mapfile -t patches < <(find "$REPO/$dir" -name '[0-9]*.patch' ! -name '0000-*' | sort)
	fi
	am_unnamed "$tree" "${patches[@]}" || die "$dir does not apply to pristine $kver"
	mapfile -t commits < <(git -C "$tree" rev-list --reverse pristine..HEAD)
	mapfile -t touched < <(git -C "$tree" diff --name-only pristine HEAD)
	say "$series: ${#commits[@]} prefixes of $dir in $tree (builds in $builds)"

	# The .config of the final prefix's suites, as kunit.py makes it.
	for arch in um x86_64; do
		args=()
		[ "$arch" = um ] || args=(--arch="$arch")
		kc=()
		while IFS= read -r k; do kc+=(--kunitconfig "$k"); done < <(suite_configs)
		(cd "$tree" && env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS python3 tools/testing/kunit/kunit.py config --build_dir "$builds/$arch" \
			"${kc[@]}" "${args[@]}") >"$logs/config-$arch.log" 2>&1 ||
			die "kunit.py config failed for $arch: $logs/config-$arch.log"
		cp "$builds/$arch/.config" "$configs/$arch"
	done

	# Pristine first: the warnings the tree has of its own, and whether
	# its harness builds.
	git -C "$tree" checkout -q --detach pristine
	for arch in um x86_64; do
		say "$series: pristine, $arch (the baseline; cold, several minutes)"
		build_arch "$arch" "$logs/pristine-$arch.log" ||
			die "pristine $kver does not build for $arch: $logs/pristine-$arch.log"
		prefix_warnings "$logs/pristine-$arch.log" "${touched[@]}" > "$logs/pristine-$arch.warnings"
	done
	harness_built=true
	harness "$logs/pristine-harness.log" || harness_built=false

	passed=0 failed=0
	for n in "${!commits[@]}"; do
		c=${commits[$n]} k=$((n + 1))
		subject=$(git -C "$tree" log -1 --format=%s "$c")
		git -C "$tree" checkout -q --detach "$c"
		problems=()
		for arch in um x86_64; do
			log=$logs/$k-$arch.log
			if ! build_arch "$arch" "$log"; then
				problems+=("$arch build fails ($log)")
				continue
			fi
			new=$(prefix_warnings "$log" "${touched[@]}" |
				grep -vxF -f "$logs/pristine-$arch.warnings" -e '' || true)
			[ -z "$new" ] || problems+=("$arch W=1: $new")
			rc=0
			run_suites "$arch" "$logs/$k-$arch-kunit.log" || rc=$?
			case $rc in
			0 | 2) ;;
			*) problems+=("$arch KUnit fails ($logs/$k-$arch-kunit.log)") ;;
			esac
		done
		# Counted once it has built: at pristine, or since a prefix made it.
		note=""
		if harness "$logs/$k-harness.log"; then
			note=" harness ok" harness_built=true
		elif $harness_built; then
			problems+=("harness fails ($logs/$k-harness.log)")
		else
			note=" harness: does not build, nor did it at pristine $kver"
		fi
		if [ ${#problems[@]} -eq 0 ]; then
			passed=$((passed + 1)); echo "  ok    $series $k/${#commits[@]} $subject$note"
		else
			failed=$((failed + 1)); echo "  FAIL  $series $k/${#commits[@]} $subject"
			printf '        %s\n' "${problems[@]}"
		fi
	done
	say "$series: $passed passed, $failed failed in $(( ($(date +%s) - start) / 60 )) min"
	total_passed=$((total_passed + passed)) total_failed=$((total_failed + failed))
done
echo "$total_passed passed, $total_failed failed"
[ "$total_failed" -eq 0 ]
