"""One source of truth (issue 26, items 3 and 5), checked on the source code itself.

- Ruleset names come from ``engine/rulesets.py`` alone: no string literal of the engine, the
  harness or the tools names a ruleset (docstrings may, as documentation), and the JSON
  Schema's ``ruleset`` enum (which other languages read, so it can't import Python) is the
  same list.
- A rule with more than two versions is a strategy object on ``Ruleset``, not a string
  compared where the rule applies: every switch is a bool, an int, a strategy, or the one
  name switch ``exile_zone_name`` (a zone's name in the log, never compared).
"""

from __future__ import annotations

import ast
import dataclasses
import json
import re
from pathlib import Path

import pytest

from mtg_judge.engine import rulesets
from mtg_judge.engine.rulesets import DEFAULT_RULESET, NAMES, RULESETS, Ruleset

ROOT = Path(__file__).resolve().parents[1]
#: The folders of code (fixtures/, docs/, schema/ and tests/ may name rulesets).
CODE = ("engine", "conformance", "tools")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module and of its classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                out.add(id(first.value))
    return out


def ruleset_names_in_literals(source: str, names: tuple[str, ...] = NAMES) -> list[tuple[int, str]]:
    """``[(line, literal)]``: the string literals of ``source`` (f-string parts included,
    docstrings not) that name one of ``names`` as a whole word."""
    word = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
    tree = ast.parse(source)
    docs = _docstrings(tree)
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs
            and word.search(node.value)]


def test_the_scan_finds_names_in_code_not_in_docstrings():
    source = ('"""The modern rules."""\n'
              'def f(r="modern"):\n    """Under classic-1999."""\n    return f"{r} or timespiral-2006"\n'
              'X = "modernity", "postmodern"\n')
    assert ruleset_names_in_literals(source) == [(2, "modern"), (4, " or timespiral-2006")]


def test_no_ruleset_name_is_written_outside_rulesets_py():
    found = []
    for folder in CODE:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "engine" / "rulesets.py":
                continue
            for line, literal in ruleset_names_in_literals(path.read_text(encoding="utf-8")):
                found.append(f"{path.relative_to(ROOT)}:{line}: {literal[:80]!r}")
    assert found == [], ("ruleset names written out again (read them from engine/rulesets.py: "
                         "NAMES, DEFAULT_RULESET, RULESETS):\n" + "\n".join(found))


def test_the_harness_reads_the_names_from_rulesets_py():
    from mtg_judge.conformance import protocol, runner, selfplay

    assert NAMES == tuple(RULESETS) and DEFAULT_RULESET in NAMES
    assert runner.RULESETS is NAMES and protocol.KNOWN_RULESETS is NAMES and selfplay.RULESETS is NAMES


def test_the_schema_enum_is_the_list_of_rulesets():
    schema = json.loads((ROOT / "schema" / "common.schema.json").read_text(encoding="utf-8"))
    assert tuple(schema["$defs"]["ruleset"]["enum"]) == NAMES


def test_reading_the_names_does_not_load_the_engine():
    """The harness imports engine/rulesets.py for the names; that loads no other part of the
    engine (``mtg_judge.engine`` imports its public names on first use)."""
    import subprocess
    import sys

    code = ("import sys, mtg_judge.engine.rulesets\n"
            "print(sorted(m for m in sys.modules if m.startswith('mtg_judge.engine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(["mtg_judge.engine", "mtg_judge.engine.errors", "mtg_judge.engine.rulesets"])


STRATEGIES = (rulesets.LegendRule, rulesets.MulliganRule)


@pytest.mark.parametrize("name", NAMES)
def test_every_switch_is_data_or_a_strategy(name):
    ruleset = RULESETS[name]
    for f in dataclasses.fields(Ruleset):
        value = getattr(ruleset, f.name)
        if f.name in ("name", "description", "exile_zone_name"):
            assert type(value) is str
        else:
            assert type(value) in (bool, int) or isinstance(value, STRATEGIES), (
                f"{name}.{f.name} = {value!r}: a rule with more than two versions is a strategy "
                "object (engine/rulesets.py), not a string to compare")


def test_strategy_names_are_unique_per_kind():
    for base in STRATEGIES:
        kinds = [cls for cls in vars(rulesets).values()
                 if isinstance(cls, type) and issubclass(cls, base) and cls is not base]
        assert len(kinds) >= 2
        assert len({cls.name for cls in kinds}) == len(kinds)


def test_mulligan_strategies_follow_the_rules():
    """CR 103.5 (London): seven cards each time, one on the bottom per mulligan, any number
    of mulligans; 1999 rulebook and 2006: one card fewer each time, none on the bottom, not
    from an empty hand."""
    london, fewer = rulesets.LondonMulligan(), rulesets.DrawOneFewer()
    assert [london.bottom_count(n) for n in (0, 1, 3)] == [0, 1, 3]
    assert [london.new_hand_size(7, n) for n in (7, 6, 1)] == [7, 7, 7]
    assert london.may_take(0) and london.may_take(7)
    assert [fewer.bottom_count(n) for n in (0, 1, 3)] == [0, 0, 0]
    assert [fewer.new_hand_size(7, n) for n in (7, 6, 1)] == [6, 5, 0]
    assert fewer.may_take(1) and not fewer.may_take(0)
