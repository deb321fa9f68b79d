"""The move generator (engine/legal.py and engine/legal_*.py) against the engine, at every
position the fixtures reach.

Every fixture case is replayed with an input source that, before handing out each script
input, asks the generator about the decision pending at that moment (the game paused inside
``Game.ask``):

- **accepts agrees with the engine**: ``legal.accepts(game, decision, input)`` says what the
  engine then does with the input, code included (docs/FORMAT.md §8): the fixtures' inputs
  are the legal ones of their rulings and the refused ones they probe on purpose;
- **the generator lists what the engine accepts**: when the engine accepts the script's
  input, ``candidate_actions`` holds a candidate with the same key (the same action on the
  same card or ability, the same choice, the same trigger order ...; payments and, for
  several targets, target combinations may differ: the generator samples those) and
  ``accepts`` accepts that candidate.

The fixtures are positions here, not expectations: what is compared is the generator with
the engine (issue 22: the move generator is judged by the tests).
"""

from __future__ import annotations

import json
from typing import Any

from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.runner import collect
from mtg_judge.engine import legal
from mtg_judge.engine.errors import GameOver, ScriptError, ScriptExhausted
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game, script_list


def _name(game: Any, ref: Any) -> Any:
    """What a reference names, for comparing candidates: the card name of the object (the
    generator offers one object per card name, ``legal_common.distinct``), else ``ref``."""
    obj = game.find(ref) if isinstance(ref, str) else None
    return (obj.definition.name, obj.zone, obj.face_down) if obj is not None else ref


def _key(game: Any, decision: dict, inp: dict) -> Any:
    """The part of an input the generator must reproduce (None: not compared)."""
    kind, action = decision["kind"], inp.get("action")
    if kind in ("priority", "may_cast"):
        if action == "pass" or action == "choose":
            return (action, inp.get("choice"))
        if isinstance(inp.get("x"), int) and inp["x"] > 1:
            return None  # X is sampled: 0, 1 and the largest payable (legal_casting.x_values)
        alternative = inp.get("alternative") if kind == "priority" else None  # forced by the trigger
        return (action, _name(game, inp.get("card") or inp.get("source")), inp.get("ability"),
                alternative if alternative in (None, "flashback", "morph", "harmonize") else "alt", inp.get("face"))
    if kind == "mulligan":
        return (action, len(inp.get("bottom") or ()))
    if kind == "order_triggers":
        return tuple(_trigger_ref(game, decision, r) for r in inp.get("order") or ())
    if kind == "choose":
        choice = inp.get("choice")
        if decision.get("reason") == "colors" and isinstance(choice, str):
            choice = [choice]  # one color named alone (effects._set_colors_choice)
        if isinstance(choice, list):
            return ("list", tuple(sorted(_name(game, c) for c in choice)))
        return _name(game, choice)
    if kind == "discard":
        return tuple(sorted(_name(game, c) for c in inp.get("cards") or ()))
    if kind == "choose_targets":
        return tuple(_name(game, t) for t in inp.get("targets") or ())
    # declarations: the generator offers a few sets (CR 508.1, 509.1); each creature declared
    # must be in one of them
    if kind == "declare_attackers":
        return ("each of", frozenset(_name(game, a.get("attacker") if isinstance(a, dict) else a)
                                     for a in inp.get("attackers") or ()))
    if kind == "declare_blockers":
        return ("each of", frozenset(_name(game, b.get("blocker")) for b in inp.get("blocks") or ()
                                     if isinstance(b, dict)))
    return None


def _trigger_ref(game: Any, decision: dict, ref: Any) -> Any:
    """The pending trigger an ``order_triggers`` entry names: its reference, or its source
    (as ``Game._trigger_order`` reads it)."""
    if ref in decision.get("options", ()):
        return ref
    for t in decision.get("options", ()):
        ev = next((e for e in reversed(game.events) if e["type"] == "ability_triggered" and e["object"] == t), None)
        if ev is not None and ref in (ev.get("source"), ev.get("source_card")):
            return t
    return ref


#: The decisions whose candidates are all legal answers (the generator lists their options;
#: priority actions and declarations are candidates checked on a dry run, legal.legal_actions).
CHOICES = ("assign_damage", "order_triggers", "choose_targets", "discard", "choose", "mulligan")


class _Replay(ScriptInputs):
    """A script input source recording, for each script input (macros left out), what the
    generator says about it at the moment it is handed out."""

    def __init__(self, script: list) -> None:
        super().__init__(script)
        self.seen: list[dict] = []
        self.unsound: list[tuple[dict, dict]] = []  # candidates of a choice refused, or offered twice

    def next(self, game: Any, decision: dict) -> dict:
        if decision["kind"] in CHOICES:  # the options of a choice are legal answers, not candidates to try
            cands = legal.candidate_actions(game, decision)
            for cand in cands:
                self.unsound += [] if legal.accepts(game, decision, cand.input)[0] else [(decision, cand.input)]
            if len({dumps(c.input) for c in cands}) != len(cands):
                self.unsound.append((decision, {"duplicates": [c.input for c in cands]}))
        inp = super().next(game, decision)
        if self.macro is None and "at" in inp:
            bare = {k: v for k, v in inp.items() if k != "at"}
            ok, code = legal.accepts(game, decision, bare)
            rec = {"at": inp["at"], "decision": decision, "input": bare, "ok": ok, "code": code}
            if ok:
                rec["key"] = _key(game, decision, bare)
                rec["offered"] = _offered(game, decision, rec["key"])
            self.seen.append(rec)
        return inp


def _offered(game: Any, decision: dict, key: Any) -> Any:
    """Whether a candidate of the generator has ``key`` and is accepted: True, False, or
    None when the input is not compared (``key`` None, see :func:`_key`)."""
    if key is None:
        return None
    if key[0] == "each of":
        covered: set = set()
        for cand in legal.candidate_actions(game, decision):
            if legal.accepts(game, decision, cand.input)[0]:
                covered |= _key(game, decision, cand.input)[1]
        return key[1] <= covered
    for cand in legal.candidate_actions(game, decision):
        if _key(game, decision, cand.input) == key and legal.accepts(game, decision, cand.input)[0]:
            return True
    return False


#: Fixture inputs the engine accepts and the generator does not offer yet, with the reason
#: (``{(case name, input index): reason}``): gaps of the generator, to close.
KNOWN_GAPS = {
    ("finalfantasy.adventure.adventure-may-be-cast-without-paying-its-mana-cost[modern]", 5):
        "a card exiled by Spelljack is offered cast only as its main face, not its Adventure (CR 715.3)",
    ("tarkir.omen.spelljacked-omen-cast-without-paying-is-shuffled-into-owners-library[modern]", 5):
        "a card exiled by Spelljack is offered cast only as its main face, not its Omen (tarkir.omen.05)",
    ("classic.resolving.a-choice-made-on-resolution-is-one-of-those-the-ability-offers[modern]", 4):
        "a pt_choice is offered in its [power, toughness] form only, not as the text \"+2/-2\" that FORMAT §5 accepts too",
    ("classic.resolving.a-choice-made-on-resolution-is-one-of-those-the-ability-offers[timespiral-2006]", 4):
        "a pt_choice is offered in its [power, toughness] form only, not as the text \"+2/-2\" that FORMAT §5 accepts too",
    ("classic.resolving.a-choice-made-on-resolution-is-one-of-those-the-ability-offers[classic-1999]", 4):
        "a pt_choice is offered in its [power, toughness] form only, not as the text \"+2/-2\" that FORMAT §5 accepts too",
}


def replay(case: Any) -> tuple[list[dict], dict[int, str]]:
    """One case replayed: the records of its script inputs (:class:`_Replay`) and the
    engine's rejections (``{input index: code}``); every candidate of every choice met on the
    way must be accepted (AssertionError)."""
    scenario = json.loads(case.scenario_json)
    source = _Replay(list(script_list(scenario.get("script", []))))
    game = build_game(scenario, case.ruleset, _card_db(scenario.get("cards")), source)
    try:
        game.play()
    except (ScriptExhausted, ScriptError, GameOver):
        pass
    assert not source.unsound, ("a candidate refused", case.name, source.unsound[0])
    return source.seen, {e["at"]: e["code"] for e in game.events if e["type"] == "action_rejected" and "at" in e}


def test_the_generator_agrees_with_the_engine_at_every_fixture_input():
    """At every input of every fixture, at the decision it answers (priority CR 117.1,
    declarations CR 508.1/509.1, damage assignment CR 510.1c, trigger order CR 603.3b,
    targets CR 603.3d, discard CR 701.9, choices, mulligans CR 103.5, casts offered by a
    resolving ability CR 702.62a/702.35a):

    - ``legal.accepts`` answers as the engine then does, code included (FORMAT §8);
    - when the engine accepts it, the generator lists a candidate doing the same (same card
      or ability, same choice, same order ...) that ``accepts`` accepts;
    - every candidate answer of a choice (:data:`CHOICES`) met on the way is accepted, and
      offered once.

    Checked case by case: the first case where they disagree fails the test."""
    checked = compared = 0
    gaps = set()
    for case in collect():
        seen, rejected = replay(case)
        for rec in seen:
            engine = (rec["at"] not in rejected, rejected.get(rec["at"]))
            assert (rec["ok"], rec["code"]) == engine, ("accepts", case.name, rec["decision"], rec["input"])
            checked += 1
            if not engine[0] or rec.get("offered") is None:
                continue
            compared += 1
            if (case.name, rec["at"]) in KNOWN_GAPS and not rec["offered"]:
                gaps.add((case.name, rec["at"]))
                continue
            assert rec["offered"], ("not offered", case.name, rec["decision"], rec["input"], rec["key"])
    assert checked > 3000 and compared > 2000
    assert gaps == set(KNOWN_GAPS)  # a gap closed: remove it from the list
