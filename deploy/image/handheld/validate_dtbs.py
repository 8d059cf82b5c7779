#!/usr/bin/env python3
"""Validate the merged handheld DTBs with dt-validate against the kernel's own bindings.

usage: validate_dtbs.py --bindings DIR --stock DIR --merged DIR [--dtschema BINDIR] [--subset]
                       [--schema FILE]

--bindings is Documentation/devicetree/bindings from Debian's kernel source (linux-source);
--stock is the kernel package's broadcom/ DTB directory, --merged what merge-dtbs made from
it. dtschema (PyPI) is a development tool only: install it into a throwaway venv and name
its bin/ with --dtschema (default: dt-validate on PATH).

Why a comparison with the stock DTB and not "no errors at all": Debian's own DTBs do not
pass (the 6.1 bindings of the BCM2835 pin controller and the ADS7846 are still text files,
so dt-validate types none of their properties, and the board files predate some schemas).
So a merged DTB passes when every error it has beyond its stock DTB's is that same
"untyped property" error on a pin group or touch property the overlay adds, or an error
on a node the overlay switches on about properties Debian's DTB gave it, unchanged (6.12's
SPI0 binding lists no `dmas`; dt-validate does not look at the node while it is
disabled); any other new error fails, as does any error at all on the overlay's panels
or keys, which the kernel's YAML bindings (panel-mipi-dbi-spi, gpio-keys) check in full.

The one change made to the bindings: "twinfold-panel" is added to panel-mipi-dbi-spi's
list of panel compatibles (its enum), as an upstream patch adding a panel would; the
driver loads /lib/firmware/<first compatible>.bin, so that name is what picks the
project's init file. --subset builds the schema from the binding folders these nodes use
(seconds instead of minutes; nodes without a schema there are not checked). Both tools run
with PYTHONHASHSEED=0: dtschema resolves some multiply-typed properties in set order,
which otherwise differs from run to run. --schema FILE keeps the processed schema there and
uses it as it is when it already exists (the tests validate twice with one). Exit status 0
when every board passes, 1 if one does not (each error on stderr), 2 for bad input.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PANEL_BINDING = Path("display/panel/panel-mipi-dbi-spi.yaml")
PANEL_COMPATIBLE = "twinfold-panel"
# The bindings the handheld's nodes and their controllers use (--subset). The BCM2835 pin
# controller's binding is a text file, which dt-validate cannot use (the ADS7846's too in 6.1).
SUBSET = (
    "display/panel",
    "input/gpio-keys.yaml",
    "input/input.yaml",
    "input/touchscreen",
    "spi",
    "serial",
    "i2c",
)
# The nodes the overlay adds on which an untyped property is forgiven (the name dt-validate
# prints, before any " (compatible)"): its pin groups and the touch controller. Not the
# panels or the keys.
OWN_NODE = re.compile(r"^(twinfold-(spi[01]-)?pins|touchscreen@1)$")
# The one error class allowed on them: a vendor property no YAML binding types (6.1's
# brcm,bcm2835-gpio.txt and ads7846.txt).
UNTYPED = re.compile(
    r"^(brcm,(pins|function|pull)|ti,[a-z-]+): b'.*' is not of type "
    r"'object', 'integer', 'array', 'boolean', 'null'$"
)


def fail(message: str) -> int:
    print(f"validate_dtbs: {message}", file=sys.stderr)
    return 2


def prepare_bindings(source: Path, target: Path, subset: bool) -> None:
    """Copy the bindings (all, or the subset) and add the panel's compatible to the enum."""
    if subset:
        for part in SUBSET:
            if (source / part).is_dir():
                shutil.copytree(source / part, target / part)
            else:
                (target / part).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(source / part, target / part)
    else:
        shutil.copytree(source, target, dirs_exist_ok=True)
    binding = target / PANEL_BINDING
    text = binding.read_text()
    patched, count = re.subn(
        r"^( +)- enum:\n(?:\1    - .*\n)+",
        rf"\g<0>\1    - {PANEL_COMPATIBLE}\n",
        text,
        count=1,
        flags=re.M,
    )
    if count != 1:
        raise ValueError(f"{PANEL_BINDING}: no list of panel compatibles to add ours to")
    binding.write_text(patched)


# Nodes of Debian's DTB the overlay changes or switches on, by the name dt-validate prints.
TARGETS = {
    "spi@7e204000": "/soc/spi@7e204000",
    "spi@7e215080": "/soc/spi@7e215080",
    "serial@7e201000": "/soc/serial@7e201000",
}
UNEXPECTED = re.compile(
    r"^Unevaluated properties are not allowed \((.*) (?:was|were) unexpected\)$"
)


def inherited(node: str, message: str, stock: Path, merged: Path) -> bool:
    """Whether an error on a node the overlay switches on is about properties Debian's DTB
    already gave it, unchanged (6.12's brcm,bcm2835-spi binding lists no dmas, which
    bcm283x.dtsi sets on SPI0; dt-validate skips the node while it is disabled)."""
    found = UNEXPECTED.match(message)
    fdtget = shutil.which("fdtget")
    if node not in TARGETS or found is None or fdtget is None:
        return False
    for name in re.findall(r"'([^']+)'", found.group(1)):
        values = [
            subprocess.run(
                [fdtget, "-t", "bx", str(dtb), TARGETS[node], name],
                capture_output=True,
                text=True,
                check=False,
            )
            for dtb in (stock, merged)
        ]
        if values[0].returncode != 0 or values[0].stdout != values[1].stdout:
            return False
    return True


def errors_by_file(output: str, files: list[Path]) -> dict[Path, set[tuple[str, str]]]:
    """dt-validate's error lines, as (node, message) per input file."""
    found: dict[Path, set[tuple[str, str]]] = {path: set() for path in files}
    for line in output.splitlines():
        for path in files:
            prefix = f"{path}: "
            if line.startswith(prefix):
                node, _, message = line[len(prefix) :].partition(": ")
                # A schema that rejects a whole node prints the node: its content differs
                # in the merged DTB even when the error is the stock DTB's own.
                message = re.sub(r"^(False schema does not allow) \{.*\}$", r"\1 {...}", message)
                found[path].add((node.split(" (")[0], message))
    return found


def judge(
    board: str,
    stock: set[tuple[str, str]],
    merged: set[tuple[str, str]],
    dtbs: tuple[Path, Path],
) -> list[str]:
    """The errors that make a merged DTB fail (empty when it passes)."""
    bad = []
    for node, message in sorted(merged - stock):
        if OWN_NODE.match(node) and UNTYPED.match(message):
            continue
        if inherited(node, message, *dtbs):
            continue
        bad.append(f"{board}: {node}: {message}")
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bindings", type=Path, required=True)
    parser.add_argument("--stock", type=Path, required=True)
    parser.add_argument("--merged", type=Path, required=True)
    parser.add_argument("--dtschema", type=Path, help="the bin/ directory of dtschema")
    parser.add_argument("--subset", action="store_true")
    parser.add_argument("--schema", type=Path, help="processed schema: reused, else kept")
    args = parser.parse_args(argv)

    tools = {}
    for name in ("dt-mk-schema", "dt-validate"):
        found = (
            str(args.dtschema / name)
            if args.dtschema and (args.dtschema / name).exists()
            else shutil.which(name)
        )
        if found is None:
            return fail(f"{name} not found (pip install dtschema; --dtschema BINDIR)")
        tools[name] = found
    if not (args.bindings / PANEL_BINDING).is_file():
        return fail(f"{args.bindings} has no {PANEL_BINDING}: not a kernel bindings folder")
    boards = sorted(p.name.removeprefix("twinfold-") for p in args.merged.glob("twinfold-*.dtb"))
    if not boards:
        return fail(f"no twinfold-*.dtb in {args.merged}")
    for board in boards:
        if not (args.stock / board).is_file():
            return fail(f"no stock {board} in {args.stock}")

    env = dict(os.environ, PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory(prefix="validate-dtbs.") as tmp:
        schema = args.schema or Path(tmp) / "schema.json"
        if not schema.is_file():
            bindings = Path(tmp) / "bindings"
            try:
                prepare_bindings(args.bindings, bindings, args.subset)
            except (OSError, ValueError) as error:
                return fail(str(error))
            partial = schema.with_name(schema.name + ".part")
            with partial.open("w") as out:
                made = subprocess.run(
                    [tools["dt-mk-schema"], "-j", str(bindings)],
                    stdout=out,
                    stderr=subprocess.PIPE,
                    text=True,
                    env=env,
                    check=False,
                )
            if made.returncode != 0:
                partial.unlink()
                return fail(f"dt-mk-schema failed: {made.stderr.strip()[-500:]}")
            partial.replace(schema)
        files = [args.stock / b for b in boards] + [args.merged / f"twinfold-{b}" for b in boards]
        result = subprocess.run(
            [tools["dt-validate"], "-s", str(schema), *map(str, files)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
    found = errors_by_file(result.stdout + result.stderr, files)
    failures = []
    for board in boards:
        stock = found[args.stock / board]
        merged = found[args.merged / f"twinfold-{board}"]
        dtbs = (args.stock / board, args.merged / f"twinfold-{board}")
        bad = judge(board, stock, merged, dtbs)
        failures += bad
        print(
            f"{board}: stock {len(stock)} errors, merged {len(merged)}, "
            f"new {len(merged - stock)}: {'FAIL' if bad else 'pass'}"
        )
    for line in failures:
        print(line, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
