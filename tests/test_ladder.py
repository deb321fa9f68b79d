"""Issue 25, items 2 and 6: the ladder for engine authors, failures grouped by their first
divergence, and each failing case as a page.

- :func:`build_ladder` on hand-made needs, its expectations worked out from the rule its
  docstring states (most cases unlocked per new feature; features that travel together
  count as one);
- a toy engine written from docs/PROTOCOL.md alone (tests/toy_ladder_engine.py): as the
  stub of PROTOCOL §5 it passes nothing and the ladder names a first level; implementing
  that level's features, it passes exactly that level's cases and the report names the
  next level;
- an engine that drops the first ``spell_resolved`` event of every log: all its failures
  share one first divergence, one row; its case pages, parsed, hold both play-by-plays, the
  marked first divergence and the board.
"""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from mtg_judge.conformance.casepage import page_path
from mtg_judge.conformance.ladder import (
    build_ladder,
    failure_groups,
    format_ladder,
    report_ladder,
    rung_needs,
)
from mtg_judge.conformance.reports import read_report
from mtg_judge.conformance.resources import FIXTURES_DIR
from mtg_judge.tools.cli import main

TOY = Path(__file__).with_name("toy_ladder_engine.py")


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# --------------------------------------------------------------------------------------------
# The algorithm


def test_levels_unlock_the_most_cases_per_feature_and_features_that_travel_together_count_once():
    cases = [("a", frozenset({"x"})), ("b", frozenset({"x", "y"})), ("c", frozenset({"x", "y"})),
             ("d", frozenset({"z", "w"})), ("e", frozenset({"z", "w"}))]
    levels = build_ladder(cases)
    # z and w: every case needing one needs the other, one feature unlocking 2 cases (2.0);
    # {x, y}: 2 features, 3 cases (1.5); {x}: 1 feature, 1 case (1.0)
    assert [(lv["groups"], lv["cost"], lv["names"]) for lv in levels] == [
        ([["w", "z"]], 1, ["d", "e"]), ([["x"], ["y"]], 2, ["a", "b", "c"])]
    assert build_ladder(list(reversed(cases))) == [
        {**lv, "names": sorted(lv["names"], reverse=True),
         "examples": sorted(lv["names"], reverse=True)} for lv in levels]
    # what is known is no level; a case with nothing missing is in none
    assert build_ladder(cases, known={"z", "w", "x"})[0]["groups"] == [["y"]]
    assert build_ladder([("k", frozenset({"q"}))], known={"q"}) == []


def test_capabilities_are_not_features():
    needs = {"actions": ["advance"], "capabilities": ["checkpoints", "events"], "events": []}
    assert rung_needs(needs) == frozenset({"action:advance"})
    assert rung_needs(None) == frozenset()


def record(name, status, ruleset="modern", **needs):
    return {"name": name, "status": status, "ruleset": ruleset, "needs": needs}


def test_a_report_ladder_starts_from_the_passes_and_the_declared_rulesets():
    cases = [record("p", "passed", actions=["advance"], capabilities=["events"]),
             record("f", "failed", actions=["advance"]),             # a bug: fix first
             record("s1", "skipped", actions=["advance", "cast"]),
             record("s2", "skipped", "classic-1999", actions=["advance"])]
    ladder = report_ladder(cases, {"rulesets": ["modern"], "capabilities": ["events"]})
    assert ladder["passed"] == 1 and ladder["fix_first"] == {"cases": 1, "examples": ["f"]}
    assert ladder["undeclared"] == {"classic-1999": 1}
    assert ladder["next"]["groups"] == [["action:cast"]] and ladder["next"]["names"] == ["s1"]
    text = format_ladder(ladder)
    assert text[1].startswith("  fix first: 1 case not passing")
    assert text[2] == "  next: action:cast (1 feature, 1 case)"


def test_a_field_off_by_one_everywhere_is_one_cause_with_its_value_pairs():
    def failed(name, signature):
        return {"name": name, "status": "failed", "divergence": {"signature": signature}}

    cases = [failed("a", "damage_dealt: amount 3 → 2"), failed("b", "damage_dealt: amount 2 → 1"),
             failed("c", "damage_dealt: amount 3 → 2"), failed("d", "missing spell_resolved"),
             {"name": "e", "status": "failed", "mismatches": [
                 "expect.events[2]: no matching event after event #7\n    pattern: {\"type\":\"x\"}"]},
             {"name": "f", "status": "errored", "error_kind": "crash", "message": "crash: boom"},
             {"name": "p", "status": "passed"}]
    groups = failure_groups(cases)
    assert [(g["signature"], g["cases"], [(c["change"], c["cases"]) for c in g["changes"]])
            for g in groups] == [
        ("damage_dealt: amount", 3, [("3 → 2", 2), ("2 → 1", 1)]),
        ("crash: boom", 1, []),
        ('expect.events: no matching event: {"type":"x"}', 1, []),
        ("missing spell_resolved", 1, [])]
    assert groups[0]["names"] == ["a", "b", "c"]


# --------------------------------------------------------------------------------------------
# A toy engine climbs the first level


@pytest.fixture
def small_tree(tmp_path):
    """The combat, game and turn-structure fixtures of the classic document, every card."""
    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES_DIR / "cards", root / "cards")
    for mechanic in ("combat", "game", "turn-structure"):
        shutil.copytree(FIXTURES_DIR / "classic" / mechanic, root / "classic" / mechanic)
    return root


def toy(mode):
    return f"{sys.executable} {TOY} {mode}"


def test_a_toy_engine_reaches_its_first_passes_by_following_the_ladder(small_tree, tmp_path):
    suite = invoke("ladder", "--fixtures", small_tree, "--ruleset", "modern", "--json")
    assert suite.exit_code == 0, suite.output
    levels = json.loads(suite.output)["levels"]
    assert len(levels) > 2
    first = {f for group in levels[0]["groups"] for f in group}
    # the stub of PROTOCOL §5 passes nothing; the ladder still names a starting point, and
    # not a capability the engine declares
    stub = invoke("run", "--fixtures", small_tree, "--engine", toy("stub"),
                  "--report-dir", tmp_path / "stub")
    assert stub.exit_code == 1
    start = report_ladder(read_report(tmp_path / "stub" / "report.jsonl").cases,
                          {"rulesets": ["modern"]})
    assert start["passed"] == 0 and start["next"]["groups"] == levels[0]["groups"]
    assert not any(f.startswith("capability:") for f in first)
    assert "  next: " + ", ".join(" + ".join(g) for g in levels[0]["groups"]) in stub.output
    # the toy implements those features (docs: tests/toy_ladder_engine.py) and passes
    # exactly the first level's cases; the report then names the next level
    out = tmp_path / "level1"
    climbed = invoke("run", "--fixtures", small_tree, "--engine", toy("level1"),
                     "--report-dir", out)
    report = read_report(out / "report.jsonl")
    passed = sorted(c["name"] for c in report.cases if c["status"] == "passed")
    assert passed == sorted(levels[0]["names"])
    after = report_ladder(report.cases, report.header["implementation"])
    assert after["next"]["groups"] == levels[1]["groups"]
    assert "  next: " + ", ".join(" + ".join(g) for g in levels[1]["groups"]) in climbed.output
    again = invoke("ladder", "--report", out / "report.jsonl", "--json")
    assert json.loads(again.output)["levels"][0]["groups"] == levels[1]["groups"]
    # the HTML: the ladder at the top, linked from the headline, before the tables
    page = (out / "index.html").read_text(encoding="utf-8")
    assert page.index('href="#ladder"') < page.index('<section id="ladder">') < page.index(
        "<h2>By document</h2>")
    for group in levels[1]["groups"]:
        assert " + ".join(group) in page[page.index('<section id="ladder">'):]


# --------------------------------------------------------------------------------------------
# One root cause, one row; the failing case as a page

#: The reference engine behind protocol v1, leaving out the first spell_resolved event.
DROPPER = textwrap.dedent('''
    import sys
    from mtg_judge.conformance.protocol import serve
    from mtg_judge.engine import run_scenario

    def run(scenario, ruleset, cards=None):
        result = run_scenario(scenario, ruleset, cards=cards)
        events = result["events"]
        for i, event in enumerate(events):
            if event.get("type") == "spell_resolved":
                del events[i]
                break
        return result

    sys.exit(serve(run=run))
''')


class _Page(HTMLParser):
    """The rows of the play-by-play table and the ids and classes met."""

    def __init__(self):
        super().__init__()
        self.rows, self.ids, self.cell, self.in_pbp = [], set(), None, False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "table" and attrs.get("class") == "pbp":
            self.in_pbp = True
        elif tag == "tr" and self.in_pbp:
            self.rows.append({"class": attrs.get("class", ""), "id": attrs.get("id"),
                              "cells": []})
        elif tag == "td" and self.in_pbp:
            self.cell = []

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None:
            self.rows[-1]["cells"].append("".join(self.cell))
            self.cell = None
        elif tag == "table":
            self.in_pbp = False

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def test_failures_with_one_first_divergence_are_one_row_and_each_has_its_page(tmp_path):
    script = tmp_path / "dropper.py"
    script.write_text(DROPPER, encoding="utf-8")
    out = tmp_path / "report"
    result = invoke("run", "--engine", f"{sys.executable} {script}", "--ruleset", "modern",
                    "-k", "classic.stack", "--report-dir", out)
    assert result.exit_code == 1
    report = read_report(out / "report.jsonl")
    failed = [c for c in report.cases if c["status"] == "failed"]
    assert failed
    # every failing log lacks the reference's first spell_resolved and nothing else
    # differs before it: one cause
    groups = failure_groups(report.cases)
    assert [(g["signature"], g["cases"]) for g in groups] == [
        ("missing spell_resolved", len(failed))]
    assert f"\n  missing spell_resolved: {len(failed)} cases\n" in result.output
    page_html = (out / "index.html").read_text(encoding="utf-8")
    assert '<table id="causes">' in page_html
    for case in failed:
        path = out / page_path(case["name"])
        assert f'href="{page_path(case["name"])}"' in page_html
        page = _Page()
        page.feed(path.read_text(encoding="utf-8"))
        marked = [r for r in page.rows if r["id"] == "first-divergence"]
        assert len(marked) == 1 and "first" in marked[0]["class"].split()
        gutter, reference, engine = marked[0]["cells"]
        assert gutter == ">-" and "resolves" in reference and engine == ""
        assert len(page.rows) > 2 and all(len(r["cells"]) == 3 for r in page.rows[1:])  # [0]: the head
        assert "board" in page.ids
    # a saved report re-renders its pages alone, beside the HTML it is asked for
    again = tmp_path / "again" / "index.html"
    rendered = invoke("report", out / "report.jsonl", "--html", again)
    assert rendered.exception is None or isinstance(rendered.exception, SystemExit), rendered.output
    assert sorted(p.name for p in (again.parent / "cases").iterdir()) == sorted(
        page_path(c["name"]).split("/")[1] for c in failed)
    assert (again.parent / page_path(failed[0]["name"])).read_text(encoding="utf-8") == (
        out / page_path(failed[0]["name"])).read_text(encoding="utf-8")
