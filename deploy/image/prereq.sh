# shellcheck shell=bash
# What building and booting the image need from the host (sourced by build.sh and
# .ci/image-checks, never run). Each function prints what is missing, and fails, or is silent.

build_prerequisites() {
    local why=() tool
    [ "$(id -u)" = 0 ] || why+=("not root")
    for tool in mmdebstrap mkfs.vfat mcopy mkfs.ext4 sfdisk xz flock chroot; do
        command -v "$tool" >/dev/null 2>&1 || why+=("no $tool")
    done
    python3 -m pip --version >/dev/null 2>&1 || why+=("no pip for python3")
    # the handheld's panel modules (deploy/image/handheld/image-setup): cross-compiled
    command -v make >/dev/null 2>&1 || why+=("no make")
    [ "$(dpkg --print-architecture 2>/dev/null)" = arm64 ] || command -v aarch64-linux-gnu-gcc-12 \
        >/dev/null 2>&1 || why+=("no aarch64-linux-gnu-gcc-12 (gcc-12-aarch64-linux-gnu)")
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        why+=("no arm64 binfmt (qemu-user-static; binfmt_misc mounted?)")
    elif [ "$(cat /proc/sys/fs/binfmt_misc/qemu-aarch64 | head -n 1)" != enabled ]; then
        why+=("the arm64 binfmt is disabled")
    fi
    if [ ${#why[@]} -gt 0 ]; then
        (IFS=';'; echo "${why[*]}" | sed 's/;/; /g')
        return 1
    fi
}

boot_prerequisites() {
    local why=() tool
    for tool in qemu-system-aarch64 fdtput fdtget mcopy; do
        command -v "$tool" >/dev/null 2>&1 || why+=("no $tool")
    done
    if [ ${#why[@]} -gt 0 ]; then
        (IFS=';'; echo "${why[*]}" | sed 's/;/; /g')
        return 1
    fi
}
