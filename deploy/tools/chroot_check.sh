#!/usr/bin/env bash
# Try deploy/install.sh for real on a Debian bookworm root file system, in a chroot: the
# install a person runs (from a copy of the checkout, as root, no --wheel), a second
# install that must change nothing, `systemd-analyze verify` on the installed unit, the
# installed firmware run as the service user against ordinary files standing in for the
# framebuffers (READY=1 and WATCHDOG=1 on a notify socket), the polkit rule asked through a
# real polkitd, an update as push.sh does it, then (with systemd-nspawn, if installed) the
# root file system booted under systemd: the unit's start, watchdog, stop and power-off;
# last uninstall.sh (the store and the user stay). docs/hardware.md, "Verified on", has
# what it showed and what it cannot show.
#
# usage: sudo deploy/tools/chroot_check.sh ROOTFS
#
# ROOTFS is a scratch root file system (it is changed), made for example with
#   debootstrap --include=python3,sudo,ca-certificates,systemd-sysv,udev \
#       bookworm ROOTFS http://deb.debian.org/debian
# Needs network (Debian packages, PyPI). /proc, /sys, /dev and /dev/pts are mounted in
# ROOTFS and unmounted on exit. A proxy's CA for pip: PIP_CERT=FILE is copied in and used.
# Not run by the test suite (root, network, minutes).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
[ $# = 1 ] || { grep -m 1 '^# usage:' "$0" | sed 's/^# //' >&2; exit 2; }
ROOTFS="$(cd "$1" && pwd)"
[ "$(id -u)" = 0 ] || { echo "chroot_check.sh: run as root" >&2; exit 2; }
[ -x "$ROOTFS/usr/bin/python3" ] || { echo "chroot_check.sh: no python3 in $ROOTFS" >&2; exit 2; }
# shellcheck source=deploy/lib.sh
. "$REPO/deploy/lib.sh"

MOUNTED=()
DAEMONS=()
stop_daemons() {  # the ones this script started, by their process id; then wait for them
    local pid
    for pid in "${DAEMONS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${DAEMONS[@]}"; do
        for _ in $(seq 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    done
    DAEMONS=()
}
unmount_all() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount "${MOUNTED[$i]}" || true; done
    MOUNTED=()
}
cleanup() {
    stop_daemons
    unmount_all
}
trap cleanup EXIT
mount_in() {  # mount_in TARGET mount-arguments...
    local target="$ROOTFS$1"
    shift
    mountpoint -q "$target" && return 0
    mount "$@" "$target"
    MOUNTED+=("$target")
}
mount_all() {
    mount_in /proc -t proc proc
    mount_in /sys -t sysfs sysfs
    mount_in /dev --bind /dev
    mount_in /dev/pts --bind /dev/pts
}
mount_all
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
CERT=()
if [ -n "${PIP_CERT:-}" ]; then
    cp "$PIP_CERT" "$ROOTFS/root/pip-ca.crt"
    CERT=(PIP_CERT=/root/pip-ca.crt)
fi
inside() {  # a command in the chroot, with a clean environment
    chroot "$ROOTFS" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "${CERT[@]}" "$@"
}
as_service() {  # a command with the installed unit's Environment= (setpriv: its user)
    local -a unit_env
    read -r -a unit_env <<< "$(sed -n 's/^Environment=//p' \
        "$ROOTFS/etc/systemd/system/twinfold.service")"
    inside "${unit_env[@]}" "$@"
}
ok() { echo "ok: $*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }
# Everything the installer may touch: path, size, mode, owner, modification time.
snapshot() {
    inside find /etc /opt /boot /lib/firmware /var/lib/twinfold -xdev \
        \( -type f -o -type l \) -printf '%p %s %m %u %T@\n' 2>/dev/null | sort || true
}

# shellcheck disable=SC2016  # ${Version} is dpkg-query's, not the shell's
echo "== Debian $(cat "$ROOTFS/etc/debian_version"), $(inside python3 --version)," \
    "systemd $(inside dpkg-query -W -f '${Version}' systemd)"
CHECKOUT=/root/twinfold
rm -rf "${ROOTFS:?}$CHECKOUT"
clean_source "$REPO" "$ROOTFS$CHECKOUT"

# What Raspberry Pi OS Lite has and Debian has not: the boot partition's config.txt and
# cmdline.txt (as a fresh bookworm image writes them) and pi-bluetooth's hciuart.service
# (enabled). Stand-ins, so the installer takes the paths it takes on a Pi.
STOCK_CONFIG="# For more options and information see
# http://rptl.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2
disable_fw_kms_setup=1
arm_64bit=1
disable_overscan=1
arm_boost=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]"
STOCK_CMDLINE="console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait quiet"
mkdir -p "$ROOTFS/boot/firmware/overlays"
echo "$STOCK_CONFIG" > "$ROOTFS/boot/firmware/config.txt"
echo "$STOCK_CMDLINE" > "$ROOTFS/boot/firmware/cmdline.txt"
printf '%s\n' '[Unit]' 'Description=stand-in for hciuart.service (chroot_check.sh)' \
    '[Service]' 'ExecStart=/bin/true' '[Install]' 'WantedBy=multi-user.target' \
    > "$ROOTFS/lib/systemd/system/hciuart.service"
inside systemctl enable hciuart.service 2> /dev/null
[ "$(inside systemctl is-enabled hciuart.service)" = enabled ] || fail "stand-in hciuart"

echo "== install (first run)"
start=$(date +%s)
inside bash -c "cd $CHECKOUT && deploy/install.sh" > "$ROOTFS/root/install-1.log" 2>&1 \
    || { tail -n 30 "$ROOTFS/root/install-1.log"; fail "first install"; }
ok "first install in $(($(date +%s) - start)) s (log: $ROOTFS/root/install-1.log)"
grep -E '^(installed|updated|run: useradd|run: python3|build)' "$ROOTFS/root/install-1.log" || true

echo "== install (second run: must change nothing)"
before="$(snapshot)"
start=$(date +%s)
inside bash -c "cd $CHECKOUT && deploy/install.sh" > "$ROOTFS/root/install-2.log" 2>&1 \
    || { tail -n 30 "$ROOTFS/root/install-2.log"; fail "second install"; }
seconds=$(($(date +%s) - start))
after="$(snapshot)"
changed="$(diff <(echo "$before") <(echo "$after") || true)"
[ -z "$changed" ] || { echo "$changed"; fail "the second install changed files"; }
did="$(grep -E '^(installed|updated|would|run: )' "$ROOTFS/root/install-2.log" \
    | grep -v '^run: apt-get ' || true)"
[ -z "$did" ] || { echo "$did"; fail "the second install did something"; }
ok "second install in $seconds s: no file changed, no command run but apt-get"

echo "== what is installed"
inside id twinfold
inside test -x /opt/twinfold/venv/bin/twinfold || fail "no entry point"
for path in /etc/systemd/system/twinfold.service /etc/systemd/logind.conf.d/twinfold.conf \
    /etc/udev/rules.d/99-twinfold.rules /etc/polkit-1/rules.d/50-twinfold.rules \
    /etc/twinfold/device.toml /lib/firmware/twinfold-panel.bin \
    /boot/firmware/overlays/twinfold.dtbo /boot/firmware/config.txt; do
    inside test -f "$path" || fail "missing $path"
done
[ "$(inside readlink /etc/systemd/system/multi-user.target.wants/twinfold.service)" \
    = /etc/systemd/system/twinfold.service ] || fail "the unit is not enabled"
inside /opt/twinfold/venv/bin/python -c 'import evdev, pygame, serial, cryptography, cobs' \
    || fail "a dependency does not import"
ok "files, user, enabled unit, dependencies import (evdev compiled here)"
config="$(cat "$ROOTFS/boot/firmware/config.txt")"
[[ "$config" == "$STOCK_CONFIG"$'\n# >>> twinfold >>>\n'* ]] || fail "config.txt: stock lines changed"
[ "$(grep -c '^# >>> twinfold >>>$' "$ROOTFS/boot/firmware/config.txt")" = 1 ] \
    || fail "config.txt: not one Twinfold block"
[ "$(cat "$ROOTFS/boot/firmware/cmdline.txt")" = "console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 fsck.repair=yes rootwait quiet fbcon=map:9" ] \
    || fail "cmdline.txt: $(cat "$ROOTFS/boot/firmware/cmdline.txt")"
[ "$(inside systemctl is-enabled hciuart.service || true)" = disabled ] \
    || fail "hciuart.service still enabled"
ok "config.txt: stock lines kept, one block appended; cmdline.txt: no serial console," \
    "fbcon=map:9; hciuart.service disabled"
while IFS='=' read -r key _; do
    grep -aq "Login\.$key" "$ROOTFS/lib/systemd/systemd-logind" \
        || fail "bookworm's systemd-logind has no $key"
done < <(grep -E '^[A-Za-z]+=' "$ROOTFS/etc/systemd/logind.conf.d/twinfold.conf")
ok "every key of the logind drop-in is one bookworm's systemd-logind knows"
# udev 252 has no `udevadm verify`; `udevadm test` on any device reads every rules file and
# names each line it cannot parse ("FILE:LINE Invalid key ...").
said="$(inside udevadm test /sys/class/net/lo 2>&1 || true)"
grep -q "Reading rules file: /etc/udev/rules.d/99-twinfold.rules" <<< "$said" \
    || fail "udevadm test did not read the rules"
! grep "99-twinfold.rules:" <<< "$said" || fail "udev cannot parse the rules"
ok "bookworm's udev reads the rules without a complaint (udevadm test)"

echo "== systemd-analyze verify"
verify="$(inside systemd-analyze verify /etc/systemd/system/twinfold.service 2>&1)" \
    || { echo "$verify"; fail "systemd-analyze verify"; }
[ -z "$verify" ] || { echo "$verify"; fail "systemd-analyze verify warned"; }
ok "the installed unit passes systemd-analyze verify (no output)"

echo "== the firmware runs as the service user"
as_service /opt/twinfold/venv/bin/twinfold device --help > /dev/null || fail "device --help"
FAKE=/tmp/twinfold-fake
rm -rf "${ROOTFS:?}$FAKE"
for fb in fb0 fb1; do
    mkdir -p "$ROOTFS$FAKE/sys/$fb"
    printf '320,240\n' > "$ROOTFS$FAKE/sys/$fb/virtual_size"
    echo 16 > "$ROOTFS$FAKE/sys/$fb/bits_per_pixel"
    echo 640 > "$ROOTFS$FAKE/sys/$fb/stride"
    echo 0 > "$ROOTFS$FAKE/sys/$fb/blank"
    : > "$ROOTFS$FAKE/$fb"
done
mkdir -p "$ROOTFS$FAKE/input"
cat > "$ROOTFS$FAKE/device.toml" << EOF
[display.upper]
device = "$FAKE/fb0"
sysfs = "$FAKE/sys/fb0"
[display.lower]
device = "$FAKE/fb1"
sysfs = "$FAKE/sys/fb1"
[input]
scan_dir = "$FAKE/input"
[radio]
enabled = false
[system]
data_dir = "/var/lib/twinfold"
EOF
chmod -R a+rwX "$ROOTFS$FAKE"
# What StateDirectory= would make; then the notify protocol, as systemd would listen to it.
inside install -d -o twinfold -g twinfold -m 0755 /var/lib/twinfold
cat > "$ROOTFS$FAKE/notify.py" << 'EOF'
"""Listen like systemd: run the firmware with NOTIFY_SOCKET and WATCHDOG_USEC, print what it
says. The socket is read all the time, as systemd does (a datagram queue holds 10)."""
import os
import socket
import subprocess
import sys
import threading

path = "/tmp/twinfold-fake/notify.sock"
listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
listener.bind(path)
os.chmod(path, 0o777)
listener.settimeout(0.1)
said = set()
done = threading.Event()


def listen() -> None:
    while not done.is_set():
        try:
            said.update(listener.recv(4096).decode().split("\n"))
        except TimeoutError:
            pass


thread = threading.Thread(target=listen)
thread.start()
env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "500000"}
try:
    code = subprocess.run(sys.argv[1:], env=env, timeout=120).returncode
finally:
    done.set()
    thread.join()
print(" ".join(sorted(said)))
sys.exit(code)
EOF
start=$(date +%s%N)
said="$(as_service python3 "$FAKE/notify.py" setpriv --reuid twinfold --regid twinfold \
    --init-groups /opt/twinfold/venv/bin/twinfold device --config "$FAKE/device.toml" \
    --frames 240 --dump /tmp/twinfold-fake/dump.json 2> "$ROOTFS$FAKE/stderr")" \
    || { cat "$ROOTFS$FAKE/stderr"; fail "twinfold device --frames 240"; }
ms=$((($(date +%s%N) - start) / 1000000))
echo "notify: $said"
for word in READY=1 WATCHDOG=1 STOPPING=1; do
    [[ " $said " == *" $word "* ]] || fail "no $word on the notify socket"
done
grep -q '"frame": 240' "$ROOTFS$FAKE/dump.json" || fail "the dump has not frame 240"
[ "$(inside stat -c %U /var/lib/twinfold/store.db)" = twinfold ] || fail "store not the user's"
grep -q '"scene": "launcher"' "$ROOTFS$FAKE/dump.json" || fail "not in the launcher"
# Both panels side by side as a PNG to look at (the installed pygame reads RGB565).
inside SDL_VIDEODRIVER=dummy /opt/twinfold/venv/bin/python -c "
import sys, pygame
sheet = pygame.Surface((650, 240))
for i, name in enumerate(('fb0', 'fb1')):
    data = open('$FAKE/' + name, 'rb').read()
    if len(data) != 320 * 240 * 2 or len(set(data)) < 3:
        sys.exit(name + ': nothing drawn')
    panel = pygame.Surface((320, 240), 0, 16, (0xF800, 0x07E0, 0x001F, 0))
    panel.get_buffer().write(data)
    sheet.blit(panel, (i * 330, 0))
pygame.image.save(sheet, '$FAKE/panels.png')" > /dev/null || fail "the framebuffers"
ok "240 frames in $ms ms as user twinfold: READY, WATCHDOG, STOPPING sent; store written;" \
    "the launcher on both framebuffers: $ROOTFS$FAKE/panels.png"

echo "== the polkit rule, asked through polkitd"
if inside test -x /usr/lib/polkit-1/polkitd && inside test -x /usr/bin/dbus-daemon; then
    inside mkdir -p /run/dbus
    inside rm -f /run/dbus/pid /run/dbus/system_bus_socket
    inside dbus-daemon --system --fork --print-pid > "$ROOTFS/tmp/dbus.pid"
    DAEMONS+=("$(cat "$ROOTFS/tmp/dbus.pid")")
    # a simple command in the background: $! is polkitd itself (chroot execs it)
    chroot "$ROOTFS" /usr/lib/polkit-1/polkitd --no-debug > "$ROOTFS/tmp/polkitd.log" 2>&1 &
    DAEMONS+=("$!")
    sleep 2
    verdict() {  # verdict USER ACTION: pkcheck's answer for a process of USER
        inside setpriv --reuid "$1" --regid "$1" --init-groups sh -c \
            "pkcheck --action-id $2 --process \$\$ >/dev/null 2>&1 && echo yes || echo no"
    }
    [ "$(verdict twinfold org.freedesktop.login1.power-off)" = yes ] \
        || { cat "$ROOTFS/tmp/polkitd.log"; fail "polkit refuses twinfold power-off"; }
    [ "$(verdict twinfold org.freedesktop.login1.reboot)" = no ] \
        || fail "polkit lets twinfold do more than power off"
    [ "$(verdict daemon org.freedesktop.login1.power-off)" = no ] \
        || fail "polkit lets anyone power off"
    ok "polkitd allows power-off to twinfold only (reboot refused; user daemon refused)"
    stop_daemons
else
    echo "skipped: polkitd or dbus-daemon not installed"
fi

echo "== update (what push.sh runs on the unit: a new build of the same version)"
rm -rf "${ROOTFS:?}/root/twinfold-next" "$ROOTFS/root/next-dist"
clean_source "$REPO" "$ROOTFS/root/twinfold-next"
echo "# chroot_check.sh: the next build" >> "$ROOTFS/root/twinfold-next/firmware/__init__.py"
inside bash -c ". $CHECKOUT/deploy/lib.sh && build_wheel /opt/twinfold/venv/bin/python \
    /root/twinfold-next /root/next-dist" > /dev/null || fail "building the next wheel"
NEXT="$(ls "$ROOTFS"/root/next-dist/twinfold-*.whl)"
NEXT="/root/next-dist/$(basename "$NEXT")"
inside bash -c "cd $CHECKOUT && deploy/install.sh --no-apt --wheel $NEXT" \
    > "$ROOTFS/root/update.log" 2>&1 || { cat "$ROOTFS/root/update.log"; fail "update"; }
grep -q "chroot_check.sh: the next build" \
    "$ROOTFS"/opt/twinfold/venv/lib/python3.*/site-packages/firmware/__init__.py \
    || fail "the update did not replace the installed code"
inside bash -c "cd $CHECKOUT && deploy/install.sh --no-apt --wheel $NEXT" \
    > "$ROOTFS/root/update-2.log" 2>&1 || fail "update again"
grep -q "^unchanged twinfold wheel" "$ROOTFS/root/update-2.log" || fail "the same wheel reinstalled"
ok "a new build of version $(inside /opt/twinfold/venv/bin/python -c \
    'import importlib.metadata as m; print(m.version("twinfold"))') replaced the code;" \
    "the same wheel again changed nothing"

echo "== booted with systemd (systemd-nspawn): the unit, the watchdog, logind, power-off"
if command -v systemd-nspawn > /dev/null; then
    # The firmware on files again, outside /tmp (PrivateTmp= gives the unit its own).
    rm -rf "${ROOTFS:?}/srv/twinfold-fake"
    cp -a "$ROOTFS$FAKE" "$ROOTFS/srv/twinfold-fake"
    rm -f "$ROOTFS/srv/twinfold-fake/"{notify.sock,notify.py,device.toml,dump.json,stderr}
    sed 's#/tmp/twinfold-fake#/srv/twinfold-fake#' "$ROOTFS$FAKE/device.toml" \
        > "$ROOTFS/etc/twinfold/device.toml"
    unmount_all  # nspawn brings its own /proc, /sys and /dev
    systemd-nspawn -D "$ROOTFS" --boot --register=no --keep-unit --console=passive \
        --machine=twinfold-check > "$ROOTFS/root/nspawn.log" 2>&1 &
    NSPAWN=$!
    DAEMONS+=("$NSPAWN")
    INIT=""
    for _ in $(seq 100); do
        INIT="$(pgrep -P "$NSPAWN" -x systemd | head -n 1 || true)"
        [ -n "$INIT" ] && break
        sleep 0.1
    done
    [ -n "$INIT" ] || { cat "$ROOTFS/root/nspawn.log"; fail "the container did not start"; }
    in_box() { nsenter -t "$INIT" -a "$@"; }
    in_box timeout 90 systemctl is-system-running --wait > /dev/null || true
    failed="$(in_box systemctl --failed --no-legend --plain | cut -d ' ' -f 1 | xargs || true)"
    [ -z "$failed" ] || echo "note: failed in the container (not Twinfold's): $failed"
    show() { in_box systemctl show twinfold.service -p "$1" --value; }
    [ "$(show ActiveState)" = active ] \
        || { in_box journalctl -u twinfold --no-pager | tail; fail "the unit is not active"; }
    [ "$(show StatusText)" = "running, profile desktop" ] || fail "no READY/STATUS from it"
    [ "$(show User)" = twinfold ] || fail "the unit's user: $(show User)"
    [ "$(show WatchdogUSec)" = 5s ] || fail "the unit's watchdog: $(show WatchdogUSec)"
    [ "$(in_box stat -c %U /var/lib/twinfold)" = twinfold ] || fail "StateDirectory owner"
    ok "booted: twinfold.service active (Type=notify: READY=1 with its STATUS), user" \
        "twinfold, WatchdogSec 5 s, /var/lib/twinfold the user's"
    for key in HandlePowerKey HandlePowerKeyLongPress HandleSuspendKey HandleLidSwitch \
        HandleLidSwitchExternalPower HandleLidSwitchDocked; do
        [ "$(in_box busctl get-property org.freedesktop.login1 /org/freedesktop/login1 \
            org.freedesktop.login1.Manager "$key")" = 's "ignore"' ] || fail "logind $key"
    done
    ok "logind leaves POWER and the lid alone (the drop-in's six keys read back as ignore)"
    # A hung frame loop: stop the process; the watchdog must kill it and systemd restart it.
    first="$(show MainPID)"
    in_box kill -STOP "$first"
    for _ in $(seq 200); do
        [ "$(show NRestarts)" = 1 ] && [ "$(show SubState)" = running ] && break
        sleep 0.1
    done
    if [ "$(show NRestarts)" != 1 ] || [ "$(show MainPID)" = "$first" ] \
        || [ "$(show SubState)" != running ]; then
        fail "no watchdog restart"
    fi
    journal="$(in_box journalctl -u twinfold --no-pager)"
    grep -q "Watchdog timeout (limit 5s)" <<< "$journal" || fail "the restart was not the watchdog's"
    ok "a hung frame loop (SIGSTOP) is killed by the watchdog after 5 s and restarted"
    in_box systemctl stop twinfold.service
    if [ "$(show Result)" != success ] || [ "$(show ExecMainStatus)" != 0 ]; then
        fail "systemctl stop: $(show Result), status $(show ExecMainStatus)"
    fi
    ok "systemctl stop (SIGTERM): a clean exit, status 0"
    in_box systemctl start twinfold.service
    # The long press of POWER runs `systemctl poweroff` as the service: its user and sandbox.
    ! in_box systemd-run --uid=daemon --wait --pipe --quiet systemctl poweroff 2> /dev/null \
        || fail "another user may power off"
    in_box systemd-run --uid=twinfold --gid=twinfold \
        -p "SupplementaryGroups=video input dialout audio" -p NoNewPrivileges=yes \
        -p ProtectSystem=full -p ProtectHome=yes -p PrivateTmp=yes \
        --wait --pipe --quiet systemctl poweroff || fail "twinfold may not power off"
    for _ in $(seq 300); do kill -0 "$NSPAWN" 2> /dev/null || break; sleep 0.1; done
    ! kill -0 "$NSPAWN" 2> /dev/null || fail "the container did not power off"
    wait "$NSPAWN" || fail "the container's power-off failed"
    DAEMONS=()
    ok "the service's user (with its sandbox) powers the system off; user daemon may not"
    rm -rf "${ROOTFS:?}/srv/twinfold-fake"
    mount_all
else
    echo "skipped: no systemd-nspawn (apt-get install systemd-container)"
fi

echo "== uninstall"
inside bash -c "cd $CHECKOUT && deploy/uninstall.sh" > "$ROOTFS/root/uninstall.log" 2>&1 \
    || { cat "$ROOTFS/root/uninstall.log"; fail "uninstall"; }
left="$(snapshot | grep -i twinfold | grep -v '^/var/lib/twinfold/' || true)"
[ -z "$left" ] || { echo "$left"; fail "uninstall left files"; }
[ "$(cat "$ROOTFS/boot/firmware/config.txt")" = "$STOCK_CONFIG" ] \
    || fail "config.txt is not the stock one again"
! grep -q fbcon "$ROOTFS/boot/firmware/cmdline.txt" || fail "cmdline.txt keeps fbcon=map:9"
inside test -f /var/lib/twinfold/store.db || fail "uninstall removed the store"
inside id twinfold > /dev/null || fail "uninstall removed the user"
ok "uninstall removed every installed file, config.txt is the stock one again, no fbcon;" \
    "the store and the user stay"
echo "== all checks passed"
