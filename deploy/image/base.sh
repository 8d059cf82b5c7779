# shellcheck shell=bash
# The base root of the Twinfold image: Debian bookworm arm64 with the kernel, the Raspberry Pi
# boot firmware and what the firmware needs from Debian (sourced by build.sh, never run).
# The packages and the hook below are the cache key: the base is rebuilt only when they change.

SUITE=bookworm
MIRROR="${TWINFOLD_IMAGE_MIRROR:-http://deb.debian.org/debian}"
# python3-evdev: evdev has no aarch64 wheel on PyPI (Debian's is used through a venv that
# sees the system's packages). python3-tomli-w writes the boot partition's settings merged
# over device.toml. device-tree-compiler: the installer compiles the overlay. hostapd, iw,
# wireless-regdb: a handheld hosts its own Wi-Fi network for a match (deploy/wifi/, issue 32).
BASE_PACKAGES=(
    systemd-sysv udev kmod dbus initramfs-tools zstd
    linux-image-arm64 raspi-firmware
    python3 python3-venv python3-evdev python3-tomli-w
    libasound2 polkitd device-tree-compiler
    openssh-server wpasupplicant firmware-brcm80211 iproute2 ca-certificates
    hostapd iw wireless-regdb
)

# A slim initramfs: only the modules that find and mount the root (the Pi 3's SD host
# `bcm2835`, the Pi 4's `sdhci_iproc`; virtio for QEMU's virt board), so each of the two
# initramfs builds takes seconds, not minutes, under emulation.
BASE_SETUP_HOOK='mkdir -p "$1/etc/initramfs-tools/conf.d" "$1/usr/share/initramfs-tools/modules.d"
echo MODULES=list > "$1/etc/initramfs-tools/conf.d/twinfold.conf"
printf "%s\n" bcm2835 sdhci_iproc mmc_block ext4 virtio_blk virtio_mmio virtio_pci > "$1/usr/share/initramfs-tools/modules.d/twinfold"'

base_key() {
    { echo "$SUITE $MIRROR"; printf '%s\n' "${BASE_PACKAGES[@]}"; echo "$BASE_SETUP_HOOK"; } \
        | sha256sum | cut -c1-16
}

# make_base TARBALL: build the base root with mmdebstrap (root, binfmt for arm64).
make_base() {
    local out="$1" tmp="${1%.tar}.partial.tar"
    mmdebstrap --architectures=arm64 --variant=minbase \
        --components=main,non-free-firmware \
        --include="$(IFS=,; echo "${BASE_PACKAGES[*]}")" \
        --setup-hook="$BASE_SETUP_HOOK" \
        --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
        --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
        "$SUITE" "$tmp" "$MIRROR" && mv "$tmp" "$out"
}
