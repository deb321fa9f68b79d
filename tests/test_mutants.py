"""conformance/mutants.py and ``mtg-judge mutants``: the registry, patches that never leak,
and kills on a handful of real fixtures (-k keeps every run to a few cases)."""

import json
import re
import threading

import pytest
from click.testing import CliRunner

from mtg_judge.conformance import mutants
from mtg_judge.conformance.canonical import dumps, normalize
from mtg_judge.conformance.mutants import MUTATIONS, Edit, MutationError, applied, rewrite, run_mutants
from mtg_judge.conformance.runner import DEFAULT_ROOT, run_case
from mtg_judge.tools.cli import main

#: A few fast cases: the legend rule under each era (killed by legend-rule-off).
LEGEND = "classic.legend"
CASES = {LEGEND: list(mutants._cases(str(DEFAULT_ROOT), LEGEND))}


def engine_namespaces():
    """Everything a mutation may patch: the engine's classes (``Game`` and the mixins it is
    composed of, where its methods are defined), every module of the engine package and of its
    subpackages such as ``layers`` (found, not listed: a new module can't be forgotten) and the
    effect handlers' table."""
    import importlib
    import pkgutil

    from mtg_judge import engine
    from mtg_judge.engine import combat, effects, game
    prefix = "mtg_judge.engine."
    modules = {m.name[len(prefix):]: importlib.import_module(m.name)
               for m in pkgutil.walk_packages(engine.__path__, prefix=prefix)}
    mixins = {cls.__name__: cls for cls in game.Game.__mro__ if cls is not object}
    return {**mixins, **modules, "Combat": combat.Combat, "HANDLERS": effects.HANDLERS}


def snapshot_engine():
    out = {}
    for name, ns in engine_namespaces().items():
        items = ns.items() if isinstance(ns, dict) else vars(ns).items()
        out[name] = {key: value for key, value in items}
    return out


def results(keyword):
    out = {}
    for case in CASES[keyword]:
        result = run_case(case)
        out[case.name] = (result.status, dumps(normalize(result.result)))
    return out


def test_registry_has_documented_mutations_with_cr_references():
    assert len(MUTATIONS) >= 15
    for name, m in MUTATIONS.items():
        assert m.name == name and re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name), name
        assert re.fullmatch(r"\d{3}(\.\d+[a-z]?)?", m.rule), (name, m.rule)
        assert len(m.doc) > 40 and m.summary.endswith("."), (name, m.doc)


def test_every_mutation_applies_and_is_undone():
    """Each mutation can be applied to this engine (its anchors are all there), changes
    something, and leaves every engine namespace exactly as it found it."""
    before = snapshot_engine()
    for name in MUTATIONS:
        with applied(name):
            during = snapshot_engine()
            assert during != before, f"{name} patches nothing"
        assert snapshot_engine() == before, f"{name} leaked"


def test_mutation_undone_even_after_an_exception():
    before = snapshot_engine()
    with pytest.raises(RuntimeError):
        with applied("legend-rule-off"):
            raise RuntimeError("boom")
    assert snapshot_engine() == before


def test_a_normal_run_after_a_mutant_run_gives_the_same_results():
    normal = results(LEGEND)
    assert normal and all(status == "passed" for status, _ in normal.values())
    with applied("legend-rule-off"):
        mutated = results(LEGEND)
    assert mutated != normal
    assert results(LEGEND) == normal


def test_cheap_mutation_is_killed_by_the_legend_fixtures():
    report = run_mutants(["legend-rule-off"], keyword=LEGEND, workers=1)
    (result,) = report.results
    assert result.status == "killed"
    assert "classic.legend.controller-chooses-which-to-keep" in result.killed_by
    assert all(case.startswith(LEGEND) for case in result.killing)
    assert report.kill_rate == 1.0 and report.passed_bar
    assert report.as_json()["mutations"][0]["killed_by_count"] == len(result.killed_by)
    # the same in two worker processes (the baseline and the mutation run side by side)
    pooled = run_mutants(["legend-rule-off"], keyword=LEGEND, workers=2)
    assert pooled.results[0].killing == result.killing


def test_unrelated_mutation_survives_and_a_stale_one_is_broken(monkeypatch):
    """On the legend fixtures, storm's mutation changes nothing: it survives. A mutation
    whose anchor text is gone from the engine is reported broken, not a survivor."""
    def stale():
        from mtg_judge.engine.game import Game
        return [rewrite(Game, "_sba_once", Edit("this text is not in the engine", "pass"))]

    monkeypatch.setitem(MUTATIONS, "stale", mutants.Mutation("stale", "704.3", "Stale.", stale))
    with pytest.raises(MutationError):
        stale()
    # an engine file edited after the engine was imported: its source is not the loaded code
    getsource = mutants.inspect.getsource
    monkeypatch.setattr(mutants.inspect, "getsource",
                        lambda fn: getsource(fn).replace('"704.5g"', '"704.5z"'))
    with pytest.raises(MutationError, match="source file changed"):
        MUTATIONS["no-lethal-damage-sba"].patches()
    monkeypatch.setattr(mutants.inspect, "getsource", getsource)
    report = run_mutants(["storm-makes-no-copies", "stale"], keyword=LEGEND, workers=1)
    assert [r.status for r in report.results] == ["survived", "broken"]
    assert "not in the engine" in report.results[1].error
    assert report.kill_rate == 0.0 and not report.passed_bar
    text = mutants.format_report(report)
    assert "survivors (rules no fixture checks): storm-makes-no-copies" in text
    assert "broken (cannot be applied to this engine): stale" in text


def test_a_mutation_that_hangs_errors_its_cases(monkeypatch):
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("the case time limit uses SIGALRM: main thread only")

    def hang():
        from mtg_judge.engine.game import Game

        def forever(self):
            while True:
                pass
        return [mutants.replace(Game, "check_state", forever)]

    monkeypatch.setitem(MUTATIONS, "hang", mutants.Mutation("hang", "704.3", "Hangs.", hang))
    one = [c for c in CASES[LEGEND] if c.name == "classic.legend.controller-chooses-which-to-keep[modern]"]
    report = run_mutants(["hang"], cases=one, workers=1, case_timeout=0.3)
    assert report.results[0].status == "killed"
    assert report.results[0].killing == ["classic.legend.controller-chooses-which-to-keep[modern]"]


def test_cli_mutants_json_and_exit_codes():
    runner = CliRunner()
    ok = runner.invoke(main, ["mutants", "-m", "legend-rule-off", "-k", LEGEND, "--json"])
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.stdout)
    assert data["kill_rate"] == 1.0 and data["survivors"] == []
    assert data["mutations"][0]["status"] == "killed" and data["mutations"][0]["rule"] == "704.5j"

    survived = runner.invoke(main, ["mutants", "-m", "echo-never-triggers", "-k", LEGEND])
    assert survived.exit_code == 1
    assert "SURVIVED" in survived.stdout and "kill rate: 0/1" in survived.stdout

    assert runner.invoke(main, ["mutants", "-m", "no-such-mutation"]).exit_code == 2
    listed = runner.invoke(main, ["mutants", "--list"])
    assert listed.exit_code == 0 and len(listed.stdout.splitlines()) == len(MUTATIONS)
