"""The engine's house: its modules import each other without a cycle, only at the top of a
module, and below ``game.py`` no module imports ``Game`` at run time (annotations use
``typing.TYPE_CHECKING``). Checked on the source with ``ast``, so an import that would only
fail at run time in some order is caught too."""

import ast
from functools import cache
from pathlib import Path

import pytest

import mtg_judge.engine

ENGINE = Path(mtg_judge.engine.__file__).parent
PACKAGE = "mtg_judge.engine"
#: Modules above the rules: they may import ``game``.
TOP = {"__init__", "game", "scenario"}


@cache
def _modules() -> dict[str, ast.Module]:
    """Every engine module's syntax tree, parsed once per process (the tests only read them)."""
    return {p.stem: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(ENGINE.glob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _engine_targets(node: ast.ImportFrom | ast.Import, names: set[str]) -> set[str]:
    """The engine modules an import statement imports (``from . import a, b``,
    ``from .a import x``, ``from mtg_judge.engine.a import x``, ``import mtg_judge.engine.a``)."""
    out: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.startswith(PACKAGE + "."):
                out.add(alias.name[len(PACKAGE) + 1:].split(".")[0])
        return out
    module = node.module or ""
    if node.level == 1 and not module or node.level == 0 and module == PACKAGE:
        out |= {alias.name for alias in node.names if alias.name in names}
    elif node.level == 1:
        out.add(module.split(".")[0])
    elif node.level == 0 and module.startswith(PACKAGE + "."):
        out.add(module[len(PACKAGE) + 1:].split(".")[0])
    return out & names


def run_time_imports(tree: ast.Module, names: set[str]) -> set[str]:
    """Engine modules imported at module level, outside ``if TYPE_CHECKING:``."""
    out: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                out.update(_engine_targets(node, names))
            elif isinstance(node, ast.If) and _is_type_checking(node):
                continue
            elif isinstance(node, (ast.If, ast.Try)):
                for part in (node.body, node.orelse, *(h.body for h in getattr(node, "handlers", ())),
                             getattr(node, "finalbody", [])):
                    visit(part)
    visit(tree.body)
    return out


def nested_imports(tree: ast.Module) -> list[tuple[int, str]]:
    """Imports inside functions and classes: ``(line, text)``."""
    out = []
    for top in tree.body:
        if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for node in ast.walk(top):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    out.append((node.lineno, ast.unparse(node)))
    return out


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    names = set(modules)
    return {name: run_time_imports(tree, names) - {name} for name, tree in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a path ``[a, b, …, a]``, or None."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_checker_finds_a_cycle_and_reads_imports():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    tree = ast.parse("from typing import TYPE_CHECKING\nfrom . import x, y as z\nfrom .w import q\n"
                     "if TYPE_CHECKING:\n    from .game import Game\n"
                     "def f():\n    from .v import r\n")
    assert run_time_imports(tree, {"x", "y", "w", "game", "v"}) == {"x", "y", "w"}
    assert nested_imports(tree) == [(7, "from .v import r")]


def test_engine_modules_import_each_other_without_a_cycle():
    graph = import_graph()
    assert len(graph) > 20, sorted(graph)
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


@pytest.mark.parametrize("name", sorted(p.stem for p in ENGINE.glob("*.py")))
def test_no_import_inside_functions(name):
    """Every import of an engine module is at its top: the import graph above is the whole
    truth, and no import runs on a hot path."""
    tree = ast.parse((ENGINE / f"{name}.py").read_text(encoding="utf-8"))
    assert nested_imports(tree) == []


def test_only_the_top_imports_the_game():
    graph = import_graph()
    importers = sorted(name for name, deps in graph.items() if "game" in deps)
    assert set(importers) <= TOP, importers


def test_each_module_says_what_it_owns():
    """Each engine module opens with a docstring; each rules module names its CR sections."""
    modules = _modules()
    for name, tree in modules.items():
        doc = ast.get_docstring(tree)
        assert doc, f"{name}.py has no module docstring"
    for name in ("actions", "casting", "conditions", "core", "costs", "decisions", "mana_abilities", "priority",
                 "resolution", "sba", "special_actions", "targets", "triggers", "turn", "zones", "combat"):
        assert "CR " in ast.get_docstring(modules[name]), name


def test_game_is_composed_of_one_mixin_per_part_of_the_rules():
    from mtg_judge.engine.game import Game

    own = [n for n, v in vars(Game).items() if callable(v) and not n.startswith("__")]
    assert own == ["state"], own
    parts = [cls for cls in Game.__mro__[1:] if cls is not object]
    assert len(parts) >= 10
    defined = {}
    for cls in parts:
        for n, v in vars(cls).items():
            if callable(v) or isinstance(v, (staticmethod, classmethod)):
                assert n not in defined, f"{n} is defined by {defined.get(n)} and {cls.__name__}"
                defined[n] = cls.__name__


@pytest.mark.parametrize("name", sorted(p.stem for p in (ENGINE / "layers").glob("*.py")))
def test_the_layers_package_imports_at_the_top_and_not_the_game(name):
    """engine/layers/ (CR 613) follows the same house rules: imports at the top of each
    module, and ``Game`` only for annotations."""
    tree = ast.parse((ENGINE / "layers" / f"{name}.py").read_text(encoding="utf-8"))
    assert nested_imports(tree) == []
    runtime = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.level >= 1:
            runtime.add((node.level, node.module or ""))
    assert (2, "game") not in runtime, "engine/layers imports Game at run time"
