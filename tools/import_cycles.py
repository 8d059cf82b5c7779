"""Import cycles among Twinfold's packages (issue 23): any strongly connected group of more
than one module fails, named by one cycle through it with the import lines that make it.

    .venv/bin/python tools/import_cycles.py [PACKAGE ...]   (default: every package)

The graph is grimp's (import-linter's graph library), built from every import statement:
imports inside functions count, and so do type-only imports under `if TYPE_CHECKING:` (the
layer contracts leave those out; a type-only import is still a dependency of the design).
`python3 run.py test` runs this after the layer checker; `find_cycles` serves any package
set (tests/tools/test_import_cycles.py plants cycles in a copy of the tree).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

import grimp

PACKAGES = ("hal", "firmware", "games", "emulator", "handheld")


@dataclass(frozen=True)
class Step:
    """One import on a cycle: `importer` imports `imported` at `line` (its text)."""

    importer: str
    imported: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.importer} -> {self.imported}  (line {self.line}: {self.text})"


@dataclass(frozen=True)
class Cycle:
    """A strongly connected group of modules and one loop through it, as import steps."""

    modules: tuple[str, ...]  # the whole group, sorted
    steps: tuple[Step, ...]  # importer -> imported ... back to the first importer

    def describe(self) -> str:
        loop = " -> ".join([*(s.importer for s in self.steps), self.steps[0].importer])
        lines = [f"import cycle among {len(self.modules)} modules: {loop}"]
        lines += [f"    {step}" for step in self.steps]
        if len(self.modules) > len(self.steps):
            lines.append(f"    the whole group: {', '.join(self.modules)}")
        return "\n".join(lines)


def build_graph(packages: Sequence[str]) -> grimp.ImportGraph:
    """Every import among the modules of `packages`, lazy and type-only ones included."""
    first, *rest = packages
    return grimp.build_graph(first, *rest, exclude_type_checking_imports=False, cache_dir=None)


def strongly_connected(graph: grimp.ImportGraph) -> list[tuple[str, ...]]:
    """The groups of more than one module that import each other (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[tuple[str, ...]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(tuple(sorted(group)))
    return sorted(groups)


def _loop(graph: grimp.ImportGraph, group: tuple[str, ...]) -> tuple[str, ...]:
    """The shortest loop through the group's first module (every module on it is in the
    group: a module reachable from the group that reaches back belongs to it)."""
    start = group[0]
    best: tuple[str, ...] | None = None
    for nxt in sorted(graph.find_modules_directly_imported_by(start)):
        if nxt not in group:
            continue
        back = graph.find_shortest_chain(importer=nxt, imported=start)
        if back is not None and (best is None or len(back) + 1 < len(best)):
            best = (start, *back)
    assert best is not None, f"no loop through {start}"  # a group always has one
    return best[:-1]  # the loop's modules, without repeating the start


def _step(graph: grimp.ImportGraph, importer: str, imported: str) -> Step:
    details = graph.get_import_details(importer=importer, imported=imported)
    first = min(details, key=lambda d: int(d["line_number"])) if details else None
    if first is None:
        return Step(importer, imported, 0, "")
    return Step(importer, imported, int(first["line_number"]), str(first["line_contents"]))


def find_cycles(packages: Sequence[str]) -> list[Cycle]:
    """Every import cycle among the modules of `packages`, each with one loop spelled out."""
    graph = build_graph(packages)
    cycles = []
    for group in strongly_connected(graph):
        loop = _loop(graph, group)
        pairs = zip(loop, (*loop[1:], loop[0]), strict=True)
        cycles.append(Cycle(group, tuple(_step(graph, a, b) for a, b in pairs)))
    return cycles


def main(argv: Sequence[str]) -> int:
    packages = tuple(argv) or PACKAGES
    cycles = find_cycles(packages)
    for cycle in cycles:
        print(cycle.describe(), file=sys.stderr)
    if cycles:
        print(f"import cycles: {len(cycles)} found in {', '.join(packages)}", file=sys.stderr)
        return 1
    print(f"import cycles: none in {', '.join(packages)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
