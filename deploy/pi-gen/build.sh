#!/usr/bin/env bash
# Build a flashable Raspberry Pi OS Lite (64-bit, bookworm) image with Twinfold
# preinstalled, and a Raspberry Pi Imager repository file for it.
#
# usage: deploy/pi-gen/build.sh [--url BASE_URL] [--pi-gen DIR] [--dry-run]
#   --url      where the image will be published (goes into the Imager JSON)
#   --pi-gen   an existing pi-gen checkout (default: clones the arm64 branch into build/)
#   --dry-run  print the steps only
# Needs: Docker (pi-gen's build-docker.sh) or a Debian host with pi-gen's dependencies.
# Output: build/pi-gen/deploy/*-twinfold.img.xz and build/twinfold-imager.json
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
URL="https://example.invalid/twinfold"
PIGEN=""
DRY=0
PIGEN_REPO=https://github.com/RPi-Distro/pi-gen.git
PIGEN_BRANCH=arm64

while [ $# -gt 0 ]; do
    case "$1" in
        --url) URL="$2"; shift ;;
        --pi-gen) PIGEN="$2"; shift ;;
        --dry-run) DRY=1 ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "build.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done

step() {
    echo "+ $*"
    [ "$DRY" = 1 ] || "$@"
}

PIGEN="${PIGEN:-$REPO/build/pi-gen}"
# shellcheck source=deploy/lib.sh
. "$HERE/../lib.sh"
# From a clean copy of the checkout (a stale build/lib would put deleted modules back).
PYTHON="${PYTHON:-python3}"  # any Python with pip (PYTHON=.venv/bin/python)
echo "+ build_wheel $PYTHON $REPO $REPO/dist"
[ "$DRY" = 1 ] || build_wheel "$PYTHON" "$REPO" "$REPO/dist" >/dev/null
if [ ! -d "$PIGEN" ]; then
    step git clone --depth 1 --branch "$PIGEN_BRANCH" "$PIGEN_REPO" "$PIGEN"
fi
step rm -rf "$PIGEN/stage-twinfold"
step cp -a "$HERE/stage-twinfold" "$PIGEN/stage-twinfold"
if [ "$DRY" = 1 ]; then
    echo "+ write $PIGEN/config (stage list ending in stage-twinfold)"
else
    sed "s#@STAGE@#stage-twinfold#" "$HERE/config" > "$PIGEN/config"
    echo "TWINFOLD_SRC=/twinfold-src" >> "$PIGEN/config"
fi
# The checkout is mounted into pi-gen's container so 00-run.sh finds deploy/ and dist/.
step env PIGEN_DOCKER_OPTS="--volume $REPO:/twinfold-src:ro" "$PIGEN/build-docker.sh"
if [ "$DRY" = 1 ]; then
    echo "+ python3 $HERE/imager_json.py IMAGE $URL > $REPO/build/twinfold-imager.json"
    exit 0
fi
IMAGE="$(ls -t "$PIGEN"/deploy/*-twinfold.img.xz | head -n 1)"
python3 "$HERE/imager_json.py" "$IMAGE" "$URL/$(basename "$IMAGE")" > "$REPO/build/twinfold-imager.json"
echo "image: $IMAGE"
echo "Imager repository: $REPO/build/twinfold-imager.json (publish it next to the image)"
