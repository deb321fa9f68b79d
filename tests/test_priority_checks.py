"""CR 117.5 in engine/priority.py: whenever a player receives priority, no state-based
action is left to perform and no triggered ability waits, although the check is skipped
after a pass or a rejected input (issue 21)."""

from __future__ import annotations

import json

from mtg_judge.conformance.runner import collect
from mtg_judge.engine import run_scenario
from mtg_judge.engine.decisions import Decisions


def test_a_player_receives_priority_only_in_a_settled_game(monkeypatch):
    asked = unsettled = 0
    original = Decisions.ask

    def ask(self, kind, player, **info):
        nonlocal asked, unsettled
        if kind == "priority" and not self.over:
            asked += 1
            found = []

            def check(game):
                found.append(game.check_state_and_triggers())

            try:
                self.dry_run(check)  # the game is put back whatever the check does
            except Exception:  # noqa: BLE001 - a decision it would need: not settled
                found.append(True)
            unsettled += found[0]
        return original(self, kind, player, **info)

    monkeypatch.setattr(Decisions, "ask", ask)
    cases = [c for c in collect() if not c.problem][::3]
    for case in cases:
        scenario = json.loads(case.scenario_json)
        run_scenario(scenario, case.ruleset, cards=scenario["cards"])
    assert asked > 2000
    assert unsettled == 0
