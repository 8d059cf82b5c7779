#!/usr/bin/env bash
# Build the Twinfold image: out/twinfold-VERSION-arm64.img.xz (and the raw .img beside it,
# which the QEMU checks boot), from Debian bookworm arm64 (linux-image-arm64, raspi-firmware),
# the installer (deploy/install.sh, run inside the image's root under qemu-user binfmt) and
# the Twinfold wheel with its dependencies' aarch64 wheels (fetched here, on the host, by
# `pip download`: the image's root never reaches PyPI).
#
# usage: sudo deploy/image/build.sh [--cache DIR] [--out DIR] [--url URL] [--no-xz]
#
#   --cache DIR   what does not change between builds: the base root (rebuilt only when its
#                 package list changes) and the wheels (default /var/cache/twinfold-image)
#   --out DIR     where the image goes (default: out/ in the checkout)
#   --url URL     where the .img.xz will be published (the Imager JSON's download URL)
#   --no-xz       leave out the .img.xz and the Imager JSON (the QEMU checks need the .img)
#
# Needs root, mmdebstrap, arm64 binfmt (qemu-user-static), dosfstools, mtools, e2fsprogs,
# fdisk (sfdisk), xz-utils, python3 with pip. docs/hardware.md says what the image drives.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DEPLOY="$(dirname "$HERE")"
REPO="$(dirname "$DEPLOY")"
CACHE=/var/cache/twinfold-image
OUT="$REPO/out"
URL="https://github.com/twinfold/twinfold/releases/latest/download"
XZ=1
BOOT_MIB=256
BOOT_LABEL=RASPIFIRM
ROOT_LABEL=twinfold-root

die() { echo "build.sh: error: $*" >&2; exit 1; }
step() { echo "[$(date +%T)] $*"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --cache) [ $# -ge 2 ] || die "--cache needs a folder"; CACHE="$2"; shift ;;
        --out) [ $# -ge 2 ] || die "--out needs a folder"; OUT="$2"; shift ;;
        --url) [ $# -ge 2 ] || die "--url needs a URL"; URL="$2"; shift ;;
        --no-xz) XZ=0 ;;
        -h|--help) sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

# shellcheck source=deploy/image/base.sh
. "$HERE/base.sh"
# shellcheck source=deploy/image/prereq.sh
. "$HERE/prereq.sh"
# shellcheck source=deploy/image/power_layout.sh
. "$HERE/power_layout.sh"
missing="$(build_prerequisites)" || die "cannot build here: $missing"

VERSION="$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' "$REPO/pyproject.toml")"
NAME="twinfold-$VERSION-arm64"
mkdir -p "$CACHE" "$OUT"
WORK="$(mktemp -d "$CACHE/work.XXXXXX")"
ROOTFS="$WORK/root"
cleanup() {
    for m in dev/pts dev proc sys; do
        mountpoint -q "$ROOTFS/$m" 2>/dev/null && umount -l "$ROOTFS/$m"
    done
    rm -rf "$WORK"
}
trap cleanup EXIT

# --------------------------------------------------------------------------- the base root
BASE="$CACHE/base-$(base_key).tar"
exec 9>"$CACHE/base.lock"
flock 9
if [ -f "$BASE" ]; then
    step "base root: cached $BASE"
else
    step "base root: mmdebstrap (cold: a few minutes under emulation)"
    make_base "$BASE" > "$WORK/mmdebstrap.log" 2>&1 || {
        tail -n 30 "$WORK/mmdebstrap.log" >&2
        die "mmdebstrap failed (log above)"
    }
    find "$CACHE" -maxdepth 1 -name 'base-*.tar' ! -name "$(basename "$BASE")" -delete
fi
flock -u 9

# --------------------------------------------------------------------------- the wheels
step "wheels: Twinfold from the checkout, its dependencies for aarch64 (cached)"
# shellcheck source=deploy/lib.sh
. "$DEPLOY/lib.sh"
WHEEL="$(build_wheel python3 "$REPO" "$WORK/dist")"
WHEELS="$CACHE/wheels-cp311-aarch64"
mkdir -p "$WHEELS"
download() {
    python3 -m pip download --quiet --disable-pip-version-check --dest "$WHEELS" \
        --platform manylinux2014_aarch64 --only-binary=:all: \
        --python-version 3.11 --implementation cp --abi cp311 "$@" "$WHEEL"
}
# Without the index (offline), the cached wheels do if they are all there.
download || download --no-index --find-links "$WHEELS" \
    || die "pip download of the aarch64 wheels failed (no index, and not all cached)"
rm -f "$WHEELS"/twinfold-*.whl

# --------------------------------------------------------------------------- the root
step "root: unpack the base, run deploy/install.sh inside (arm64, qemu-user)"
mkdir -p "$ROOTFS"
tar -C "$ROOTFS" -xf "$BASE"
mkdir -p "$ROOTFS/tmp/twinfold/wheels"
cp -a "$DEPLOY" "$ROOTFS/tmp/twinfold/deploy"
cp "$WHEELS"/*.whl "$WHEEL" "$ROOTFS/tmp/twinfold/wheels/"
mount -t proc proc "$ROOTFS/proc"
mount --bind /dev "$ROOTFS/dev"
chroot "$ROOTFS" /tmp/twinfold/deploy/install.sh --no-apt \
    --wheels /tmp/twinfold/wheels --wheel "/tmp/twinfold/wheels/$(basename "$WHEEL")" \
    > "$WORK/install.log" 2>&1 || { tail -n 40 "$WORK/install.log" >&2; die "install.sh failed in the arm64 root"; }
cp "$WORK/install.log" "$OUT/$NAME.install.log"
rm -f "$OUT"/twinfold-*-py3-none-any.whl
cp "$WHEEL" "$OUT/"  # beside the image: the QEMU checks make their updates from it
"$HERE/verify_root.sh" "$ROOTFS" || die "the installed root is not as expected (above)"
umount "$ROOTFS/dev" "$ROOTFS/proc"
rm -rf "$ROOTFS/tmp/twinfold"

step "root: the image's own settings"
F="$HERE/files"
install -D -m 0755 "$F/boot-config" "$ROOTFS/usr/local/lib/twinfold/boot-config"
install -D -m 0644 "$F/twinfold-boot-config.service" "$ROOTFS/etc/systemd/system/twinfold-boot-config.service"
install -D -m 0644 "$F/twinfold-service-image.conf" "$ROOTFS/etc/systemd/system/twinfold.service.d/image.conf"
install -D -m 0644 "$F/twinfold-serial-shell.service" "$ROOTFS/etc/systemd/system/twinfold-serial-shell.service"
install -D -m 0644 "$F/20-wired.network" "$ROOTFS/etc/systemd/network/20-twinfold.network"
install -D -m 0644 "$F/twinfold.toml" "$ROOTFS/boot/firmware/twinfold.toml"
chroot "$ROOTFS" systemctl enable -q twinfold-boot-config.service twinfold-serial-shell.service systemd-networkd.service
chroot "$ROOTFS" systemctl disable -q ssh.service 2>/dev/null || true
power_root "$ROOTFS" "$F"  # read-only root, /var grown, update slots (power_layout.sh)
echo twinfold > "$ROOTFS/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\ttwinfold\n' > "$ROOTFS/etc/hosts"
# udev may take minutes to name the partitions on a loaded emulator: /var is required (the
# unit stops in emergency mode without it), so its device is awaited longer than 90 s.
cat > "$ROOTFS/etc/fstab" <<FSTAB
LABEL=$ROOT_LABEL / ext4 ro,noatime 0 1
LABEL=$VAR_LABEL /var ext4 defaults,noatime,errors=remount-ro,x-systemd.device-timeout=15min 0 2
LABEL=$BOOT_LABEL /boot/firmware vfat ro,nofail,x-systemd.device-timeout=15min 0 2
tmpfs /tmp tmpfs mode=1777,nosuid,nodev 0 0
FSTAB
# The kernel command line: the root by label, the console on the mini UART (ttyS1), none
# drawn on the display (fbcon=map:9, as install.sh sets it).
echo "console=ttyS1,115200 console=tty0 root=LABEL=$ROOT_LABEL rootfstype=ext4 ro rootwait fsck.repair=yes net.ifnames=0 cma=64M fbcon=map:9" \
    > "$ROOTFS/boot/firmware/cmdline.txt"
rm -f "$ROOTFS/etc/ssh/ssh_host_"*  # each unit makes its own (ssh's first start)
chroot "$ROOTFS" sh -c 'cat > /etc/systemd/system/ssh-keygen.service' <<'UNIT'
[Unit]
Description=SSH host keys (first boot)
Before=ssh.service
ConditionPathExists=!/etc/ssh/ssh_host_ed25519_key
[Service]
Type=oneshot
ExecStart=/usr/local/lib/twinfold/with-rw-root /usr/bin/ssh-keygen -A
[Install]
WantedBy=multi-user.target
UNIT
chroot "$ROOTFS" systemctl enable -q ssh-keygen.service
step "root: the games' search accelerators for arm64 (deploy/image/native-build)"
"$HERE/native-build" "$ROOTFS" || die "the accelerators failed (above)"
# The handheld's panel modules, merged DTBs, kernel hook and unit kind (issue 31).
step "root: the handheld's parts (deploy/image/handheld/image-setup)"
"$HERE/handheld/image-setup" "$ROOTFS" "$CACHE" || die "the handheld's parts failed (above)"
: > "$ROOTFS/etc/machine-id"
rm -rf "$ROOTFS/var/cache/apt/"*.bin "$ROOTFS/var/lib/apt/lists/"*

# --------------------------------------------------------------------------- the image
step "image: FAT boot partition, ext4 root (read-only), ext4 /var (grows), partition table"
power_split_var "$ROOTFS" "$WORK/var"
SECTOR=512
BOOT_START=$((4 * 1024 * 1024))
ROOT_START=$((BOOT_START + BOOT_MIB * 1024 * 1024))
used=$(du -s --block-size=1M "$ROOTFS" | cut -f1)
ROOT_MIB=$(power_mib "$ROOTFS" 15 64)
VAR_MIB=$(power_mib "$WORK/var" 30 96)  # the first boot grows it to the card's end
VAR_START=$((ROOT_START + ROOT_MIB * 1048576))
need=$(( VAR_START / 1048576 + VAR_MIB ))
size=1
while [ "$size" -lt "$need" ]; do size=$((size * 2)); done  # MiB; QEMU's SD card wants 2^n
IMG="$OUT/$NAME.img"
rm -f "$IMG" "$WORK/boot.vfat" "$WORK/root.ext4" "$WORK/var.ext4"
mkfs.vfat -F 32 -n "$BOOT_LABEL" -C "$WORK/boot.vfat" $((BOOT_MIB * 1024)) > /dev/null
mcopy -s -i "$WORK/boot.vfat" "$ROOTFS/boot/firmware/"* ::/
find "$ROOTFS/boot/firmware" -mindepth 1 -delete
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-315532800}" \
    mkfs.ext4 -q -L "$ROOT_LABEL" -d "$ROOTFS" "$WORK/root.ext4" "${ROOT_MIB}M"
SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-315532800}" \
    mkfs.ext4 -q -L "$VAR_LABEL" -d "$WORK/var" "$WORK/var.ext4" "${VAR_MIB}M"
truncate -s "${size}M" "$IMG"
sfdisk --quiet "$IMG" <<PT
label: dos
start=$((BOOT_START / SECTOR)), size=$((BOOT_MIB * 2048)), type=c, bootable
start=$((ROOT_START / SECTOR)), size=$((ROOT_MIB * 2048)), type=83
start=$((VAR_START / SECTOR)), size=$((VAR_MIB * 2048)), type=83
PT
dd if="$WORK/boot.vfat" of="$IMG" bs=1M seek=$((BOOT_START / 1048576)) conv=notrunc,sparse status=none
dd if="$WORK/root.ext4" of="$IMG" bs=1M seek=$((ROOT_START / 1048576)) conv=notrunc,sparse status=none
dd if="$WORK/var.ext4" of="$IMG" bs=1M seek=$((VAR_START / 1048576)) conv=notrunc,sparse status=none
echo "$IMG: ${size} MiB (root ${used} MiB used, ${ROOT_MIB} MiB read-only; /var ${VAR_MIB} MiB, grown at the first boot)"

if [ "$XZ" = 1 ]; then
    step "image: xz, Raspberry Pi Imager JSON"
    xz -T2 -1 -k -f "$IMG"
    python3 "$DEPLOY/pi-gen/imager_json.py" --debian "$IMG.xz" "$URL/$NAME.img.xz" > "$OUT/$NAME.json"
    ls -l "$IMG.xz" "$OUT/$NAME.json"
fi
step "done: $IMG"
