#!/usr/bin/env bash
# Push the current checkout to a Twinfold unit over ssh and restart it.
#
# usage: deploy/push.sh [--dry-run] [--no-restart] [--apt] USER@HOST
#
# Builds a wheel from this checkout, copies it with deploy/ to the unit, runs the installer
# there (without apt: the packages are already in place; --apt: install them too, for a
# checkout whose installer needs new ones) and restarts the service. The unit
# keeps its store and /etc/twinfold/device.toml. The wheel is reinstalled whenever its
# content changed, although its version stays the same. On the Debian image the wheel is
# installed beside the running version and rolls back by itself; a Raspberry Pi OS unit with
# a read-only root must have it made writable first (docs/hardware.md, "Update"). The wheel
# is built with `$PYTHON -m pip` (default python3; e.g. PYTHON=.venv/bin/python when python3
# has no pip).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
DRY=0
RESTART=1
APT=--no-apt
TARGET=""
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY=1 ;;
        --no-restart) RESTART=0 ;;
        --apt) APT="" ;;
        -h|--help) sed -n '2,/^set /p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "push.sh: unknown option $1" >&2; exit 2 ;;
        *) TARGET="$1" ;;
    esac
    shift
done
[ -n "$TARGET" ] || { echo "usage: deploy/push.sh [--dry-run] [--no-restart] [--apt] USER@HOST" >&2; exit 2; }

step() {
    echo "+ $*"
    [ "$DRY" = 1 ] || "$@"
}

# shellcheck source=deploy/lib.sh
. "$HERE/lib.sh"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
# From a clean copy of the checkout: a stale build/lib would put deleted modules back.
PYTHON="${PYTHON:-python3}"
echo "+ build_wheel $PYTHON $REPO $OUT"
WHEEL="twinfold-wheel.whl"
if [ "$DRY" = 0 ]; then
    WHEEL="$(basename "$(build_wheel "$PYTHON" "$REPO" "$OUT")")"
fi
REMOTE=/tmp/twinfold-push
step ssh "$TARGET" "rm -rf $REMOTE && mkdir -p $REMOTE"
step scp -q -r "$HERE" "$OUT/$WHEEL" "$TARGET:$REMOTE/"
# The Debian image (read-only root) has twinfold-update: the wheel goes beside the running
# version, which it replaces only once it reached READY (docs/hardware.md, "Power cuts and
# updates"); it restarts the firmware itself. Elsewhere the installer replaces the venv.
UPDATE=/usr/local/sbin/twinfold-update
step ssh "$TARGET" "test ! -x $UPDATE || sudo $UPDATE $REMOTE/$WHEEL"
step ssh "$TARGET" "test -x $UPDATE || sudo $REMOTE/deploy/install.sh${APT:+ $APT} --wheel $REMOTE/$WHEEL"
if [ "$RESTART" = 1 ]; then
    step ssh "$TARGET" "test -x $UPDATE || sudo systemctl restart twinfold && systemctl --no-pager status twinfold | head -n 5"
fi
step ssh "$TARGET" "rm -rf $REMOTE"
