"""The handheld's device tree for Debian's kernel (issue 31, item 2): the mainline overlay
merged into Debian's own DTBs by deploy/image/handheld/merge-dtbs carries both panels, the
touch controller, the keys and the radio UART on GPIO 14/15; the kernel hook merges again
after a DTB update; config.txt's stanza boots what merge-dtbs makes; dt-validate passes.

They need device-tree-compiler (dtc, fdtoverlay, fdtput, fdtget) and Debian's arm64 DTBs:
TWINFOLD_DTB_DIR (a linux-image-ABI-arm64 package's broadcom/ folder), else an installed
arm64 kernel's, else the image build's cached base root (TWINFOLD_IMAGE_CACHE, default
/var/cache/twinfold-image). The dt-validate test also needs dtschema (a dev dependency:
dt-validate beside the test's Python; or TWINFOLD_DTSCHEMA, its bin/ folder) and the
kernel's bindings (TWINFOLD_DT_BINDINGS: linux-source's Documentation/devicetree/bindings;
else those the image build extracted into the cache for the DTBs' kernel). Without them
each test skips and says what is missing; on a fresh CI host the test run comes before
the first image build, so they skip there until .ci/image-checks has filled the cache."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.image_cache import CACHE, finished_bases

REPO = Path(__file__).resolve().parents[2]
HANDHELD = REPO / "deploy/image/handheld"
MERGE = HANDHELD / "merge-dtbs"
HOOK = HANDHELD / "z60-twinfold-dtbs"
OVERLAY = REPO / "deploy/overlays/twinfold-mainline.dts"
RPI_OVERLAY = REPO / "deploy/overlays/twinfold.dts"
BOARDS = (
    "bcm2837-rpi-zero-2-w",
    "bcm2837-rpi-3-b",
    "bcm2837-rpi-3-b-plus",
    "bcm2711-rpi-4-b",
)
SPI0, SPI1 = "/soc/spi@7e204000", "/soc/spi@7e215080"
UART0, UART1 = "/soc/serial@7e201000", "/soc/serial@7e215040"
GPIO = "/soc/gpio@7e200000"


def tools() -> dict[str, str]:
    found = {name: shutil.which(name) for name in ("dtc", "fdtoverlay", "fdtput", "fdtget")}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (device-tree-compiler): not verified")
    return {name: str(path) for name, path in found.items()}


def debian_dtbs(into: Path) -> Path:
    """A folder with Debian's DTBs of the four boards, or skip saying where none was."""
    candidates = []
    if os.environ.get("TWINFOLD_DTB_DIR"):
        candidates.append(Path(os.environ["TWINFOLD_DTB_DIR"]))
    candidates += sorted(Path("/usr/lib").glob("linux-image-*-arm64/broadcom"), reverse=True)
    for folder in candidates:
        if all((folder / f"{b}.dtb").is_file() for b in BOARDS):
            return folder
    bases = finished_bases()
    if bases and shutil.which("tar"):
        patterns = [f"./usr/lib/linux-image-*-arm64/broadcom/{b}.dtb" for b in BOARDS]
        subprocess.run(
            ["tar", "-xf", str(bases[0]), "-C", str(into), "--wildcards", *patterns],
            capture_output=True,
            check=False,
            timeout=120,
        )
        for folder in sorted(into.glob("usr/lib/linux-image-*-arm64/broadcom"), reverse=True):
            if all((folder / f"{b}.dtb").is_file() for b in BOARDS):
                return folder
    pytest.skip(
        "no Debian arm64 DTBs (TWINFOLD_DTB_DIR, /usr/lib/linux-image-*-arm64/broadcom or "
        f"a base root in {CACHE}): not verified"
    )


@pytest.fixture(scope="module")
def tool() -> dict[str, str]:
    return tools()


@pytest.fixture(scope="module")
def stock(tool: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return debian_dtbs(tmp_path_factory.mktemp("debian"))


@pytest.fixture(scope="module")
def dtbo(tool: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("overlay") / "twinfold-mainline.dtbo"
    result = subprocess.run(
        [tool["dtc"], "-@", "-I", "dts", "-O", "dtb", "-o", str(out), str(OVERLAY)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # not even a warning
    return out


def merge(dtbo: Path, source: Path, to: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(MERGE), "--overlay", str(dtbo), "--from", str(source), "--to", str(to)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


@pytest.fixture(scope="module")
def merged(dtbo: Path, stock: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("merged")
    result = merge(dtbo, stock, out)
    assert result.returncode == 0, result.stderr
    return out


class Tree:
    """fdtget on one DTB."""

    def __init__(self, fdtget: str, dtb: Path) -> None:
        self.fdtget, self.dtb = fdtget, dtb

    def get(self, node: str, prop: str, kind: str = "") -> str:
        args = [self.fdtget, *(["-t", kind] if kind else []), str(self.dtb), node, prop]
        result = subprocess.run(args, capture_output=True, text=True, check=False)
        assert result.returncode == 0, f"{self.dtb.name}: {node} {prop}: {result.stderr}"
        return result.stdout.strip()

    def ints(self, node: str, prop: str) -> list[int]:
        return [int(v) for v in self.get(node, prop, "u").split()]

    def has(self, node: str, prop: str) -> bool:
        args = [self.fdtget, str(self.dtb), node, prop]
        return subprocess.run(args, capture_output=True, check=False).returncode == 0

    def children(self, node: str) -> list[str]:
        result = subprocess.run(
            [self.fdtget, "-l", str(self.dtb), node], capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.split()

    def phandle_of(self, node: str) -> int:
        return self.ints(node, "phandle")[0]


def rpi_overlay_keys() -> dict[str, tuple[int, int, int, int]]:
    """label -> (GPIO, code, input type, debounce) of the Raspberry Pi OS overlay."""
    keys = {}
    for body in re.findall(r"\w+: \w+ \{(.*?)\};", RPI_OVERLAY.read_text(), re.S):
        label = re.search(r'label = "(\w+)"', body)
        gpio = re.search(r"gpios = <&gpio (\d+) 1>", body)
        code = re.search(r"linux,code = <(\w+)>", body)
        if label and gpio and code:
            kind = re.search(r"linux,input-type = <(\d+)>", body)
            debounce = re.search(r"debounce-interval = <(\d+)>", body)
            keys[label.group(1)] = (
                int(gpio.group(1)),
                int(code.group(1), 0),
                int(kind.group(1)) if kind else 1,
                int(debounce.group(1)) if debounce else 5,
            )
    return keys


@pytest.mark.parametrize("board", BOARDS)
def test_each_merged_dtb_has_the_panels_touch_keys_and_radio_uart(
    board: str, tool: dict[str, str], merged: Path
) -> None:
    tree = Tree(tool["fdtget"], merged / f"twinfold-{board}.dtb")
    gpio = tree.phandle_of(GPIO)
    # Both panels: panel-mipi-dbi-spi, write-only, 320x240, their D/C lines; the first
    # compatible names the init file the driver loads (twinfold-panel.bin).
    for bus, dc in ((SPI0, 24), (SPI1, 25)):
        assert tree.get(bus, "status") == "okay"
        panel = f"{bus}/panel@0"
        assert tree.get(panel, "compatible").split() == ["twinfold-panel", "panel-mipi-dbi-spi"]
        assert tree.has(panel, "write-only")
        assert tree.ints(panel, "dc-gpios") == [gpio, dc, 0]
        assert tree.ints(panel, "reg") == [0]
        assert tree.ints(f"{panel}/panel-timing", "hactive") == [320]
        assert tree.ints(f"{panel}/panel-timing", "vactive") == [240]
    assert tree.ints(SPI0, "cs-gpios") == [gpio, 8, 1, gpio, 7, 1]
    assert tree.ints(SPI1, "cs-gpios") == [gpio, 18, 1]
    assert tree.get("/aliases", "spi0") == SPI0  # the udev rules' spi0.0 and spi1.0
    assert tree.get("/aliases", "spi1") == SPI1
    # The touch controller on SPI0 CE1, pen IRQ on GPIO 27.
    touch = f"{SPI0}/touchscreen@1"
    assert tree.get(touch, "compatible") == "ti,ads7846"
    assert tree.ints(touch, "interrupt-parent") == [gpio]
    assert tree.ints(touch, "interrupts") == [27, 2]
    assert tree.ints(touch, "pendown-gpio") == [gpio, 27, 1]
    # The keys: the same labels, pins, codes and debounce as the Raspberry Pi OS overlay.
    assert tree.get("/twinfold-keys", "compatible") == "gpio-keys"
    assert tree.get("/twinfold-keys", "label") == "twinfold-keys"
    keys = {}
    for child in tree.children("/twinfold-keys"):
        node = f"/twinfold-keys/{child}"
        pin = tree.ints(node, "gpios")
        assert pin[0] == gpio and pin[2] == 1  # active low
        kind = tree.ints(node, "linux,input-type")[0] if tree.has(node, "linux,input-type") else 1
        keys[tree.get(node, "label")] = (
            pin[1],
            tree.ints(node, "linux,code")[0],
            kind,
            tree.ints(node, "debounce-interval")[0],
        )
    assert keys == rpi_overlay_keys()
    assert len(keys) == 14
    # Their pins (and the pen IRQ) are GPIO inputs with pull-ups, hogged by the controller
    # itself: this replaces the Zero 2 W's hog, which put GPIO 4/5 (DOWN, LEFT) on ALT0.
    hog = tree.ints(GPIO, "pinctrl-0")
    assert len(hog) == 1
    pins = f"{GPIO}/twinfold-pins"
    assert hog[0] == tree.phandle_of(pins)
    assert sorted(tree.ints(pins, "brcm,pins")) == sorted([k[0] for k in keys.values()] + [27])
    assert set(tree.ints(pins, "brcm,function")) == {0}
    assert set(tree.ints(pins, "brcm,pull")) == {2}
    # The radio: the PL011 on GPIO 14/15 (ALT0), no Bluetooth on it, the mini UART off.
    assert tree.get(UART0, "status") == "okay"
    # (The pin group is uart0_gpio14 in 6.1's DTBs, uart0-gpio14 in 6.12's: by its label.)
    uart0_gpio14 = tree.get("/__symbols__", "uart0_gpio14")
    (group,) = tree.ints(UART0, "pinctrl-0")
    assert group == tree.phandle_of(uart0_gpio14)
    assert tree.ints(uart0_gpio14, "brcm,pins") == [14, 15]
    assert tree.ints(uart0_gpio14, "brcm,function") == [4]
    assert tree.get(f"{UART0}/bluetooth", "status") == "disabled"
    assert tree.get(UART1, "status") == "disabled"
    # I2C0 (GPIO 0/1) and I2C1 (GPIO 2/3) off: SELECT, START, UP and POWER.
    for i2c in ("/soc/i2c@7e205000", "/soc/i2c@7e804000"):
        assert tree.get(i2c, "status") == "disabled"


def test_the_board_dtbs_are_debian_s_own_plus_the_overlay(
    tool: dict[str, str], stock: Path, merged: Path
) -> None:
    for board in BOARDS:
        before = Tree(tool["fdtget"], stock / f"{board}.dtb")
        after = Tree(tool["fdtget"], merged / f"twinfold-{board}.dtb")
        assert after.get("/", "model") == before.get("/", "model")
        assert after.get("/", "compatible") == before.get("/", "compatible")
    assert sorted(p.name for p in merged.iterdir()) == sorted(f"twinfold-{b}.dtb" for b in BOARDS)


def symbol_dtb(tool: dict[str, str], stock: Path, board: str, out: Path) -> None:
    """The board's DTB as 6.12 ships it: labels in __symbols__, and a Pi 4 I2C0 mux (the
    stock one when it is a 6.12 DTB already)."""
    if Tree(tool["fdtget"], stock / f"{board}.dtb").has("/__symbols__", "i2c0mux"):
        shutil.copy(stock / f"{board}.dtb", out)
        return
    source = subprocess.run(
        [tool["dtc"], "-q", "-I", "dtb", "-O", "dts", str(stock / f"{board}.dtb")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    labels = {
        "gpio": GPIO,
        "spi": SPI0,
        "spi1": SPI1,
        "uart0": UART0,
        "uart1": UART1,
        "i2c0": "/soc/i2c@7e205000",
        "i2c1": "/soc/i2c@7e804000",
        "uart0_gpio14": f"{GPIO}/uart0_gpio14",
    }
    source += '/ { i2c0mux: i2c0mux { compatible = "i2c-mux-pinctrl"; status = "okay"; }; };\n'
    source += "".join(f"{label}: &{{{path}}} {{ }};\n" for label, path in labels.items())
    dts = out.with_suffix(".dts")
    dts.write_text(source)
    subprocess.run(
        [tool["dtc"], "-q", "-@", "-I", "dts", "-O", "dtb", "-o", str(out), str(dts)], check=True
    )
    dts.unlink()


def test_a_dtb_with_symbols_is_merged_as_it_is_and_its_i2c0_mux_switched_off(
    tool: dict[str, str], stock: Path, dtbo: Path, tmp_path: Path
) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for board in BOARDS:
        shutil.copy(stock / f"{board}.dtb", source)
    symbol_dtb(tool, stock, "bcm2711-rpi-4-b", source / "bcm2711-rpi-4-b.dtb")
    out = tmp_path / "out"
    out.mkdir()
    result = merge(dtbo, source, out)
    assert result.returncode == 0, result.stderr
    tree = Tree(tool["fdtget"], out / "twinfold-bcm2711-rpi-4-b.dtb")
    assert tree.get(tree.get("/__symbols__", "i2c0mux"), "status") == "disabled"
    assert tree.get("/__symbols__", "spi") == SPI0
    assert tree.get(f"{SPI0}/panel@0", "compatible").split()[0] == "twinfold-panel"


def test_merge_dtbs_changes_nothing_on_bad_input(
    tool: dict[str, str], stock: Path, dtbo: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    kept = out / "twinfold-bcm2837-rpi-3-b.dtb"
    kept.write_bytes(b"the previous merge")
    partial = tmp_path / "partial"
    partial.mkdir()
    for board in BOARDS[:-1]:
        shutil.copy(stock / f"{board}.dtb", partial)
    # A board's DTB missing, a DTB without the nodes the labels name, no overlay.
    broken = tmp_path / "broken"
    broken.mkdir()
    for board in BOARDS:
        shutil.copy(stock / f"{board}.dtb", broken)
    subprocess.run([tool["fdtput"], "-r", str(broken / "bcm2711-rpi-4-b.dtb"), UART1], check=True)
    for source, overlay, words in (
        (partial, dtbo, "no bcm2711-rpi-4-b.dtb in"),
        (broken, dtbo, f"has no node {UART1} for the label uart1"),
        (stock, tmp_path / "missing.dtbo", "no overlay"),
    ):
        result = merge(overlay, source, out)
        assert result.returncode == 1
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and words in lines[0], result.stderr
        assert sorted(out.iterdir()) == [kept] and kept.read_bytes() == b"the previous merge"
    usage = subprocess.run([str(MERGE), "--from"], capture_output=True, text=True, check=False)
    assert usage.returncode == 2 and usage.stderr.startswith("usage: merge-dtbs")


@pytest.fixture
def unit(tool: dict[str, str], stock: Path, dtbo: Path, tmp_path: Path) -> Iterator[Path]:
    """A stand-in for the unit's file system: two kernels' DTBs, the boot partition."""
    lib = tmp_path / "usr/local/lib/twinfold"
    lib.mkdir(parents=True)
    shutil.copy(MERGE, lib)
    shutil.copy(dtbo, lib / "twinfold-mainline.dtbo")
    for abi in ("6.1.0-9-arm64", "6.1.0-10-arm64"):
        (tmp_path / "boot").mkdir(exist_ok=True)
        (tmp_path / f"boot/vmlinuz-{abi}").write_bytes(b"")
        folder = tmp_path / f"usr/lib/linux-image-{abi}/broadcom"
        folder.mkdir(parents=True)
        for board in BOARDS:
            # Tell the two kernels' DTBs apart by their model.
            path = folder / f"{board}.dtb"
            shutil.copy(stock / path.name, path)
            model = Tree(tool["fdtget"], path).get("/", "model")
            subprocess.run(
                [tool["fdtput"], "-t", "s", str(path), "/", "model", f"{model} {abi}"], check=True
            )
    (tmp_path / "boot/firmware").mkdir()
    yield tmp_path


def run_hook(unit: Path, params: str) -> subprocess.CompletedProcess[str]:
    env = dict(
        os.environ,
        DEB_MAINT_PARAMS=params,
        TWINFOLD_DTB_LIB=str(unit / "usr/local/lib/twinfold"),
        TWINFOLD_BOOT=str(unit / "boot/firmware"),
        TWINFOLD_KERNELS=str(unit / "boot"),
        TWINFOLD_MODULES_LIB=str(unit / "usr/lib"),
    )
    return subprocess.run(
        [str(HOOK), "6.1.0-10-arm64", "/boot/vmlinuz-6.1.0-10-arm64"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )


def test_the_kernel_hook_merges_the_newest_kernel_s_dtbs_again(
    tool: dict[str, str], unit: Path
) -> None:
    boot = unit / "boot/firmware"
    assert run_hook(unit, "'upgrade' '6.1.0-9'").returncode == 0
    assert list(boot.iterdir()) == []  # only on configure and remove, as raspi-firmware
    result = run_hook(unit, "'configure' ''")
    assert result.returncode == 0, result.stderr
    model = Tree(tool["fdtget"], boot / "twinfold-bcm2837-rpi-3-b.dtb").get("/", "model")
    assert model.endswith("6.1.0-10-arm64")  # the newest by version, not by name
    # Debian updates the DTBs (same ABI, new package): the hook merges them again.
    dtb = unit / "usr/lib/linux-image-6.1.0-10-arm64/broadcom/bcm2837-rpi-3-b.dtb"
    subprocess.run([tool["fdtput"], "-t", "s", str(dtb), "/", "model", "updated"], check=True)
    assert run_hook(unit, "'configure' ''").returncode == 0
    tree = Tree(tool["fdtget"], boot / "twinfold-bcm2837-rpi-3-b.dtb")
    assert tree.get("/", "model") == "updated"
    assert tree.get(f"{SPI0}/panel@0", "compatible").split()[0] == "twinfold-panel"
    # A broken update keeps the last good merge and says so.
    dtb.unlink()
    failed = run_hook(unit, "'configure' ''")
    assert failed.returncode == 1 and "no bcm2837-rpi-3-b.dtb" in failed.stderr
    assert Tree(tool["fdtget"], boot / "twinfold-bcm2837-rpi-3-b.dtb").get("/", "model") == (
        "updated"
    )


def test_config_txt_boots_what_merge_dtbs_makes_on_each_board() -> None:
    sections: dict[str, list[str]] = {}
    current = "all"
    for line in (HANDHELD / "raspi-firmware-custom").read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith("["):
            current = line.strip("[]")
            continue
        sections.setdefault(current, []).append(line)
    assert sections == {
        "all": ["force_eeprom_read=0"],
        "pi3": ["device_tree=twinfold-bcm2837-rpi-3-b.dtb"],
        "pi3+": ["device_tree=twinfold-bcm2837-rpi-3-b-plus.dtb"],
        "pi4": ["device_tree=twinfold-bcm2711-rpi-4-b.dtb"],
        "pi02": ["device_tree=twinfold-bcm2837-rpi-zero-2-w.dtb"],
    }
    # The file ends back in [all], so what raspi-firmware appends later applies to all.
    text = (HANDHELD / "raspi-firmware-custom").read_text()
    assert text.rstrip().endswith("[all]")
    boards = re.search(r'^BOARDS="(.*)"$', MERGE.read_text(), re.M)
    assert boards is not None
    assert sorted(boards.group(1).split()) == sorted(BOARDS)


def test_no_console_lands_on_the_radio_uart() -> None:
    consoles = subprocess.run(
        ["sh", "-c", '. "$0"; echo "$CONSOLES"', str(HANDHELD / "raspi-firmware")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert consoles == ["tty0"]  # not "auto", which adds ttyAMA0 (the radio)
    # after raspi-firmware's "rw": the image's root read-only at every kernel update too
    assert (HANDHELD / "raspi-extra-cmdline").read_text().split() == ["fbcon=map:9", "ro"]


def cached_bindings(stock: Path) -> Path:
    """The bindings the image build extracted for the stock DTBs' kernel (a folder that may
    not exist)."""
    abi = stock.parent.name.removeprefix("linux-image-")  # .../linux-image-ABI/broadcom
    for folder in sorted(CACHE.glob("kernel-debs/*"), key=lambda p: p.stat().st_mtime):
        if (folder / "abi").is_file() and (folder / "abi").read_text().strip() == abi:
            return folder / "bindings"
    return CACHE / "kernel-debs/none"


def test_the_merged_dtbs_pass_dt_validate_against_the_kernel_bindings(
    tool: dict[str, str], stock: Path, merged: Path, tmp_path: Path
) -> None:
    bindings = os.environ.get("TWINFOLD_DT_BINDINGS", "") or str(cached_bindings(stock))
    if not Path(bindings, "display/panel").is_dir():
        pytest.skip(
            "no kernel bindings (TWINFOLD_DT_BINDINGS: linux-source's; or the image build's "
            f"in {CACHE}/kernel-debs for this kernel): not verified"
        )
    # dtschema is a dev dependency: its dt-validate sits beside the test's Python.
    bin_dir = os.environ.get("TWINFOLD_DTSCHEMA", "")
    if not bin_dir and Path(sys.executable).with_name("dt-validate").exists():
        bin_dir = str(Path(sys.executable).parent)
    if not (Path(bin_dir, "dt-validate").exists() if bin_dir else shutil.which("dt-validate")):
        pytest.skip("dtschema's dt-validate not found (TWINFOLD_DTSCHEMA): not verified")
    schema = tmp_path / "schema.json"

    def validate(merged_dir: Path) -> subprocess.CompletedProcess[str]:
        args = [sys.executable, str(HANDHELD / "validate_dtbs.py"), "--bindings", bindings]
        args += ["--stock", str(stock), "--merged", str(merged_dir), "--subset"]
        args += ["--schema", str(schema)] + (["--dtschema", bin_dir] if bin_dir else [])
        return subprocess.run(args, capture_output=True, text=True, check=False, timeout=600)

    result = validate(merged)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(": pass") == len(BOARDS)
    # The check has teeth: a panel without its required width fails, by name.
    broken = tmp_path / "broken"
    broken.mkdir()
    dtb = broken / "twinfold-bcm2837-rpi-3-b.dtb"
    shutil.copy(merged / dtb.name, dtb)
    subprocess.run([tool["fdtput"], "-d", str(dtb), f"{SPI1}/panel@0", "width-mm"], check=True)
    failed = validate(broken)
    assert failed.returncode == 1
    assert "bcm2837-rpi-3-b.dtb: panel@0: 'width-mm' is a required property" in failed.stderr


def test_only_errors_debian_s_dtb_brought_are_forgiven_on_the_nodes_switched_on(
    tool: dict[str, str], stock: Path, merged: Path
) -> None:
    spec = importlib.util.spec_from_file_location("validate_dtbs", HANDHELD / "validate_dtbs.py")
    assert spec is not None and spec.loader is not None
    validate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(validate)
    board = "bcm2837-rpi-3-b.dtb"
    dtbs = (stock / board, merged / f"twinfold-{board}")
    untyped = "brcm,pins: b'\\x00' is not of type 'object', 'integer', 'array', 'boolean', 'null'"
    new = {
        # Debian's own dmas on SPI0, unchanged: not the overlay's doing.
        (
            "spi@7e204000",
            "Unevaluated properties are not allowed ('dma-names', 'dmas' were unexpected)",
        ),
        # A pin group of the overlay, untyped as every stock pin group.
        ("twinfold-spi0-pins", untyped),
    }
    assert validate.judge(board, set(), new, dtbs) == []
    for error in (
        # cs-gpios is the overlay's: an error about it is the overlay's.
        ("spi@7e204000", "Unevaluated properties are not allowed ('cs-gpios' was unexpected)"),
        ("panel@0", untyped),  # the panels have YAML bindings: no error passes there
        ("twinfold-spi0-pins", "'brcm,pins' is a required property"),
    ):
        assert validate.judge(board, set(), {error}, dtbs) == [f"{board}: {error[0]}: {error[1]}"]
    # Errors the stock DTB has already are not counted.
    assert validate.judge(board, {error}, {error}, dtbs) == []
