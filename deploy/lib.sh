# shellcheck shell=bash
# Shell helpers shared by install.sh, uninstall.sh, push.sh and pi-gen/build.sh (sourced,
# never run). One copy, so the tests in tests/deploy/ can call each helper on its own,
# including the system paths (ROOT="") a staging-root install never takes.
#
# The callers set ROOT ("" on the system, DESTDIR otherwise; no trailing slash),
# SYSTEM (1: the running system, 0: a staging root) and DRY (1: say, change nothing).

# A system change: run it (on the system), or say it would be / is skipped.
run() {
    if [ "$SYSTEM" = 0 ]; then
        echo "skipped (DESTDIR): $*"
    elif [ "$DRY" = 1 ]; then
        echo "would run: $*"
    else
        echo "run: $*"
        "$@"
    fi
}

# put SRC DEST MODE: install a file under the root unless it is already identical.
put() {
    local src="$1" dest="$ROOT$2" mode="$3"
    if cmp -s "$src" "$dest" 2>/dev/null; then
        echo "unchanged $2"
    elif [ "$DRY" = 1 ]; then
        echo "would install $2"
    else
        install -D -m "$mode" "$src" "$dest"
        echo "installed $2"
    fi
}

# put_once SRC DEST MODE: install a file only if there is none (keeps the owner's edits).
put_once() {
    if [ -e "$ROOT$2" ]; then
        echo "kept $2 (already there)"
    else
        put "$@"
    fi
}

# update DEST NEWFILE: replace an existing file's content when it differs.
update() {
    local dest="$ROOT$1" new="$2"
    if cmp -s "$new" "$dest"; then
        echo "unchanged $1"
    elif [ "$DRY" = 1 ]; then
        echo "would update $1"
    else
        cat "$new" > "$dest"
        echo "updated $1"
    fi
}

# remove PATH: delete a file, link or folder under the root. PATH must be absolute, so an
# empty ROOT (the running system) is fine and a slip can never expand to "/" or "".
remove() {
    case "$1" in
        /?*) ;;
        *) echo "remove: refusing the path '$1' (not absolute)" >&2; return 1 ;;
    esac
    if [ ! -e "$ROOT$1" ] && [ ! -L "$ROOT$1" ]; then
        echo "absent $1"
    elif [ "$DRY" = 1 ]; then
        echo "would remove $1"
    else
        rm -rf -- "$ROOT$1"
        echo "removed $1"
    fi
}

# strip_block FILE BEGIN END: FILE's lines without the block between the markers (stdout).
strip_block() {
    awk -v b="$2" -v e="$3" '$0==b{skip=1;next} $0==e{skip=0;next} !skip' "$1"
}

# clean_source SRC DEST: copy a checkout for building, without what a build leaves behind.
# setuptools reuses build/lib: a module deleted from the checkout but still there would go
# into the wheel. Also left out: dist/, *.egg-info, caches, dot folders (.git, .venv).
clean_source() {
    local src="$1" dest="$2"
    mkdir -p "$dest"
    tar -C "$src" --exclude=./build --exclude=./dist --exclude='./.*' \
        --exclude='*.egg-info' --exclude=__pycache__ -cf - . | tar -C "$dest" -xf -
}

# build_wheel PYTHON SRC OUT: build the Twinfold wheel from a clean copy of the checkout SRC
# into the folder OUT with PYTHON's pip; print the wheel's path. The same source gives the
# same bytes (the zip's dates come from SOURCE_DATE_EPOCH, not the clock), so installing a
# fresh build of an unchanged checkout changes nothing.
build_wheel() {
    local python="$1" src="$2" out="$3" copy
    copy="$(mktemp -d)"
    clean_source "$src" "$copy/src"
    mkdir -p "$out"
    rm -f "$out"/twinfold-*.whl
    SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-315532800}" \
        "$python" -m pip wheel --quiet --no-deps -w "$out" "$copy/src" >&2 || {
        rm -rf "$copy"
        return 1
    }
    rm -rf "$copy"
    ls "$out"/twinfold-*.whl
}

# install_wheel VENV WHEEL: the wheel and its dependencies (with the `device` extra) into
# the virtual environment. Every build of a checkout has the same version, so pip would
# keep the installed code ("already installed with the same version"): the wheel is
# force-reinstalled whenever its content differs from the last one installed (its SHA-256
# is kept in VENV/twinfold-wheel.sha256). The same wheel again changes nothing and needs
# no network. Dependencies are installed only if missing or too old.
# With WHEELS set (a folder of wheels, `install.sh --wheels`), pip never uses the network:
# everything comes from that folder, and evdev (no aarch64 wheel on PyPI) is Debian's
# python3-evdev, which the venv sees (made with --system-site-packages).
install_wheel() {
    local venv="$1" wheel="$2" stamp="$1/twinfold-wheel.sha256" sum=""
    [ -f "$wheel" ] && sum="$(sha256sum "$wheel" | cut -d ' ' -f 1)"
    if [ -n "$sum" ] && [ -x "$venv/bin/twinfold" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
        echo "unchanged twinfold wheel $(basename "$wheel")"
        return 0
    fi
    if [ -n "${WHEELS:-}" ]; then
        run "$venv/bin/pip" install --no-cache-dir --no-index --find-links "$WHEELS" \
            --force-reinstall --no-deps "$wheel"
        run "$venv/bin/pip" install --no-cache-dir --no-index --find-links "$WHEELS" "$wheel"
        run "$venv/bin/python" -c "import evdev"
    else
        run "$venv/bin/pip" install --no-cache-dir --force-reinstall --no-deps "$wheel"
        run "$venv/bin/pip" install --no-cache-dir "${wheel}[device]"
    fi
    if [ "$SYSTEM" = 1 ] && [ "$DRY" = 0 ]; then
        echo "$sum" > "$stamp"
    fi
}
