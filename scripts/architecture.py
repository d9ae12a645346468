"""The house's shape, checked: the import graph of ``src/`` has no circle, no module is too long.

Run ``python -m scripts.architecture`` from the repository root. It also checks that each room of
the house (``core``, ``games``, ...) imports only the rooms below it (:data:`MAY_IMPORT`). Every
import counts: those at a
module's head, those at its foot, those inside a function and those read only by the type checker,
since each is a dependency a reader has to follow. A circle is a strongly connected group of more
than one module; each is printed with one cycle through it. Modules over ``LONGEST`` lines are
listed too. The exit status is 1 when any of these is found.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

SOURCE = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "closingbell"
LONGEST = 900

MAY_IMPORT: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "games": frozenset({"core"}),
    "native": frozenset({"core", "games"}),
    "bots": frozenset({"core", "games", "native"}),
    "text": frozenset({"core", "games", "bots"}),
    "learn": frozenset({"core", "games", "bots", "text"}),
    "envs": frozenset({"core", "games", "native", "bots"}),
    "sim": frozenset({"core", "games", "native", "bots", "envs"}),
    "puzzles": frozenset({"core", "games", "native", "bots", "text"}),
    "tui": frozenset({"core", "games", "bots", "text", "learn"}),
    "remote": frozenset({"core", "games", "native", "bots"}),
    "server": frozenset({"core", "games", "native", "bots", "text", "learn", "puzzles"}),
    "cli": frozenset(
        {
            "core",
            "games",
            "native",
            "bots",
            "text",
            "learn",
            "envs",
            "sim",
            "puzzles",
            "tui",
            "remote",
            "server",
        }
    ),
}
"""The rooms of the house and the rooms each may import, lowest first (docs/architecture.md).

The package's own ``__init__`` presents the public API and may import any room.
"""


def modules(source: Path = SOURCE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    found: dict[str, Path] = {}
    for path in sorted((source / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(source).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _imported(tree: ast.AST, name: str, is_package: bool) -> Iterator[str]:
    """The dotted names a module's source imports, relative imports resolved."""
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            yield stem
            for alias in node.names:
                yield f"{stem}.{alias.name}"


def graph(source: Path = SOURCE) -> dict[str, set[str]]:
    """Each module's imports of other modules of the package.

    ``import a.b.c`` runs ``a`` and ``a.b`` first, so a module depends on each package above
    what it names as well.
    """
    known = modules(source)
    edges: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        targets: set[str] = set()
        for dotted in _imported(tree, name, path.name == "__init__.py"):
            parts = dotted.split(".")
            for end in range(1, len(parts) + 1):
                candidate = ".".join(parts[:end])
                if candidate in known and candidate != name:
                    targets.add(candidate)
        # A package's own ancestors run before it; that is not an import it chose.
        edges[name] = {t for t in targets if not name.startswith(t + ".")}
    return edges


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(start: str) -> None:
        nonlocal counter
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
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
                        found.append(sorted(group))

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return sorted(found)


def cycle(edges: dict[str, set[str]], group: list[str]) -> list[str]:
    """One cycle through a group's first module, by a breadth-first search inside the group."""
    members = set(group)
    start = group[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(edges[node] & members):
                if child == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [start, *reversed(path[:-1]), start] if len(path) > 1 else [start, start]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    return group


def room(module: str) -> str | None:
    """The room (``core``, ``games``, ...) a module belongs to; ``None`` for the package itself."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def trespasses(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports from one room into another that :data:`MAY_IMPORT` does not allow."""
    found = []
    for module, targets in sorted(edges.items()):
        here = room(module)
        if here is None:
            continue
        allowed = MAY_IMPORT.get(here)
        for target in sorted(targets):
            there = room(target)
            if there is None or there == here:
                continue
            if allowed is None or there not in allowed:
                found.append((module, target))
    return found


def long_modules(source: Path = SOURCE, longest: int = LONGEST) -> list[tuple[str, int]]:
    """Modules over ``longest`` lines, longest first."""
    lengths = [
        (name, len(path.read_text(encoding="utf-8").splitlines()))
        for name, path in modules(source).items()
    ]
    return sorted(((n, c) for n, c in lengths if c > longest), key=lambda item: -item[1])


def main() -> int:
    """Print the circles and the long modules; 1 when there is either."""
    edges = graph()
    found = circles(edges)
    for group in found:
        print(f"circle of {len(group)}: {' -> '.join(cycle(edges, group))}")
        if len(group) > 2:
            print(f"  all of it: {', '.join(group)}")
    crossing = trespasses(edges)
    for module, target in crossing:
        print(f"not allowed: {module} imports {target}")
    long = long_modules()
    for name, count in long:
        print(f"{count} lines: {name}")
    print(
        f"{len(edges)} modules, {len(found)} circles, {len(crossing)} imports across rooms "
        f"not allowed, {len(long)} over {LONGEST} lines"
    )
    return 1 if found or crossing or long else 0


if __name__ == "__main__":
    sys.exit(main())
