#!/usr/bin/env bash
# Check what deploy/install.sh made in the image's arm64 root (build.sh runs this after the
# install, before the image is assembled): the files, the unit enabled, the user and its
# groups, the venv's Twinfold running on arm64 with Debian's evdev. One line per failure.
# usage: verify_root.sh ROOT
set -uo pipefail
ROOT="$1"
DEPLOY="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bad=0
fail() { echo "verify_root: $*" >&2; bad=1; }
same() { cmp -s "$DEPLOY/$1" "$ROOT$2" || fail "$2 is not deploy/$1"; }

same systemd/twinfold.service /etc/systemd/system/twinfold.service
same systemd/logind-twinfold.conf /etc/systemd/logind.conf.d/twinfold.conf
same udev/99-twinfold.rules /etc/udev/rules.d/99-twinfold.rules
same polkit/50-twinfold.rules /etc/polkit-1/rules.d/50-twinfold.rules
same wifi/51-twinfold-wifi.rules /etc/polkit-1/rules.d/51-twinfold-wifi.rules
same config/device.toml /etc/twinfold/device.toml
[ "$(readlink "$ROOT/etc/systemd/system/multi-user.target.wants/twinfold.service")" = \
    /etc/systemd/system/twinfold.service ] || fail "twinfold.service is not enabled"
[ "$(head -c 4 "$ROOT/boot/firmware/overlays/twinfold.dtbo" | od -An -tx1 | tr -d ' ')" = d00dfeed ] \
    || fail "no compiled overlay"
[ -s "$ROOT/lib/firmware/twinfold-panel.bin" ] || fail "no panel init file"
grep -qxF "# >>> twinfold >>>" "$ROOT/boot/firmware/config.txt" || fail "no Twinfold block in config.txt"
entry="$(grep '^twinfold:' "$ROOT/etc/passwd")" || fail "no user twinfold"
case "$entry" in *:/var/lib/twinfold:/usr/sbin/nologin) ;; *) fail "user twinfold is $entry" ;; esac
for group in video input dialout audio; do
    grep -E "^$group:[^:]*:[0-9]+:(.*,)?twinfold(,|$)" "$ROOT/etc/group" >/dev/null \
        || fail "twinfold is not in the group $group"
done
# ELF e_machine 0xb7: aarch64
[ "$(od -An -tx1 -j18 -N2 "$ROOT/usr/bin/python3.11" | tr -d ' ')" = b700 ] \
    || fail "the root's python is not arm64"
out="$(PYGAME_HIDE_SUPPORT_PROMPT=1 chroot "$ROOT" /opt/twinfold/venv/bin/python -c \
    'import evdev, pygame, serial, cryptography, cobs, firmware.cli, handheld.app, hal.backends.device.config; print(evdev.__file__, pygame.version.ver)' 2>&1)" \
    || fail "the venv cannot import the firmware's modules: $out"
case "$out" in /usr/lib/python3/dist-packages/evdev/*) ;; *) fail "evdev is not Debian's: $out" ;; esac
chroot "$ROOT" /opt/twinfold/venv/bin/twinfold device --help >/dev/null 2>&1 \
    || fail "twinfold device --help fails in the root"
[ "$bad" = 0 ] && echo "verify_root: the arm64 root is as expected (evdev ${out%% *}, pygame ${out##* })"
exit "$bad"
