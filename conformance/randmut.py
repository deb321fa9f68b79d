"""Random first-order mutants of the reference engine (``mtg-judge mutants --random N``).

The hand-written list of :mod:`mtg_judge.conformance.mutants` scores the suite over the
mutations somebody thought of; this module measures it over the ones nobody did (issue 22):

1. :func:`enumerate_points` parses each engine file with :mod:`ast` and lists, in a fixed
   order, every *mutation point* inside a function body: a comparison operator swapped
   (``<`` -> ``<=``, ``==`` -> ``!=``, ``in`` -> ``not in``…), ``and`` <-> ``or``, an
   arithmetic operator swapped (``+`` <-> ``-``, ``*`` <-> ``//``…), an integer constant
   ``n`` -> ``n + 1`` and ``True`` <-> ``False``, a dropped ``not``, a negated ``if``
   condition, ``return X`` -> ``return None``. Docstrings, annotations, f-strings, decorators
   and the default values of a module- or class-level ``def`` are left out (they are not
   run by a call, or not at all).
2. :func:`sample` draws ``N`` of them with ``random.Random(seed)``: uniform over the points,
   the same sample for the same seed and tree.
3. :func:`applied` applies one point in-process: the file's AST is mutated at that node,
   the whole module recompiled (same file name, same line numbers), and the ``__code__`` of
   every live function object of the outermost enclosing ``def`` *and of the functions
   nested in it* (closures a factory made at import time, such as the effect handlers of
   ``_move("exile")``) swapped for the mutated code (so ``from x import f`` bindings and the
   methods of the ``Game`` mixins see it too); undone on exit. ``functools`` caches of the engine are cleared both ways.
4. :func:`run_random` runs each mutant in a forked child (copy-on-write: the parent
   collects the cases and imports the engine once, but never runs it, so no state leaks from
   one mutant to the next and a crash or a hang kills only the child): the suite's cases in
   order, stopping at the first case that passes on the unmutated engine and fails or
   errors under the mutant (**killed**), or all of them (**survived**). ``--legal`` judges
   the move generator (``engine/legal.py`` and ``engine/legal_*.py``) by the tests
   that exercise it instead (``pytest -x`` on :data:`LEGAL_TESTS`). Results are in sample
   order and do not depend on the number of workers.

A mutant is **equivalent** when the committed list ``conformance/mutants_equivalent.json``
(:func:`load_equivalents`) says so, with the reason; it is not run. **broken**: the mutant
does not compile or apply, the child died, or a case (or the whole run) timed out.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import importlib
import json
import os
import random
import select
import signal
import sys
import time
import types
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

#: The repository's root (engine/, conformance/, tests/ are folders of it).
REPO_ROOT = Path(__file__).resolve().parents[1]
#: The committed list of equivalent mutants.
EQUIVALENTS_PATH = Path(__file__).resolve().parent / "mutants_equivalent.json"
#: The committed list of mutants of engine code no ruling reaches, each with the test that kills it.
TESTED_PATH = Path(__file__).resolve().parent / "mutants_tested.json"
#: The tests that judge the move generator's mutants (``--legal``): its own tests
#: (``tests/test_legal_*.py``: seconds, they kill most mutants, so they run first), then
#: self-play, the properties and the fuzzer.
LEGAL_TESTS = (*sorted(p.relative_to(REPO_ROOT).as_posix() for p in (REPO_ROOT / "tests").glob("test_legal_*.py")),
               "tests/test_selfplay.py", "tests/test_properties.py", "tests/test_fuzz.py")
#: The operator families (``MutationPoint.operator``).
OPERATORS = ("compare", "boolean", "arithmetic", "constant", "not", "if", "return")

_COMPARE_SWAP: dict[type, type] = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In,
    ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
_ARITH_SWAP: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult, ast.Mod: ast.FloorDiv,
}
_SYMBOL: dict[type, str] = {
    ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Div: "/", ast.Mod: "%",
    ast.And: "and", ast.Or: "or",
}


class RandomMutantError(Exception):
    """A mutation point cannot be applied to the engine as imported (the file changed, the
    node is gone, no live function runs that code)."""


class EquivalenceListError(ValueError):
    """``conformance/mutants_equivalent.json`` is malformed (the message names the entry)."""


@dataclass(frozen=True, order=True)
class MutationPoint:
    """One first-order mutation: in ``path`` (repository-relative, ``engine/combat.py``), the
    node at ``line``:``col`` (1-based line, 0-based column, as :mod:`ast` gives them) whose
    source is ``node`` (one line, whitespace collapsed), inside the function ``qualname``
    (``Combat.assign_damage``; ``<locals>`` for nested ones); ``operator`` one of
    :data:`OPERATORS`; ``original`` -> ``replacement`` the edit as shown (``<`` -> ``<=``);
    ``index`` which operator of a comparison chain (0 otherwise); ``occurrence``: how many
    earlier points of the same function share ``(node, operator, index, replacement)`` (the
    locator that survives line moves is ``(path, qualname, node, operator, replacement,
    occurrence)``); ``cached``: the outermost function is decorated with a cache
    (``cached_property``, ``lru_cache``, ``cache``), so a case may use its result without
    calling it (every case is then run, not only those that call it)."""

    path: str
    line: int
    col: int
    end_line: int
    end_col: int
    operator: str
    original: str
    replacement: str
    qualname: str
    node: str
    index: int = 0
    occurrence: int = 0
    cached: bool = False

    @property
    def label(self) -> str:
        """``engine/combat.py:212  <  ->  <=``."""
        return f"{self.path}:{self.line}  {self.original}  ->  {self.replacement}"

    @property
    def locator(self) -> tuple[str, str, str, str, str, int]:
        return (self.path, self.qualname, self.node, self.operator, self.replacement, self.occurrence)

    @property
    def is_legal(self) -> bool:
        """In the move generator: ``engine/legal.py`` and its parts ``engine/legal_*.py``
        (one per decision kind), or a package under ``engine/legal/``."""
        return in_move_generator(self.path)


def in_move_generator(path: str) -> bool:
    """Whether the repository-relative ``path`` is a file of the move generator
    (:attr:`MutationPoint.is_legal`)."""
    name = path.rsplit("/", 1)[-1]
    return (path.startswith("engine/") and path.count("/") == 1
            and (name == "legal.py" or name.startswith("legal_"))) or path.startswith("engine/legal/")


# ------------------------------------------------------------------------- enumeration


def _segment(lines: list[bytes], node: ast.AST) -> str:
    """The source text of ``node``, whitespace collapsed (``lines``: the file's lines as
    UTF-8, since :mod:`ast` columns count bytes)."""
    n: Any = node
    first, last = n.lineno - 1, n.end_lineno - 1
    if first == last:
        raw = lines[first][n.col_offset:n.end_col_offset]
    else:
        raw = lines[first][n.col_offset:] + b"".join(lines[first + 1:last]) + lines[last][:n.end_col_offset]
    return " ".join(raw.decode("utf-8").split())


class _Finder(ast.NodeVisitor):
    """Collects the points of one module (see :func:`points_of_source`)."""

    def __init__(self, path: str, source: str):
        self.path = path
        self.lines = [line.encode("utf-8") for line in source.splitlines(keepends=True)]
        self.scope: list[str] = []  # qualname parts
        self.depth = 0  # functions entered
        self.cached = False  # the outermost function has a cache decorator
        self.found: list[MutationPoint] = []

    def add(self, node: ast.AST, operator: str, original: str, replacement: str, index: int = 0,
            shown: ast.AST | None = None) -> None:
        if self.depth == 0:
            return
        n: Any = node
        self.found.append(MutationPoint(
            self.path, n.lineno, n.col_offset, n.end_lineno, n.end_col_offset, operator,
            original, replacement, ".".join(self.scope).removesuffix(".<locals>"), _segment(self.lines, shown or node),
            index, cached=self.cached))

    # scopes -----------------------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        if self.depth:
            for d in node.decorator_list:
                self.visit(d)
            for b in node.bases:
                self.visit(b)
        self.scope.append(node.name)
        for stmt in node.body:
            self.visit(stmt)
        self.scope.pop()

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        if self.depth:  # evaluated when the enclosing function runs
            for d in node.decorator_list:
                self.visit(d)
            for default in [*node.args.defaults, *node.args.kw_defaults]:
                if default is not None:
                    self.visit(default)
        if not self.depth:
            names = {ast.unparse(d).split("(")[0].rsplit(".", 1)[-1] for d in node.decorator_list}
            self.cached = bool(names & {"cached_property", "lru_cache", "cache"})
        self.scope.append(node.name)
        self.depth += 1
        body = node.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        self.scope.append("<locals>")
        for stmt in body:
            self.visit(stmt)
        self.scope.pop()
        self.depth -= 1
        self.scope.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node: ast.Lambda) -> None:
        for default in [*node.args.defaults, *node.args.kw_defaults]:
            if default is not None:
                self.visit(default)
        self.scope.append("<lambda>")
        self.scope.append("<locals>")
        self.visit(node.body)
        self.scope.pop()
        self.scope.pop()

    # left out ---------------------------------------------------------------------------
    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.target)
            self.visit(node.value)

    def visit_arg(self, node: ast.arg) -> None:
        return

    # operators --------------------------------------------------------------------------
    def visit_Compare(self, node: ast.Compare) -> None:
        for i, op in enumerate(node.ops):
            new = _COMPARE_SWAP.get(type(op))
            if new is not None:
                self.add(node, "compare", _SYMBOL[type(op)], _SYMBOL[new], i)
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        old = _SYMBOL[type(node.op)]
        self.add(node, "boolean", old, "or" if old == "and" else "and")
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        new = _ARITH_SWAP.get(type(node.op))
        if new is not None:
            self.add(node, "arithmetic", _SYMBOL[type(node.op)], _SYMBOL[new])
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        new = _ARITH_SWAP.get(type(node.op))
        if new is not None:
            self.add(node, "arithmetic", _SYMBOL[type(node.op)] + "=", _SYMBOL[new] + "=")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            self.add(node, "constant", repr(value), repr(not value))
        elif isinstance(value, int):
            self.add(node, "constant", repr(value), repr(value + 1))

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, ast.Not):
            self.add(node, "not", "not", "(dropped)")
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        self.add(node.test, "if", "if", "if not", shown=node.test)
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        if value is not None and not (isinstance(value, ast.Constant) and value.value is None):
            self.add(node, "return", "return", "return None", shown=value)
        self.generic_visit(node)


def points_of_source(path: str, source: str) -> list[MutationPoint]:
    """The mutation points of one module's ``source`` (``path`` is recorded as given), sorted
    by position (line, column, operator, index), with their ``occurrence`` numbers. Raises
    ``SyntaxError`` for a module that does not parse."""
    finder = _Finder(path, source)
    finder.visit(ast.parse(source, filename=path))
    points = sorted(finder.found, key=lambda p: (p.line, p.col, p.end_line, p.end_col,
                                                  OPERATORS.index(p.operator), p.index))
    seen: dict[tuple, int] = {}
    numbered = []
    for p in points:
        key = (p.qualname, p.node, p.operator, p.index, p.replacement)
        numbered.append(_with(p, occurrence=seen.get(key, 0)))
        seen[key] = seen.get(key, 0) + 1
    return numbered


def _with(point: MutationPoint, **changes: Any) -> MutationPoint:
    return MutationPoint(**{**asdict(point), **changes})


def engine_files(root: Path = REPO_ROOT, only: str | None = None) -> list[Path]:
    """``engine/**/*.py`` under ``root``, sorted by relative path; ``only``: a
    repository-relative file or folder (``engine/combat.py``, ``engine/layers``) to keep.
    Raises ValueError when ``only`` selects no engine file."""
    files = sorted((p for p in (root / "engine").rglob("*.py") if "__pycache__" not in p.parts),
                   key=lambda p: p.relative_to(root).as_posix())
    if only is not None:
        want = only.rstrip("/")
        files = [p for p in files if (rel := p.relative_to(root).as_posix()) == want
                 or rel.startswith(want + "/")]
        if not files:
            raise ValueError(f"--only {only}: no engine/**/*.py file there")
    return files


def enumerate_points(root: Path = REPO_ROOT, only: str | None = None) -> list[MutationPoint]:
    """Every mutation point of ``engine/**/*.py`` (see :func:`engine_files`), in file order
    then position order: the population :func:`sample` draws from."""
    points: list[MutationPoint] = []
    for path in engine_files(root, only):
        points.extend(points_of_source(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8")))
    return points


def sample(points: list[MutationPoint], n: int, seed: int) -> list[MutationPoint]:
    """``n`` distinct points drawn uniformly with ``random.Random(seed)`` (all of them when
    there are fewer), returned in population order. Deterministic: same points, same seed,
    same sample."""
    if n >= len(points):
        return list(points)
    chosen = sorted(random.Random(seed).sample(range(len(points)), n))
    return [points[i] for i in chosen]


# ------------------------------------------------------------------------- equivalents

_EQUIVALENT_KEYS = {"file", "qualname", "node", "operator", "replacement", "reason"}
_EQUIVALENT_OPTIONAL = {"occurrence"}


def load_tested(path: Path = TESTED_PATH) -> dict[tuple, str]:
    """The committed list of mutants in engine code no ruling reaches (bad input, messages,
    bookkeeping only the move generator reads), each killed by a test of ``tests/``:
    ``{locator: pytest node id}``. The entries are those of :func:`load_equivalents` plus
    ``test`` (``tests/test_mutant_triage.py::test_x``); the ``reason`` says why no fixture can
    reach the code. Raises :class:`EquivalenceListError` as :func:`load_equivalents` does, and
    for a ``test`` outside ``tests/``."""
    if not path.exists():
        return {}
    entries = load_equivalents(path, extra=("test",))
    for key, test in entries.items():
        if not test.startswith("tests/") or ".py" not in test:
            raise EquivalenceListError(f"{path.name}: {key[0]} {key[1]}: 'test' must be a pytest node id under "
                                       f"tests/ (tests/test_x.py::test_y), not {test!r}")
    return entries


def load_equivalents(path: Path = EQUIVALENTS_PATH, extra: tuple[str, ...] = ()) -> dict[tuple, str]:
    """The committed equivalence list: ``{locator: reason}`` (see
    :attr:`MutationPoint.locator`). The file is a JSON list of objects with ``file``,
    ``qualname``, ``node`` (the node's source, whitespace collapsed), ``operator`` (one of
    :data:`OPERATORS`), ``replacement`` (as the table shows it), ``reason`` (non-empty) and
    optionally ``occurrence`` (default 0). ``extra``: keys every entry must also have (a
    non-empty string; the value returned is then the first of them instead of the reason).
    Raises :class:`EquivalenceListError` naming the entry for a missing or unknown key, a
    wrong type, an unknown operator, an empty reason or a duplicate."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise EquivalenceListError(f"{path.name}: not JSON: {exc}") from None
    if not isinstance(data, list):
        raise EquivalenceListError(f"{path.name}: the top level must be a list of entries")
    found: dict[tuple, str] = {}
    for i, entry in enumerate(data):
        where = f"{path.name}: entry {i}"
        if not isinstance(entry, dict):
            raise EquivalenceListError(f"{where}: not an object")
        required = _EQUIVALENT_KEYS | set(extra)
        missing = required - entry.keys()
        unknown = entry.keys() - required - _EQUIVALENT_OPTIONAL
        if missing or unknown:
            raise EquivalenceListError(f"{where}: missing {sorted(missing)}, unknown {sorted(unknown)}")
        for name in sorted(required):
            if not isinstance(entry[name], str) or not entry[name].strip():
                raise EquivalenceListError(f"{where}: {name!r} must be a non-empty string")
        occurrence = entry.get("occurrence", 0)
        if not isinstance(occurrence, int) or isinstance(occurrence, bool) or occurrence < 0:
            raise EquivalenceListError(f"{where}: 'occurrence' must be an integer >= 0")
        if entry["operator"] not in OPERATORS:
            raise EquivalenceListError(f"{where}: operator {entry['operator']!r} is not one of {OPERATORS}")
        key = (entry["file"], entry["qualname"], " ".join(entry["node"].split()), entry["operator"],
               entry["replacement"], occurrence)
        if key in found:
            raise EquivalenceListError(f"{where}: a duplicate of an earlier entry")
        found[key] = entry[extra[0]] if extra else entry["reason"]
    return found


# ------------------------------------------------------------------------------- apply


def module_name(path: str) -> str:
    """``engine/layers/apply.py`` -> ``mtg_judge.engine.layers.apply`` (``__init__``: the
    package)."""
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(["mtg_judge", *parts])


class _Mutate(ast.NodeTransformer):
    """Applies one point to a parsed module (``done`` says whether the node was found)."""

    def __init__(self, point: MutationPoint):
        self.p = point
        self.done = False

    def _at(self, node: ast.AST) -> bool:
        n: Any = node
        return (getattr(n, "lineno", None), getattr(n, "col_offset", None), getattr(n, "end_lineno", None),
                getattr(n, "end_col_offset", None)) == (self.p.line, self.p.col, self.p.end_line, self.p.end_col)

    def generic_visit(self, node: ast.AST) -> ast.AST:
        node = super().generic_visit(node)
        if self.done or not self._at(node):
            return node
        op, p = self.p.operator, self.p
        new: ast.AST | None = None
        if op == "compare" and isinstance(node, ast.Compare):
            node.ops[p.index] = _COMPARE_SWAP[type(node.ops[p.index])]()
            new = node
        elif op == "boolean" and isinstance(node, ast.BoolOp):
            node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
            new = node
        elif op == "arithmetic" and isinstance(node, (ast.BinOp, ast.AugAssign)):
            node.op = _ARITH_SWAP[type(node.op)]()
            new = node
        elif op == "constant" and isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                node.value = not value
            elif isinstance(value, int):
                node.value = value + 1
            new = node
        elif op == "not" and isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            new = node.operand
        elif op == "return" and isinstance(node, ast.Return):
            node.value = ast.Constant(None)
            new = node
        elif op == "if" and isinstance(node, ast.If) and self._at(node.test):
            pass
        if new is not None:
            self.done = True
            return ast.copy_location(new, node) if new is not node else node
        return node

    def visit_If(self, node: ast.If) -> ast.AST:
        if not self.done and self.p.operator == "if" and self._at(node.test):
            node.test = ast.copy_location(ast.UnaryOp(ast.Not(), node.test), node.test)
            self.done = True
            self.generic_visit(node)
            return node
        return self.generic_visit(node)


def mutated_code(point: MutationPoint, source: str, filename: str) -> types.CodeType:
    """The module code of ``source`` with ``point`` applied, compiled as ``filename`` (the
    same line numbers). Raises :class:`RandomMutantError` when the node is not there."""
    tree = ast.parse(source, filename=filename)
    mutator = _Mutate(point)
    tree = mutator.visit(tree)
    if not mutator.done:
        raise RandomMutantError(f"{point.label}: no such node in {filename}")
    ast.fix_missing_locations(tree)
    return compile(tree, filename, "exec", dont_inherit=True)


def _outermost(point: MutationPoint) -> str:
    """The qualname of the module- or class-level function holding ``point``."""
    return point.qualname.split(".<locals>")[0]


def _codes_under(code: types.CodeType, outermost: str) -> dict[tuple[str, int], types.CodeType]:
    """The code objects of the function ``outermost`` and of every function nested in it
    (their ``co_qualname`` starts with ``outermost.<locals>.``), found in the module code
    ``code``, by ``(co_qualname, co_firstlineno)``."""
    found: dict[tuple[str, int], types.CodeType] = {}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            name = const.co_qualname
            if name == outermost or name.startswith(outermost + ".<locals>."):
                found[(name, const.co_firstlineno)] = const
                found.update(_codes_under(const, outermost))
            elif ".<locals>" not in name:  # a class body
                found.update(_codes_under(const, outermost))
    return found


def _engine_caches() -> list[Any]:
    """The ``functools`` caches (``lru_cache``, ``cache``) of the engine's loaded modules."""
    caches = []
    for name, module in list(sys.modules.items()):
        if name.startswith("mtg_judge.engine") and module is not None:
            for value in vars(module).values():
                if hasattr(value, "cache_clear") and hasattr(value, "__wrapped__"):
                    caches.append(value)
    return caches


def import_engine(root: Path = REPO_ROOT) -> None:
    """Import every module of ``engine/**/*.py`` under ``root`` (so that each point has live
    functions to swap). An import error propagates."""
    for path in engine_files(root):
        importlib.import_module(module_name(path.relative_to(root).as_posix()))


@contextlib.contextmanager
def applied(point: MutationPoint, module: types.ModuleType | None = None) -> Iterator[int]:
    """Apply ``point`` to the engine as imported (``module``: the module of ``point.path``,
    by default imported as :func:`module_name` says); yields how many live function objects now
    run the mutated code; restores their code on exit (and clears the engine's ``functools``
    caches on entry and exit). Raises :class:`RandomMutantError` when the module's file no
    longer has that node, or no live function of the enclosing ``def`` exists (a function
    under ``if TYPE_CHECKING``, a module never imported), or the mutated code's shape does
    not fit (free variables)."""
    if module is None:
        module = importlib.import_module(module_name(point.path))
    filename = module.__file__
    if filename is None:
        raise RandomMutantError(f"{point.path}: module has no file")
    source = Path(filename).read_text(encoding="utf-8")
    new_module_code = mutated_code(point, source, filename)
    target = _outermost(point)
    codes = _codes_under(new_module_code, target)
    functions = [f for f in gc.get_objects() if isinstance(f, types.FunctionType)
                 and f.__code__.co_filename == filename
                 and (f.__code__.co_qualname, f.__code__.co_firstlineno) in codes]
    if not any(f.__code__.co_qualname == target for f in functions):
        raise RandomMutantError(f"{point.label}: no live function {target} runs this code")
    saved = [(f, f.__code__) for f in functions]
    for cache in _engine_caches():
        cache.cache_clear()
    try:
        for f, code in saved:
            new = codes[(code.co_qualname, code.co_firstlineno)]
            if new.co_freevars != code.co_freevars:
                raise RandomMutantError(f"{point.label}: the mutated code has other free variables")
            f.__code__ = new
        yield len(saved)
    finally:
        for f, code in saved:
            f.__code__ = code
        for cache in _engine_caches():
            cache.cache_clear()


# --------------------------------------------------------------------------------- run


@dataclass
class RandomResult:
    """What became of one point: ``status`` ``killed`` (``by``: the first case, or for
    ``--legal`` the test run, that noticed), ``survived``, ``equivalent`` (``reason`` from
    the list) or ``broken`` (``reason``); ``seconds`` its wall time."""

    point: MutationPoint
    status: str
    by: str = ""
    reason: str = ""
    seconds: float = 0.0
    by_test: bool = False  # killed by the test of conformance/mutants_tested.json, not a fixture

    def as_json(self) -> dict:
        """The JSON row (without the time, which varies from run to run)."""
        return {**asdict(self.point), "label": self.point.label, "status": self.status,
                **({"by_test": True} if self.by_test else {}),
                **({"by": self.by} if self.by else {}), **({"reason": self.reason} if self.reason else {})}


@dataclass
class RandomReport:
    """A random-mutant run: ``results`` in sample order; ``population``: how many points
    the sample was drawn from; ``seed``; ``judge``: ``fixtures`` or ``tests``; ``cases``:
    the cases (or tests) of the baseline; ``stale``: equivalence entries that match no
    point of the tree; ``gone``: for a replayed sample, the locators that match no point of
    this tree (not judged)."""

    results: list[RandomResult]
    population: int
    seed: int
    judge: str
    cases: int
    stale: list[tuple] = field(default_factory=list)
    seconds: float = 0.0
    gone: list[tuple] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def kill_rate(self) -> float:
        """killed / (killed + survived): equivalent and broken mutants measure nothing."""
        judged = self.count("killed") + self.count("survived")
        return self.count("killed") / judged if judged else 0.0

    @property
    def killed_by_tests(self) -> int:
        """The kills made by a test of ``conformance/mutants_tested.json`` (code no ruling reaches)."""
        return sum(1 for r in self.results if r.status == "killed" and r.by_test)

    @property
    def fixture_kill_rate(self) -> float:
        """The kills the fixtures made alone / (killed + survived)."""
        judged = self.count("killed") + self.count("survived")
        return (self.count("killed") - self.killed_by_tests) / judged if judged else 0.0

    def as_json(self) -> dict:
        """The report as JSON, byte-for-byte the same for the same seed and tree (no times)."""
        return {"seed": self.seed, "judge": self.judge, "population": self.population,
                "sampled": len(self.results), "cases": self.cases,
                **{s: self.count(s) for s in ("killed", "survived", "equivalent", "broken")},
                "kill_rate": round(self.kill_rate, 4), "killed_by_tests": self.killed_by_tests,
                "fixture_kill_rate": round(self.fixture_kill_rate, 4),
                "mutants": [r.as_json() for r in self.results],
                "stale_equivalents": [list(s) for s in self.stale],
                **({"gone": [list(g) for g in self.gone]} if self.gone else {})}


class _Timeout(BaseException):
    """A case ran over its limit (a BaseException: the engine's ``except Exception`` does not
    swallow it)."""


def _alarm(seconds: float) -> Any:
    def expire(signum: int, frame: Any) -> None:
        raise _Timeout()
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return previous


def _disarm(previous: Any) -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def function_key(path: str, qualname: str) -> str:
    """The key of a module- or class-level function in a coverage map: ``path::qualname``
    (``engine/combat.py::Combat.declare``); nested functions count as their outermost one."""
    return f"{path}::{qualname.split('.<locals>')[0]}"


def baseline_with_coverage(cases: list, root: Path = REPO_ROOT) -> dict:
    """Run ``cases`` on the unmutated engine, recording with ``sys.settrace`` (call events
    only) which engine functions each runs (the engine's ``functools`` caches are cleared
    before each case, so a cached function counts for every case that asks for it).
    Returns ``{"passing": [case names], "functions": [function keys], "calls": {case name:
    [indexes into functions]}}``."""
    from mtg_judge.conformance.runner import run_case

    engine_dir = str(root / "engine") + os.sep
    prefix = len(str(root)) + 1
    keys: dict[tuple[str, str], int] = {}
    seen: set[types.CodeType] = set()

    def tracer(frame: Any, event: str, arg: Any) -> None:
        seen.add(frame.f_code)

    passing, calls = [], {}
    for case in cases:
        for cache in _engine_caches():
            cache.cache_clear()
        seen.clear()
        sys.settrace(tracer)
        try:
            status = run_case(case).status
        finally:
            sys.settrace(None)
        if status == "passed":
            passing.append(case.name)
        used = set()
        for code in seen:
            if code.co_filename.startswith(engine_dir):
                key = (code.co_filename[prefix:].replace(os.sep, "/"), code.co_qualname.split(".<locals>")[0])
                used.add(keys.setdefault(key, len(keys)))
        calls[case.name] = sorted(used)
    return {"passing": passing, "functions": [function_key(*k) for k in keys], "calls": calls}


def judge_by_cases(cases: list, passing: set[str], case_timeout: float,
                   callers: dict[str, set[str]] | None = None) -> Callable[[MutationPoint], dict]:
    """A judge: runs ``cases`` in order on the engine as patched now, stopping at the first
    case of ``passing`` that fails or errors. ``callers``: ``{function key: case names}``
    from :func:`baseline_with_coverage`; when given, only the cases that call the mutated
    function run (a case that never runs it behaves as on the real engine: the engine is
    deterministic), except for a cached function (:attr:`MutationPoint.cached`). Returns
    ``{"status": "killed", "by": case}``, ``{"status": "survived"}`` (``"reason": "no case
    calls it"`` when none does) or ``{"status": "broken", "reason": "timeout: ..."}``."""
    from mtg_judge.conformance.runner import run_case

    def judge(point: MutationPoint) -> dict:
        run = passing
        if callers is not None and not point.cached:
            run = passing & callers.get(function_key(point.path, point.qualname), set())
            if not run:
                return {"status": "survived", "reason": "no case calls it"}
        for case in cases:
            if case.name not in run:
                continue
            previous = _alarm(case_timeout)
            try:
                status = run_case(case).status
            except _Timeout:
                return {"status": "broken", "reason": f"timeout: {case.name} over {case_timeout:g} s"}
            finally:
                _disarm(previous)
            if status in ("failed", "errored"):
                return {"status": "killed", "by": case.name}
        return {"status": "survived"}
    return judge


def judge_by_tests(tests: Iterable[str] = LEGAL_TESTS, root: Path = REPO_ROOT
                   ) -> Callable[[MutationPoint | None], dict]:
    """A judge: ``pytest -x -q`` on ``tests`` in this process (output discarded, no cache,
    no xdist, Hypothesis as the tests configure it: derandomized, no database). Exit 0:
    survived; 1: killed (``by`` names the first failing test); any other exit: broken."""
    tests = [str(root / t) for t in tests]

    def judge(point: MutationPoint | None = None) -> dict:
        import pytest

        class First:
            failed = ""

            def pytest_runtest_logreport(self, report: Any) -> None:
                if report.failed and not self.failed:
                    self.failed = report.nodeid

        first = First()
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            code = pytest.main(["-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                                "--rootdir", str(root), *tests], plugins=[first])
        if code == 0:
            return {"status": "survived"}
        if code == 1:
            return {"status": "killed", "by": first.failed or "pytest"}
        return {"status": "broken", "reason": f"pytest exit {int(code)}"}
    return judge


def _child(task: Callable[[], dict], write_fd: int) -> None:
    """In a forked child: run ``task``, write its JSON to ``write_fd``, exit at once."""
    try:
        try:
            out = task()
        except BaseException as exc:  # the mutant crashed the judge itself
            out = {"status": "broken", "reason": f"{type(exc).__name__}: {exc}"[:200]}
        data = json.dumps(out).encode()
        while data:
            data = data[os.write(write_fd, data):]
    finally:
        os._exit(0)


def _mutant_task(point: MutationPoint, judge: Callable[[MutationPoint], dict]) -> Callable[[], dict]:
    def task() -> dict:
        with contextlib.ExitStack() as stack:
            try:
                stack.enter_context(applied(point))
            except (RandomMutantError, SyntaxError, ValueError, TypeError) as exc:
                return {"status": "broken", "reason": f"cannot apply: {exc}"[:200]}
            return judge(point)
        raise AssertionError("unreachable")  # for the type checker: ExitStack may swallow
    return task


def run_forked(tasks: list[Callable[[], dict]], workers: int, timeout: float,
               progress: Callable[[int, dict], None] | None = None) -> list[dict]:
    """Run each task in a forked child, at most ``workers`` at a time; returns their outputs
    in task order. A child that dies without answering gives ``{"status": "broken",
    "reason": "worker died ..."}``; one still running after ``timeout`` seconds is killed
    (``reason`` ``timeout``). ``progress(i, output)`` as each finishes. POSIX only."""
    results: list[dict | None] = [None] * len(tasks)
    running: dict[int, tuple[int, int, float, bytearray]] = {}  # read fd -> (index, pid, start, data)
    todo = list(range(len(tasks)))[::-1]
    while todo or running:
        while todo and len(running) < max(1, workers):
            i = todo.pop()
            read_fd, write_fd = os.pipe()
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()
            if pid == 0:
                os.close(read_fd)
                _child(tasks[i], write_fd)
            os.close(write_fd)
            running[read_fd] = (i, pid, time.monotonic(), bytearray())
        ready, _, _ = select.select(list(running), [], [], 0.5)
        now = time.monotonic()
        for fd in list(running):
            i, pid, start, data = running[fd]
            if fd in ready:
                chunk = os.read(fd, 65536)
                if chunk:
                    data.extend(chunk)
                    continue
                out = _finish(pid, data)
            elif now - start > timeout:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                out = {"status": "broken", "reason": f"timeout: over {timeout:g} s"}
            else:
                continue
            os.close(fd)
            del running[fd]
            out["seconds"] = round(now - start, 3)
            results[i] = out
            if progress is not None:
                progress(i, out)
    return [r if r is not None else {"status": "broken", "reason": "lost"} for r in results]


def _finish(pid: int, data: bytearray) -> dict:
    _, status = os.waitpid(pid, 0)
    try:
        out = json.loads(bytes(data).decode())
        if isinstance(out, dict):
            return out
    except ValueError:
        pass
    how = f"signal {os.WTERMSIG(status)}" if os.WIFSIGNALED(status) else f"exit {os.WEXITSTATUS(status)}"
    return {"status": "broken", "reason": f"worker died ({how})"}


def run_random(n: int, seed: int = 1, workers: int = 2, only: str | None = None, legal: bool = False,
               root: Path = REPO_ROOT, fixtures_root: Path | str | None = None, keyword: str | None = None,
               case_timeout: float = 10.0, equivalents: dict[tuple, str] | None = None,
               progress: Callable[[str], None] | None = None, tests: Iterable[str] = LEGAL_TESTS,
               replay: list[tuple] | None = None, tested: dict[tuple, str] | None = None) -> RandomReport:
    """Sample ``n`` points with ``seed`` (outside the move generator; ``legal``: only in
    it) of ``engine/**/*.py`` (``only``: under that path), and judge each in a forked child:
    by the fixtures' cases (``fixtures_root``, ``keyword``; ``case_timeout`` seconds each) or,
    ``legal``, by ``tests``. The baseline (the unmutated engine) runs first in a child too:
    only the cases that pass there can kill; for ``legal`` the tests must pass (else
    RuntimeError). ``progress(line)`` is given a line per finished mutant. ``replay``: instead
    of a sample, these locators (:attr:`MutationPoint.locator`, e.g. from an earlier run's
    ``--json``, :func:`replay_locators`) are judged again, found in this tree by locator so
    that a triaged sample is judged on the code as it is now; a locator that matches no
    point (its code was edited or removed) is listed in the report's ``gone``. ``tested``
    (default :func:`load_tested`): a mutant it lists that survives the fixtures is judged by
    its test (killed ``by`` ``test <node id>``; counted apart in the report). Raises
    ValueError for an ``only`` that selects nothing, :class:`EquivalenceListError` for a bad
    list."""
    started = time.monotonic()
    equivalents = load_equivalents() if equivalents is None else equivalents
    points = [p for p in enumerate_points(root, only) if p.is_legal == legal]
    if not points:
        raise ValueError("no mutation point selected" + (f" under {only}" if only else ""))
    known = {p.locator for p in points}
    stale = sorted(k for k in equivalents if k not in known and in_move_generator(k[0]) == legal
                   and (only is None or k[0].startswith(only.rstrip("/"))))
    gone: list[tuple] = []
    if replay is None:
        chosen = sample(points, n, seed)
    else:
        by_locator = {p.locator: p for p in points}
        chosen = [by_locator[loc] for loc in replay if loc in by_locator]
        gone = [loc for loc in replay if loc not in by_locator]
    import_engine(root)
    if legal:
        judge = judge_by_tests(tests, root)
        base = run_forked([lambda: judge(None)], 1, 3600)[0]
        judge_point: Callable[[MutationPoint], dict] = judge
        if base["status"] != "survived":
            raise RuntimeError(f"the tests do not pass on the unmutated engine: {base}")
        n_cases = len(list(tests))
        timeout = 600.0
    else:
        from mtg_judge.conformance.runner import DEFAULT_ROOT, collect
        cases = collect(Path(fixtures_root or DEFAULT_ROOT), keyword=keyword)
        if not cases:
            raise ValueError("no cases selected (check --fixtures and -k)")

        base = run_forked([lambda: baseline_with_coverage(cases, root)], 1, 3600)[0]
        if "passing" not in base:
            raise RuntimeError(f"the baseline run failed: {base}")
        callers: dict[str, set[str]] = {}
        for case_name, used in base["calls"].items():
            for k in used:
                callers.setdefault(base["functions"][k], set()).add(case_name)
        n_cases = len(cases)
        by_cases = judge_by_cases(cases, set(base["passing"]), case_timeout, callers)
        tested = load_tested() if tested is None else tested
        needed = sorted({tested[p.locator] for p in chosen if p.locator in tested})
        if needed:  # a test that fails on the real engine would "kill" every mutant it judges
            check = run_forked([lambda: judge_by_tests(needed, root)(None)], 1, 3600)[0]
            if check["status"] != "survived":
                raise RuntimeError(f"the tests of {TESTED_PATH.name} do not pass on the unmutated engine: {check}")

        def judge_point(point: MutationPoint) -> dict:
            out = by_cases(point)
            test = tested.get(point.locator)
            if out["status"] != "survived" or test is None:
                return out
            by_test = judge_by_tests([test], root)(point)  # code no ruling reaches: its test
            if by_test["status"] == "killed":
                return {"status": "killed", "by": f"test {by_test['by']}", "judge": "test"}
            return {**out, "reason": f"survives its test {test}"}
        timeout = max(120.0, 20 * case_timeout)
    results: list[RandomResult | None] = [None] * len(chosen)
    tasks, where = [], []
    for i, p in enumerate(chosen):
        reason = equivalents.get(p.locator)
        if reason is not None:
            results[i] = RandomResult(p, "equivalent", reason=reason)
        else:
            tasks.append(_mutant_task(p, judge_point))
            where.append(i)
    finished = [0]

    def done(k: int, out: dict) -> None:
        finished[0] += 1
        if progress is not None:
            progress(f"[{finished[0]}/{len(tasks)}] {out['status']:<9} {out.get('seconds', 0):6.2f} s  "
                     f"{chosen[where[k]].label}")
    outputs = run_forked(tasks, workers, timeout, done)
    for k, out in enumerate(outputs):
        i = where[k]
        results[i] = RandomResult(chosen[i], out["status"], by=out.get("by", ""), reason=out.get("reason", ""),
                                  seconds=float(out.get("seconds", 0.0)), by_test=out.get("judge") == "test")
    final = [r for r in results if r is not None]
    return RandomReport(final, len(points), seed, "tests" if legal else "fixtures", n_cases, stale,
                        time.monotonic() - started, gone)


def replay_locators(path: Path) -> tuple[int, bool, list[tuple]]:
    """The seed, whether it judged the move generator, and the mutants' locators of an earlier
    ``mutants --random … --json FILE`` (``{"seed", "judge", "mutants": [{"path", "qualname",
    "node", "operator", "replacement", "occurrence", ...}]}``), in its order. Raises
    ValueError naming the file and what is missing."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        rows = data["mutants"]
        return (int(data.get("seed", 0)), data.get("judge") == "tests",
                [(r["path"], r["qualname"], r["node"], r["operator"], r["replacement"], int(r.get("occurrence", 0)))
                 for r in rows])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: not the --json of a random-mutant run ({type(exc).__name__}: {exc}); "
                         "expected {\"seed\", \"judge\", \"mutants\": [{\"path\", \"qualname\", \"node\", "
                         "\"operator\", \"replacement\", \"occurrence\"}]}") from None


def format_random_report(report: RandomReport) -> str:
    """The text table: one row per mutant (status, ``file:line  old  ->  new``, the killing
    case or the reason), then the counts and the kill rate (killed / (killed + survived))."""
    rows = [(r.status.upper() if r.status == "survived" else r.status, r.point.label,
             r.by or r.reason) for r in report.results]
    head = ("status", "mutant", "killed by / reason")
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(2)]
    lines = [f"{head[0]:<{widths[0]}}  {head[1]:<{widths[1]}}  {head[2]}",
             "-" * (widths[0] + widths[1] + 4 + len(head[2]))]
    lines += [f"{a:<{widths[0]}}  {b:<{widths[1]}}  {c}".rstrip() for a, b, c in rows]
    judged = report.count("killed") + report.count("survived")
    lines += ["", f"random mutants (seed {report.seed}, {len(report.results)} of {report.population} points, "
                  f"judged by the {report.judge}: {report.cases} {'cases' if report.judge == 'fixtures' else 'test files'})",
              f"killed {report.count('killed')}, survived {report.count('survived')}, "
              f"equivalent {report.count('equivalent')}, broken {report.count('broken')}",
              f"kill rate: {report.count('killed')}/{judged} ({100 * report.kill_rate:.1f}%; "
              "equivalent and broken mutants left out)"]
    if report.judge == "fixtures":
        lines.append(f"killed by the fixtures alone: {report.count('killed') - report.killed_by_tests}/{judged} "
                     f"({100 * report.fixture_kill_rate:.1f}%); by the test of conformance/mutants_tested.json "
                     f"(code no ruling reaches): {report.killed_by_tests}")
    if report.gone:
        lines.append(f"{len(report.gone)} mutant{'' if len(report.gone) == 1 else 's'} of the replayed sample match "
                     "no point of this tree (code edited or removed): "
                     + "; ".join(f"{g[0]} {g[1]} {g[2]!r} {g[3]} -> {g[4]}" for g in report.gone))
    if report.stale:
        lines.append(f"{len(report.stale)} equivalence entr{'y' if len(report.stale) == 1 else 'ies'} "
                     "match no point of this tree: " + "; ".join(f"{s[0]} {s[1]} {s[2]!r}" for s in report.stale))
    return "\n".join(lines)


__all__ = [
    "EQUIVALENTS_PATH", "LEGAL_TESTS", "TESTED_PATH", "OPERATORS", "EquivalenceListError", "MutationPoint", "RandomMutantError",
    "RandomReport", "RandomResult", "applied", "engine_files", "enumerate_points", "format_random_report",
    "import_engine", "judge_by_cases", "judge_by_tests", "load_equivalents", "load_tested", "module_name",
    "mutated_code", "points_of_source", "replay_locators", "run_forked", "run_random", "sample",
]
