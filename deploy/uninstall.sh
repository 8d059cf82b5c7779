#!/usr/bin/env bash
# Remove what deploy/install.sh added. The store (/var/lib/twinfold), the user and the
# Debian packages stay; pass --purge to delete the store and the user as well.
#
# usage: sudo deploy/uninstall.sh [--purge] [--dry-run]      (DESTDIR works as for install)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BOOT=/boot/firmware
BEGIN_MARK="# >>> twinfold >>>"
END_MARK="# <<< twinfold <<<"
DRY=0
PURGE=0
ROOT="${DESTDIR:-}"
ROOT="${ROOT%/}"

die() { echo "uninstall.sh: error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --purge) PURGE=1 ;;
        -h|--help) sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1" ;;
    esac
    shift
done
SYSTEM=1
[ -n "$ROOT" ] && SYSTEM=0
if [ "$SYSTEM" = 1 ] && [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
    die "run as root (sudo), or set DESTDIR"
fi
# shellcheck source=deploy/lib.sh
. "$HERE/lib.sh"

if [ "$SYSTEM" = 1 ] && [ -d /run/systemd/system ]; then
    run systemctl disable --now twinfold.service
fi
for path in \
    /etc/systemd/system/multi-user.target.wants/twinfold.service \
    /etc/systemd/system/twinfold.service \
    /etc/systemd/logind.conf.d/twinfold.conf \
    /etc/udev/rules.d/99-twinfold.rules \
    /etc/polkit-1/rules.d/50-twinfold.rules \
    /etc/systemd/system/twinfold-wifi-host@.service \
    /etc/systemd/system/twinfold-wifi-join@.service \
    /etc/polkit-1/rules.d/51-twinfold-wifi.rules \
    /etc/twinfold \
    /lib/firmware/twinfold-panel.bin \
    "$BOOT/overlays/twinfold.dtbo" \
    /opt/twinfold; do
    remove "$path"
done
CONFIG="$BOOT/config.txt"
if [ -f "$ROOT$CONFIG" ] && grep -qxF "$BEGIN_MARK" "$ROOT$CONFIG"; then
    tmp="$(mktemp)"
    strip_block "$ROOT$CONFIG" "$BEGIN_MARK" "$END_MARK" > "$tmp"
    if [ ! -s "$tmp" ]; then
        remove "$CONFIG"  # it held only our block: the installer made it
    elif [ "$DRY" = 1 ]; then
        echo "would update $CONFIG"
    else
        cat "$tmp" > "$ROOT$CONFIG"
        echo "updated $CONFIG"
    fi
    rm -f "$tmp"
fi
CMDLINE="$BOOT/cmdline.txt"
if [ -f "$ROOT$CMDLINE" ] && grep -q 'fbcon=map:9' "$ROOT$CMDLINE"; then
    if [ "$DRY" = 1 ]; then echo "would update $CMDLINE"
    else
        sed -i 's/ *fbcon=map:9//' "$ROOT$CMDLINE"
        echo "updated $CMDLINE (the serial console is not put back: raspi-config can)"
    fi
fi
if [ "$PURGE" = 1 ]; then
    remove /var/lib/twinfold
    if [ "$SYSTEM" = 0 ] || id twinfold >/dev/null 2>&1; then
        run userdel twinfold
    else
        echo "absent user twinfold"
    fi
fi
if [ "$SYSTEM" = 1 ] && [ -d /run/systemd/system ]; then
    run systemctl daemon-reload
    run udevadm control --reload
fi
echo "done"
