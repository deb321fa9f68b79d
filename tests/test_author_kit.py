"""Issue 16, part 3: a conformance kit for engine authors.

- ``mtg-judge show ID --engine CMD``: the author's play-by-play next to the reference
  engine's, the first divergence marked (conformance/sidebyside.py). Fake protocol engines
  wrap the reference engine and diverge on purpose: one drops an event, one changes a
  field (and adds one of its own, which is not a divergence).
- per case, what it needs (conformance/needs.py), in ``export`` bundles and in reports;
- the ranked "what to implement next" table of ``run``/``report`` (text and HTML), with an
  engine that skips the cases needing combat or keywords.
"""

from __future__ import annotations

import json
import shutil
import sys
import textwrap

import pytest
from click.testing import CliRunner

from mtg_judge.conformance import needs as needs_module
from mtg_judge.conformance.needs import (
    case_needs,
    flatten,
    format_next_steps,
    next_steps,
)
from mtg_judge.conformance.resources import FIXTURES_DIR
from mtg_judge.conformance.runner import collect
from mtg_judge.conformance.sidebyside import align, divergence_lines, first_divergence
from mtg_judge.tools.cli import main

CASE = "classic.stack.last-in-first-out"

#: The reference engine behind protocol v1, diverging as its argument says: ``drop`` leaves
#: out the first spell_resolved event, ``amount`` deals 1 less with the first damage_dealt
#: (and adds a field of its own), ``same`` changes nothing.
DIVERGER = textwrap.dedent('''
    import sys
    from mtg_judge.conformance.protocol import serve
    from mtg_judge.engine import run_scenario

    MODE = sys.argv[1]

    def run(scenario, ruleset, cards=None):
        result = run_scenario(scenario, ruleset, cards=cards)
        events = result["events"]
        for i, event in enumerate(events):
            if MODE == "drop" and event.get("type") == "spell_resolved":
                del events[i]
                break
            if MODE == "amount" and event.get("type") == "damage_dealt":
                events[i] = {**event, "amount": event["amount"] - 1, "extra": "ours"}
                break
        return result

    sys.exit(serve(run=run))
''')

#: Skips (with a reason) the cases that need combat or a keyword; plays the others on the
#: reference engine.
PARTIAL = textwrap.dedent('''
    import json, sys
    from mtg_judge.conformance.needs import case_needs
    from mtg_judge.conformance.protocol import IMPLEMENTATION
    from mtg_judge.engine import run_scenario

    def reply(obj):
        sys.stdout.write(json.dumps(obj, sort_keys=True) + "\\n")
        sys.stdout.flush()

    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            reply({"version": 1, "implementation": {**IMPLEMENTATION, "name": "partial"}})
            continue
        scenario, seq = msg["scenario"], msg["seq"]
        needs = case_needs(scenario)
        if "declare_attackers" in needs["actions"]:
            reply({"seq": seq, "skipped": True, "message": "combat is not implemented"})
        elif needs["keywords"]:
            reply({"seq": seq, "skipped": True, "message": "keywords are not implemented"})
        else:
            reply({"seq": seq, **run_scenario(scenario, msg["ruleset"],
                                              cards=scenario.get("cards"))})
''')


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def diverger(tmp_path):
    script = tmp_path / "diverger.py"
    script.write_text(DIVERGER, encoding="utf-8")
    return lambda mode: f"{sys.executable} {script} {mode}"


@pytest.fixture
def partial(tmp_path):
    script = tmp_path / "partial.py"
    script.write_text(PARTIAL, encoding="utf-8")
    return f"{sys.executable} {script}"


@pytest.fixture
def small_tree(tmp_path):
    """A copy of a few stable classic fixtures (stack, combat, flying) with every card."""
    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES_DIR / "cards", root / "cards")
    for mechanic in ("stack", "combat", "flying"):
        shutil.copytree(FIXTURES_DIR / "classic" / mechanic, root / "classic" / mechanic)
    return root


def table_of(output: str) -> list[str]:
    """The side-by-side table of a 'show --engine' page: from its title row to the blank
    line after it."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if "reference engine" in line and "|" in line)
    end = lines.index("", start)
    return lines[start:end]


# --------------------------------------------------------------------------------------------
# show ID --engine


def test_a_dropped_event_is_the_marked_first_divergence(diverger):
    result = invoke("show", CASE, "--engine", diverger("drop"), "--width", 120)
    assert result.exit_code == 1, result.output  # the expectation needs that event
    table = table_of(result.output)
    marked = [line for line in table if line.startswith(">")]
    assert len(marked) == 1
    left, right = marked[0][2:].split(" | ") if " | " in marked[0] else (marked[0][2:], "")
    assert marked[0][1] == "-"  # only the reference logs it
    assert "Giant Growth (growth#2) resolves" in left and right.strip() == ""
    # every row above the mark is the same event on both sides
    above = table[2:table.index(marked[0])]
    assert above and all(line.startswith("  ") for line in above)
    assert "first divergence (reference #" in result.output
    assert "spell_resolved card=growth" in result.output.split("first divergence")[1]
    assert "your engine does not log it" in result.output
    # the expectation's verdict and its failing pattern
    assert "expectations on your engine: NOT met" in result.output
    assert '✗ events[2] {"card": "growth", "type": "spell_resolved"}' in result.output


def test_a_changed_field_is_marked_and_spelt_out_and_extra_fields_are_fine(diverger):
    result = invoke("show", CASE, "--engine", diverger("amount"), "--width", 120)
    assert result.exit_code == 0, result.output  # no pattern names the amount: it passes
    table = table_of(result.output)
    marked = [line for line in table if line.startswith(">")]
    assert len(marked) == 1 and marked[0][1] == "~"
    left, right = marked[0][2:].split(" | ")
    assert "deals 4 damage" in left and "deals 3 damage" in right
    assert "  amount: 4 → 3" in result.output.splitlines()
    assert "extra" not in result.output.split("first divergence")[1].split("yours:")[0]
    assert not any(line.strip().startswith("extra:") for line in result.output.splitlines())
    assert "expectations on your engine: met (the case passes)" in result.output


def test_identical_logs_have_no_mark_and_the_table_keeps_to_the_width(diverger):
    result = invoke("show", CASE, "--engine", diverger("same"), "--width", 72)
    assert result.exit_code == 0, result.output
    table = table_of(result.output)
    assert not any(line.startswith(">") for line in table)
    assert all(len(line) <= 72 for line in table), max(table, key=len)
    assert "the logs agree" in result.output
    # the page states its "same event" rule (PROTOCOL §4): one line under the legend
    from mtg_judge.conformance.sidebyside import SAME_EVENT_RULE
    assert " ".join(SAME_EVENT_RULE.split()) in " ".join(result.output.split())
    assert "any event of that type" in SAME_EVENT_RULE and "absence included" in SAME_EVENT_RULE
    # without --width, COLUMNS decides (no terminal needed)
    wide = CliRunner().invoke(main, ["show", CASE, "--engine", diverger("same")],
                              env={"COLUMNS": "100"})
    assert wide.exit_code == 0 and max(len(line) for line in table_of(wide.output)) <= 100


def test_priority_events_are_shown_on_request(diverger):
    hidden = invoke("show", CASE, "--engine", diverger("same"), "--width", 120)
    shown = invoke("show", CASE, "--engine", diverger("same"), "--width", 120, "--priority")
    assert "receives priority" not in "\n".join(table_of(hidden.output))
    assert "receives priority" in "\n".join(table_of(shown.output))


def test_a_skipping_engine_exits_1_and_says_why(partial):
    result = invoke("show", "classic.combat.attacking-taps-and-attacks-the-opponent",
                    "--engine", partial, "--width", 100)
    assert result.exit_code == 1, result.output
    assert "SKIPPED (combat is not implemented)" in result.output
    assert "action:declare_attackers" in result.output  # the needs line


def test_show_engine_bad_usage_and_a_dead_engine_exit_2(tmp_path):
    assert invoke("show", CASE, "--width", 80).exit_code == 2  # --width needs --engine
    assert invoke("show", CASE, "--engine", "").exit_code == 2
    assert invoke("show", CASE, "--engine", "x", "--width", 10).exit_code == 2
    assert invoke("show", "no.such.fixture", "--engine", "x").exit_code == 2
    dead = invoke("show", CASE, "--engine", f"{sys.executable} -c 'import sys; sys.exit(3)'")
    assert dead.exit_code == 2 and "cannot run the engine" in dead.output  # issue 25


def test_align_pairs_changes_and_lists_surplus_events():
    ref = [{"type": "a"}, {"type": "b", "n": 1}, {"type": "c"}, {"type": "d"}]
    eng = [{"type": "a", "extra": 1}, {"type": "b", "n": 2}, {"type": "x"}, {"type": "y"},
           {"type": "d"}, {"type": "priority_passed", "player": "bob"}, 7]
    rows = align(ref, eng)
    assert [(r.tag, r.ref, r.eng) for r in rows] == [
        ("equal", 0, 0), ("changed", 1, 1), ("changed", 2, 2), ("engine", None, 3),
        ("equal", 3, 4), ("engine", None, 6)]
    assert first_divergence(rows) == 1
    assert first_divergence(align(ref, [*ref, {"type": "priority_passed"}])) is None


def test_a_rejection_worded_differently_is_no_divergence():
    """PROTOCOL §10.5: ``message`` is free text, so it is neither aligned on nor spelt out."""
    rej = {"type": "action_rejected", "at": 1, "player": "alice", "action": "cast",
           "code": "cannot_pay", "message": "not enough mana"}
    ref = [{"type": "a"}, rej, {"type": "b"}]
    eng = [{"type": "a"}, {**rej, "message": "you can't pay {R}"}, {"type": "b"}]
    assert first_divergence(align(ref, eng)) is None
    assert divergence_lines(ref, eng) == []
    other = [{"type": "a"}, {**rej, "code": "invalid_payment", "message": "x"}, {"type": "b"}]
    lines = divergence_lines(ref, other)
    assert any('code: "cannot_pay" → "invalid_payment"' in line for line in lines)
    assert not any(line.strip().startswith("message") for line in lines)


# --------------------------------------------------------------------------------------------
# What a case needs


def test_the_needs_of_a_known_fixture():
    case = next(c for c in collect(FIXTURES_DIR, rulesets=["modern"], keyword=CASE)
                if c.fixture_id == CASE)
    assert case_needs(case.scenario) == {
        "actions": ["cast", "pass", "resolve"], "keywords": [], "abilities": ["mana"],
        "effects": ["deal_damage", "modify_pt"], "triggers": [], "layouts": [], "setup": [],
        "events": ["priority_received", "spell_cast", "spell_resolved",
                   "state_based_action", "zone_changed"],
        "rejections": [], "capabilities": ["checkpoints", "events", "state"]}


def test_needs_reach_into_nested_effects_granted_keywords_and_probes():
    scenario = {
        "setup": {"seed": 1, "players": [], "start_of_game": True},
        "script": [{"action": "cast"}, {"action": "suspend"}, {"nope": 1}],
        "cards": {
            "A": {"layout": "adventure", "keywords": ["flash"], "abilities": [
                {"kind": "triggered", "trigger": {"event": "enters_battlefield"},
                 "effects": [{"type": "conditional", "then": {"effects": [
                     {"type": "grant_keywords", "keywords": ["haste"]}]}}]},
                {"kind": "static", "effect": {"type": "cant_block"}}]},
            "B": {"layout": "normal", "keywords": [], "abilities": [],
                  "spell": {"effects": [{"type": "deal_damage"}]}}},
        "expect": {"events": [{"type": "spell_cast"}], "absent": [{"card": "x"}],
                   "rejections": [{"at": 1, "code": "not_your_priority"}],
                   "checkpoints": [{"after": 0, "legal": [{"action": "pass"}],
                                    "illegal": [{"action": {"action": "activate"},
                                                 "code": "summoning_sick"}]}]}}
    assert case_needs(scenario) == {
        "actions": ["activate", "cast", "pass", "suspend"], "keywords": ["flash", "haste"],
        "abilities": ["static", "triggered"],
        "effects": ["cant_block", "conditional", "deal_damage", "grant_keywords"],
        "triggers": ["enters_battlefield"], "layouts": ["adventure"],
        "setup": ["start_of_game"], "events": ["action_rejected", "spell_cast"],
        "rejections": ["not_your_priority", "summoning_sick"],
        "capabilities": ["checkpoints", "events"]}
    assert flatten({"keywords": ["flash"], "actions": ["resolve", "cast"]}) == [
        "action:cast", "action:resolve", "keyword:flash"]
    with pytest.raises(TypeError):
        case_needs([])


def test_export_puts_the_needs_in_each_case_file_and_the_manifest(tmp_path):
    out = tmp_path / "bundle"
    result = invoke("export", out, "-k", CASE)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    cases = {c.name: c for c in collect(FIXTURES_DIR, keyword=CASE)}
    assert manifest["cases"] and len(manifest["cases"]) == len(cases)
    for entry in manifest["cases"]:
        record = json.loads((out / entry["file"]).read_text(encoding="utf-8"))
        assert record["needs"] == entry["needs"] == case_needs(cases[entry["id"]].scenario)
    # and the bundle still plays
    assert invoke("run", "--bundle", out).exit_code == 0


# --------------------------------------------------------------------------------------------
# What to implement next


def record(name, status, message="", **needs):
    return {"name": name, "status": status, "message": message,
            "needs": {k: list(v) for k, v in needs.items()}}


def test_next_steps_ranks_reasons_and_missing_needs():
    cases = [
        record("p1", "passed", actions=["cast", "resolve"]),
        record("s1", "skipped", "combat", actions=["cast", "declare_attackers"]),
        record("s2", "skipped", "combat", actions=["declare_attackers", "declare_blockers"]),
        record("s3", "skipped", "combat", actions=["declare_attackers"], keywords=["flying"]),
        record("s4", "skipped", "keywords", actions=["cast"], keywords=["flying"]),
        record("s5", "skipped", "keywords", keywords=["haste"]),
        record("s6", "skipped", "", keywords=["flash"]),
        {"name": "old", "status": "skipped", "message": "aardvark"},  # no needs: an old report
        record("f1", "failed", keywords=["trample"]),
    ]
    ranking = next_steps(cases)
    assert ranking["skipped"] == 7
    assert [(r["reason"], r["cases"]) for r in ranking["reasons"]] == [
        ("combat", 3), ("keywords", 2), ("(no reason given)", 1), ("aardvark", 1)]
    assert ranking["reasons"][0]["examples"] == ["s1", "s2", "s3"]
    assert [(n["need"], n["unlocks"], n["cases"]) for n in ranking["needs"]] == [
        ("action:declare_attackers", 1, 3), ("keyword:flying", 1, 2), ("keyword:flash", 1, 1),
        ("keyword:haste", 1, 1), ("action:declare_blockers", 0, 1)]
    text = format_next_steps(ranking, rows=2)
    assert text[0] == "what to implement next (7 skipped cases):"
    assert [line.split()[0] for line in text[2:4]] == ["3", "2"]
    assert "… 2 more reasons" in text[4] and "… 3 more needs" in text[-1]
    assert text.index("  unlocks  skipped with it  missing need (in no passed case)") > 4
    assert format_next_steps(next_steps([record("p", "passed")])) == []


def test_run_and_report_print_the_ranked_table_and_the_html_shows_it(small_tree, partial, tmp_path):
    out = tmp_path / "report"
    result = invoke("run", "--fixtures", small_tree, "--engine", partial, "--ruleset", "modern",
                    "--report-dir", out)
    assert result.exit_code == 0, result.output
    cases = collect(small_tree, rulesets=["modern"])
    combat = sum("declare_attackers" in case_needs(c.scenario)["actions"] for c in cases)
    keywords = sum(bool(case_needs(c.scenario)["keywords"]) and
                   "declare_attackers" not in case_needs(c.scenario)["actions"] for c in cases)
    assert combat > keywords > 0
    lines = result.output.splitlines()
    head = lines.index(f"what to implement next ({combat + keywords} skipped cases):")
    assert lines[head + 2].split() == [str(combat), "combat", "is", "not", "implemented"]
    assert lines[head + 3].split() == [str(keywords), "keywords", "are", "not", "implemented"]
    # the needs table is sorted by unlocks, then cases, descending
    needs_rows = [line.split() for line in lines[head + 6:] if line.strip()
                  and line.split()[0].isdigit()]
    keys = [(-int(r[0]), -int(r[1])) for r in needs_rows]
    assert needs_rows and keys == sorted(keys)
    # every case line of the report carries its needs
    from mtg_judge.conformance.reports import read_report

    saved = read_report(out / "report.jsonl")
    by_name = {c.name: c for c in cases}
    assert all(c["needs"] == case_needs(by_name[c["name"]].scenario) for c in saved.cases)
    # 'report' prints the same table from the file alone, and the HTML has it
    again = invoke("report", out / "report.jsonl")
    assert again.exit_code == 0
    assert "\n".join(lines[head:head + 4]) in again.output
    page = (out / "index.html").read_text(encoding="utf-8")
    assert '<h2 id="next">What to implement next</h2>' in page
    assert page.index("combat is not implemented") < page.index("keywords are not implemented")


def test_the_module_docstrings_name_the_shapes():
    assert "capabilities" in needs_module.case_needs.__doc__
    assert "unlocks" in needs_module.next_steps.__doc__
