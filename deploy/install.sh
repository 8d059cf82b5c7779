#!/usr/bin/env bash
# Turn a Raspberry Pi (Zero 2 W, 3, 4, 5; Raspberry Pi OS Lite 64-bit, bookworm) into a
# Twinfold handheld. Idempotent: running it again changes only what differs.
#
# usage: sudo deploy/install.sh [--wheel FILE] [--read-only] [--no-apt] [--dry-run]
#        DESTDIR=/path/to/stage deploy/install.sh [--dry-run]
#
#   --wheel FILE  the Twinfold wheel to install (default: one built from the checkout this
#                 installer is in, with the virtual environment's pip)
#   --read-only   read-only root (overlay file system) with the store on the partition
#                 labelled twinfold-data, mounted at /var/lib/twinfold
#   --no-apt      do not install Debian packages (they are already there)
#   --wheels DIR  install offline: the wheel's dependencies from the wheels in DIR (fetched
#                 elsewhere, e.g. `pip download --platform manylinux2014_aarch64`), evdev
#                 from Debian's python3-evdev (the venv sees the system's packages)
#   --dry-run     say what would be done, change nothing
#   DESTDIR       install the files under this staging root and make no system changes
#                 (no packages, user, virtual environment or service reloads)
#
# What it does: Debian packages; the `twinfold` system user; a virtual environment in
# /opt/twinfold/venv with the wheel; the systemd unit (enabled), the logind drop-in, udev
# rules, the polkit rule for shutdown; /etc/twinfold/device.toml (only if absent); the
# device-tree overlay (compiled with dtc) and the panels' init file; the Twinfold block in
# config.txt and the kernel command line without the serial console. In a chroot (pi-gen,
# or no running systemd) nothing is started or reloaded: the unit starts at the next boot.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BOOT=/boot/firmware
VENV=/opt/twinfold/venv
# python3-dev and gcc build evdev (no wheels for it on PyPI); polkitd lets the service
# power off (polkit/50-twinfold.rules): without it logind refuses a non-root `poweroff`.
PACKAGES=(python3-venv python3-dev gcc device-tree-compiler libasound2 polkitd)
BEGIN_MARK="# >>> twinfold >>>"
END_MARK="# <<< twinfold <<<"
DATA_LABEL=twinfold-data

DRY=0
WHEEL=""
READ_ONLY=0
APT=1
WHEELS=""
ROOT="${DESTDIR:-}"
ROOT="${ROOT%/}"

die() { echo "install.sh: error: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --wheel) [ $# -ge 2 ] || die "--wheel needs a file"; WHEEL="$2"; shift ;;
        --wheel=*) WHEEL="${1#--wheel=}" ;;
        --read-only) READ_ONLY=1 ;;
        --no-apt) APT=0 ;;
        --wheels) [ $# -ge 2 ] || die "--wheels needs a folder"; WHEELS="$2"; shift ;;
        --wheels=*) WHEELS="${1#--wheels=}" ;;
        -h|--help) sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done

SYSTEM=1
[ -n "$ROOT" ] && SYSTEM=0
if [ "$SYSTEM" = 1 ] && [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    die "run as root (sudo), or set DESTDIR to stage the files"
fi
if [ "$SYSTEM" = 1 ] && [ -n "$WHEEL" ] && [ ! -f "$WHEEL" ]; then
    die "no such wheel: $WHEEL"
fi
if [ "$SYSTEM" = 1 ] && [ -z "$WHEEL" ] && [ ! -f "$HERE/../pyproject.toml" ]; then
    die "no wheel: pass --wheel FILE (or run the installer from a checkout)"
fi
if [ -n "$WHEELS" ] && [ ! -d "$WHEELS" ]; then
    die "no such folder of wheels: $WHEELS"
fi
# Offline, evdev is Debian's (nothing to compile).
[ -n "$WHEELS" ] && PACKAGES=(python3-venv python3-evdev device-tree-compiler libasound2 polkitd)
# --read-only's needs are checked before anything is changed.
if [ "$READ_ONLY" = 1 ] && [ "$SYSTEM" = 1 ] && [ "$DRY" = 0 ]; then
    command -v raspi-config >/dev/null 2>&1 \
        || die "--read-only needs raspi-config (Raspberry Pi OS) for the overlay root"
    blkid -L "$DATA_LABEL" >/dev/null 2>&1 \
        || die "--read-only needs a partition labelled $DATA_LABEL for the store (docs/hardware.md)"
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# shellcheck source=deploy/lib.sh
. "$HERE/lib.sh"

# --------------------------------------------------------------------------- packages
if [ "$APT" = 1 ]; then
    run apt-get update
    run apt-get install -y --no-install-recommends "${PACKAGES[@]}"
fi

# --------------------------------------------------------------------------- user
if [ "$SYSTEM" = 1 ] && id twinfold >/dev/null 2>&1; then
    echo "unchanged user twinfold"
else
    run useradd --system --home-dir /var/lib/twinfold --no-create-home \
        --shell /usr/sbin/nologin --groups video,input,dialout,audio twinfold
fi

# --------------------------------------------------------------------------- the wheel
if [ "$SYSTEM" = 1 ] && [ -x "$VENV/bin/python" ]; then
    echo "unchanged $VENV"
else
    if [ -n "$WHEELS" ]; then
        run python3 -m venv --system-site-packages "$VENV"
    else
        run python3 -m venv "$VENV"
    fi
fi
if [ -z "$WHEEL" ] && [ "$SYSTEM" = 1 ]; then
    # From the checkout this installer is in, with the environment's own pip (Debian's
    # python3 has no pip module); a clean copy is built, so the checkout stays as it was.
    SOURCE="$(cd "$HERE/.." && pwd)"
    if [ "$DRY" = 1 ]; then
        echo "would build a wheel from $SOURCE"
    else
        echo "build a wheel from $SOURCE"
        WHEEL="$(build_wheel "$VENV/bin/python" "$SOURCE" "$TMP/dist")" \
            || die "could not build a wheel from $SOURCE"
    fi
fi
install_wheel "$VENV" "${WHEEL:-twinfold.whl}"
# The games' compiled search accelerators (issue 36; firmware/native.py), with the unit's C
# compiler; without one (the image's root: deploy/image/native-build cross-compiles them) the
# pure-Python searches play the same moves, more slowly.
if command -v cc >/dev/null 2>&1; then
    for game in reversi arimaa; do
        run "$VENV/bin/python" -c "import sys; from games.$game.ai.native import LIBRARY
path, said = LIBRARY.build(); print(said); sys.exit(path is None)" \
            || echo "install.sh: no $game accelerator built (the pure-Python search is used)"
    done
fi

# --------------------------------------------------------------------------- files
put "$HERE/systemd/twinfold.service" /etc/systemd/system/twinfold.service 0644
put "$HERE/systemd/logind-twinfold.conf" /etc/systemd/logind.conf.d/twinfold.conf 0644
put "$HERE/udev/99-twinfold.rules" /etc/udev/rules.d/99-twinfold.rules 0644
put "$HERE/polkit/50-twinfold.rules" /etc/polkit-1/rules.d/50-twinfold.rules 0644
# a match's own Wi-Fi network (issue 32): its two units and the polkit rule that lets the
# service start and stop them
put "$HERE/wifi/twinfold-wifi-host@.service" /etc/systemd/system/twinfold-wifi-host@.service 0644
put "$HERE/wifi/twinfold-wifi-join@.service" /etc/systemd/system/twinfold-wifi-join@.service 0644
put "$HERE/wifi/51-twinfold-wifi.rules" /etc/polkit-1/rules.d/51-twinfold-wifi.rules 0644
put_once "$HERE/config/device.toml" /etc/twinfold/device.toml 0644

# Enabled: the link `systemctl enable` makes (works in a staging root and a chroot too).
WANTS=/etc/systemd/system/multi-user.target.wants/twinfold.service
if [ "$(readlink "$ROOT$WANTS" 2>/dev/null)" = /etc/systemd/system/twinfold.service ]; then
    echo "unchanged $WANTS"
elif [ "$DRY" = 1 ]; then
    echo "would install $WANTS"
else
    mkdir -p "$(dirname "$ROOT$WANTS")"
    ln -sfn /etc/systemd/system/twinfold.service "$ROOT$WANTS"
    echo "installed $WANTS"
fi

# The overlay for the buttons, POWER and the lid.
if command -v dtc >/dev/null 2>&1; then
    dtc -q -@ -I dts -O dtb -o "$TMP/twinfold.dtbo" "$HERE/overlays/twinfold.dts"
    put "$TMP/twinfold.dtbo" "$BOOT/overlays/twinfold.dtbo" 0644
elif [ "$DRY" = 1 ]; then
    echo "would install $BOOT/overlays/twinfold.dtbo"
    echo "install.sh: note: dtc is missing; a real install needs it for the overlay" \
        "(apt-get install device-tree-compiler)" >&2
else
    die "dtc is needed to compile the overlay (apt-get install device-tree-compiler)"
fi

# The panels' init commands, as the panel-mipi-dbi driver's firmware file.
python3 "$HERE/tools/mipi_dbi_cmd.py" "$HERE/panels/twinfold-panel.txt" "$TMP/panel.bin"
put "$TMP/panel.bin" /lib/firmware/twinfold-panel.bin 0644

# config.txt: our block (between the markers) replaced or appended; the rest untouched.
CONFIG="$BOOT/config.txt"
{
    if [ -f "$ROOT$CONFIG" ]; then
        strip_block "$ROOT$CONFIG" "$BEGIN_MARK" "$END_MARK"
    fi
    echo "$BEGIN_MARK"
    cat "$HERE/boot/config-fragment.txt"
    echo "$END_MARK"
} > "$TMP/config.txt"
if [ -f "$ROOT$CONFIG" ]; then
    update "$CONFIG" "$TMP/config.txt"
else
    # Raspberry Pi OS bookworm always has one; none means the boot partition is not
    # mounted, an older release (/boot/config.txt) or a staging root.
    echo "install.sh: warning: no $CONFIG (boot partition not mounted? not bookworm?):" \
        "a new one holds only the Twinfold block" >&2
    put "$TMP/config.txt" "$CONFIG" 0644
fi

# cmdline.txt: no console on the radio's UART; no text console drawn on the panels.
CMDLINE="$BOOT/cmdline.txt"
if [ -f "$ROOT$CMDLINE" ]; then
    tr -s ' \n' '\n\n' < "$ROOT$CMDLINE" \
        | grep -v -E '^console=(serial0|serial1|ttyAMA0|ttyS0),' | grep -v '^$' \
        | grep -v '^fbcon=map:' > "$TMP/words" || true
    echo "fbcon=map:9" >> "$TMP/words"
    paste -s -d ' ' "$TMP/words" > "$TMP/cmdline.txt"
    update "$CMDLINE" "$TMP/cmdline.txt"
else
    echo "no $CMDLINE: kernel command line left alone"
fi

# Bluetooth no longer has the PL011: its modem set-up service must not claim the UART.
# (`systemctl is-enabled` and `disable` work without a running systemd: in a chroot too.)
if [ "$SYSTEM" = 0 ]; then
    run systemctl disable hciuart.service
elif [ "$(systemctl is-enabled hciuart.service 2>/dev/null || true)" = enabled ]; then
    run systemctl disable hciuart.service
fi

# --------------------------------------------------------------------------- read-only root
if [ "$READ_ONLY" = 1 ]; then
    LINE="LABEL=$DATA_LABEL /var/lib/twinfold ext4 defaults,noatime,nofail 0 2"
    if grep -qxF "$LINE" "$ROOT/etc/fstab" 2>/dev/null; then
        echo "unchanged /etc/fstab"
    elif [ "$DRY" = 1 ]; then
        echo "would update /etc/fstab"
    else
        mkdir -p "$ROOT/etc"
        echo "$LINE" >> "$ROOT/etc/fstab"
        echo "updated /etc/fstab"
    fi
    run raspi-config nonint do_overlayfs 0
fi

# --------------------------------------------------------------------------- reloads
if [ "$SYSTEM" = 1 ] && [ -d /run/systemd/system ]; then
    run systemctl daemon-reload
    run udevadm control --reload
    run udevadm trigger --subsystem-match=input --subsystem-match=graphics
fi
echo "done (reboot if config.txt or the kernel command line changed)"
