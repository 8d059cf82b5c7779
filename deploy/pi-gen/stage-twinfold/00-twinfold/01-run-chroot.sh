#!/bin/bash -e
# pi-gen, inside the image: the same installer a person runs on a Pi (no services are
# reloaded in a chroot; the unit is enabled and starts at first boot).
WHEEL="$(ls -t /tmp/twinfold/dist/twinfold-*.whl | head -n 1)"
/tmp/twinfold/deploy/install.sh --wheel "${WHEEL}"
rm -rf /tmp/twinfold
