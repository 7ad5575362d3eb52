#!/usr/bin/env bash
# Configure (tinyconfig, or the kernel's base config, + the fragments of
# KERNEL) and build its image: $KBUILD/$KIMAGE (kport/kernels/KERNEL.sh).
# Reconfigures only when the fragment changed; checks that every option of
# the fragment reached .config; shows progress as objects compile.
set -euo pipefail
source "$(dirname "$0")/env.sh"
source "$(dirname "$0")/fragments.sh"
source "$(dirname "$0")/../scripts/times.sh"
t0=$(date +%s)

jobs=${JOBS:-$(nproc)}
log="$KBUILD/build.log"
kbuild_check "$KBUILD"
[ -f "$KSRC/Makefile" ] || die "no kernel tree at KSRC=$KSRC: run kport/tree.sh (make qemu does)"
mkdir -p "$KBUILD"
kmake() { make -C "$KSRC" O="$KBUILD" "${KMAKE_ARGS[@]}" "$@"; }

configure() {
	say "configuring $KERNEL: $KBASECONFIG + ${KFRAGMENTS[*]}"
	kmake -s "$KBASECONFIG" >"$log" 2>&1 || die "$KBASECONFIG failed, see $log"
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$KBUILD" \
		"$KBUILD/.config" "${KFRAGMENTS[@]/#/$REPO/}" >>"$log" 2>&1 ||
		die "merge_config failed, see $log"
	kmake -s olddefconfig >>"$log" 2>&1 || die "olddefconfig failed, see $log"
	echo "$frag_hash" > "$KBUILD/.sgchain-config"
}

# Options under a menu that is off are dropped silently: list them.
missing_options() {
	fragment_options_missing "$KBUILD/.config" "${KFRAGMENTS[@]/#/$REPO/}"
}

frag_hash=$({ echo "$KBASECONFIG"; cat "${KFRAGMENTS[@]/#/$REPO/}"; } | sha1sum | cut -c1-40)
if [ "$(cat "$KBUILD/.sgchain-config" 2>/dev/null)" != "$frag_hash" ] ||
   [ ! -f "$KBUILD/.config" ]; then
	configure
elif [ -n "$(missing_options)" ]; then
	# The fragment is unchanged but a Kconfig file may have changed.
	configure
fi
missing=$(missing_options)
[ -z "$missing" ] || die "options missing from .config: $(echo $missing)"

if [ -f "$KBUILD/vmlinux" ]; then
	say "building $KERNEL $KTARGET with -j$jobs (incremental; log: $log)"
else
	say "building $KERNEL $KTARGET with -j$jobs (cold: 2 to 6 minutes; log: $log)"
fi
start=$(date +%s)
set +e
kmake -j"$jobs" "$KTARGET" 2>&1 | tee -a "$log" | {
	n=0
	while IFS= read -r line; do
		case "$line" in
		"  CC "* | "  AS "* | "  LD "* | "  AR "*)
			n=$((n + 1))
			[ $((n % 100)) -ne 0 ] ||
				say "$n objects built, $(( $(date +%s) - start )) s" ;;
		*error:* | *"Error "[0-9]*) printf '%s\n' "$line" ;;
		esac
	done
}
rc=${PIPESTATUS[0]}
set -e
[ "$rc" -eq 0 ] || die "kernel build failed (exit $rc), see $log"
say "$KIMAGE ready in $(( $(date +%s) - start )) s"
time_record build $(( $(date +%s) - t0 )) "$KVER $KERNEL"
