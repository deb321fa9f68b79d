"""conformance/randmut.py (``mtg-judge mutants --random N``): the enumeration of mutation
points, the seeded sample, applying and restoring a mutant in-process, the forked runner,
the equivalence list, and one small run of the command on real cases (-k keeps it short)."""

from __future__ import annotations

import importlib
import json
import os
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtg_judge.conformance import randmut
from mtg_judge.conformance.randmut import (
    EquivalenceListError,
    MutationPoint,
    applied,
    load_equivalents,
    load_tested,
    points_of_source,
    run_forked,
    sample,
)
from mtg_judge.tools.cli import main

TINY = textwrap.dedent('''\
    """A tiny module."""
    from __future__ import annotations

    LIMIT = 3


    def below(x: int, y: int = 7) -> bool:
        """Docstring: no point here."""
        return x < LIMIT


    class Box:
        size: int = 2

        def grow(self, n):
            if n and self.size:
                self.size += n
            return not n

        def helper(self):
            def inner(k):
                return k - 1
            return inner(5)
    ''')


def edits(points):
    return [(p.line, p.operator, p.original, p.replacement, p.qualname, p.node) for p in points]


def test_points_of_a_tiny_module():
    # Written by hand from TINY: the module level (LIMIT = 3, the default 7, the class
    # attribute 2), the docstring and the annotations give no point.
    assert edits(points_of_source("engine/tiny.py", TINY)) == [
        (9, "return", "return", "return None", "below", "x < LIMIT"),
        (9, "compare", "<", "<=", "below", "x < LIMIT"),
        (16, "boolean", "and", "or", "Box.grow", "n and self.size"),  # same node as the if: operator order
        (16, "if", "if", "if not", "Box.grow", "n and self.size"),
        (17, "arithmetic", "+=", "-=", "Box.grow", "self.size += n"),
        (18, "return", "return", "return None", "Box.grow", "not n"),
        (18, "not", "not", "(dropped)", "Box.grow", "not n"),
        (22, "return", "return", "return None", "Box.helper.<locals>.inner", "k - 1"),
        (22, "arithmetic", "-", "+", "Box.helper.<locals>.inner", "k - 1"),
        (22, "constant", "1", "2", "Box.helper.<locals>.inner", "1"),
        (23, "return", "return", "return None", "Box.helper", "inner(5)"),
        (23, "constant", "5", "6", "Box.helper", "5"),
    ]


def test_occurrence_tells_identical_nodes_apart():
    source = "def f(a):\n    x = a == 1\n    y = a == 1\n    return x, y\n"
    compares = [p for p in points_of_source("engine/t.py", source) if p.operator == "compare"]
    assert [(p.line, p.occurrence) for p in compares] == [(2, 0), (3, 1)]
    assert compares[0].locator != compares[1].locator


def test_label_and_locator():
    p = points_of_source("engine/tiny.py", TINY)[1]
    assert p.label == "engine/tiny.py:9  <  ->  <="
    assert p.locator == ("engine/tiny.py", "below", "x < LIMIT", "compare", "<=", 0)
    assert not p.is_legal
    assert MutationPoint("engine/legal/moves.py", 1, 0, 1, 1, "if", "if", "if not", "f", "x").is_legal
    assert MutationPoint("engine/legal.py", 1, 0, 1, 1, "if", "if", "if not", "f", "x").is_legal
    assert MutationPoint("engine/legal_combat.py", 1, 0, 1, 1, "if", "if", "if not", "f", "x").is_legal
    assert not MutationPoint("engine/layers/legal_x.py", 1, 0, 1, 1, "if", "if", "if not", "f", "x").is_legal


def test_sample_is_seeded_uniform_and_in_population_order():
    population = list(range(1000))
    points = [MutationPoint("engine/a.py", i, 0, i, 1, "if", "if", "if not", "f", "x") for i in population]
    one = sample(points, 50, seed=1)
    assert one == sample(points, 50, seed=1)
    assert one != sample(points, 50, seed=2)
    assert len({p.line for p in one}) == 50
    assert [p.line for p in one] == sorted(p.line for p in one)
    assert sample(points[:10], 50, seed=1) == points[:10]


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """TINY imported as module ``randmut_tiny`` (and a second module that imported ``below``
    by name), removed from sys.modules afterwards."""
    (tmp_path / "randmut_tiny.py").write_text(TINY)
    (tmp_path / "randmut_user.py").write_text("from randmut_tiny import below\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("randmut_tiny")
    user = importlib.import_module("randmut_user")
    yield module, user
    for name in ("randmut_tiny", "randmut_user"):
        sys.modules.pop(name, None)


def point(operator, qualname, line=None):
    return next(p for p in points_of_source("engine/tiny.py", TINY)
                if p.operator == operator and p.qualname == qualname and (line is None or p.line == line))


def test_applied_swaps_the_code_everywhere_and_restores_it(tiny):
    module, user = tiny
    assert module.below(2) is True and module.below(3) is False
    with applied(point("compare", "below"), module=module) as live:
        assert live == 1
        assert module.below(3) is True  # x <= LIMIT
        assert user.below(3) is True    # the binding of `from randmut_tiny import below`
    assert module.below(3) is False and user.below(3) is False


def test_applied_on_methods_nested_functions_and_statements(tiny):
    module, _ = tiny
    box = module.Box()
    with applied(point("arithmetic", "Box.grow"), module=module):
        box.grow(1)
        assert box.size == 1                                   # size -= n
    box.grow(1)
    assert box.size == 2
    with applied(point("not", "Box.grow"), module=module):
        assert module.Box().grow(0) == 0                        # return n
    with applied(point("if", "Box.grow"), module=module):
        b = module.Box()
        b.grow(4)
        assert b.size == 2                                      # if not (n and self.size)
    with applied(point("constant", "Box.helper.<locals>.inner"), module=module):
        assert module.Box().helper() == 3                       # k - 2
    with applied(point("return", "Box.helper"), module=module):
        assert module.Box().helper() is None
    assert module.Box().helper() == 4 and module.Box().grow(0) is True


FACTORY = textwrap.dedent('''\
    def make(step):
        def handler(x):
            return x + step
        return handler


    HANDLERS = {"up": make(1)}
    ''')


def test_applied_reaches_closures_a_factory_made_at_import(tmp_path, monkeypatch):
    # The effect handlers are such closures (effects.py: "exile": _move("exile")): swapping
    # the factory's code alone would leave the handler made at import time unmutated.
    (tmp_path / "randmut_factory.py").write_text(FACTORY)
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("randmut_factory")
    try:
        p = next(p for p in points_of_source("engine/f.py", FACTORY) if p.operator == "arithmetic")
        assert p.qualname == "make.<locals>.handler"
        with applied(p, module=module) as live:
            assert live == 2  # make, and the handler in HANDLERS
            assert module.HANDLERS["up"](10) == 9
        assert module.HANDLERS["up"](10) == 11
    finally:
        sys.modules.pop("randmut_factory", None)


def test_applied_restores_after_an_exception(tiny):
    module, _ = tiny
    with pytest.raises(ZeroDivisionError):
        with applied(point("compare", "below"), module=module):
            raise ZeroDivisionError
    assert module.below(3) is False


def test_applied_refuses_a_point_that_is_gone(tiny):
    module, _ = tiny
    p = point("compare", "below")
    gone = MutationPoint(p.path, p.line + 1, p.col, p.end_line + 1, p.end_col, p.operator, p.original,
                         p.replacement, p.qualname, p.node)
    with pytest.raises(randmut.RandomMutantError):
        with applied(gone, module=module):
            pass


def test_some_real_engine_points_all_apply_and_restore():
    from mtg_judge.engine import turn
    points = randmut.enumerate_points(only="engine/turn.py")
    assert points and all(p.path == "engine/turn.py" for p in points)
    before = {name: getattr(v, "__code__", None) for name, v in vars(turn.TurnStructure).items()}
    for p in sample(points, 20, seed=3):
        with applied(p) as live:
            assert live >= 1
    assert before == {name: getattr(v, "__code__", None) for name, v in vars(turn.TurnStructure).items()}


def test_engine_files_only_and_bad_only():
    files = randmut.engine_files(only="engine/combat.py")
    assert [f.name for f in files] == ["combat.py"]
    with pytest.raises(ValueError):
        randmut.engine_files(only="engine/nowhere")


def test_module_name():
    assert randmut.module_name("engine/combat.py") == "mtg_judge.engine.combat"
    assert randmut.module_name("engine/layers/__init__.py") == "mtg_judge.engine.layers"
    assert randmut.module_name("engine/layers/apply.py") == "mtg_judge.engine.layers.apply"


# ---------------------------------------------------------------------- the forked runner

def _answer(i):
    return lambda: {"status": "killed", "by": f"case{i}"}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX fork")
def test_run_forked_keeps_task_order_whatever_the_workers():
    tasks = [_answer(i) for i in range(6)]
    one = run_forked(tasks, 1, 30)
    three = run_forked(tasks, 3, 30)
    strip = [[{k: v for k, v in out.items() if k != "seconds"} for out in outs] for outs in (one, three)]
    assert strip[0] == strip[1] == [{"status": "killed", "by": f"case{i}"} for i in range(6)]


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX fork")
def test_run_forked_reports_a_dead_or_hanging_child_as_broken():
    def die():
        os._exit(3)

    def hang():
        time.sleep(60)
        return {}

    def crash():
        raise RuntimeError("boom")
    dead, hung, crashed = run_forked([die, hang, crash], 3, timeout=1.0)
    assert dead["status"] == "broken" and "worker died (exit 3)" in dead["reason"]
    assert hung["status"] == "broken" and "timeout" in hung["reason"]
    assert crashed["status"] == "broken" and "RuntimeError: boom" in crashed["reason"]


# -------------------------------------------------------------------- the equivalence list

GOOD = {"file": "engine/tiny.py", "qualname": "below", "node": "x < LIMIT", "operator": "compare",
        "replacement": "<=", "reason": "LIMIT is never reached"}


def test_equivalents_load_by_locator(tmp_path):
    path = tmp_path / "eq.json"
    path.write_text(json.dumps([GOOD, {**GOOD, "occurrence": 1, "node": "x  <\n LIMIT"}]))
    found = load_equivalents(path)
    assert found == {("engine/tiny.py", "below", "x < LIMIT", "compare", "<=", 0): "LIMIT is never reached",
                     ("engine/tiny.py", "below", "x < LIMIT", "compare", "<=", 1): "LIMIT is never reached"}
    assert point("compare", "below").locator in found


@pytest.mark.parametrize("entries, words", [
    ({"a": 1}, "list of entries"),
    ([[1]], "entry 0: not an object"),
    ([{k: v for k, v in GOOD.items() if k != "reason"}], "missing ['reason']"),
    ([{**GOOD, "why": "x"}], "unknown ['why']"),
    ([{**GOOD, "reason": " "}], "'reason' must be a non-empty string"),
    ([{**GOOD, "operator": "swap"}], "operator 'swap' is not one of"),
    ([{**GOOD, "occurrence": -1}], "'occurrence' must be an integer"),
    ([GOOD, GOOD], "entry 1: a duplicate"),
])
def test_equivalents_errors_name_the_entry(tmp_path, entries, words):
    path = tmp_path / "eq.json"
    path.write_text(json.dumps(entries))
    with pytest.raises(EquivalenceListError) as info:
        load_equivalents(path)
    assert words in str(info.value)


def test_committed_equivalence_list_is_valid_and_matches_points():
    found = load_equivalents()
    known = {p.locator for p in randmut.enumerate_points()}
    assert set(found) <= known, sorted(set(found) - known)


def test_tested_list_loads_with_its_test_and_refuses_a_test_outside_tests(tmp_path):
    path = tmp_path / "tested.json"
    path.write_text(json.dumps([{**GOOD, "test": "tests/test_x.py::test_y"}]))
    assert load_tested(path) == {("engine/tiny.py", "below", "x < LIMIT", "compare", "<=", 0): "tests/test_x.py::test_y"}
    path.write_text(json.dumps([GOOD]))
    with pytest.raises(EquivalenceListError, match=r"missing \['test'\]"):
        load_tested(path)
    path.write_text(json.dumps([{**GOOD, "test": "engine/x.py"}]))
    with pytest.raises(EquivalenceListError, match="node id under tests/"):
        load_tested(path)


def test_committed_tested_list_is_valid_and_matches_points():
    """Every entry of conformance/mutants_tested.json names a point of the tree and a test
    file that exists (a mutant of code no ruling reaches, killed by that test)."""
    found = load_tested()
    known = {p.locator for p in randmut.enumerate_points()}
    assert set(found) <= known, sorted(set(found) - known)
    for test in found.values():
        assert (Path(randmut.REPO_ROOT) / test.split("::")[0]).is_file(), test


# ---------------------------------------------------------------------------- the command

@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX fork")
def test_cli_random_is_deterministic_whatever_the_workers(tmp_path):
    runner = CliRunner()
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"r{workers}.json"
        result = runner.invoke(main, ["mutants", "--random", "4", "--seed", "5", "--only", "engine/sba.py",
                                      "-k", "classic.legend", "-n", workers, "--json", str(out)])
        assert result.exit_code == 0, result.output
        outs.append(out.read_bytes())
        assert "engine/sba.py:" in result.stdout and "kill rate:" in result.stdout
    assert outs[0] == outs[1]
    data = json.loads(outs[0])
    assert data["sampled"] == 4 and data["seed"] == 5 and data["judge"] == "fixtures"
    assert sum(data[s] for s in ("killed", "survived", "equivalent", "broken")) == 4
    assert all(m["path"] == "engine/sba.py" for m in data["mutants"])


@pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX fork")
def test_cli_replay_judges_the_same_mutants_again(tmp_path):
    """--replay FILE: the sample of an earlier --json, found again by locator, same verdicts;
    a locator that matches nothing in this tree is reported as gone, not judged."""
    runner = CliRunner()
    first = tmp_path / "first.json"
    result = runner.invoke(main, ["mutants", "--random", "3", "--seed", "5", "--only", "engine/sba.py",
                                  "-k", "classic.legend", "--json", str(first)])
    assert result.exit_code == 0, result.output
    data = json.loads(first.read_text())
    data["mutants"].append({**data["mutants"][0], "node": "no such source", "qualname": "Nowhere.f"})
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    again = tmp_path / "again.json"
    result = runner.invoke(main, ["mutants", "--replay", str(edited), "-k", "classic.legend", "--json", str(again)])
    assert result.exit_code == 0, result.output
    replayed = json.loads(again.read_text())
    assert [(m["label"], m["status"]) for m in replayed["mutants"]] == \
        [(m["label"], m["status"]) for m in json.loads(first.read_text())["mutants"]]
    assert replayed["seed"] == 5 and len(replayed["gone"]) == 1 and replayed["gone"][0][1] == "Nowhere.f"
    assert "1 mutant of the replayed sample match no point of this tree" in result.stdout


def test_cli_replay_refuses_a_file_that_is_not_a_report(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    result = CliRunner().invoke(main, ["mutants", "--replay", str(bad)])
    assert result.exit_code == 2 and "bad.json" in result.output and "mutants" in result.output


def test_cli_random_bad_only_exits_2():
    result = CliRunner().invoke(main, ["mutants", "--random", "3", "--only", "engine/nowhere"])
    assert result.exit_code == 2
    assert "no engine/**/*.py file there" in result.stderr


def test_cli_only_needs_random():
    result = CliRunner().invoke(main, ["mutants", "--only", "engine/sba.py"])
    assert result.exit_code == 2 and "--random" in result.output


def test_repo_root_is_the_checkout():
    assert (Path(randmut.REPO_ROOT) / "engine" / "sba.py").exists()
