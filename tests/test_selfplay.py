"""Self-play and fuzzing (conformance/selfplay.py, engine/legal.py): legal actions, the
decks, hostile inputs, the invariants, shrinking, fixture drafts, the CLI, and the CI run of
random games with every invariant checked (216 games; the 1,000 of the long run are marked
``slow``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mtg_judge.conformance import selfplay as sp
from mtg_judge.engine import legal, load_card_db, run_scenario
from mtg_judge.engine.errors import ScriptExhausted
from mtg_judge.engine.scenario import ScriptInputs, build_game

ROOT = Path(__file__).resolve().parent.parent
DB = load_card_db()


# ------------------------------------------------------------------------------ helpers
class Capture:
    """An input source that feeds a script, then stops at the next decision and keeps
    it (the game stays paused inside ``Game.ask``: legal_actions can look at it)."""

    def __init__(self, script):
        self.inner = ScriptInputs(list(script))
        self.decision = None

    def next(self, game, decision):
        try:
            return self.inner.next(game, decision)
        except ScriptExhausted:
            self.decision = decision
            raise


def position(setup, script=(), ruleset="modern"):
    """The game and the pending decision after ``script`` (state as in a fixture)."""
    source = Capture(script)
    game = build_game({"setup": setup}, ruleset, DB, source)
    try:
        game.play()
    except ScriptExhausted:
        pass
    assert source.decision is not None, "the game ended before the script did"
    return game, source.decision


def main_phase(hand=(), battlefield=(), opp_battlefield=(), **extra):
    return {"seed": 1, "turn": 3, "active_player": "alice", "step": "precombat_main", **extra, "players": [
        {"id": "alice", "library": [{"alias": f"al{i}", "card": "Island"} for i in range(5)],
         "hand": [{"alias": a, "card": c} for a, c in hand],
         "battlefield": [{"alias": a, "card": c} for a, c in battlefield]},
        {"id": "bob", "library": [{"alias": f"bl{i}", "card": "Island"} for i in range(5)],
         "battlefield": [{"alias": a, "card": c} for a, c in opp_battlefield]}]}


def applied(setup, script, inp, ruleset="modern"):
    """Was ``inp``, given after ``script``, accepted by the engine for real?"""
    result = run_scenario({"setup": setup, "script": list(script) + [inp]}, ruleset, DB)
    at = len(script)
    return not any(e["type"] in ("action_rejected", "script_error") and e.get("at") == at for e in result["events"])


# --------------------------------------------------------------------------- legal actions
def test_priority_offers_pass_land_and_each_target_of_a_castable_spell():
    setup = main_phase(hand=[("bolt", "Lightning Bolt"), ("for", "Forest"), ("bear", "Grizzly Bears")],
                       battlefield=[("m1", "Mountain")], opp_battlefield=[("wolf", "Tundra Wolves")])
    game, decision = position(setup)
    assert decision == {"kind": "priority", "player": "alice"}
    actions = legal.legal_actions(game, decision)
    assert {"action": "pass", "player": "alice"} in actions
    assert {"action": "play_land", "player": "alice", "card": "for"} in actions
    bolts = [a for a in actions if a.get("card") == "bolt"]
    assert sorted(t for a in bolts for t in a["targets"]) == ["alice", "bob", "wolf"]
    assert all(a["pay_with"] == ["m1"] for a in bolts)
    # Grizzly Bears costs {1}{G}: one Mountain can't pay (cheap filter, no dry run)
    assert not [a for a in actions if a.get("card") == "bear"]


def test_every_offered_action_is_accepted_for_real():
    setup = main_phase(hand=[("bolt", "Lightning Bolt"), ("salve", "Healing Salve"), ("jilt", "Jilt"),
                             ("blaze", "Blaze"), ("grudge", "Ancient Grudge")],
                       battlefield=[("m1", "Mountain"), ("p1", "Plains"), ("i1", "Island"), ("i2", "Island"),
                                    ("f1", "Forest"), ("elf", "Llanowar Elves"), ("tome", "Jayemdae Tome")],
                       opp_battlefield=[("wolf", "Tundra Wolves"), ("gnomes", "Bottle Gnomes")])
    game, decision = position(setup)
    actions = legal.legal_actions(game, decision)
    kinds = {(a["action"], a.get("card") or a.get("source")) for a in actions}
    assert ("cast", "salve") in kinds and ("cast", "jilt") in kinds and ("cast", "blaze") in kinds
    assert any(a.get("kicker") == [0] for a in actions)        # Jilt kicked: a second target
    assert any(a.get("modes") == [1] for a in actions)         # Healing Salve's second mode
    assert {a["x"] for a in actions if a.get("card") == "blaze"} == {0, 1, 5}  # six mana sources
    assert ("activate", "elf") in kinds                        # a mana ability
    for inp in actions:
        assert applied(setup, [], inp), inp


def test_not_offered_at_instant_speed_and_after_the_land_drop():
    setup = main_phase(hand=[("hammer", "Volcanic Hammer"), ("shock", "Shock"), ("for", "Forest")],
                       battlefield=[("m1", "Mountain"), ("m2", "Mountain")], lands_played=1)
    game, decision = position(setup, [{"action": "pass", "player": "alice"}])
    assert decision == {"kind": "priority", "player": "bob"}
    assert [a["action"] for a in legal.legal_actions(game, decision)] == ["pass"]
    game, decision = position(setup)
    cards = {a.get("card") for a in legal.legal_actions(game, decision)}
    assert "hammer" in cards and "shock" in cards and "for" not in cards  # one land per turn


def test_declarations_and_blocks_are_legal():
    setup = {"seed": 1, "turn": 3, "active_player": "alice", "step": "beginning_of_combat", "players": [
        {"id": "alice", "library": [{"alias": "al", "card": "Island"}],
         "battlefield": [{"alias": "bear", "card": "Grizzly Bears"}, {"alias": "angel", "card": "Serra Angel"},
                         {"alias": "sick", "card": "Hill Giant", "summoning_sick": True},
                         {"alias": "wall", "card": "Wall of Stone"}]},
        {"id": "bob", "library": [{"alias": "bl", "card": "Island"}],
         "battlefield": [{"alias": "spider", "card": "Giant Spider"}, {"alias": "wolf", "card": "Tundra Wolves"}]}]}
    script = [{"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}]
    game, decision = position(setup, script)
    assert decision["kind"] == "declare_attackers"
    sets = [a["attackers"] for a in legal.legal_actions(game, decision)]
    assert sets == [[], ["bear"], ["angel"], ["bear", "angel"]]
    attack = {"action": "declare_attackers", "player": "alice", "attackers": ["bear", "angel"]}
    game, decision = position(setup, script + [attack, {"action": "resolve"}])
    assert decision == {"kind": "declare_blockers", "player": "bob"}
    blocks = legal.legal_actions(game, decision)
    assert {"action": "declare_blockers", "player": "bob", "blocks": []} in blocks
    for inp in blocks:
        for b in inp["blocks"]:  # the wolf can't block the flying angel, the spider can (reach)
            assert (b["blocker"], b["attacker"]) != ("wolf", "angel")
        assert applied(setup, script + [attack, {"action": "resolve"}], inp)


def test_choices_of_a_resolving_search():
    setup = main_phase(hand=[("scry", "Sylvan Scrying")], battlefield=[("f1", "Forest"), ("f2", "Forest")])
    script = [{"action": "cast", "player": "alice", "card": "scry", "pay_with": ["f1", "f2"]},
              {"action": "pass", "player": "alice"}, {"action": "pass", "player": "bob"}]
    game, decision = position(setup, script)
    assert decision["reason"] == "search"
    choices = [a["choice"] for a in legal.legal_actions(game, decision)]
    assert choices == ["al0", "none"]  # one Island of the five (the same card), or fail to find


def test_plan_payment_uses_the_pool_then_single_colors_then_any_color():
    from mtg_judge.engine.mana import ManaCost
    setup = main_phase(battlefield=[("birds", "Birds of Paradise"), ("f1", "Forest"), ("m1", "Mountain")])
    setup["players"][0]["mana_pool"] = {"R": 1}
    game, _ = position(setup)
    assert legal.plan_payment(game, "alice", ManaCost.parse("{R}")) == []
    assert legal.plan_payment(game, "alice", ManaCost.parse("{1}{G}{R}")) == ["f1", "m1"]
    assert legal.plan_payment(game, "alice", ManaCost.parse("{W}{G}")) == [{"source": "birds", "color": "W"}, "f1"]
    assert legal.plan_payment(game, "alice", ManaCost.parse("{5}")) is None


def test_a_land_enchanted_with_fertile_ground_pays_with_its_extra_color():
    """Found by selfplay: the planner left such a land out (pay_with couldn't name the color
    of the Aura's triggered mana, CR 605.1b); now ``extra_color`` does."""
    from mtg_judge.engine.mana import ManaCost
    setup = main_phase(hand=[("bolt", "Lightning Bolt")],
                       battlefield=[("f1", "Forest"), ("fg", "Fertile Ground")])
    setup["players"][0]["battlefield"][1]["attached_to"] = "f1"
    game, decision = position(setup)
    assert legal.plan_payment(game, "alice", ManaCost.parse("{R}")) == [{"source": "f1", "extra_color": "R"}]
    assert legal.plan_payment(game, "alice", ManaCost.parse("{G}{U}")) == [{"source": "f1", "extra_color": "U"}]
    assert legal.plan_payment(game, "alice", ManaCost.parse("{3}")) is None
    assert legal.available_mana(game, "alice") == 2
    bolts = [a for a in legal.legal_actions(game, decision) if a.get("card") == "bolt"]
    assert bolts and all(a["pay_with"] == [{"source": "f1", "extra_color": "R"}] for a in bolts)
    taps = [a for a in legal.legal_actions(game, decision) if a.get("source") == "f1"]
    assert sorted(a["extra_color"] for a in taps) == ["B", "G", "R", "U", "W"]
    for inp in bolts + taps:
        assert applied(setup, [], inp), inp


# ------------------------------------------------------------------------------- decks
def test_decks_are_forty_cards_and_cover_every_mechanic_of_the_card_pool():
    decks = sp.load_decks()
    assert len(decks) >= 4 and all(len(d.cards) == 40 for d in decks)
    pool = {name: _features(d.raw) for name, d in DB.items()}
    in_decks = set().union(*(pool[c] for d in decks for c in d.cards))
    assert set().union(*pool.values()) - in_decks == set()


def _features(card) -> set:
    """Mechanics of a card file: keywords, ability kinds, effect and trigger types, cost,
    condition and filter keys, a cost with X, no mana cost."""
    out = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("type", "event", "kind", "keyword") and isinstance(v, str):
                    out.add(f"{k}:{v}")
                if k in ("cost", "condition", "filter") and isinstance(v, dict):
                    out.update(f"{k}:{key}" for key in v)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for i in x:
                walk(i)
    walk(card)
    out.update(f"keyword:{k}" for k in card.get("keywords", ()) if isinstance(k, str))
    if card.get("mana_cost") is None:
        out.add("no mana cost")
    elif "{X}" in card["mana_cost"]:
        out.add("X")
    return out


def test_deck_errors_name_the_file_and_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# a deck\n4 Lightning Bolt\n3 Lightning Blot\n")
    with pytest.raises(sp.DeckError, match=r"bad\.txt:3: unknown card 'Lightning Blot' \(did you mean "
                                           r"'Lightning Bolt'\?\)"):
        sp.load_deck(path)
    path.write_text("Lightning Bolt\n")
    with pytest.raises(sp.DeckError, match=r"bad\.txt:1: expected '<count> <card name>', got 'Lightning Bolt'"):
        sp.load_deck(path)


def test_setup_samples_decks_with_their_share_of_lands():
    decks = sp.load_decks()
    setup = sp.build_setup(7, (decks[0], decks[1]), deck_size=24)
    assert setup["start_of_game"] is True and setup["seed"] == 7
    for p, deck in zip(setup["players"], decks):
        lands = [e for e in p["library"] if "Land" in DB[e["card"]].types]
        assert len(p["library"]) == 24 and len(lands) == round(24 * len(deck.lands) / 40)
    assert setup == sp.build_setup(7, (decks[0], decks[1]), deck_size=24)


# ------------------------------------------------------------------------- hostile inputs
def test_hostile_inputs_are_schema_valid_and_rejected(tmp_path):
    """Every kind of decision of a few games: each hostile input matches the input schema
    and the engine rejects it with a documented code (on a dry run here)."""
    seen_kinds = set()
    checked = 0
    for seed in range(6):
        record = sp.Record(sp.RULESETS[seed % 3], sp.build_setup(seed, tuple(sp.load_decks()[seed % 3:seed % 3 + 2]),
                                                                    deck_size=24))
        settings = sp.Settings(turn_cap=6, hostile_rate=0.0)
        probe = _HostileProbe(record, settings, sp.Stats())
        game = build_game({"setup": record.setup}, record.ruleset, DB, probe)
        try:
            game.play()
        except sp.TurnCapReached:
            pass
        assert not probe.problems, probe.problems[:3]
        seen_kinds |= probe.kinds
        checked += probe.checked
    assert checked > 500
    assert {"priority", "declare_attackers", "mulligan"} <= seen_kinds


class _HostileProbe(sp.SelfPlayInputs):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.problems, self.kinds, self.checked = [], set(), 0

    def next(self, game, decision):
        if game.turn <= self.settings.turn_cap and len(self.record.inputs) % 3 == 0:
            for group, inputs in sp.hostile_groups(game, decision).items():
                for inp in inputs:
                    self.check(game, decision, group, inp)
        return super().next(game, decision)

    def check(self, game, decision, group, inp):
        """Schema-valid (but the group 'wrong type', which is not) and refused with a
        documented code (bad_input exactly for the wrong types)."""
        self.checked += 1
        self.kinds.add(decision["kind"])
        invalid = _input_is_invalid(inp)
        ok, code = legal.accepts(game, decision, inp)
        if invalid != (group == "wrong type") or ok or code not in sp.documented_codes() \
                or (code == "bad_input") != (group == "wrong type"):
            self.problems.append((decision, group, inp, invalid, ok, code))


def _input_is_invalid(inp) -> bool:
    """``bool(sp.input_schema_errors(inp))``, asked of jsonschema_rs first (a thousand times
    faster): its yes is trusted, as in conformance/loader.py (tests/test_fast_validation.py
    checks that it never accepts what jsonschema refuses); a no is confirmed by jsonschema."""
    try:
        if _fast_input_validator().is_valid(inp):
            return False
    except Exception:  # noqa: BLE001 - data it cannot take: jsonschema decides
        pass
    return bool(sp.input_schema_errors(inp))


_FAST_INPUT_VALIDATOR = []


def _fast_input_validator():
    if not _FAST_INPUT_VALIDATOR:
        import jsonschema_rs

        from mtg_judge.conformance import loader
        _FAST_INPUT_VALIDATOR.append(jsonschema_rs.Draft202012Validator(
            {"$ref": loader.SCHEMA_BASE_URI + "scenario.schema.json#/$defs/input"},
            registry=loader._fast_registry(), offline=True))
    return _FAST_INPUT_VALIDATOR[0]


# ---------------------------------------------------------------------------- invariants
def test_a_game_replays_byte_identically_and_resumes_identically():
    decks = sp.load_decks()
    settings = sp.Settings(turn_cap=6, deck_size=24, resume_every=1)
    result = sp.play_game(0, 42, (decks[0], decks[3]), "timespiral-2006", settings)
    assert result.failure is None, result.failure and result.failure.summary()
    assert result.stats.checks["determinism"] == 2  # the replay and the resumed game
    assert result.outcome == "turn_cap" and result.stats.inputs > 50


def test_conservation_problem_finds_a_card_in_two_zones():
    setup = main_phase(hand=[("bolt", "Lightning Bolt")])
    game, _ = position(setup)
    assert sp.conservation_problem(game) is None
    bolt = game.players["alice"].hand[0]
    game.players["alice"].graveyard.append(bolt)
    assert "in alice's graveyard but says it is in hand" in sp.conservation_problem(game)
    game.players["alice"].graveyard.clear()
    game.players["alice"].hand.clear()
    assert sp.conservation_problem(game) == "card(s) bolt are in no zone"


def _paradigm_setup():
    fixture = json.loads((ROOT / "fixtures/strixhaven/paradigm/exiled-then-a-free-copy-each-first-main-phase.json")
                         .read_text())
    return fixture["setup"]


PARADIGM_TO_THE_COPY = [{"action": "cast", "player": "alice", "card": "practicum"}, {"action": "resolve"},
                        {"action": "advance", "to": "precombat_main", "turn": 5}, {"action": "resolve"}]


def test_conservation_lets_a_paradigm_copy_wait_in_exile_until_state_based_actions():
    # the self-play failure "the copy copy#1 is in alice's exile" (green-white deck, seed 0,
    # modern): as the delayed ability resolves the copy is created in exile and its
    # controller is asked whether to cast it (CR 707.12); not cast, it ceases to exist the
    # next time state-based actions are checked (CR 704.5e, strixhaven.paradigm.02)
    game, decision = position(_paradigm_setup(), PARADIGM_TO_THE_COPY)
    assert decision == {"kind": "may_cast", "player": "alice", "card": "copy#1", "reason": "paradigm"}
    assert [o.ref for o in game.players["alice"].exile if o.is_copy] == ["copy#1"]
    assert sp.conservation_problem(game, tokens=False) is None
    # once state-based actions have been checked (a priority decision) it may not be there
    assert "paradigm copy copy#1 is still in alice's exile" in sp.conservation_problem(game, tokens=True)
    game, decision = position(_paradigm_setup(), PARADIGM_TO_THE_COPY + [
        {"action": "choose", "player": "alice", "choice": "no"}])
    assert decision["kind"] == "priority"
    assert not [o for o in game.players["alice"].exile if o.is_copy]
    assert sp.conservation_problem(game, tokens=True) is None


def test_conservation_keeps_copies_of_spells_on_the_stack_and_prepared_copies_linked():
    setup = main_phase(battlefield=[("m1", "Mountain"), ("emc", "Emeritus of Conflict")])
    setup["players"][0]["battlefield"][1]["prepared"] = True
    game, _ = position(setup)
    copy_ = game.objects["prepared#1"]
    assert copy_.zone == "exile" and copy_.is_copy
    assert sp.conservation_problem(game) is None  # strixhaven.prepare.09: it stays while emc is prepared
    game.objects["emc"].prepared = False
    assert "prepared copy prepared#1" in sp.conservation_problem(game)
    game.objects["emc"].prepared = True
    # any other copy (a copy of a spell, CR 707.10a) exists only on the stack
    copy_.prepared_for = None
    assert sp.conservation_problem(game) == "the copy prepared#1 is in alice's exile"


def _crashing_engine(monkeypatch):
    """A planted engine bug: playing a Forest on turn 4 or later raises RuntimeError."""
    from mtg_judge.engine.game import Game
    real = Game.play_land

    def play_land(self, player, inp):
        obj = self.find(inp.get("card")) if isinstance(inp.get("card"), str) else None
        if obj is not None and obj.name == "Forest" and self.turn >= 4:
            raise RuntimeError("planted bug")
        return real(self, player, inp)
    monkeypatch.setattr(Game, "play_land", play_land)


def test_a_failing_game_is_shrunk_and_saved_as_a_fixture_draft(monkeypatch, tmp_path):
    _crashing_engine(monkeypatch)
    decks = {d.name: d for d in sp.load_decks()}
    settings = sp.Settings(turn_cap=10, deck_size=24, shrink_seconds=60)
    result = sp.play_game(0, 5, (decks["green-white"], decks["green-white"]), "modern", settings)
    failure = result.failure
    assert failure is not None and failure.invariant == "exception"
    assert "planted bug" in failure.message and "RuntimeError" in failure.detail
    # a Forest played on turn 4 or later: the mulligan decisions and the land drop are enough
    assert len(failure.essential) <= 4, failure.essential
    assert failure.essential[-1]["action"] == "play_land"
    path = sp.save_failure(failure, tmp_path)
    draft = json.loads(path.read_text())
    assert draft["id"] == "selfplay.exception.seed-5"
    assert any(inp["action"] == "advance" for inp in draft["script"])
    assert len(draft["script"]) < 20
    with pytest.raises(RuntimeError, match="planted bug"):  # the draft reproduces the failure
        run_scenario(draft, "modern", DB)


def test_legality_failure_when_the_engine_accepts_an_illegal_input(monkeypatch):
    """A planted bug: the engine accepts a land played at instant speed."""
    from mtg_judge.engine.game import Game
    monkeypatch.setattr(Game, "sorcery_timing_ok", lambda self, player: True)
    decks = sp.load_decks()
    settings = sp.Settings(turn_cap=8, deck_size=24, hostile_rate=0.6, shrink_tests=0)
    failures = [sp.play_game(i, 100 + i, (decks[0], decks[1]), "modern", settings, shrink=False).failure
                for i in range(8)]
    assert any(f is not None and f.invariant == "legality" and "was accepted" in f.message for f in failures)


def test_stuck_and_loop_are_reported(monkeypatch):
    decks = sp.load_decks()
    real = legal.candidate_actions

    def no_blocks(game, decision):  # a driver (or engine) that finds no answer to a declaration
        return [] if decision["kind"] == "declare_blockers" else real(game, decision)
    monkeypatch.setattr(legal, "candidate_actions", no_blocks)
    settings = sp.Settings(turn_cap=8, deck_size=24)
    # the first game (of seeds 0, 1, ...) that reaches a blocking decision fails as stuck; which
    # one that is moves with the decks (seed 6 since the red-green deck's Ancient Grudge left)
    failures = [sp.play_game(i, i, (decks[3], decks[4]), "modern", settings, shrink=False).failure for i in range(8)]
    assert any(f is not None and f.invariant == "stuck" for f in failures)
    monkeypatch.setattr(legal, "candidate_actions", real)
    settings = sp.Settings(turn_cap=8, deck_size=24, max_inputs=40)
    failure = sp.play_game(0, 1, (decks[0], decks[1]), "modern", settings, shrink=False).failure
    assert failure.invariant == "loop" and "40 inputs" in failure.message


def test_the_same_state_and_decision_coming_back_is_a_loop():
    """The loop check (conformance/selfplay.py ``_check_state``): the same state and
    decision met more than ``loop_limit`` times fails the game as a loop, counted from its
    first meeting, though the state's full key is taken only once its cheap summary repeats;
    a changed state (here a life total) starts again from one."""
    from mtg_judge.engine.cards import load_card_db
    from mtg_judge.engine.scenario import ScriptInputs, build_game
    game = build_game({"setup": {"turn": 3, "players": [{"id": "alice"}, {"id": "bob"}]}}, "modern",
                      load_card_db(), ScriptInputs([]))
    settings = sp.Settings(loop_limit=5)
    source = sp.SelfPlayInputs(sp.Record("modern", {"seed": 1}), settings, sp.Stats())
    decision = {"kind": "priority", "player": "alice"}
    for _ in range(5):
        source._check_state(game, decision, 1)
    game.players["alice"].life -= 1  # another state: its own count
    for _ in range(5):
        source._check_state(game, decision, 1)
    with pytest.raises(sp.InvariantFailure, match="came back 6 times") as failure:
        source._check_state(game, decision, 1)
    assert failure.value.invariant == "loop"
    # another decision in the same state is not the same meeting
    source._check_state(game, {"kind": "priority", "player": "bob"}, 1)


# ----------------------------------------------------------------------------------- CLI
def _cli(*args, timeout=900):
    return subprocess.run([sys.executable, "-m", "mtg_judge.tools.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "Invalid value for '--games'"),
    (["--turn-cap", "x"], "Invalid value for '--turn-cap'"),
    (["--ruleset", "modern-2030"], "Invalid value for '--ruleset'"),
    (["--decks", "no/such/deck.txt"], "Invalid value for '--decks'"),
    (["--hostile-rate", "2"], "Invalid value for '--hostile-rate'"),
    (["--deck-size", "3"], "Invalid value for '--deck-size'"),
])
def test_selfplay_usage_errors_exit_2(args, message):
    proc = _cli("selfplay", *args)
    assert proc.returncode == 2 and message in proc.stderr


def test_selfplay_bad_deck_exits_2(tmp_path):
    deck = tmp_path / "deck.txt"
    deck.write_text("40 Lightning Blot\n")
    proc = _cli("selfplay", "--games", "1", "--decks", str(deck))
    assert proc.returncode == 2
    assert f"{deck}:1: unknown card 'Lightning Blot' (did you mean 'Lightning Bolt'?)" in proc.stderr


def test_selfplay_a_few_games_with_a_deck_file(tmp_path):
    out = tmp_path / "figures.json"
    proc = _cli("selfplay", "--games", "3", "--turn-cap", "4", "--decks", str(ROOT / "fixtures/decks/red-green.txt"),
                "--ruleset", "classic-1999", "--json", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    figures = json.loads(out.read_text())
    assert figures["games"] == 3 and figures["failed"] == 0 and figures["by_ruleset"] == {"classic-1999": 3}
    assert "games            3" in proc.stdout and "invariant checks" in proc.stdout


@pytest.mark.parametrize("games,seed", [(216, 1), pytest.param(784, 217, marks=pytest.mark.slow)],
                         ids=["216", "784-more"])
def test_ci_plays_random_games_with_every_invariant_and_no_failure(tmp_path, games, seed):
    """The CI run: short games (turn cap 8, 24-card samples of the decks, the three
    rulesets, every deck pairing), two processes, every invariant checked. 216 games by
    default: every pairing of the six decks under each of the three rulesets twice (the
    game plan cycles through them every 108 games, conformance/selfplay.py). The long run,
    marked ``slow``, plays the next 784 (seeds 217-1,000, the plan starting again at its
    first pairing as 216 is two cycles): with the 216 they are the 1,000 games of
    ``selfplay --games 1000 --seed 1``, each played once (only which of them are also
    resumed from half their record differs: every 10th of each run).
    `pytest -m slow` runs only the 784; the README's `pytest -n auto` runs both."""
    out = tmp_path / "ci.json"
    workers = "2" if (os.cpu_count() or 1) >= 2 else "1"
    proc = _cli("selfplay", "--games", str(games), "--seed", str(seed), "--turn-cap", "8", "--deck-size", "24",
                "-n", workers, "--json", str(out), "--save-failures", str(tmp_path / "failures"), timeout=1800)
    figures = json.loads(out.read_text()) if out.exists() else {}
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-3000:]
    assert figures["games"] == games and figures["failed"] == 0 and figures["failures"] == []
    assert figures["turn_cap_hits"] + figures["ended"] == games
    checks = figures["checks"]
    assert set(checks) >= {"conservation", "legality", "loop", "exception", "determinism"}
    assert checks["determinism"] >= games + games // 10  # every game replayed, every 10th also resumed
    assert figures["actions"] > 100 * games and figures["hostile_inputs"] > 5 * games
    assert len(figures["by_ruleset"]) == 3


def test_the_long_run_continues_the_short_one():
    """The 784 games from seed 217 are games 216-999 of the 1,000 from seed 1: the same
    seed, deck pairing, ruleset and low-life start for each (the plan's cycle of 108 games
    and the low-life period divide 216), so the two CI runs above play no game twice."""
    decks = sp.load_decks()
    settings = sp.Settings()
    assert 216 % (len(decks) ** 2 * len(sp.RULESETS)) == 0 and 216 % settings.low_life_every == 0
    for i in range(784):
        assert sp._decks_for(i, decks) == sp._decks_for(216 + i, decks)
        assert sp._ruleset_for(i, sp.RULESETS) == sp._ruleset_for(216 + i, sp.RULESETS)


def test_an_engine_that_never_asks_again_is_a_loop(monkeypatch):
    """The watchdog: an engine stuck in an internal loop (here, a state-based action check
    that never ends) fails the game as a loop instead of hanging the run."""
    import time as _time

    from mtg_judge.engine.game import Game
    real = Game.check_state

    def stuck(self):
        if self.turn >= 3:
            while True:
                _time.sleep(0.01)
        return real(self)
    monkeypatch.setattr(Game, "check_state", stuck)
    decks = sp.load_decks()
    settings = sp.Settings(turn_cap=6, deck_size=24, watchdog_seconds=1.0)
    failure = sp.play_game(0, 3, (decks[0], decks[1]), "modern", settings, shrink=False).failure
    assert failure.invariant == "loop" and "without asking for an input" in failure.message


def test_state_based_actions_left_undone_are_found(monkeypatch):
    """A planted bug: state-based actions are never performed (CR 704.3)."""
    from mtg_judge.engine.game import Game
    monkeypatch.setattr(Game, "check_state", lambda self: False)
    decks = sp.load_decks()
    settings = sp.Settings(turn_cap=10, deck_size=24, shrink_tests=0)
    failures = [sp.play_game(i, 50 + i, (decks[2], decks[4]), "modern", settings, shrink=False).failure
                for i in range(1, 16, 4)]  # low-life games (games 1, 5, 9 with the decks of five-color.txt since Mystic Enforcer)
    assert any(f is not None and f.invariant == "state-based actions" for f in failures), failures


def test_sba_problem_names_the_rule():
    setup = main_phase(battlefield=[("bear", "Grizzly Bears")])
    game, _ = position(setup)
    assert sp.sba_problem(game) is None
    game.battlefield[0].damage = 2
    assert sp.sba_problem(game) == "bear has 2 damage, toughness 2, and was not destroyed (CR 704.5g)"
    game.battlefield[0].damage = 0
    game.players["bob"].life = 0
    assert sp.sba_problem(game) == "bob has 0 life and has not lost (CR 704.5a)"


def test_schemas_of_a_game_are_checked_on_request():
    decks = sp.load_decks()
    settings = sp.Settings(turn_cap=3, deck_size=24, hostile_rate=0.0, check_schemas=True)
    result = sp.play_game(1, 9, (decks[0], decks[5]), "classic-1999", settings, shrink=False)
    assert result.failure is None and result.stats.checks["schema"] > 100


def test_conservation_counts_a_phased_out_permanent_on_the_battlefield():
    """A phased-out permanent (engine/phasing.py) is in no list of the battlefield, but it is
    still there (CR 702.26d): no card is lost."""
    setup = main_phase(battlefield=[("mawcor", "Fledgling Mawcor"), ("i1", "Island"), ("i2", "Island")])
    setup["players"][0]["battlefield"].append({"alias": "van", "card": "Vanishing", "attached_to": "mawcor"})
    game, _ = position(setup, [{"action": "activate", "player": "alice", "source": "van", "ability": 0,
                                "pay_with": ["i1", "i2"]}, {"action": "resolve"}])
    assert "mawcor" not in [o.card for o in game.battlefield]
    assert sp.conservation_problem(game) is None
