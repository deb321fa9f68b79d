"""Game state on the game (issue 26, item 5), checked on the engine's source with an AST walk.

- No module-level mutable state: no ``global`` statement, and no function of the engine
  changes a container bound at module level (its own or another module's). A table built at
  import time and only read is data. Memoizing a pure function (``functools.lru_cache``: the
  card definitions built from JSON, the project's card files) is not state: it changes no
  result.
- No attribute added at run time: every attribute the engine assigns is declared by some class
  of the engine (a dataclass field, a class-level name, ``__slots__``, or set in ``__init__``),
  and every one it assigns on the game is declared by ``Game`` (``Game.__init__``, or a class
  of its MRO); no ``setattr``/``delattr`` (but the one copy of a ``__slots__`` class), no
  ``del obj.attr``, no ``__dict__`` consulted or edited by key, no ``getattr``/``hasattr`` with
  a literal name that no class declares (an attribute that may be absent).
- Exceptions are matched by class: no ``type(exc).__name__ == ...`` in the engine, the harness
  or the tools.
- ``casting.py`` compares no alternative cost's name: it reads engine/alternative_costs.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

from mtg_judge.engine.alternative_costs import ALTERNATIVE_COSTS, FORCED_CASTS

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"
MUTATORS = {"append", "extend", "insert", "remove", "pop", "clear", "update", "setdefault", "add", "discard",
            "popitem", "sort", "reverse", "__setitem__", "__delitem__"}
#: (file, function) pairs allowed to call setattr: a copy of a ``__slots__`` object, which can't
#: gain an attribute.
SETATTR_ALLOWED = {("layers/values.py", "clone")}
GAME_NAMES = ("game", "g")  # how the engine names a Game in functions outside its classes
#: Attributes every object of a built-in type has (a function's ``__name__``, a dict's ``get``):
#: not added by the engine.
BUILTIN_ATTRIBUTES = set().union(*(dir(t) for t in (object, dict, list, tuple, str, int, set, type(len),
                                                     type(lambda: None))))


def engine_modules() -> dict[str, ast.Module]:
    return {p.relative_to(ENGINE).as_posix(): ast.parse(p.read_text(encoding="utf-8"))
            for p in sorted(ENGINE.rglob("*.py"))}


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield node


def class_attributes(cls: ast.ClassDef) -> set[str]:
    """The attributes a class declares: class-level names (annotated or assigned, methods and
    properties included), ``__slots__`` entries and the ``self.X`` set in ``__init__`` or
    ``__post_init__``."""
    out: set[str] = set()
    for node in cls.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    out.add(t.id)
                    if t.id == "__slots__" and isinstance(node.value, (ast.Tuple, ast.List)):
                        out |= {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            out.add(node.name)
            if node.name in ("__init__", "__post_init__"):
                for sub in ast.walk(node):
                    for t in _store_targets(sub):
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                            out.add(t.attr)
    return out


def _store_targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        targets = list(node.targets)
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    else:
        return []
    out: list[ast.expr] = []
    while targets:
        t = targets.pop()
        if isinstance(t, (ast.Tuple, ast.List)):
            targets.extend(t.elts)
        else:
            out.append(t)
    return out


def declared() -> tuple[set[str], set[str], set[str]]:
    """(every attribute some engine class declares, the attributes of Game and the classes
    of its MRO, the names of those classes)."""
    modules = engine_modules()
    classes = {node.name: node for tree in modules.values() for node in ast.walk(tree)
               if isinstance(node, ast.ClassDef)}
    every = set().union(*(class_attributes(c) for c in classes.values())) | BUILTIN_ATTRIBUTES
    from mtg_judge.engine.game import Game

    mro = {cls.__name__ for cls in Game.__mro__ if cls is not object}
    game = set().union(*(class_attributes(classes[name]) for name in mro if name in classes))
    return every, game, mro


def _enclosing(tree: ast.AST) -> dict[int, tuple[str | None, str | None]]:
    """id(node) -> (enclosing class name, enclosing function name)."""
    out: dict[int, tuple[str | None, str | None]] = {}

    def visit(node: ast.AST, cls: str | None, fn: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            c, f = cls, fn
            if isinstance(child, ast.ClassDef):
                c, f = child.name, None
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                f = child.name
            out[id(child)] = (c, f)
            visit(child, c, f)

    visit(tree, None, None)
    return out


def runtime_attribute_problems() -> list[str]:
    every, game_attrs, game_classes = declared()
    problems = []
    for path, tree in engine_modules().items():
        where = _enclosing(tree)
        for node in ast.walk(tree):
            cls, fn = where.get(id(node), (None, None))
            line = f"engine/{path}:{getattr(node, 'lineno', '?')}"
            for t in _store_targets(node):
                if not isinstance(t, ast.Attribute):
                    continue
                if t.attr not in every:
                    problems.append(f"{line}: .{t.attr} is assigned but no class of the engine declares it")
                owner = t.value
                on_game = ((isinstance(owner, ast.Name) and owner.id in GAME_NAMES)
                           or (isinstance(owner, ast.Attribute) and owner.attr == "game")
                           or (isinstance(owner, ast.Name) and owner.id == "self" and cls in game_classes))
                if on_game and t.attr not in game_attrs:
                    problems.append(f"{line}: the game's .{t.attr} is assigned but Game does not declare it")
            if isinstance(node, ast.Delete):
                for t in node.targets:
                    if isinstance(t, ast.Attribute):
                        problems.append(f"{line}: del .{t.attr} (an attribute removed at run time)")
                    if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr == "__dict__":
                        problems.append(f"{line}: del ...__dict__[...]")
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) and \
                    isinstance(node.value, ast.Attribute) and node.value.attr == "__dict__":
                problems.append(f"{line}: __dict__[...] assigned")
            if isinstance(node, ast.Compare) and any(isinstance(c, ast.Attribute) and c.attr == "__dict__"
                                                     for c in node.comparators):
                problems.append(f"{line}: a name looked up in __dict__ (an attribute that may be absent)")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                name = node.func.id
                if name in ("setattr", "delattr") and (path, fn) not in SETATTR_ALLOWED:
                    problems.append(f"{line}: {name}() (declare the attribute on its class)")
                literal = (node.args[1].value if len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
                           and isinstance(node.args[1].value, str) else None)
                if literal is not None and literal not in every and (
                        name == "hasattr" or (name == "getattr" and len(node.args) == 3)):
                    problems.append(f"{line}: {name}(..., {literal!r}...) reads an attribute no class declares")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("pop", "setdefault", "__delitem__") and \
                    isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "__dict__":
                problems.append(f"{line}: __dict__.{node.func.attr}()")
    return problems


def unset_declarations() -> list[str]:
    """Class-level annotations without a value, in a class that is no dataclass, TypedDict,
    Protocol or NamedTuple, that its ``__init__`` doesn't set (for a mixin of ``Game``, that
    ``Game.__init__`` doesn't set): attributes absent until some rule sets them (read with a
    default, or an AttributeError)."""
    problems = []
    modules = engine_modules()
    game_cls = next(n for n in ast.walk(modules["game.py"]) if isinstance(n, ast.ClassDef) and n.name == "Game")
    game_init = next(n for n in game_cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    set_by_game = {t.attr for sub in ast.walk(game_init) for t in _store_targets(sub) if isinstance(t, ast.Attribute)}
    for path, tree in modules.items():
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            decorators = {ast.unparse(d) for d in cls.decorator_list}
            bases = {ast.unparse(b) for b in cls.bases}
            if any("dataclass" in d for d in decorators) or bases & {"TypedDict", "Protocol", "NamedTuple"}:
                continue
            init = next((n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
            set_in_init = {t.attr for sub in ast.walk(init) for t in _store_targets(sub)
                           if isinstance(t, ast.Attribute)} if init is not None else set()
            if "a mixin of :class:`~.game.Game`" in (ast.get_docstring(cls) or ""):
                set_in_init |= set_by_game  # a mixin's declaration of what Game.__init__ sets
            slots = any(isinstance(n, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__slots__"
                                                          for t in n.targets) for n in cls.body)
            for node in cls.body:
                if (isinstance(node, ast.AnnAssign) and node.value is None and isinstance(node.target, ast.Name)
                        and "ClassVar" not in ast.unparse(node.annotation)
                        and node.target.id not in set_in_init and not slots):
                    problems.append(f"engine/{path}:{node.lineno}: {cls.name}.{node.target.id} is declared "
                                    "but not set in __init__")
    return problems


def module_state_problems() -> list[str]:
    problems = []
    for path, tree in engine_modules().items():
        module_names: set[str] = set()
        imported: set[str] = set()
        for node in tree.body:
            for t in _store_targets(node):
                if isinstance(t, ast.Name):
                    module_names.add(t.id)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        for fn in _functions(tree):
            for node in ast.walk(fn):
                line = f"engine/{path}:{getattr(node, 'lineno', '?')}"
                if isinstance(node, ast.Global):
                    problems.append(f"{line}: global {', '.join(node.names)}")
                container = None
                if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete)):
                    for t in (node.targets if isinstance(node, (ast.Assign, ast.Delete)) else [node.target]):
                        if isinstance(t, ast.Subscript):
                            container = t.value
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                    container = node.func.value
                if container is None:
                    continue
                local = {a.arg for a in fn.args.args + fn.args.kwonlyargs + fn.args.posonlyargs}
                local |= {t.id for sub in ast.walk(fn) for t in _store_targets(sub) if isinstance(t, ast.Name)}
                if isinstance(container, ast.Name) and container.id in module_names and container.id not in local:
                    problems.append(f"{line}: changes the module-level {container.id}")
                if (isinstance(container, ast.Attribute) and isinstance(container.value, ast.Name)
                        and container.value.id in imported and container.value.id not in local
                        and container.attr.isupper()):
                    problems.append(f"{line}: changes {container.value.id}.{container.attr}, another module's table")
    return problems


def exception_name_matches() -> list[str]:
    problems = []
    for folder in ("engine", "conformance", "tools"):
        for p in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Compare):
                    for side in [node.left, *node.comparators]:
                        if isinstance(side, ast.Attribute) and side.attr == "__name__" and (
                                isinstance(side.value, ast.Call) and getattr(side.value.func, "id", None) == "type"
                                or isinstance(side.value, ast.Attribute) and side.value.attr == "__class__"):
                            problems.append(f"{p.relative_to(ROOT)}:{node.lineno}: a class matched by its name")
    return problems


def test_no_module_level_mutable_state():
    assert module_state_problems() == []


def test_no_attribute_added_at_run_time():
    assert runtime_attribute_problems() == []
    assert unset_declarations() == []


def test_exceptions_are_matched_by_class():
    assert exception_name_matches() == []


def test_casting_compares_no_alternative_cost_name():
    names = set(ALTERNATIVE_COSTS) | set(FORCED_CASTS)
    tree = ast.parse((ENGINE / "casting.py").read_text(encoding="utf-8"))
    found = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Compare)
             for c in [node.left, *node.comparators]
             if isinstance(c, ast.Constant) and c.value in names
             or isinstance(c, (ast.Tuple, ast.List, ast.Set)) and any(
                 isinstance(e, ast.Constant) and e.value in names for e in c.elts)]
    assert found == [], f"engine/casting.py compares an alternative cost's name at lines {found}"


# ------------------------------------------------------------------------ the checks catch them

def _problems_of(source: str, check) -> list[str]:
    """Run ``check`` with one more engine module holding ``source``."""
    import pytest

    mp = pytest.MonkeyPatch()
    real = engine_modules
    try:
        mp.setitem(globals(), "engine_modules", lambda: {**real(), "zz_probe.py": ast.parse(source)})
        return [p for p in check() if "zz_probe.py" in p]
    finally:
        mp.undo()


def test_the_checks_find_what_they_forbid():
    state = _problems_of("COUNT = {}\nCACHE = []\ndef f(game):\n    global DEPTH\n    COUNT['x'] = 1\n"
                         "    CACHE.append(game)\n    effects.HANDLERS['x'] = f\n"
                         "from . import effects\n", module_state_problems)
    assert sorted(p.split(": ", 1)[1] for p in state) == sorted([
        "global DEPTH", "changes the module-level COUNT", "changes the module-level CACHE",
        "changes effects.HANDLERS, another module's table"])
    attrs = _problems_of("def f(game, obj):\n    game.zz_new_thing = 1\n    obj.controller = 'a'\n"
                         "    setattr(obj, 'x', 1)\n    del obj.tapped\n"
                         "    if 'zz_flag' in game.__dict__: pass\n    getattr(obj, 'zz_maybe', None)\n"
                         "    game.card = 1\n", runtime_attribute_problems)
    assert sorted(p.split(": ", 1)[1] for p in attrs) == sorted([
        ".zz_new_thing is assigned but no class of the engine declares it",
        "the game's .zz_new_thing is assigned but Game does not declare it",
        "setattr() (declare the attribute on its class)",
        "del .tapped (an attribute removed at run time)",
        "a name looked up in __dict__ (an attribute that may be absent)",
        "getattr(..., 'zz_maybe'...) reads an attribute no class declares",
        "the game's .card is assigned but Game does not declare it"])
    unset = _problems_of("class C:\n    x: int\n    y: int\n    def __init__(self):\n        self.y = 1\n",
                         unset_declarations)
    assert [p.split(": ", 1)[1] for p in unset] == ["C.x is declared but not set in __init__"]
