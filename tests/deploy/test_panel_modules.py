"""The panel driver built for Debian's kernel (issue 31, item 1, the build script only):
deploy/image/handheld/modinfo.py reads a module's .modinfo without kmod, and the modules
build-panel-modules makes carry the image kernel's exact vermagic and depend only on
modules that kernel ships.

The vermagic test needs the built modules (TWINFOLD_PANEL_MODULES: the folder
build-panel-modules wrote; or TWINFOLD_MODULE_DEBS: its --debs folder, and the test builds,
about a minute; else the ones the image build keeps in its cache for the kernel's ABI) and
the image kernel's modules (TWINFOLD_KERNEL_MODULES: /usr/lib/modules/ABI of the image
root, else the image cache's base root; the cache is TWINFOLD_IMAGE_CACHE, default
/var/cache/twinfold-image, as for .ci/image-checks); it skips and
says which is missing otherwise, as in CI's test run."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import struct
import subprocess
import tarfile
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.deploy.image_cache import CACHE, finished_bases

REPO = Path(__file__).resolve().parents[2]
HANDHELD = REPO / "deploy/image/handheld"
MODULES = ("drm_mipi_dbi.ko", "panel-mipi-dbi.ko")


def load_modinfo() -> ModuleType:
    spec = importlib.util.spec_from_file_location("modinfo", HANDHELD / "modinfo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


modinfo = load_modinfo()


def elf(sections: dict[str, bytes], bits: int = 64, little: bool = True) -> bytes:
    """A minimal relocatable ELF file with these sections (and .shstrtab)."""
    end = "<" if little else ">"
    names = b"\0"
    table = [(0, 0, 0)]  # the null section
    body = b""
    header_size = 64 if bits == 64 else 52
    for name, content in [*sections.items(), (".shstrtab", b"")]:
        if name == ".shstrtab":
            content = names + b".shstrtab\0"
        table.append((len(names), header_size + len(body), len(content)))
        names += name.encode() + b"\0"
        body += content
    shoff = header_size + len(body)
    ident = b"\x7fELF" + bytes([2 if bits == 64 else 1, 1 if little else 2, 1]) + bytes(9)
    # ELF64 / ELF32: header layout, machine (AArch64 / ARM), section header layout and size.
    head, machine, entry, entry_size = (
        ("HHIQQQIHHHHHH", 183, "IIQQQQIIQQ", 64)
        if bits == 64
        else ("HHIIIIIHHHHHH", 40, "IIIIIIIIII", 40)
    )
    fields = (
        1,
        machine,
        1,
        0,
        0,
        shoff,
        0,
        header_size,
        0,
        0,
        entry_size,
        len(table),
        len(table) - 1,
    )
    header = ident + struct.pack(end + head, *fields)
    entries = b"".join(struct.pack(end + entry, n, 1, 0, 0, o, s, 0, 0, 1, 0) for n, o, s in table)
    return header + body + entries


keys = st.from_regex(r"[a-z_]{1,12}", fullmatch=True)
values = st.text(
    st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=40
)


@given(st.lists(st.tuples(keys, values), max_size=8), st.sampled_from([32, 64]), st.booleans())
def test_modinfo_reads_every_field_of_any_elf_layout(
    pairs: list[tuple[str, str]], bits: int, little: bool
) -> None:
    section = b"".join(f"{k}={v}".encode() + b"\0" for k, v in pairs)
    data = elf({".text": b"\0" * 8, ".modinfo": section, ".data": b"x"}, bits, little)
    assert modinfo.modinfo(data) == pairs


GOOD = elf({".modinfo": b"vermagic=6.1.0-50-arm64 SMP\0license=GPL\0"})


@given(
    st.one_of(
        st.binary(max_size=300),
        st.binary(max_size=300).map(lambda tail: b"\x7fELF" + tail),
        st.integers(0, len(GOOD) - 1).map(lambda cut: GOOD[:cut]),
    )
)
def test_anything_else_is_refused_in_one_way(data: bytes) -> None:
    try:
        pairs = modinfo.modinfo(data)
    except modinfo.NotAModule:
        return
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in pairs)


def test_a_file_without_modinfo_is_named_and_refused(tmp_path: Path) -> None:
    path = tmp_path / "plain.o"
    path.write_bytes(elf({".text": b"\0"}))
    result = subprocess.run(
        ["python3", str(HANDHELD / "modinfo.py"), str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == f"modinfo.py: {path}: no .modinfo section\n"


def kernel_modules(into: Path) -> tuple[Path, list[str]]:
    """A module of the image kernel and the names of all its modules, or skip."""
    given_dir = os.environ.get("TWINFOLD_KERNEL_MODULES")
    if given_dir:
        root = Path(given_dir)
        names = [p.name for p in root.rglob("*.ko*")]
        return next(root.rglob("gpio_keys.ko")), names
    bases = finished_bases()
    if not bases:
        pytest.skip(f"no image kernel modules (TWINFOLD_KERNEL_MODULES or {CACHE}): not verified")
    with tarfile.open(bases[0]) as tar:
        members = [
            m for m in tar.getmembers() if "/usr/lib/modules/" in m.name and m.name.endswith(".ko")
        ]
        keys = [m for m in members if m.name.endswith("/gpio_keys.ko")]
        if not keys:
            pytest.skip(f"{bases[0].name} has no gpio_keys.ko: not verified")
        tar.extract(keys[0], into, filter="data")
        return into / keys[0].name, [Path(m.name).name for m in members]


def cached_modules(abi: str) -> Path | None:
    """The modules the image build made for this kernel ABI with this build script
    (deploy/image/handheld/image-setup keeps them in the cache, with the ABI they were
    built for), newest first."""
    key = hashlib.sha256((HANDHELD / "build-panel-modules").read_bytes()).hexdigest()[:12]
    found = [
        d
        for d in CACHE.glob(f"panel-modules/*-{key}")
        if (d / "abi").is_file() and (d / "abi").read_text().strip() == abi
    ]
    return max(found, key=lambda d: d.stat().st_mtime) if found else None


def built_modules(tmp_path: Path, abi: str) -> Path:
    if os.environ.get("TWINFOLD_PANEL_MODULES"):
        return Path(os.environ["TWINFOLD_PANEL_MODULES"])
    debs = os.environ.get("TWINFOLD_MODULE_DEBS")
    if not debs:
        cached = cached_modules(abi)
        if cached is not None:
            return cached
        pytest.skip(
            "no built panel modules (TWINFOLD_PANEL_MODULES, TWINFOLD_MODULE_DEBS, or the "
            f"image build's in {CACHE}/panel-modules for {abi}): not verified"
        )
    out = tmp_path / "out"
    out.mkdir()
    result = subprocess.run(
        [str(HANDHELD / "build-panel-modules"), "--abi", abi, "--debs", debs, "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr
    return out


def field(path: Path, name: str) -> list[str]:
    return [v for k, v in modinfo.modinfo(path.read_bytes()) if k == name]


def test_the_panel_modules_carry_the_image_kernel_s_vermagic(tmp_path: Path) -> None:
    if shutil.which("tar") is None:
        pytest.skip("no tar")
    reference, shipped = kernel_modules(tmp_path / "kernel")
    (vermagic,) = field(reference, "vermagic")
    abi = vermagic.split()[0]
    built = built_modules(tmp_path, abi)
    for name in MODULES:
        assert field(built / name, "vermagic") == [vermagic], name
    # Every module the driver needs is Debian's (or the other one built here).
    (depends,) = field(built / "panel-mipi-dbi.ko", "depends")
    available = {name.removesuffix(".ko").replace("-", "_") for name in [*shipped, *MODULES]}
    assert "drm_mipi_dbi" in depends.split(",")
    assert set(depends.split(",")) <= available
    assert field(built / "panel-mipi-dbi.ko", "name") == ["panel_mipi_dbi"]
