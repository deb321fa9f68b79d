"""No vacuous passes (issue 24 item 4; docs/PROTOCOL.md §3, "Vacuous cases").

A case whose applied checks would all pass for an engine that did nothing (an empty log, no
checkpoint, the setup's own position as the final state) is ``skipped`` with a message
starting ``vacuous:``, never ``passed``: python-mtg (``state`` only) "passed" the
deck-construction cases on the setup's library sizes alone. The expectations below come
from the rulings the fixtures cite, never from a run: the sealed-deck fixture's state holds
40 and 39 cards, which is its setup (CR 100.2b, ruling classic.g-sealed-deck.01: bob's
39-card deck is illegal, the game does not start, nothing is drawn); the anthem fixture's
3/3 Bears come from Glorious Anthem's static ability (CR 613.4c, ruling
classic.g-controller.01), which an engine has to apply.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mtg_judge.conformance.messages import Result
from mtg_judge.conformance.protocol import CAPABILITIES
from mtg_judge.conformance.runner import VACUOUS, collect, run_case, vacuous_reason

ROOT = Path(__file__).resolve().parent.parent
SEALED = "classic.game.sealed-deck-at-least-forty-cards"
ANTHEM = "classic.abilities.static-ability-is-controlled-by-its-permanents-controller"


class _Engine:
    """A connection stand-in declaring ``capabilities`` and answering the result
    ``reply(scenario)`` (a FORMAT §9 dict) as a typed :class:`Result`."""

    def __init__(self, capabilities, reply):
        self.capabilities = list(capabilities)
        self.reply = reply

    def run(self, scenario, ruleset, *, scenario_json=None):
        return Result.of(self.reply(scenario), 1)


def _case(fixture_id: str):
    [case] = collect(rulesets=["modern"], keyword=fixture_id)
    return case


def _sealed_state() -> dict:
    """The final state ruling classic.g-sealed-deck.01 demands of the sealed-deck fixture
    (written from the ruling: the game does not start, so the libraries keep 40 and 39
    cards and no hand is drawn), which is also its setup."""
    def player(n):
        return {"life": 20, "library": [f"x{i}" for i in range(n)], "hand": [], "graveyard": [], "exile": []}
    return {"turn": 1, "active_player": "alice", "step": "untap", "players": {"alice": player(40), "bob": player(39)},
            "battlefield": {}, "stack": [], "game_over": {"not_started": True, "draw": False, "winners": []}}


def test_a_state_only_engine_passing_only_setup_checks_is_skipped_as_vacuous():
    """python-mtg's case: ``state`` only, an empty script, the only check applied (the
    libraries' sizes) holds in the setup: skipped, its message says why and which
    capability would make the case count; the check itself is still reported passed."""
    outcome = run_case(_case(SEALED), _Engine(["state"], lambda s: {"events": [], "state": _sealed_state()}))
    assert outcome.status == "skipped"
    assert outcome.message.startswith(VACUOUS)
    assert "the engine does not declare the 'events' capability" in outcome.message
    assert [c.name for c in outcome.checks if c.status == "passed"] == ["expect.state"]


def test_the_same_engine_declaring_events_passes_on_what_it_did():
    """With ``events`` the deck checks and ``game_not_started`` (CR 100.2b) are checked:
    an engine logging them passes; one logging nothing fails (not vacuous: failing comes
    first)."""
    events = [{"type": "deck_checked", "player": "alice", "rules": "limited", "legal": True, "problems": []},
              {"type": "deck_checked", "player": "bob", "rules": "limited", "legal": False,
               "problems": ["39 cards, fewer than 40"]},
              {"type": "game_not_started", "players": ["bob"]}]
    caps = ["events", "state"]
    assert run_case(_case(SEALED), _Engine(caps, lambda s: {"events": events, "state": _sealed_state()})).status \
        == "passed"
    assert run_case(_case(SEALED), _Engine(caps, lambda s: {"events": [], "state": _sealed_state()})).status \
        == "failed"


def test_a_state_check_of_characteristics_is_not_vacuous():
    """The anthem fixture checks power and toughness after one pass: the setup states
    neither (the engine derives them, CR 613), so a state-only engine reporting alice's
    Bears 3/3 and bob's 2/2 has shown it applies the static ability: passed. One that
    echoes the printed 2/2 fails."""
    def state(p):
        perm = {"owner": "alice", "controller": "alice", "power": p, "toughness": p}
        return {"battlefield": {"bears": perm, "b_bears": {**perm, "owner": "bob", "controller": "bob", "power": 2,
                                                           "toughness": 2},
                                "anthem": {"owner": "bob", "controller": "alice"}}}
    assert run_case(_case(ANTHEM), _Engine(["state"], lambda s: {"state": state(3)})).status == "passed"
    assert run_case(_case(ANTHEM), _Engine(["state"], lambda s: {"state": state(2)})).status == "failed"


def test_no_reference_case_is_vacuous():
    """Every case of the suite checks something an engine does, with every capability: the
    reference engine passes them all for what it did. Vacuity depends on the fixture and
    the capabilities only, so this needs no run."""
    vacuous = [case.name for case in collect() if not case.problem and vacuous_reason(case, [], CAPABILITIES)]
    assert vacuous == []


def test_every_headline_of_a_run_counts_a_vacuous_case_as_skipped(tmp_path):
    """Through the protocol and every report: a state-only engine (the reference engine
    declaring only ``state``) on the sealed-deck case: the terminal summary, report.jsonl,
    the badge, JUnit and the HTML page give 0 passed of 1, and the run exits 1 (no case
    passed, PROTOCOL §3)."""
    engine = tmp_path / "state_only.py"
    engine.write_text(
        "import sys\n"
        "from mtg_judge.conformance.protocol import reference_implementation, serve\n"
        "sys.exit(serve(implementation={**reference_implementation(), 'capabilities': ['state']}))\n")
    proc = subprocess.run([sys.executable, "-m", "mtg_judge.tools.cli", "run", "--engine",
                           f"{sys.executable} {engine}", "-k", f"{SEALED} and modern", "--report-dir",
                           str(tmp_path / "r")], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "compliance: 0/1 run · - of run · 0.0% of all" in proc.stdout
    lines = [json.loads(x) for x in (tmp_path / "r" / "report.jsonl").read_text().splitlines()]
    [case] = [x for x in lines if x["kind"] == "case"]
    assert case["status"] == "skipped" and case["message"].startswith(VACUOUS)
    assert case["checks"] == {"passed": 1, "failed": 0, "skipped": 6}  # 3 events, 2 absent, script
    assert lines[-1]["counts"]["passed"] == 0 and lines[-1]["counts"]["skipped"] == 1
    assert json.loads((tmp_path / "r" / "badge.json").read_text())["message"].startswith("0.0% (0/1)")
    junit = (tmp_path / "r" / "junit.xml").read_text()
    assert "<skipped" in junit and "vacuous: " in junit
    assert "expect.events[0]: the engine does not declare the 'events' capability" in junit  # its <system-out>
    assert "vacuous: " in (tmp_path / "r" / "index.html").read_text()
