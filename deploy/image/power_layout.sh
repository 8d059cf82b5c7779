# shellcheck shell=bash
# The Twinfold image's layout for power cuts and updates that roll back (issue 35; sourced by
# build.sh, never run): a read-only root, /var on its own ext4 partition that grows to fill
# the card at the first boot, the journal in RAM, and the update slots (handheld/slots.py).
# docs/hardware.md ("Power cuts and updates") says why.

VAR_LABEL=twinfold-var

# power_root ROOTFS FILES: the services and drop-ins in the root.
power_root() {
    local root="$1" f="$2" lib="$1/usr/local/lib/twinfold" sd="$1/etc/systemd/system"
    install -D -m 0755 "$f/twinfold-grow-var" "$lib/grow-var"
    install -D -m 0755 "$f/twinfold-run" "$lib/twinfold-run"
    install -D -m 0755 "$f/with-rw-root" "$lib/with-rw-root"
    install -D -m 0755 "$f/twinfold-update" "$root/usr/local/sbin/twinfold-update"
    install -D -m 0644 "$f/twinfold-grow-var.service" "$sd/twinfold-grow-var.service"
    install -D -m 0644 "$f/twinfold-update-boot.service" "$sd/twinfold-update-boot.service"
    install -D -m 0644 "$f/twinfold-slots.conf" "$sd/twinfold.service.d/slots.conf"
    install -D -m 0644 "$f/journald-twinfold.conf" "$root/etc/systemd/journald.conf.d/twinfold.conf"
    # boot-config writes /etc (Wi-Fi, the SSH key) only with the root writable meanwhile
    mkdir -p "$sd/twinfold-boot-config.service.d"
    printf '%s\n' '[Service]' 'ExecStart=' \
        'ExecStart=/usr/local/lib/twinfold/with-rw-root /usr/local/lib/twinfold/boot-config' \
        > "$sd/twinfold-boot-config.service.d/rw-root.conf"
    chroot "$root" systemctl enable -q twinfold-grow-var.service twinfold-update-boot.service
    rm -rf "$root/var/log/journal"  # Storage=volatile: no journal folder on the card
}

# power_split_var ROOTFS INTO: move the root's /var into INTO (the data partition's files);
# the root keeps an empty /var to mount it on.
power_split_var() {
    local root="$1" into="$2"
    rm -rf "$into"
    mv "$root/var" "$into"
    mkdir -m 0755 "$root/var"
    mkdir -p "$into/lib/twinfold-slots"
}

# power_mib DIR SLACK_PERCENT EXTRA_MIB: a partition size for DIR's files.
power_mib() {
    local used
    used=$(du -s --block-size=1M "$1" | cut -f1)
    echo $(( used * (100 + $2) / 100 + $3 ))
}
