"""No import cycle between the parts of ``designer``.

The parts are the subpackages and the top-level modules of ``designer``
(``designer.solve``, ``designer.policies``, ``designer.errors``, ...). Every
``import`` statement of every module is read with :mod:`ast`, at module level
AND inside functions (a lazy import is still a dependency: it only hides the
cycle until the function runs). ``from designer import X`` counts as an edge
to ``designer.X`` when ``X`` is a part, else to the root package
``designer``. A strongly connected component with more than one part is a
cycle; the test names its parts and one import of each edge.
"""

import ast
from collections import defaultdict
from pathlib import Path

import designer

ROOT = Path(designer.__file__).resolve().parent


def _module_name(path):
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _part(module):
    """``designer.a.b.c`` -> ``designer.a``; ``designer`` -> ``designer``."""
    return ".".join(module.split(".")[:2])


def _parts():
    return {_part(_module_name(p)) for p in ROOT.rglob("*.py")}


def _imports(path, module):
    """Absolute names of the ``designer`` modules (or names) ``path`` imports."""
    is_pkg = path.name == "__init__.py"
    package = module.split(".") if is_pkg else module.split(".")[:-1]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module
            if name == "designer":  # from designer import X: X may be a part
                out += [(f"designer.{a.name}", node.lineno) for a in node.names]
            else:
                out.append((name, node.lineno))
    return [(n, line) for n, line in out if n == "designer" or n.startswith("designer.")]


def import_graph():
    """``{part: {other part: [(module, line, imported name), ...]}}``."""
    parts = _parts()
    graph = defaultdict(lambda: defaultdict(list))
    for path in sorted(ROOT.rglob("*.py")):
        module = _module_name(path)
        src = _part(module)
        for name, line in _imports(path, module):
            dst = _part(name)
            if dst not in parts:  # from designer import load_game: the root package
                dst = "designer"
            if dst != src:
                graph[src][dst].append((module, line, name))
    return graph


def _components(graph):
    """Strongly connected components (Tarjan), largest first."""
    index, low, stack, on, comps = {}, {}, [], set(), []
    nodes = set(graph) | {d for es in graph.values() for d in es}

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            comps.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sorted(comps, key=len, reverse=True)


def test_the_graph_sees_lazy_imports():
    # A function-level import is found: the root package's solve() imports
    # designer.solve inside the function.
    graph = import_graph()
    assert "designer.solve" in graph["designer"]
    assert "designer.policies" in graph["designer.analysis"]


def test_the_cycle_finder_finds_a_cycle():
    graph = {"a": {"b": []}, "b": {"c": []}, "c": {"a": []}, "d": {"a": []}}
    assert _components(graph)[0] == ["a", "b", "c"]


def test_no_import_cycle_between_parts_of_designer():
    graph = import_graph()
    cycles = [c for c in _components(graph) if len(c) > 1]
    lines = []
    for comp in cycles:
        lines.append("cycle: " + " <-> ".join(comp))
        for src in comp:
            for dst in comp:
                for module, line, name in graph[src].get(dst, [])[:3]:
                    lines.append(f"  {src} -> {dst}: {module} line {line} imports {name}")
    assert not cycles, "\n".join(lines)
