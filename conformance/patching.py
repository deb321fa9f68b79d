"""In-memory patches of the reference engine, the means by which a mutation is applied
(``mtg-judge mutants``; the list of mutations is :mod:`mtg_judge.conformance.mutations`).

Each helper returns a ``unittest.mock`` patcher; nothing here edits an engine file:

- :func:`replace`: an engine function or method replaced by another;
- :func:`returns`: an engine function or method replaced by one that takes the same
  arguments and always returns the same value;
- :func:`wrap`: an engine function or method wrapped (it calls the original);
- :func:`rewrite`: an engine function or method recompiled from its own source with one or
  two textual :class:`Edit` s (whitespace in ``old`` matches any whitespace, and each edit
  must match exactly the number of times it says, so an engine refactoring makes the
  mutation *broken*, reported, never silently a survivor).

Owners are the engine's modules and classes; for a class, the patch goes to the class of its
MRO that defines the attribute (``Game`` is composed of mixins, one per part of the rules).
An anchor that is gone raises :class:`MutationError`.
"""

from __future__ import annotations
import __future__

import copy
import functools
import inspect
import re
import sys
import textwrap
from dataclasses import dataclass
from typing import Any, Callable
from unittest import mock


class MutationError(Exception):
    """A mutation cannot be applied to this engine (its anchor text is gone)."""


def _defining(owner: Any, attr: str) -> Any:
    """Where ``owner.attr`` is defined: for a class, the class of its MRO whose body defines
    it (``Game`` is composed of mixins, one per part of the rules: ``Game._sba_once`` is
    ``StateBasedActions._sba_once``); a module is its own."""
    if isinstance(owner, type):
        return next((cls for cls in owner.__mro__ if attr in cls.__dict__), owner)
    return owner


def _owner_attr(owner: Any, attr: str) -> Any:
    """The function ``owner.attr`` as defined (not bound), or MutationError."""
    target = owner.__dict__.get(attr) if isinstance(owner, type) else getattr(owner, attr, None)
    if not callable(target):
        raise MutationError(f"{getattr(owner, '__name__', owner)}.{attr} is not a function of the engine")
    return target


def replace(owner: Any, attr: str, new: Any) -> Any:
    """A patcher replacing ``owner.attr`` (a class or a module; for a class, in the class
    that defines it) by ``new``. Raises :class:`MutationError` if ``owner`` has no such
    function."""
    owner = _defining(owner, attr)
    _owner_attr(owner, attr)
    return mock.patch.object(owner, attr, new)


def returns(owner: Any, attr: str, value: Any) -> Any:
    """A patcher replacing ``owner.attr`` (where it is defined) by a function with the same
    parameters that always returns ``value`` (a JSON value: ``True``, ``None``, ``[]``…; a
    fresh copy on each call). A call that the original's signature refuses raises
    ``TypeError`` as it would have. Raises :class:`MutationError` if ``owner`` has no such
    function."""
    owner = _defining(owner, attr)
    signature = inspect.signature(_owner_attr(owner, attr))

    def constant(*args: Any, **kwargs: Any) -> Any:
        signature.bind(*args, **kwargs)
        return copy.deepcopy(value)
    return mock.patch.object(owner, attr, constant)


def wrap(owner: Any, attr: str, make: Callable[[Callable], Callable]) -> Any:
    """A patcher replacing ``owner.attr`` (where it is defined) by ``make(original)``.
    Raises :class:`MutationError` if ``owner`` has no such function."""
    owner = _defining(owner, attr)
    original = _owner_attr(owner, attr)
    return mock.patch.object(owner, attr, functools.wraps(original)(make(original)))


@dataclass(frozen=True)
class Edit:
    """One textual edit of a function's source: ``old`` (whitespace matches any whitespace)
    becomes ``new``; it must occur exactly ``count`` times. ``after``: text that must come
    just before ``old`` (kept as it is), to pick one occurrence among several."""

    old: str
    new: str
    count: int = 1
    after: str = ""


def _pattern(text: str) -> str:
    """A regular expression matching ``text`` with any whitespace between its words."""
    return r"\s+".join(re.escape(part) for part in text.split())


def rewrite(owner: Any, attr: str, *edits: Edit) -> Any:
    """A patcher replacing ``owner.attr`` by the same function recompiled from its source
    with ``edits`` applied (in the globals of its module, which stay untouched); for a
    class, in the class that defines it. Raises :class:`MutationError` when an edit does not
    match its ``count`` times or the source file changed since the engine was imported."""
    owner = _defining(owner, attr)
    original = _owner_attr(owner, attr)
    source = textwrap.dedent(inspect.getsource(original))
    where = f"{original.__module__}.{original.__qualname__}"
    if _fingerprint(_compile(original, source, where).__code__) != _fingerprint(original.__code__):
        raise MutationError(f"{where}: its source file changed since the engine was imported; "
                            "run again")
    for edit in edits:
        pre = rf"(?P<pre>{_pattern(edit.after)}\s+)" if edit.after else r"(?P<pre>)"
        pattern = re.compile(pre + _pattern(edit.old))
        found = len(pattern.findall(source))
        if found != edit.count:
            raise MutationError(f"{where}: {edit.old!r} occurs {found} time(s), not {edit.count}; "
                                "the engine changed: update the mutation")
        source = pattern.sub(lambda match: match.group("pre") + edit.new, source)
    new = _compile(original, source, f"mutant of {where}")
    new.__qualname__ = original.__qualname__
    new.__doc__ = original.__doc__
    return mock.patch.object(owner, attr, new)


def _fingerprint(code: Any) -> tuple[Any, ...]:
    """What two compilations of the same function source share, whatever the compilation
    context (bytecode details differ: an imported module's methods are called differently):
    argument and local names, names used, constants (strings up to whitespace), recursively
    for nested code."""
    consts = tuple(_fingerprint(c) if inspect.iscode(c) else " ".join(c.split()) if isinstance(c, str)
                   else repr(c) for c in code.co_consts)  # a docstring loses its indentation
    return code.co_varnames, code.co_names, consts


def _compile(original: Callable[..., Any], source: str, label: str) -> Any:
    """The function defined by ``source``, compiled in the globals of ``original``'s module
    (which are left untouched), annotations unevaluated (the engine's modules use
    ``from __future__ import annotations``; some names exist only for type checkers)."""
    module = sys.modules[original.__module__]
    namespace: dict[str, Any] = {}
    code = compile(source, f"<{label}>", "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
    exec(code, module.__dict__, namespace)
    return namespace[original.__name__]
