#!/bin/bash -e
# pi-gen, on the build host: hand the installer and the wheel to the image's chroot.
# TWINFOLD_SRC (set by deploy/pi-gen/build.sh) holds deploy/ and dist/ of the checkout.
rm -rf "${ROOTFS_DIR}/tmp/twinfold"
install -d "${ROOTFS_DIR}/tmp/twinfold"
SRC="${TWINFOLD_SRC:-/twinfold-src}"  # build.sh mounts the checkout there
cp -a "${SRC}/deploy" "${SRC}/dist" "${ROOTFS_DIR}/tmp/twinfold/"
