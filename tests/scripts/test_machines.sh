#!/usr/bin/env bash
# Adding an architecture is files, not edits: a kernel file
# (kport/kernels/) and a boot file (tests/qemu/boots/LIST/) are all that
# make help, make check's steps, the job writer of make lava-jobs and the
# kernel scripts need to know it. In a copy of the repository's files, a
# fake architecture (arm64's kernel and machine under other names) is
# added, and each of them must name it; nothing is built or booted.
source "$(dirname "$0")/../kport/tap.sh"
echo "1..8"
copy_repo "$tmp/repo"
r=$tmp/repo
sed 's/^# arm64,.*/# fakearch: arm64 under another name, for a test./' \
	"$r/kport/kernels/arm64.sh" > "$r/kport/kernels/fakearch.sh"
sed 's/^BOOT_KERNEL=arm64$/BOOT_KERNEL=fakearch/' \
	"$r/tests/qemu/boots/qemu-arch/arm64-iommu.sh" > "$r/tests/qemu/boots/qemu-arch/fakearch-smmu.sh"

help=$(make -s -C "$r" help 2>&1)
ok "make help lists the new boot under qemu-arch" \
	grep -qE '^ +qemu-arch: .*\bfakearch-smmu\b' <<< "$help"
steps=$(make -s -C "$r" check-steps 2>&1)
ok "make check's qemu-arch step boots it" grep -qE '^qemu-arch: .*\bfakearch-smmu\b' <<< "$steps"
ok "... and so does make qemu-arch" \
	grep -q 'fakearch-smmu' <<< "$(make -s -n -C "$r" qemu-arch O=/nonexistent 2>&1 | grep run.sh)"
lava_boots=$(sed -n 's/.*each boot of LAVA_BOOTS (default: \(.*\))$/\1/p' <<< "$help")
ok "make lava-jobs' default boots name qemu-arch" has " $lava_boots " " qemu-arch "
jobs=$("$r/tests/lava/run.sh" list "$tmp/o" $lava_boots 2>&1)
ok "... whose job writer writes one for the new boot" grep -qE '^qemu-arch: .*\bfakearch-smmu\b' <<< "$jobs"
# The kernel scripts take it as any other kernel.
k=$(cd "$r" && KERNEL=fakearch SGCHAIN_CACHE=$tmp/cache bash -c 'source kport/env.sh && echo "$KBUILD ${KMAKE_ARGS[*]} ${KFRAGMENTS[*]}"')
ok "kport/env.sh loads the kernel, its own build directory" has "$k" "$tmp/cache/linux-source-6.1.build/fakearch "
ok "... with its ARCH, cross compiler and fragments" \
	has "$k" "ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- kport/configs/common.config kport/configs/arch-arm64.config"
out=$(cd "$r" && bash -c 'source tests/qemu/boots.sh && boot_load fakearch-smmu && echo "$BOOT_KERNEL $(boot_out fakearch-smmu)"')
ok "the runner loads the boot and puts its outputs beside the others'" \
	[ "$out" = "fakearch qemu-arch/fakearch-smmu" ]
tap_done
