"""The list of mutations of ``mtg-judge mutants``: loaded from ``conformance/mutations.json``
and checked as it is loaded; :data:`MUTATIONS` is the registry, :func:`applied` applies one.

A *mutation* switches one rule of the reference engine off (or gets it wrong on purpose):
no state-based action for lethal damage, a stack that resolves first-in-first-out, storm
that makes no copies… (the runner, :mod:`mtg_judge.conformance.mutants`, runs the suite
under each). The file holds ``{"mutations": [record, ...]}`` in report order; each record
has:

- ``name``: lowercase words joined by hyphens, unique;
- ``rule``: the Comprehensive Rules reference of the rule it breaks (``"704.5g"``, ``"722"``);
- ``doc``: what is switched off (first paragraph, a sentence ending in a period) and how;
- ``kind``, with its fields:

  - ``"rewrite"``: ``rewrites``, a list of ``{"function": TARGET, "edits": [{"old", "new",
    "count"?, "after"?}, ...]}``: each engine function recompiled from its own source with
    those textual edits (:func:`~mtg_judge.conformance.patching.rewrite`; ``count``
    defaults to 1, ``after`` to ``""``);
  - ``"returns"``: ``function`` (a TARGET) and ``returns`` (any JSON value): that engine
    function always returns the value (:func:`~mtg_judge.conformance.patching.returns`);
  - ``"code"``: the patchers are built by the function of
    :mod:`mtg_judge.conformance.mutation_code` named after the mutation (hyphens become
    underscores).

A TARGET names an engine function as ``"<module>:<attribute>"``, the module relative to
``mtg_judge.engine`` and the attribute a function or a class's method: ``"combat:can_block"``,
``"game:Game._sba_once"`` (a ``Game`` method is patched in the mixin that defines it).
Targets are resolved when the mutation is applied: an anchor that is gone makes the mutation
*broken* (reported by the runner), never silently a survivor.

A record that breaks these rules stops the load with :class:`MutationListError` naming the
file, the record (its index and name) and the field.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from mtg_judge.conformance import mutation_code
from mtg_judge.conformance.patching import Edit, MutationError, returns, rewrite

#: The list of mutations (package data next to this module).
MUTATIONS_FILE = Path(__file__).with_name("mutations.json")

KINDS = ("rewrite", "returns", "code")
_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
_RULE = re.compile(r"\d{3}(\.\d+[a-z]?)?")
_TARGET = re.compile(r"(?P<module>[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*):"
                     r"(?P<attr>[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*)")
_FIELDS = {"rewrite": {"rewrites"}, "returns": {"function", "returns"}, "code": set()}
_EDIT_FIELDS = {"old", "new", "count", "after"}


class MutationListError(ValueError):
    """``mutations.json`` is malformed: the message names the file, the record and the field."""


@dataclass(frozen=True)
class Mutation:
    """One registered mutation: ``name``, the Comprehensive Rules reference of the rule it
    breaks (``rule``), its documentation (``doc``: what is switched off, and how), and
    ``patches()``, which returns the ``unittest.mock`` patchers that apply it (raising
    :class:`~mtg_judge.conformance.patching.MutationError` when its anchor is gone)."""

    name: str
    rule: str
    doc: str
    patches: Callable[[], list[Any]] = field(repr=False, compare=False)

    @property
    def summary(self) -> str:
        """The first paragraph of the documentation, on one line."""
        return " ".join(self.doc.split("\n\n")[0].split())


def resolve(target: str) -> tuple[Any, str]:
    """``(owner, attribute)`` for a TARGET ``"<module>:<attr>"`` (``"game:Game._sba_once"``
    is ``(Game, "_sba_once")``; ``"combat:can_block"`` is ``(combat module, "can_block")``),
    importing ``mtg_judge.engine.<module>``. Raises :class:`MutationError` when the module or
    an owner on the path is gone."""
    module_name, _, path = target.partition(":")
    try:
        owner: Any = importlib.import_module(f"mtg_judge.engine.{module_name}")
    except ImportError as exc:
        raise MutationError(f"{target}: no engine module mtg_judge.engine.{module_name} ({exc})") from exc
    *owners, attr = path.split(".")
    for name in owners:
        if not hasattr(owner, name):
            raise MutationError(f"{target}: {getattr(owner, '__name__', owner)} has no {name}")
        owner = getattr(owner, name)
    return owner, attr


def _rewrite_patches(rewrites: list[tuple[str, tuple[Edit, ...]]]) -> Callable[[], list[Any]]:
    """``patches()`` of a ``rewrite`` record: one recompiled function per target."""
    def patches() -> list[Any]:
        return [rewrite(*resolve(target), *edits) for target, edits in rewrites]
    return patches


def _returns_patches(target: str, value: Any) -> Callable[[], list[Any]]:
    """``patches()`` of a ``returns`` record."""
    def patches() -> list[Any]:
        return [returns(*resolve(target), value)]
    return patches


def code_function(name: str) -> str:
    """The name of the :mod:`~mtg_judge.conformance.mutation_code` function of mutation
    ``name`` (``"flanking-never-triggers"`` → ``"flanking_never_triggers"``)."""
    return name.replace("-", "_")


class _Checker:
    """Field checks of one record, raising :class:`MutationListError` with its location."""

    def __init__(self, path: Path, index: int, record: Any) -> None:
        name = record.get("name") if isinstance(record, dict) else None
        self.where = f"{path}: mutations[{index}]" + (f" ({name!r})" if isinstance(name, str) else "")
        self.record = record

    def fail(self, what: str) -> MutationListError:
        return MutationListError(f"{self.where}: {what}")

    def text(self, value: Any, what: str) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{what} must be a non-empty string, not {value!r}")
        return value

    def target(self, value: Any, what: str) -> str:
        if not isinstance(value, str) or not _TARGET.fullmatch(value):
            raise self.fail(f"{what} must be '<engine module>:<function or Class.method>' "
                            f"(e.g. 'game:Game._sba_once'), not {value!r}")
        return value

    def edit(self, value: Any, what: str) -> Edit:
        if not isinstance(value, dict):
            raise self.fail(f"{what} must be an object {{'old', 'new', 'count'?, 'after'?}}, not {value!r}")
        unknown = sorted(set(value) - _EDIT_FIELDS)
        if unknown:
            raise self.fail(f"{what}: unknown field(s) {', '.join(unknown)} (expected old, new, count, after)")
        old = self.text(value.get("old"), f"{what}.old")
        new = value.get("new")
        if not isinstance(new, str):
            raise self.fail(f"{what}.new must be a string, not {new!r}")
        count = value.get("count", 1)
        if type(count) is not int or count < 1:
            raise self.fail(f"{what}.count must be a positive integer, not {count!r}")
        after = value.get("after", "")
        if not isinstance(after, str):
            raise self.fail(f"{what}.after must be a string, not {after!r}")
        return Edit(old, new, count, after)


def parse(data: Any, path: Path = MUTATIONS_FILE) -> dict[str, Mutation]:
    """The registry ``{name: Mutation}`` (in file order) of the decoded contents of a
    mutations file ``path`` (named in errors). Raises :class:`MutationListError` for a
    malformed record, a duplicate name, a ``code`` record without its function in
    :mod:`~mtg_judge.conformance.mutation_code`, or a function there that no record uses."""
    if not isinstance(data, dict) or not isinstance(data.get("mutations"), list):
        raise MutationListError(f"{path}: expected an object with a list 'mutations'")
    unknown = sorted(set(data) - {"$comment", "mutations"})
    if unknown:
        raise MutationListError(f"{path}: unknown top-level field(s) {', '.join(unknown)}")
    registry: dict[str, Mutation] = {}
    code_records: list[str] = []
    for index, record in enumerate(data["mutations"]):
        check = _Checker(path, index, record)
        if not isinstance(record, dict):
            raise check.fail(f"expected an object, not {record!r}")
        name = check.text(record.get("name"), "name")
        if not _NAME.fullmatch(name):
            raise check.fail("name must be lowercase words joined by hyphens")
        if name in registry:
            raise check.fail(f"mutation {name!r} listed twice")
        rule = check.text(record.get("rule"), "rule")
        if not _RULE.fullmatch(rule):
            raise check.fail(f"rule must be a Comprehensive Rules number such as '704.5g', not {rule!r}")
        doc = check.text(record.get("doc"), "doc")
        if not " ".join(doc.split("\n\n")[0].split()).endswith("."):
            raise check.fail("doc's first paragraph must be a sentence ending in a period")
        kind = record.get("kind")
        if kind not in KINDS:
            raise check.fail(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        extra = sorted(set(record) - {"name", "rule", "doc", "kind"} - _FIELDS[kind])
        missing = sorted(_FIELDS[kind] - set(record))
        if extra or missing:
            raise check.fail(f"a {kind!r} record has " + "; ".join(
                ([f"unknown field(s) {', '.join(extra)}"] if extra else [])
                + ([f"no {', '.join(missing)}"] if missing else [])))
        patches: Callable[[], list[Any]]
        if kind == "rewrite":
            rewrites = record["rewrites"]
            if not isinstance(rewrites, list) or not rewrites:
                raise check.fail("rewrites must be a non-empty list of {'function', 'edits'}")
            parsed = []
            for i, rw in enumerate(rewrites):
                if not isinstance(rw, dict) or set(rw) != {"function", "edits"}:
                    raise check.fail(f"rewrites[{i}] must be an object with exactly 'function' and 'edits'")
                target = check.target(rw["function"], f"rewrites[{i}].function")
                edits = rw["edits"]
                if not isinstance(edits, list) or not edits:
                    raise check.fail(f"rewrites[{i}].edits must be a non-empty list")
                parsed.append((target, tuple(check.edit(e, f"rewrites[{i}].edits[{j}]")
                                             for j, e in enumerate(edits))))
            patches = _rewrite_patches(parsed)
        elif kind == "returns":
            patches = _returns_patches(check.target(record["function"], "function"), record["returns"])
        else:
            fn = getattr(mutation_code, code_function(name), None)
            if not callable(fn):
                raise check.fail(f"a 'code' mutation needs the function {code_function(name)}() "
                                 f"in {mutation_code.__name__}")
            patches = fn
            code_records.append(name)
        registry[name] = Mutation(name, rule, doc, patches)
    used = {code_function(name) for name in code_records}
    unused = sorted(n for n, v in vars(mutation_code).items()
                    if not n.startswith("_") and callable(v) and getattr(v, "__module__", None) == mutation_code.__name__
                    and n not in used)
    if unused:
        raise MutationListError(f"{path}: {mutation_code.__name__} defines {', '.join(unused)} "
                                "but no 'code' record of that name uses it")
    return registry


def load(path: Path = MUTATIONS_FILE) -> dict[str, Mutation]:
    """The registry of the mutations file ``path`` (see :func:`parse`). Raises
    :class:`MutationListError` (naming the file) when it is not valid JSON or malformed,
    ``OSError`` when it cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise MutationListError(f"{path}: line {exc.lineno} column {exc.colno}: invalid JSON ({exc.msg})") from exc
    return parse(data, path)


#: Every mutation by name, in the file's order.
MUTATIONS: dict[str, Mutation] = load()


@contextlib.contextmanager
def applied(name: str) -> Iterator[Mutation]:
    """Apply mutation ``name`` for the duration of the ``with`` block, then undo it (even on
    an exception). Raises ``KeyError`` for an unknown name and :class:`MutationError` when the
    engine no longer has the code the mutation patches."""
    m = MUTATIONS[name]
    with contextlib.ExitStack() as stack:
        for patcher in m.patches():
            stack.enter_context(patcher)
        yield m
