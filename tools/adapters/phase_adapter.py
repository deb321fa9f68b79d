"""Protocol v1 adapter for phase.rs, through its Python bindings (PyPI ``phase-python``).

Run it as ``python -m mtg_judge.tools.adapters.phase_adapter``; check it with
``mtg-judge run --engine "python -m mtg_judge.tools.adapters.phase_adapter"``.

What the phase API offers, and how the adapter uses it
------------------------------------------------------
``phase`` (import name of ``phase-python``) exposes ``build_oracle_face(mtgjson, oracle_id)``
(a card built by phase's own Oracle-text parser from an MTGJSON ``AtomicCard`` dict),
``Engine.from_json(card_data)`` (a card database), ``Engine.new_game(decks, seed,
first_player)``, ``Game.state()`` / ``Engine.load_game(state)`` (export and load the full
persisted game state), ``Game.actions()`` (the legal actions of the player expected to act),
``Game.apply(seat, action)`` (an ``ActionResult`` with phase's typed ``events`` and the next
``waiting_for`` prompt) and ``GameAction.from_dict`` (any action in phase's tagged serde
shape). Everything below is built on those calls only.

Cards (FORMAT §5). Each card of ``scenario["cards"]`` is turned into the MTGJSON shape
(``name``, ``manaCost``, ``manaValue``, ``colors``, ``type``/``types``/``subtypes``/
``supertypes``, ``text`` = our ``oracle_text``, ``power``/``toughness``, and ``keywords``:
the card's keyword names as MTGJSON spells them, which phase needs to read a bare keyword
line such as "Flying") and given to ``build_oracle_face``. A card with faces (FORMAT §5.1)
is two card-database entries with ``layout`` and ``face_index``, as phase's generator
(``phase/gen.py``) makes them (an Omen is filed as ``adventure``), built by
``build_oracle_face_multi`` with one oracle id shared by both faces (a fixed UUID made from
the card's name): phase joins the faces of a card by that id, and without it the card has no
back face to cast. Our machine-readable
``abilities`` are ignored: phase plays what its parser makes of the Oracle text. A card
whose text phase parses (even partly) as ``Unimplemented`` is not guessed at: every scenario
that uses it is skipped, naming the card and the text.

Setup (FORMAT §3.1). phase has no "set up this position" call, so the adapter makes one
from a real game: ``new_game`` with each player's cards as their deck, both players keep,
then the exported state is edited (each object moved to its setup zone and order, tapped,
damage, counters, controller, summoning sickness, Aura attachment; life, lands played, turn,
active player) and loaded back with ``load_game``. The game must start *as the setup step
begins*, with its turn-based actions and "at the beginning of" triggers; so the state is
loaded at the end of the step before it (``draw`` for ``precombat_main``,
``beginning_of_combat`` for ``declare_attackers``, the previous player's ``end`` step for
``untap``, ...) with priority, both players pass, and phase itself begins the step. The
events of that step change are kept (``step_began``, untaps, draws, triggers); the two
passes are not reported. A starting mana pool is put into phase's pool (one unit per mana,
no source, no restriction) once the step has begun, since beginning it empties pools.
A battlefield entry's ``prepared`` (FORMAT §11.9) sets phase's own ``prepared`` flag on
the permanent (phase makes no copy object until the copy is cast: the adapter names the copy
``prepared#N`` in entry order). Setups that this cannot express are skipped: more than two
players, counters other than +1/+1, -1/-1 and lore (phase's ``lore`` counter type), a
``transformed`` permanent (phase keeps a transformed permanent as the back face's
characteristics with the front in ``back_face``, trigger-instance bookkeeping included: the
adapter does not rebuild that by hand), an Aura attached to a
permanent of another player's list, a start in ``cleanup`` or in a combat damage step, any
field of a card outside the battlefield but its alias and card (a suspended card's time
counters in exile), and any setup-object field not listed in ``KNOWN_OBJECT``. A
permanent's ``chosen_name`` (Meddling Mage) becomes phase's ``chosen_attributes`` entry
``{"type": "CardName", "value": ...}``, as phase records a ``NamedChoice``.

Script (FORMAT §3.2). Each input becomes phase actions, answering phase's prompts with the
fixture's choices: ``cast`` is ``CastSpell`` with manual payment, then ``ChooseTarget`` per
target (in order), ``SelectModes``, ``ChooseX``, and at the ``ManaPayment`` prompt one
``TapLandForMana`` per ``pay_with`` permanent (its first mana ability; ``color`` for
any-color sources) and, for the input's ``mana``, one ``SpendPoolMana`` per named mana (the
pool units phase commits to the cost first) before finishing the payment from the pool (a
payment phase then makes with other mana than the named is skipped); ``activate`` is
``ActivateAbility`` (the k-th activated ability of the card in our list is phase's k-th
activated ability; if the counts differ the case is skipped); ``pass`` and ``resolve`` are
``PassPriority``; ``advance`` passes priority, declares no attackers and no blockers, until
phase begins the step; ``declare_attackers`` / ``declare_blockers`` / ``assign_damage`` /
``discard`` / ``order_triggers`` / ``choose_targets`` answer the matching prompt.
Tarkir: Dragonstorm casts (FORMAT §11): ``face: "omen"`` (or ``"adventure"``) answers
phase's ``CastOffer`` of kind ``Adventure`` with ``ChooseAdventureFace {creature: false}``
(a cast without ``face`` with ``creature: true``); a ``face`` on a card phase offers no face
for is rejected with ``invalid_choice``, read off that missing prompt. ``alternative:
"harmonize"`` is a ``CastSpell`` of the card in its owner's graveyard: phase casts it with its
``Harmonize`` casting variant (read off the pending cast) and asks ``HarmonizeTapChoice``,
answered ``HarmonizeTap`` with ``harmonize_tap`` (or none). phase's ``CastSpell`` names no
variant, so a harmonize cast from another zone, and a cast without ``alternative`` that phase
makes a harmonize cast, are skipped. ``behold`` answers phase's ``OptionalCostChoice`` whose
cost holds a Behold (``DecideOptionalCost {pay: true}``; without ``behold``, ``pay: false``,
which for "behold or pay {1}" adds the {1}) and its ``PayCost`` Behold prompt
(``SelectCards`` with the beheld card or permanent); a mandatory behold the input does not
give is ``cannot_pay``, a ``behold`` on a card phase asks none for ``invalid_alternative``.
``alternative: "flashback"`` is the same graveyard ``CastSpell``, phase's ``Flashback``
casting variant (read off its stack entry: the ``ManaPayment`` prompt does not repeat it);
a graveyard cast without ``alternative`` that phase can only make a flashback cast is
skipped. A ``cast`` of ``prepared#N`` (FORMAT §11.9) is ``CastPreparedCopy`` of the prepared
permanent linked to that copy (``unknown_object`` when none is), answered like any cast;
the copy object phase makes carries the copy's reference.
Any other ``cast`` field (other ``alternative`` values, kicker, buyback, ...) is not
translated: the case is skipped, never cast as if the field were absent.
``choose`` answers: ``yes``/``no`` an ``OptionalEffectChoice`` (``DecideOptionalEffect
{accept}``); an alias answers a "you may behold" ``OptionalEffectChoice`` (accept, then the
behold prompt, or phase's own lone choice compared with the card it revealed; a permanent
phase beholds by itself without saying which is skipped); ``counters``/``token`` endure's
``ChooseOneOfBranch`` (the branch whose effect is ``PutCounter``/``Token``; another answer
is given to phase as a branch it does not have, so phase refuses it); an alias (or
``none``) a ``SearchChoice`` (``SelectCards``); a card name a ``NamedChoice``
(``ChooseOption``); a source a ``DamageSourceChoice``.

Inputs phase cannot receive are skipped, never approximated: ``random`` (phase's RNG
cannot be fixed), ``choose`` with a choice the prompt does
not offer by name, ``order_triggers``, an ability of a token (no card file to match its
abilities with phase's).

An input phase refuses (``Game.apply`` raises) becomes an ``action_rejected`` event whose
``code`` comes from phase's message through :data:`REJECTIONS`, a table of phase messages
whose reason is explicit. A refusal whose message the table does not classify ends the run:
the case is skipped with phase's message (the adapter never picks a code on phase's
behalf). An input given when phase waits for another kind of decision (say, a ``pass``
while phase asks for attackers) is rejected with ``wrong_decision``; a ``pass`` or cast
by a player who does not have priority, with ``not_your_priority``: those two are read off
phase's own ``waiting_for`` prompt.

Events (FORMAT §6). phase's typed events are translated one by one (see
:meth:`PhaseRun.translate`): ``ZoneChanged`` -> ``zone_changed`` (+ ``permanent_entered``),
``SpellCast`` -> ``spell_cast`` (targets from phase's ``BecomesTarget`` events),
``StackResolved`` -> ``spell_resolved``/``ability_resolved``, ``DamageDealt`` ->
``damage_dealt``, ``LifeChanged`` -> ``life_gained``/``life_lost``, ``CreatureDestroyed``
-> ``destroyed``, ``PhaseChanged`` -> ``step_began``, ``AttackersDeclared``,
``BlockersDeclared``, ``CardDrawn``, ``Discarded``, ``PermanentTapped``/``Untapped``,
``ManaAdded``, ``CounterAdded``, ``TokenCreated`` (``tapped``, and ``attacking`` read off
phase's combat state), ``SpellCountered``, ``Regenerated``, ``CardsRevealed`` ->
``card_revealed``, ``EffectResolved`` of kind ``Behold`` -> ``beheld`` for the card it
revealed, ``PlayerPerformedAction`` ``SearchedLibrary`` -> ``library_searched`` (found: the
next card of that player's library phase reveals or moves, or none when the search answer
is none), ``Milled`` (the ``cause: "mill"`` of its zone change),
``PlayerPerformedAction`` ``ShuffledLibrary`` -> ``library_shuffled``, ``SpellCopied`` ->
``spell_copied`` (the copy is ``copy#N``; its targets are those phase's stack holds for it,
after a ``choose_targets`` answering phase's ``CopyRetarget`` prompt with ``ChooseTarget``),
``Transformed`` -> ``transformed`` (``face`` read off phase's ``transformed`` flag; an
``enters transformed`` is phase's zone change with the front face's name then a
``Transformed``, reported as phase makes it), ``BecamePrepared`` -> ``became_prepared``
(``copy`` the ``prepared#N`` the adapter names, ``name`` phase's ``back_face``, ``cause``
``enters_prepared`` when the permanent entered in the same batch of events, else
``effect``), ``BecameUnprepared`` -> ``unprepared`` (``cause: "cast"`` inside the copy's
cast; otherwise ``effect``, followed by ``copy_ceased_to_exist`` ``after: "unprepared"``);
``copy_ceased_to_exist`` is also logged for a prepared copy leaving the stack and, ``after:
"left_battlefield"``, before the zone change of a prepared permanent leaving the battlefield
(phase has no copy object then: these are read off its flag). An Adventure moving stack ->
exile as it resolves has ``cause: "adventure"``. ``PlayerLost``,
``GameOver``, ... Two events are read off phase's state, as phase records them without an
event: ``beheld`` for a behold cost (the spell's ``cost_paid_object`` on phase's stack,
logged before ``spell_cast``) and ``card_name_chosen`` (the ``CardName`` that phase's
``chosen_attributes`` holds once it has its ``NamedChoice`` answer). A triggered ability put on phase's stack is ``ability_triggered`` with
``ability`` and ``trigger`` from our card file's ability of the same rank (its trigger's
``event``), a keyword's name and event for a keyword trigger (mobilize: ``attacks``;
increment: ``spell_cast``; job select: ``enters_battlefield``; storm, from phase's
``provenance``: ``cast_self``), a Saga chapter's ``trigger: "chapter"`` with ``chapter`` (the
``saga_chapter`` of phase's trigger definition; ``ability`` the card file's chapter ability
listing it), or
``delayed: true`` for one with no printed trigger definition (``trigger`` from the event
phase says triggered it). A spell cast as a face has ``face`` in ``spell_cast`` and in the
state's stack entry; the ``zone_changed`` that takes it off the stack names the main face
(phase's record names the Omen that left). Object references follow FORMAT §1 (CR 400.7): phase keeps
one object id across zones, and the adapter counts that object's zone changes (``bolt``,
``bolt#2``, ...). Two things are the adapter's, and documented as such: ``game_started``
(the setup, restated) and ``priority_received`` / ``priority_passed`` (read off phase's
``waiting_for`` prompt after each action: phase reports no such event). phase emits
``StackResolved`` after the effects of the resolution; the adapter puts ``spell_resolved``
before them, where FORMAT §6 has it. phase does not say which state-based action it
performed: a creature that dies of lethal damage is a ``CreatureDestroyed`` in phase's log,
translated as ``destroyed``, never as an invented ``state_based_action`` event.

State (FORMAT §4) is read from ``Game.state()`` at the end: zones, life, battlefield objects
with phase's own computed power, toughness, keywords, colors and types, the stack (an
ability's ``source`` as it was when the ability was put on the stack, and each entry's
``targets``), a back-face-up permanent's ``face: "back"``, a prepared permanent's
``prepared`` / ``prepared_copy`` and its copy listed in its creator's exile (read off phase's
``prepared`` flag), the cards of a hand
phase lists in ``public_revealed_cards`` (``revealed``; phase's list is of cards made
public, and keeps a card after the spell it was revealed for has left the stack, where
FORMAT §11.5 ends it), and the game result. Checkpoints (capability ``checkpoints``) are states read the same way after an
input; a legality probe runs the input on a copy of the game (``state()`` then
``load_game``) and reports whether phase accepts it.

Rulesets: ``modern`` only (phase implements current rules: no mana burn, no damage on the
stack).
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
import uuid
from typing import Any

from mtg_judge.tools.adapters.common import Skip, package_info, serve

try:  # the engine is optional: the handshake reports its absence as an error
    import phase
except ImportError:  # pragma: no cover - exercised only without phase-python
    phase = None

NAME = "phase.rs (phase-python)"
#: ``MTG_JUDGE_PHASE_BRIDGE_508_8=1``: when phase skips the declare attackers step's priority
#: after no attackers were declared (COMPLIANCE, phase bug 4: CR 508.2, 508.8), the adapter
#: takes the two passes of that step itself (reporting that step and its priority in the
#: state meanwhile), so that a differential fuzzing campaign can look past that known bug.
#: Off by default: the fixtures see phase as it is.
BRIDGE_508_8 = os.environ.get("MTG_JUDGE_PHASE_BRIDGE_508_8") == "1"
RULESETS = ["modern"]
CAPABILITIES = ["events", "state", "checkpoints"]

COLOR_LETTER = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
PHASE_COLOR = {"White": "W", "Blue": "U", "Black": "B", "Red": "R", "Green": "G",
               "Colorless": "C"}
LETTER_PHASE_COLOR = {v: k for k, v in PHASE_COLOR.items()}
COLOR_WORD = {"White": "white", "Blue": "blue", "Black": "black", "Red": "red",
              "Green": "green"}

#: our step name -> phase's ``phase`` name
STEP_TO_PHASE = {
    "untap": "Untap", "upkeep": "Upkeep", "draw": "Draw", "precombat_main": "PreCombatMain",
    "beginning_of_combat": "BeginCombat", "declare_attackers": "DeclareAttackers",
    "declare_blockers": "DeclareBlockers", "first_strike_damage": "FirstStrikeDamage",
    "combat_damage": "CombatDamage", "end_of_combat": "EndCombat",
    "postcombat_main": "PostCombatMain", "end": "End", "cleanup": "Cleanup"}
PHASE_TO_STEP = {v: k for k, v in STEP_TO_PHASE.items()}
STEP_PHASE = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning",
              "precombat_main": "precombat_main", "beginning_of_combat": "combat",
              "declare_attackers": "combat", "declare_blockers": "combat",
              "first_strike_damage": "combat", "combat_damage": "combat",
              "end_of_combat": "combat", "postcombat_main": "postcombat_main",
              "end": "ending", "cleanup": "ending"}
#: the step a game is loaded in (with priority) so that passing begins the setup step;
#: ``None``: the previous turn's end step (the untap step has no priority before it)
PREVIOUS_STEP = {"upkeep": "Untap", "draw": "Upkeep", "precombat_main": "Draw",
                 "beginning_of_combat": "PreCombatMain", "declare_attackers": "BeginCombat",
                 "declare_blockers": None, "postcombat_main": "EndCombat",
                 "end": "PostCombatMain", "end_of_combat": None, "untap": "End"}
ZONE_NAME = {"Library": "library", "Hand": "hand", "Graveyard": "graveyard",
             "Exile": "exile", "Battlefield": "battlefield", "Stack": "stack",
             "Command": "command"}
COUNTERS = {"+1/+1": "P1P1", "-1/-1": "M1M1", "lore": "lore"}  # phase: CounterType, lore by name
COUNTER_NAME = {v: k for k, v in COUNTERS.items()}

#: keyword abilities that are triggered abilities -> their trigger event (FORMAT §6, §11.4)
KEYWORD_TRIGGER = {"mobilize": "attacks", "increment": "spell_cast",
                   "job_select": "enters_battlefield"}
#: phase's keyword triggers without a printed definition (``provenance``) -> ability, trigger
SYNTHETIC_TRIGGER = {"Storm": ("storm", "cast_self")}
#: keywords whose triggered ability creates a delayed triggered ability (FORMAT §11.4)
DELAYED_BY_KEYWORD = ("mobilize",)
#: the event phase says triggered a delayed triggered ability -> our trigger event
DELAYED_TRIGGER_EVENT = {"PhaseChanged": "beginning_of_step"}

#: phase's refusal messages whose reason is explicit -> our rejection code (FORMAT §8).
#: Searched in order, case-insensitively, in the text of the ValueError ``Game.apply`` raises.
REJECTIONS: list[tuple[str, str]] = [
    (r"^Not your priority", "not_your_priority"),
    (r"Sorcery-speed spells can only be cast (by the active player|when the stack is empty)",
     "sorcery_timing"),
    (r"Cannot cast ObjectId\(\d+\) from \w+ . not a castable zone", "not_in_hand"),
    (r"Object is not in the correct zone \(expected Battlefield\)", "not_on_battlefield"),
    (r"Damage assignment total \d+ != expected \d+", "invalid_damage_assignment"),
    (r"Trample: blocker ObjectId\(\d+\) must receive at least \d+ lethal damage",
     "invalid_damage_assignment"),
    (r"Must choose between \d+ and \d+ modes", "invalid_mode"),
    (r"Mode index \d+ is unavailable", "invalid_mode"),
    (r"X=\d+ exceeds the maximum legal value", "invalid_x"),
    (r"is blocking \d+ attackers but can only block \d+", "invalid_block"),
    (r"Must discard exactly \d+ card", "invalid_choice"),
    (r"Already played maximum lands this turn", "land_already_played"),
    (r"Can only play lands (during main phases|while the stack is empty)", "sorcery_timing"),
    (r"Sorcery-speed spells can only be cast during main phases", "sorcery_timing"),
    (r"Cannot activate tap ability: permanent is tapped", "already_tapped"),
    (r"Cannot pay mana cost", "cannot_pay"),
    (r"Creature has summoning sickness", "summoning_sick"),
    (r"No legal targets available", "invalid_target"),
    (r"Card not found in hand, graveyard, exile, or library", "not_in_hand"),
    (r"Illegal target selected", "invalid_target"),
    (r"Target \w+\(ObjectId\(\d+\)\) not a legal alternative for copy slot", "invalid_target"),
    (r"ObjectId\(\d+\) cannot block ObjectId\(\d+\)", "cannot_block"),
    (r"ObjectId\(\d+\) has Defender", "cannot_attack"),
    (r"ObjectId\(\d+\) has summoning sickness", "summoning_sick"),
    (r"it has no mana cost \(CR 118\.6\)", "cannot_pay"),
    (r"Activation restriction not satisfied: AsSorcery", "sorcery_timing"),
    # an ability that works only from the graveyard (renew), asked of the card elsewhere
    (r"Object is not in the correct zone \(expected Graveyard\)", "no_such_ability"),
    (r"Selected object not eligible to behold", "invalid_payment"),
    (r"Selected card not in search results", "invalid_choice"),
    (r"ChooseOneOf branch index \d+ out of range", "invalid_choice"),
    (r"A static ability prevents you from casting this spell", "cant_cast"),
    (r"CastPreparedCopy: source not controlled by acting player", "not_controller"),
    (r"Card is not in a castable zone", "not_in_hand"),
    (r"Must choose at least \d+ modes, got 0", "invalid_mode"),
]

#: messages whose code depends on the input they refuse: ``{message: {input action: code}}``
#: (a tapped creature can neither attack nor block; "Wrong player" means another player has
#: priority, or phase is waiting for another player's decision).
REJECTIONS_BY_INPUT: list[tuple[str, dict[str, str]]] = [
    (r"ObjectId\(\d+\) is tapped", {"declare_attackers": "cannot_attack",
                                     "declare_blockers": "cannot_block"}),
]


# --------------------------------------------------------------------------------------------
# Cards


def _mana_symbols(cost: str | None) -> list[str]:
    return re.findall(r"\{([^}]*)\}", cost or "")


#: Our layouts (FORMAT §5.1) as phase's card database spells them: phase's own generator
#: (``phase/gen.py``) files an Omen card under ``adventure`` (MTGJSON calls it
#: ``reversible_card``), and a two-faced card as two entries with ``layout`` and ``face_index``.
PHASE_LAYOUTS = {"adventure": "adventure", "omen": "adventure", "prepare": "prepare",
                 "transform": "transform"}


def mtgjson_card(card: dict) -> dict:
    """Our card file (FORMAT §5) in the MTGJSON ``AtomicCard`` shape that
    ``phase.build_oracle_face`` reads: the main face of a card with faces (each other face
    goes through :func:`mtgjson_faces`). Raises :class:`Skip` for what has no MTGJSON form
    here (a meld card: phase's generator files meld pairs by MTGJSON's three-face groups)."""
    if card.get("layout", "normal") not in ("normal", *PHASE_LAYOUTS) or "face" in card:
        if "face" not in card:
            raise Skip(f"{card['name']}: layout {card.get('layout')!r} is not translated")
    if "colors" in card:
        colors = [COLOR_LETTER.get(c, c) for c in card["colors"]]
    else:
        found = {part for sym in _mana_symbols(card.get("mana_cost")) for part in sym.split("/")}
        colors = [c for c in "WUBRG" if c in found]
    mana_value = 0
    for sym in _mana_symbols(card.get("mana_cost")):
        # CR 202.3f: a hybrid symbol counts its largest component ({2/W} is 2)
        mana_value += max(int(p) if p.isdigit() else (0 if p == "X" else 1) for p in sym.split("/"))
    keywords = []
    for kw in card.get("keywords", []):
        if isinstance(kw, str):
            keywords.append(kw.replace("_", " ").capitalize())
        elif kw.get("keyword") == "landwalk":
            keywords.append(f"{kw['land_type']}walk")
        elif kw.get("keyword") == "protection":
            keywords.append("Protection")
        elif isinstance(kw.get("keyword"), str):
            # MTGJSON lists a keyword with a cost or a number by its name alone ("Suspend",
            # "Kicker"); the Oracle text holds the rest ("Suspend 5—{B}")
            keywords.append(kw["keyword"].replace("_", " ").capitalize())
        else:
            raise Skip(f"{card['name']}: keyword {kw} has no MTGJSON name here")
    if card.get("enchant") is not None or "Aura" in card.get("subtypes", []):
        keywords.append("Enchant")  # as MTGJSON lists it for every Aura
    out = {"name": card["name"], "manaCost": card.get("mana_cost") or None,
           "manaValue": mana_value, "colors": colors, "colorIdentity": colors,
           "type": card["type_line"], "types": list(card["types"]),
           "subtypes": list(card.get("subtypes", ())), "supertypes": list(card.get("supertypes", ())),
           "text": card.get("oracle_text", ""), "keywords": keywords, "layout": "normal",
           "identifiers": {}}
    if "power" in card:
        out["power"], out["toughness"] = str(card["power"]), str(card["toughness"])
    return out


def _unimplemented(face: Any) -> list[str]:
    """The descriptions of the parts of a built face that phase marks ``Unimplemented``."""
    found = []
    if isinstance(face, dict):
        if face.get("type") == "Unimplemented":
            found.append(str(face.get("description") or face.get("name")))
        for value in face.values():
            found += _unimplemented(value)
    elif isinstance(face, list):
        for value in face:
            found += _unimplemented(value)
    return found


_FACES: dict[str, Any] = {}
_ENGINES: dict[tuple, Any] = {}


def mtgjson_faces(card: dict) -> list[dict]:
    """Every face of a card with faces (FORMAT §5.1), main face first, each in the MTGJSON
    shape with the ``side`` and ``layout`` phase's generator expects."""
    layout = card.get("layout", "normal")
    out = []
    for side, face in zip("ab", [card, *card.get("faces", ())]):
        entry = mtgjson_card(face)
        entry["layout"], entry["side"] = PHASE_LAYOUTS[layout], side
        if side == "b":
            entry["faceName"] = face["name"]
        out.append(entry)
    return out


def build_entries(card: dict) -> dict:
    """phase card-database entries (``{lowercase face name: CardFace}``) for one of our
    cards: one entry for a normal card; for a card with faces, one per face with ``layout``
    and ``face_index``, as phase's generator makes them. Raises :class:`Skip`."""
    if card.get("layout", "normal") == "normal":
        return {card["name"].lower(): build_face(card)}
    key = "multi:" + json.dumps(card, sort_keys=True)
    if key not in _FACES:
        try:
            faces = mtgjson_faces(card)
            # phase joins the faces of one card by their shared oracle id (its card database
            # keys a back face by it): a fixed id made from the card's name stands in for
            # Scryfall's
            oracle_id = str(uuid.uuid5(uuid.NAMESPACE_URL, "mtg-judge:" + card["name"]))
            built = [phase.build_oracle_face_multi(f, oracle_id) for f in faces]
        except Skip as exc:
            _FACES[key] = exc
        except Exception as exc:  # noqa: BLE001 - phase refuses the card
            _FACES[key] = Skip(f"phase cannot build {card['name']}: {exc}")
        else:
            missing = [m for f in built for m in _unimplemented(f)]
            layout = PHASE_LAYOUTS[card["layout"]]
            _FACES[key] = (Skip(f"phase does not implement part of {card['name']}'s Oracle "
                                f"text: {'; '.join(missing)}") if missing else
                           {f["name"].lower(): dict(f, layout=layout, face_index=i)
                            for i, f in enumerate(built)})
    entries = _FACES[key]
    if isinstance(entries, Skip):
        raise entries
    return entries


def build_face(card: dict) -> dict:
    """phase's ``CardFace`` for one of our cards (cached by the card's JSON)."""
    key = json.dumps(card, sort_keys=True)
    if key not in _FACES:
        try:
            face = phase.build_oracle_face(mtgjson_card(card), None)
        except Skip:
            raise
        except Exception as exc:  # noqa: BLE001 - phase refuses the card
            _FACES[key] = Skip(f"phase cannot build {card['name']}: {exc}")
        else:
            missing = _unimplemented(face)
            _FACES[key] = (Skip(f"phase does not implement part of {card['name']}'s Oracle "
                                f"text: {'; '.join(missing)}") if missing else face)
    face = _FACES[key]
    if isinstance(face, Skip):
        raise face
    return face


def build_engine(cards: dict[str, dict]):
    """A phase ``Engine`` whose card database holds exactly ``cards`` (cached)."""
    key = tuple(sorted((name, json.dumps(card, sort_keys=True)) for name, card in cards.items()))
    if key not in _ENGINES:
        faces = {k: v for card in cards.values() for k, v in build_entries(card).items()}
        _ENGINES[key] = phase.Engine.from_json(json.dumps(faces))
        if len(_ENGINES) > 64:
            _ENGINES.pop(next(iter(_ENGINES)))
    return _ENGINES[key]


def action(kind: str, data: Any = None):
    """A ``phase.GameAction`` from its tagged dict form."""
    return phase.GameAction.from_dict({"type": kind, "data": data} if data is not None
                                      else {"type": kind})


class Rejected(Exception):
    """An input phase refused (or that does not fit phase's current prompt)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class ScriptError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def classify(message: str, kind: str | None = None, prompt: str | None = None) -> str | None:
    """Our rejection code for phase's refusal ``message`` of an input of ``kind`` while phase
    waits for ``prompt``; ``None`` when the message does not say why in our terms."""
    for pattern, code in REJECTIONS:
        if re.search(pattern, message, re.IGNORECASE):
            return code
    for pattern, codes in REJECTIONS_BY_INPUT:
        if re.search(pattern, message, re.IGNORECASE) and kind in codes:
            return codes[kind]
    if re.search(r"^(Invalid action: )?Wrong player", message):
        return "not_your_priority" if prompt == "Priority" else "wrong_decision"
    return None


# --------------------------------------------------------------------------------------------
# One scenario


class PhaseRun:
    """One scenario played on phase: setup, script, event and state translation."""

    def __init__(self, scenario: dict, ruleset: str):
        self.scenario = scenario
        self.ruleset = ruleset
        self.setup = scenario.get("setup", {})
        players = self.setup.get("players", [])
        if len(players) != 2:
            raise Skip("phase-python games are set up for two players here")
        self.players = [p["id"] for p in players]
        self.seat = {pid: i for i, pid in enumerate(self.players)}
        self.cards = scenario.get("cards", {})
        self.engine = build_engine(self.cards)
        self.events: list[dict] = []
        # object id -> alias / number of objects it has been (FORMAT §1)
        self.alias: dict[int, str] = {}
        self.count: dict[int, int] = {}
        self.tokens: dict[int, str] = {}
        self.abilities: dict[int, str] = {}
        self.targets: dict[int, list] = {}
        self.cast_targets: dict[int, list] = {}
        self.stack_seen: set = set()
        self.pending_activation: dict | None = None
        self.pending_stack: int | None = None
        self.actor: int | None = None
        self.step: tuple | None = None
        self.input_kind: str | None = None
        self.turn = 0  # phase's turn number as its events tell it
        self.input_mark = 0
        self.x_values: dict = {}
        self.casting: dict | None = None
        self.ability_count = 0
        self.game = None
        #: the last spell or ability phase reported resolved; a player phase says is searching
        self.last_resolved: str | None = None
        self.probing = False
        #: spell copies phase made (FORMAT §1 ``copy#N``)
        self.copies: dict[int, str] = {}
        #: prepared permanents (FORMAT §11.9): phase object id -> ``prepared#N``, the copy of
        #: its prepare spell it is linked to (phase keeps a ``prepared`` flag and makes the
        #: copy only as it is cast); ``prepared_n``: the copies made so far
        self.prepared: dict[int, str] = {}
        self.prepared_n = 0
        #: ``prepared#N`` -> the seat in whose exile the copy is (who created it)
        self.prepared_by: dict[str, int] = {}
        self.searching: int | None = None
        #: stack ability id -> its source's reference when it was put on the stack
        self.ability_sources: dict[int, str | None] = {}
        #: spells cast as a face (FORMAT §5.1): object id -> face role, while on the stack
        self.faces_cast: dict[int, str] = {}
        #: the name of each adventure / Omen face -> the main face's name
        self.face_main = {f["name"]: c["name"] for c in self.cards.values()
                          if c.get("layout") in ("adventure", "omen")
                          for f in c.get("faces", ())}

    # ---- references ------------------------------------------------------------------------

    def ref(self, oid: int) -> str:
        if oid in self.tokens:
            return self.tokens[oid]
        if oid in self.copies:
            return self.copies[oid]
        if oid in self.abilities:
            return self.abilities[oid]
        alias = self.alias.get(oid)
        if alias is None:
            return f"phase#{oid}"
        n = self.count.get(oid, 1)
        return alias if n == 1 else f"{alias}#{n}"

    def card_data(self, name: Any) -> dict:
        """Our card file (FORMAT §5) for the name phase gives an object: a card's, or the
        face's (a transformed permanent is named by its back face, §5.1)."""
        if name in self.cards:
            return self.cards[name]
        for c in self.cards.values():
            for f in c.get("faces", ()):
                if f.get("name") == name:
                    return f
        return {}

    def card(self, oid: int) -> str:
        return self.tokens.get(oid) or self.copies.get(oid) or self.abilities.get(oid) \
            or self.alias.get(oid) or f"phase#{oid}"

    def player(self, seat: int) -> str:
        return self.players[seat]

    def target_ref(self, target: dict) -> str:
        if "Player" in target:
            return self.player(target["Player"])
        if "Object" in target:
            return self.ref(target["Object"])
        if target.get("type") == "Player":
            return self.player(target["data"])
        return json.dumps(target)

    def object_id(self, name: str) -> int:
        """The phase object id of a card alias or current reference (``bolt``, ``bolt#2``)."""
        for oid, ref in self.copies.items():
            if ref == name:
                return oid
        base = name.split("#")[0]
        for oid, alias in self.alias.items():
            if alias == base:
                return oid
        for oid, tok in self.tokens.items():
            if tok == name:
                return oid
        raise Rejected("unknown_object", f"no object named {name!r}")

    def target_of(self, name: str) -> dict:
        if name in self.seat:
            return {"Player": self.seat[name]}
        return {"Object": self.object_id(name)}

    # ---- setup -----------------------------------------------------------------------------

    KNOWN_SETUP = {"seed", "turn", "active_player", "step", "lands_played", "players"}
    KNOWN_PLAYER = {"id", "life", "library", "hand", "graveyard", "exile", "battlefield",
                    "mana_pool"}
    #: the fields of a setup object (FORMAT §3.1) the adapter sets up (or skips, for
    #: ``face_down`` and counters phase is not given here)
    KNOWN_OBJECT = {"alias", "card", "tapped", "damage", "counters", "controller",
                    "summoning_sick", "attached_to", "face_down", "chosen_name", "prepared"}

    def build(self) -> None:
        setup = self.setup
        extra = sorted(set(setup) - self.KNOWN_SETUP) + sorted(
            {k for p in setup.get("players", []) for k in p} - self.KNOWN_PLAYER)
        extra += sorted({k for p in setup.get("players", []) for z in ("library", "hand",
                         "graveyard", "exile", "battlefield") for e in p.get(z, [])
                         for k in e} - self.KNOWN_OBJECT)
        if extra:
            raise Skip(f"setup field(s) {', '.join(extra)} have no phase equivalent here")
        turn = setup.get("turn", 1)
        step = setup.get("step", "precombat_main")
        if step not in PREVIOUS_STEP or PREVIOUS_STEP[step] is None:
            raise Skip(f"a game cannot be started in phase as the {step} step begins")
        active = self.seat[setup.get("active_player", self.players[0])]
        decks = []
        for p in setup["players"]:
            names = [e["card"] for z in ("library", "hand", "graveyard", "exile", "battlefield")
                     for e in p.get(z, [])]
            decks.append(names)
        filler = None
        if not all(decks):
            filler = next(iter(self.cards))
            decks = [d or [filler] for d in decks]
        game = self.engine.new_game(player=decks[0], opponent=decks[1],
                                    seed=int(setup.get("seed", 0)) % (2 ** 63),
                                    first_player=active)
        for _ in range(8):
            wf = game.waiting_for()
            if wf.get("type") != "MulliganDecision":
                break
            seat = wf["data"]["pending"][0]["player"]
            keep = next(a for a in game.actions() if a.kind == "MulliganDecision"
                        and a.data["choice"]["type"] == "Keep")
            game.apply(seat, keep)
        exported = game.state()
        st = exported["state"]
        objs = st["objects"]
        ts = int(st.get("next_timestamp", 1))
        battlefield, exile = [], []
        attach: list[tuple[int, str]] = []
        for seat, p in enumerate(setup["players"]):
            P = st["players"][seat]
            pool: dict[str, list[int]] = {}
            owned = sorted(P["library"] + P["hand"] + P["graveyard"])
            for oid in owned:
                pool.setdefault(objs[str(oid)]["name"], []).append(oid)
            lists: dict[str, list[int]] = {z: [] for z in ZONE_NAME.values()}
            for z, zname in (("library", "Library"), ("hand", "Hand"),
                             ("graveyard", "Graveyard"), ("exile", "Exile"),
                             ("battlefield", "Battlefield")):
                for e in p.get(z, []):
                    oid = pool[e["card"]].pop(0)
                    self.alias[oid] = e["alias"]
                    self.count[oid] = 1
                    o = objs[str(oid)]
                    o["zone"] = zname
                    lists[z].append(oid)
                    if z != "battlefield" and set(e) - {"alias", "card"}:
                        # counters on a card in exile (suspend's time counters) ...
                        raise Skip(f"setup field(s) {', '.join(sorted(set(e) - {'alias', 'card'}))}"
                                   f" of a card in the {z} are not set up in phase here")
                    if z == "battlefield":
                        self._setup_permanent(o, e, seat, turn, ts)
                        if e.get("prepared"):
                            # phase's prepared designation (FORMAT §11.9): its own flag
                            if (o.get("back_face") or {}).get("layout_kind") != "Prepare":
                                raise Skip(f"{e['alias']}: phase's object has no prepare "
                                           "spell to be prepared with")
                            o["prepared"] = True
                            self.prepared_n += 1
                            self.prepared[oid] = f"prepared#{self.prepared_n}"
                            self.prepared_by[self.prepared[oid]] = o["controller"]
                        ts += 1
                        if e.get("attached_to"):
                            attach.append((oid, e["attached_to"]))
            # the filler card (a player with no cards at all) leaves the game
            leftovers = [oid for ids in pool.values() for oid in ids]
            for oid in leftovers:
                if filler is None:
                    raise Skip("setup bookkeeping: unexpected extra card")
                del objs[str(oid)]
            P["library"], P["hand"], P["graveyard"] = (lists["library"], lists["hand"],
                                                       lists["graveyard"])
            P["life"] = p.get("life", 20)
            P["lands_played_this_turn"] = setup.get("lands_played", 0) if seat == active else 0
            P["drew_from_empty_library"] = False
            P["cards_drawn_this_turn"] = 0
            P["has_drawn_this_turn"] = False
            exile += lists["exile"]
            battlefield += lists["battlefield"]
        for oid, host_alias in attach:
            host = next((h for h, a in self.alias.items() if a == host_alias), None)
            if host is None:
                raise Skip(f"Aura host {host_alias!r} not found")
            objs[str(oid)]["attached_to"] = {"type": "Object", "data": host}
            objs[str(host)].setdefault("attachments", []).append(oid)
        st["battlefield"], st["exile"] = battlefield, exile
        st["next_timestamp"] = ts
        st["lands_played_this_turn"] = setup.get("lands_played", 0)
        st["zone_changes_this_turn"] = []
        st["steps_started_this_turn"] = {}
        previous = PREVIOUS_STEP[step]
        if step == "untap":  # the end step of the previous turn, the other player's
            if turn < 2:
                raise Skip("a game cannot be started in phase in the untap step of turn 1")
            st["turn_number"] = turn - 1
            prev_active = 1 - active
            if len(st["players"][prev_active]["hand"]) > 7:
                raise Skip("starting in untap would make the other player discard at cleanup")
        else:
            st["turn_number"] = turn
            prev_active = active
        st["active_player"] = prev_active
        st["priority_player"] = prev_active
        st["phase"] = previous
        st["waiting_for"] = {"type": "Priority", "data": {"player": prev_active}}
        st["priority_pass_count"] = 0
        st["priority_passes"] = []
        self.game = self.engine.load_game(exported)
        self.turn = st["turn_number"]
        self.events.append({"type": "game_started", "players": list(self.players),
                            "active_player": self.players[active], "turn": turn,
                            "step": step, "ruleset": self.ruleset,
                            "seed": setup.get("seed", 0)})
        # both players pass: phase begins the setup step itself
        for _ in range(2):
            wf = self.game.waiting_for()
            if wf.get("type") != "Priority":
                break
            result = self.game.apply(wf["data"]["player"], action("PassPriority"))
            self.translate(result.events, skip_passes=True)
        if step == "untap":
            pass
        elif PHASE_TO_STEP.get(self.game.phase) != step and not (
                step == "declare_attackers" and self.game.phase in ("EndCombat",)):
            raise Skip(f"phase did not begin {step} from the loaded state "
                       f"(it is in {self.game.phase})")
        if any(p.get("mana_pool") for p in setup["players"]):
            self.fill_pools()
        self.note_priority()

    def fill_pools(self) -> None:
        """The setup's mana pools (FORMAT §3.1), put into phase's pools once the setup step
        has begun (beginning it empties them): one unit per mana, as phase's pool holds it,
        with no source (it came from nowhere in this game) and no restriction."""
        exported = self.game.state()
        st = exported["state"]
        pip = int(st.get("next_pip_id", 1))
        for seat, p in enumerate(self.setup["players"]):
            units = []
            for letter, n in (p.get("mana_pool") or {}).items():
                color = LETTER_PHASE_COLOR.get(letter)
                if color is None or not isinstance(n, int):
                    raise Skip(f"mana pool entry {letter!r}: {n!r} is not set up in phase here")
                for _ in range(n):
                    units.append({"color": color, "source_id": 0, "pip_id": pip,
                                  "snow": False, "restrictions": []})
                    pip += 1
            st["players"][seat]["mana_pool"] = {"mana": units}
        st["next_pip_id"] = pip
        self.game = self.engine.load_game(exported)

    def _setup_permanent(self, o: dict, e: dict, seat: int, turn: int, ts: int) -> None:
        o["tapped"] = bool(e.get("tapped", False))
        o["damage_marked"] = int(e.get("damage", 0))
        counters = {}
        for name, n in (e.get("counters") or {}).items():
            if name not in COUNTERS:
                raise Skip(f"counter kind {name!r} is not set up in phase here")
            counters[COUNTERS[name]] = n
        o["counters"] = counters
        controller = self.seat[e.get("controller", self.players[seat])]
        o["controller"] = controller
        o["base_controller"] = controller
        sick = bool(e.get("summoning_sick", False))
        o["summoning_sick"] = sick
        o["has_summoning_sickness"] = sick
        o["entered_battlefield_turn"] = turn if sick else max(0, turn - 1)
        o["timestamp"] = ts
        if e.get("face_down"):
            raise Skip("face-down permanents are not set up in phase here")
        if e.get("chosen_name") is not None:
            # the name chosen as it entered (Meddling Mage), as phase records a NamedChoice
            o["chosen_attributes"] = [{"type": "CardName", "value": e["chosen_name"]}]

    # ---- prompts ---------------------------------------------------------------------------

    def waiting(self) -> dict:
        return self.game.waiting_for() or {}

    def waiting_player(self) -> int | None:
        data = self.waiting().get("data")
        if isinstance(data, dict) and isinstance(data.get("player"), int):
            return data["player"]
        return None

    def apply(self, seat: int, act, at: int | None = None, probe: bool = False) -> None:
        """Apply one phase action; translate its events. Raises :class:`Rejected`."""
        before = self.waiting()
        try:
            result = self.game.apply(seat, act)
        except ValueError as exc:
            message = str(exc)
            code = classify(message, self.input_kind, before.get("type"))
            if code is None:
                raise Rejected("", message) from None
            raise Rejected(code, message) from None
        if before.get("type") == "Priority" and act.kind == "PassPriority":
            self.events.append({"type": "priority_passed", "player": self.player(seat)})
        self.actor = seat
        self.translate(result.events)
        self.sync_stack()
        self.note_priority()

    def sync_stack(self) -> None:
        """Name the abilities phase put on its stack (FORMAT §1 ``ability#n``): an activated
        ability completes the ``ability_activated`` event of the input; a triggered one is
        reported as ``ability_triggered`` and ``ability_put_on_stack`` (phase's own stack
        entry, with the source and targets it holds)."""
        for entry in self.game.stack() or []:
            sid = entry.get("id")
            kind = (entry.get("kind") or {}).get("type")
            if sid in self.stack_seen or kind not in ("TriggeredAbility", "ActivatedAbility"):
                self.stack_seen.add(sid)
                continue
            self.stack_seen.add(sid)
            if sid not in self.abilities:
                self.ability_count += 1
                self.abilities[sid] = f"ability#{self.ability_count}"
            ref = self.abilities[sid]
            src = entry.get("source_id")
            # the source as it was when the ability was put on the stack (it may move later)
            self.ability_sources[sid] = self.ref(src) if isinstance(src, int) else None
            ctrl = self.player(entry["controller"]) if isinstance(entry.get("controller"), int) \
                else None
            targets = [self.target_ref(t) for t in
                       ((entry["kind"].get("data") or {}).get("ability") or {}).get("targets", [])]
            if kind == "ActivatedAbility":
                pending = self.pending_activation
                if pending is not None and "object" not in pending:
                    pending.update(object=ref, card=ref, targets=targets)
                    self.pending_stack = sid
                else:
                    self.events.append({"type": "ability_activated", "player": ctrl,
                                        "object": ref, "card": ref, "source": self.ref(src),
                                        "source_card": self.card(src), "targets": targets})
            else:
                kdata = entry["kind"].get("data") or {}
                ability = kdata.get("ability") or {}
                ev = {"type": "ability_triggered", "controller": ctrl, "object": ref,
                      "card": ref, "source": self.ref(src), "source_card": self.card(src)}
                provenance = (kdata.get("provenance") or {}).get("type")
                if provenance in SYNTHETIC_TRIGGER:
                    # a trigger phase makes for a keyword (storm)
                    ev["ability"], ev["trigger"] = SYNTHETIC_TRIGGER[provenance]
                elif ability.get("trigger_definition_ref") is None and provenance is None:
                    # no printed trigger definition behind it: a delayed triggered ability
                    # (CR 603.7), named by the event phase says triggered it
                    ev["delayed"] = True
                    ev["ability"] = self.delayed_key(src)
                    ev["trigger"] = DELAYED_TRIGGER_EVENT.get(
                        (kdata.get("trigger_event") or {}).get("type"))
                elif ability.get("trigger_definition_ref") is None:
                    raise Skip(f"phase's {provenance} trigger is not translated")
                else:
                    occurrence = ((ability["trigger_definition_ref"].get("occurrence")
                                   or {}).get("data") or {})
                    k = occurrence.get("printed_index", 0) if isinstance(occurrence, dict) else 0
                    chapter = self.saga_chapter(src, k or 0)
                    if chapter is not None:
                        # a Saga's chapter ability (FORMAT §11.8 Sagas): phase's trigger
                        # definition says its chapter; ours is the chapter ability listing it
                        ev["ability"], ev["trigger"], ev["chapter"] = chapter
                    else:
                        ev["ability"], ev["trigger"] = self.our_trigger(
                            src, k or 0, ability.get("description"))
                self.events.append(ev)
                self.events.append({"type": "ability_put_on_stack", "controller": ctrl,
                                    "object": ref, "card": ref, "targets": targets})

    def stack_targets(self, sid: int) -> list[str]:
        for entry in self.game.stack() or []:
            if entry.get("id") == sid:
                ability = ((entry.get("kind") or {}).get("data") or {}).get("ability") or {}
                targets: list[str] = []
                while isinstance(ability, dict):  # a target of a later sentence (Stomp's "deals
                    for t in ability.get("targets", []):  # 2 damage to any target") is in a sub_ability
                        ref = self.target_ref(t)
                        if ref not in targets:
                            targets.append(ref)
                    ability = ability.get("sub_ability")
                return targets
        return []

    def note_priority(self) -> None:
        wf = self.waiting()
        if wf.get("type") == "Priority":
            self.events.append({"type": "priority_received",
                                "player": self.player(wf["data"]["player"])})
        elif wf.get("type") == "GameOver":
            pass

    def expect_prompt(self, kinds: tuple[str, ...], seat: int | None, what: str) -> dict:
        wf = self.waiting()
        if wf.get("type") == "GameOver":
            raise Rejected("game_over", "the game is over")
        if wf.get("type") not in kinds:
            raise Rejected("wrong_decision", f"{what}: phase is waiting for "
                                             f"{wf.get('type')}")
        if seat is not None and self.waiting_player() not in (None, seat):
            code = "not_your_priority" if wf.get("type") == "Priority" else "wrong_decision"
            raise Rejected(code, f"{what}: phase is waiting for "
                                 f"{self.player(self.waiting_player())}")
        return wf

    # ---- script inputs ---------------------------------------------------------------------

    def run_input(self, i: int, inp: dict) -> None:
        kind = inp.get("action")
        self.input_kind = kind
        self.previous_mark = getattr(self, "input_mark", 0)
        self.input_mark = len(self.events)
        handler = getattr(self, f"do_{kind}", None)
        if handler is None:
            raise Skip(f"input #{i} ({kind}) cannot be given to phase")
        bridge = getattr(self, "bridge", [])
        if bridge and kind == "declare_attackers" and not inp.get("attackers") \
                and self.seat.get(inp.get("player")) == bridge[0] and len(bridge) == 2:
            self.bridge_declared = True
            return  # the empty declaration phase made by itself; its step's passes come next
        if bridge and kind == "pass" and self.seat.get(inp.get("player")) == bridge[0]:
            seat = bridge.pop(0)  # a pass of the declare attackers step phase skipped (BRIDGE_508_8)
            self.events.append({"type": "priority_passed", "player": self.player(seat)})
            if bridge:
                self.events.append({"type": "priority_received", "player": self.player(bridge[0])})
            return
        if kind != "activate":  # a mana ability activated meanwhile goes to phase; the step's passes still come
            self.bridge = []
        handler(inp)
        if BRIDGE_508_8 and self.skipped_declare_attackers_priority():
            active = self.game.state()["state"]["active_player"]
            self.bridge = [active, 1 - active]
            self.bridge_declared = kind == "declare_attackers"  # else the declaration input is still to come

    def skipped_declare_attackers_priority(self) -> bool:
        """Did phase just go from an empty declaration of attackers to the end of combat
        step without giving priority in the declare attackers step (COMPLIANCE, phase bug 4)?"""
        new = self.events[self.input_mark:]
        for k, e in enumerate(new):
            if e.get("type") == "attackers_declared" and not e.get("attackers"):
                for f in new[k + 1:]:
                    if f.get("type") == "priority_received":
                        return False
                    if f.get("type") == "step_began" and f.get("step") == "end_of_combat":
                        return True
        return False

    def seat_of(self, inp: dict) -> int:
        who = inp.get("player")
        if who not in self.seat:
            raise Rejected("unknown_object", f"no player {who!r}")
        return self.seat[who]

    def do_pass(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        self.expect_prompt(("Priority",), None, "pass")
        self.apply(seat, action("PassPriority"))

    def do_resolve(self, inp: dict) -> None:
        first = self.expect_prompt(("Priority",), None, "resolve")
        seats = [first["data"]["player"]]
        seats.append(1 - seats[0])
        for seat in seats:
            wf = self.waiting()
            if wf.get("type") != "Priority" or wf["data"]["player"] != seat:
                if wf.get("type") in ("Priority", "GameOver"):
                    return
                raise ScriptError("unanswered_decision",
                                  f"resolve: phase asks for {wf.get('type')}")
            self.apply(seat, action("PassPriority"))

    def do_advance(self, inp: dict) -> None:
        to = inp["to"]
        want_turn = inp.get("turn")
        target = STEP_TO_PHASE.get(to)
        if target is None:
            raise Skip(f"advance to {to!r}")
        started = len(self.events)
        for _ in range(400):
            wf = self.waiting()
            kind = wf.get("type")
            began = [e for e in self.events[started:] if e["type"] == "step_began"
                     and e["step"] == to and (want_turn is None or e["turn"] == want_turn)]
            if began:
                return
            if kind == "GameOver":
                raise ScriptError("advance_not_reached", f"the game ended before {to}")
            seat = self.waiting_player()
            if kind == "Priority":
                self.apply(seat, action("PassPriority"))
            elif kind == "DeclareAttackers":
                self.apply(seat, action("DeclareAttackers", {"attacks": [], "bands": []}))
            elif kind == "DeclareBlockers":
                self.apply(seat, action("DeclareBlockers", {"assignments": []}))
            else:
                raise ScriptError("unanswered_decision",
                                  f"advance to {to}: phase asks for {kind}")
        raise ScriptError("advance_not_reached", f"{to} not reached")

    def do_play_land(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        oid = self.object_id(inp["card"])
        self.expect_prompt(("Priority",), None, "play_land")
        self.apply(seat, action("PlayLand", {"object_id": oid, "card_id": oid}))

    #: The ``cast`` input fields this adapter gives to phase (FORMAT §3.2). Any other field
    #: (an alternative or additional cost, a face to cast, FORMAT §10–11) is not translated:
    #: the case is skipped rather than cast as if the field were absent.
    CAST_FIELDS = frozenset({"action", "player", "card", "targets", "modes", "x", "pay_with",
                             "mana", "face", "behold", "harmonize_tap"})
    #: the ``alternative`` values translated (FORMAT §11.3): phase casts a harmonize card from
    #: its graveyard with its Harmonize casting variant
    ALTERNATIVES = frozenset({"harmonize", "flashback"})
    #: phase's casting variant (read off its pending cast) for each translated alternative
    VARIANT = {"harmonize": "Harmonize", "flashback": "Flashback"}

    def do_cast(self, inp: dict) -> None:
        extra = sorted(k for k in inp if k not in self.CAST_FIELDS
                       and not (k == "alternative" and inp[k] in self.ALTERNATIVES))
        if extra:
            raise Skip(f"cast field(s) {', '.join(f'{k}={inp[k]!r}' if k == 'alternative' else k for k in extra)} are not translated for phase")
        seat = self.seat_of(inp)
        if str(inp["card"]).startswith("prepared#"):
            self.cast_prepared(seat, inp)
            return
        oid = self.object_id(inp["card"])
        self.expect_prompt(("Priority",), None, "cast")
        zone = (self.game.object(oid) or {}).get("zone")
        alt = inp.get("alternative")
        if alt in self.VARIANT and zone != "Graveyard":
            # phase's CastSpell names no casting variant: from another zone it would cast the
            # card some other way
            raise Skip(f"a {alt} cast from {zone}: phase's CastSpell cannot ask for it")
        self.cast_targets = {}
        self.casting = {"pool": self.pool(seat), "added": {}, "modes": None}
        try:
            self.apply(seat, action("CastSpell", {"object_id": oid, "card_id": oid,
                                                  "targets": [],
                                                  "payment_mode": {"type": "Manual"}}))
            self.answer_casting(seat, oid, inp)
            ev = self.casting.get("event")
            if ev is not None:
                self.finish_cast_event(seat, inp, ev)
                if self.casting.get("face"):
                    ev["face"] = self.casting["face"]
                for alt, variant in self.VARIANT.items():
                    if self.casting.get("variant") == variant:
                        ev["alternative"] = alt
                if self.casting.get("beheld"):
                    self.note_beheld(seat, oid, ev)
        finally:
            self.casting = None

    def cast_prepared(self, seat: int, inp: dict) -> None:
        """Cast the copy of a prepared permanent's prepare spell (FORMAT §11.9): phase's
        ``CastPreparedCopy`` of the permanent the copy is linked to; phase makes the copy
        object as it casts it, which then carries the copy's reference."""
        src = next((o for o, ref in self.prepared.items() if ref == inp["card"]), None)
        if src is None:
            raise Rejected("unknown_object", f"no object named {inp['card']!r} (phase has no "
                                             "prepared permanent linked to it)")
        if inp.get("alternative") is not None or inp.get("face") is not None:
            raise Skip("an alternative or face for a prepared copy's cast: phase's "
                       "CastPreparedCopy takes none")
        self.expect_prompt(("Priority",), None, "cast")
        self.cast_targets = {}
        self.casting = {"pool": self.pool(seat), "added": {}, "modes": None,
                        "prepared": src}
        try:
            self.apply(seat, action("CastPreparedCopy", {"source": src}))
            copy_id = next((o for o, ref in self.copies.items() if ref == inp["card"]), None)
            if copy_id is None:
                # phase made the copy object, still on its way to the stack (targets, cost)
                objs = self.game.state()["state"]["objects"]
                copy_id = next((int(k) for k, o in objs.items()
                                if o.get("prepared_copy_source") == src
                                and int(k) not in self.copies), None)
                if copy_id is not None:
                    self.copies[copy_id] = inp["card"]
            if copy_id is None:
                raise Skip("phase made no copy object for the prepared cast")
            self.answer_casting(seat, copy_id, inp)
            ev = self.casting.get("event")
            if ev is not None:
                self.finish_cast_event(seat, inp, ev)
        finally:
            self.casting = None

    def resolving_ref(self, sid: Any) -> str:
        """The spell or ability whose resolution an effect belongs to: the last one phase
        reported resolved (phase reports ``StackResolved`` before a decision inside it)."""
        return self.last_resolved or (self.ref(sid) if isinstance(sid, int) else "")

    def note_beheld(self, seat: int, oid: int, cast: dict) -> None:
        """``beheld`` for a behold cost (FORMAT §11.5), before ``spell_cast``: the object phase
        records as the cost's paid object (``cost_paid_object`` of the spell on its stack)."""
        for entry in self.game.stack() or []:
            if entry.get("id") != oid:
                continue
            ability = ((entry.get("kind") or {}).get("data") or {}).get("ability") or {}
            paid = ability.get("cost_paid_object") or {}
            bid = paid.get("object_id")
            if not isinstance(bid, int):
                return
            obj = self.game.object(bid) or {}
            ev = {"type": "beheld", "player": self.player(seat), "object": self.ref(bid),
                  "card": self.card(bid), "name": (paid.get("lki") or {}).get("name")
                  or obj.get("name"), "zone": ZONE_NAME.get(obj.get("zone"), "hand"),
                  "spell": cast["object"]}
            self.events.insert(self.events.index(cast), ev)
            return

    def do_activate(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        oid = self.object_id(inp["source"])
        alias = self.alias.get(oid)
        if oid in self.tokens:
            # a token has no card file whose abilities could be matched with phase's
            raise Skip(f"activating an ability of a token ({self.tokens[oid]}) is not "
                       "translated for phase")
        card_name = self.game.object(oid)["name"] if oid is not None else None
        ours = [a for a in self.card_data(card_name).get("abilities", [])]
        index = inp.get("ability", 0)
        if not isinstance(index, int):
            raise Skip(f"ability {index!r} (not an index into the card's abilities) is not "
                       "translated for phase")
        if not 0 <= index < len(ours):
            raise Rejected("no_such_ability", f"{alias} has no ability {index}")
        kinds = [a.get("kind") for a in ours]
        if kinds[index] not in ("activated", "mana"):
            raise Rejected("no_such_ability", f"ability {index} of {alias} is {kinds[index]}")
        k = sum(1 for kd in kinds[:index] if kd in ("activated", "mana"))
        obj = self.game.object(oid)
        theirs = [j for j, a in enumerate(obj.get("abilities") or [])
                  if a.get("kind") == "Activated"]
        if len(theirs) != sum(1 for kd in kinds if kd in ("activated", "mana")):
            raise Skip(f"{card_name}: phase parsed {len(theirs)} activated abilities, the "
                       f"card file lists {sum(1 for kd in kinds if kd in ('activated', 'mana'))}")
        self.expect_prompt(("Priority",), None, "activate")
        self.cast_targets = {}
        self.pending_activation = {"type": "ability_activated", "player": self.player(seat),
                                   "source": self.ref(oid), "source_card": self.card(oid),
                                   "ability": index}
        self.pending_stack = None
        self.casting = {"pool": self.pool(seat), "added": {}, "modes": None}
        try:
            self.apply(seat, action("ActivateAbility", {"source_id": oid,
                                                        "ability_index": theirs[k]}))
            self.answer_casting(seat, oid, inp)
            ev = self.pending_activation
            if self.pending_stack is not None:
                ev["targets"] = self.stack_targets(self.pending_stack)
            ev.setdefault("targets", [])
            ev["x"] = inp.get("x", 0) if self.casting.get("x_chosen") else 0
            self.record_payment(seat, inp, ev)
        finally:
            self.casting = None
            self.pending_activation = None

    def record_payment(self, seat: int, inp: dict, ev: dict) -> None:
        """Put the mana ``seat`` paid into the synthesised event ``ev`` (``mana_paid``) and
        check it against what the input said to pay with (:meth:`check_mana_paid`)."""
        ev["mana_paid"] = self.mana_paid(seat)
        self.check_mana_paid(inp, ev["mana_paid"])

    def finish_cast_event(self, seat: int, inp: dict, ev: dict) -> None:
        """Complete a synthesised ``spell_cast`` event: the mana paid (checked) and the modes
        chosen while casting."""
        self.record_payment(seat, inp, ev)
        ev["modes"] = self.casting["modes"] or []

    def mana_paid(self, seat: int) -> dict[str, int]:
        """What phase took from the pool for the cost: pool before + mana made - pool after."""
        paid = dict(self.casting["pool"])
        for color, n in self.casting["added"].items():
            paid[color] = paid.get(color, 0) + n
        for color, n in self.pool(seat).items():
            paid[color] = paid.get(color, 0) - n
        return {c: n for c, n in sorted(paid.items()) if n > 0}

    def our_index(self, oid: int, kinds: tuple[str, ...], k: int) -> int:
        """The index in our card file's ``abilities`` of the card's k-th ability of ``kinds``
        (phase numbers its abilities its own way; the k-th of a kind is the same ability)."""
        obj = self.game.object(oid) or {}
        ours = self.card_data(obj.get("name")).get("abilities", [])
        found = [i for i, a in enumerate(ours) if a.get("kind") in kinds]
        return found[k] if k < len(found) else k

    def delayed_key(self, oid: int) -> str:
        """``ability`` of a delayed triggered ability (FORMAT §11.4): the keyword of its
        source that creates delayed triggers (mobilize), ``delayed`` for an instant or sorcery
        source. phase's stack entry does not say which ability created it: any other source is
        skipped."""
        obj = self.game.object(oid) or {}
        card = self.card_data(obj.get("name"))
        kws = [kw if isinstance(kw, str) else kw.get("keyword") for kw in card.get("keywords", [])]
        found = [k for k in kws if k in DELAYED_BY_KEYWORD]
        printed = [a for a in card.get("abilities", []) if "delayed" in json.dumps(a)]
        if len(found) == 1 and not printed:
            return found[0]
        if {"Instant", "Sorcery"} & set(card.get("types", [])) and not found:
            return "delayed"
        raise Skip(f"a delayed trigger of {obj.get('name')}: phase does not say which ability "
                   "created it")

    def saga_chapter(self, oid: int, k: int) -> tuple[int, str, int] | None:
        """``(ability, "chapter", chapter)`` when phase's k-th trigger definition of the
        object is a Saga chapter (its ``saga_chapter``), else ``None``."""
        obj = self.game.object(oid) or {}
        defs = obj.get("trigger_definitions") or []
        if not 0 <= k < len(defs):
            return None
        d = defs[k].get("definition", defs[k]) if isinstance(defs[k], dict) else {}
        n = d.get("saga_chapter") if isinstance(d, dict) else None
        if not isinstance(n, int):
            return None
        ours = self.card_data(obj.get("name")).get("abilities", [])
        index = next((i for i, a in enumerate(ours) if a.get("kind") == "chapter"
                      and n in (a.get("chapters") or [])), None)
        if index is None:
            raise Skip(f"{obj.get('name')}: phase's chapter {n} trigger has no chapter ability "
                       "in the card file")
        return index, "chapter", n

    def our_trigger(self, oid: int, k: int, description: Any) -> tuple[Any, Any]:
        """``ability`` and ``trigger`` (FORMAT §6) of the k-th triggered ability phase
        parsed on an object: a keyword's trigger (phase describes it as "Mobilize — ...")
        is named by the keyword; a printed one by its index in our card file and the
        ``event`` of that ability's trigger."""
        obj = self.game.object(oid) or {}
        card = self.card_data(obj.get("name"))
        words = str(description or "").split(" ")
        names = [kw if isinstance(kw, str) else kw.get("keyword")
                 for kw in card.get("keywords", [])]
        names = [n for n in names if isinstance(n, str) and n in KEYWORD_TRIGGER]
        printed = [a for a in card.get("abilities", []) if a.get("kind") == "triggered"]
        for name in names:
            if str(description or "").lower().startswith(name.replace("_", " ")) or (len(names) == 1 and not printed):
                # phase's description names the keyword ("Mobilize — ..."), or it is the
                # card's only triggered ability (increment: phase shows its reminder text)
                return name, KEYWORD_TRIGGER[name]
        index = self.our_index(oid, ("triggered",), k)
        ours = card.get("abilities", [])
        event = None
        if index < len(ours) and ours[index].get("kind") == "triggered":
            event = (ours[index].get("trigger") or {}).get("event")
        return index, event

    def pool(self, seat: int) -> dict[str, int]:
        pool: dict[str, int] = {}
        for unit in ((self.game.player(seat) or {}).get("mana_pool") or {}).get("mana", []):
            letter = PHASE_COLOR.get(unit.get("color"), "C")
            pool[letter] = pool.get(letter, 0) + 1
        return pool

    def mana_selection(self, oid: int, color: str | None) -> Any:
        obj = self.game.object(oid)
        if obj is None:
            raise Rejected("unknown_object", f"no object {oid}")
        pips = obj.get("available_mana_pips") or []
        colors = []
        for pip in pips:
            if pip.get("type") == "Color":
                colors.append(pip.get("data"))
        if color:
            mana = LETTER_PHASE_COLOR.get(color)
        elif len(set(colors)) == 1:
            mana = colors[0]
        elif not colors:
            mana = "Colorless"
        else:
            raise Skip(f"{self.ref(oid)} makes one of several colors and the input names none")
        index = obj.get("mana_ability_index", 0) or 0
        return action("TapLandForMana", {"object_id": oid, "selection": {
            "source": {"object_id": oid, "incarnation": obj.get("incarnation", 0) or 0},
            "ability_index": index, "mana_type": mana, "restrictions": [],
            "penalty": "None", "taps_for_mana": []}})

    def answer_casting(self, seat: int, oid: int, inp: dict) -> None:
        self._answer_casting(seat, oid, inp)
        # phase pays what the input's payment does not cover by tapping other sources (at the
        # end of a manual payment, or at once for an ability): the input's payment (pay_with,
        # then the pool, FORMAT §3.2) could not pay the cost
        named = {self.ref(self.object_id(src["source"] if isinstance(src, dict) else src))
                 for src in inp.get("pay_with") or []}
        if inp.get("action") == "activate":
            named.add(self.ref(oid))  # a mana ability's own source
        extra = sorted({e["source"] for e in self.events[self.input_mark:]
                        if e["type"] == "mana_ability_activated" and e["source"] not in named})
        if extra:
            raise Rejected("cannot_pay", f"the cost needs more mana than the input's payment: "
                                         f"phase also tapped {extra}")

    def _answer_casting(self, seat: int, oid: int, inp: dict) -> None:
        targets = list(inp.get("targets") or [])
        chosen = []
        pay = list(inp.get("pay_with") or [])
        paid = False
        face = inp.get("face")
        offered = False
        behold = inp.get("behold")
        behold_offered = False
        for _ in range(64):
            wf = self.waiting()
            kind = wf.get("type")
            data = wf.get("data") if isinstance(wf.get("data"), dict) else {}
            variant = ((data.get("pending_cast") or {}).get("casting_variant")
                       or self.stack_variant(oid))
            if variant and self.casting is not None and inp.get("action") == "cast":
                self.casting["variant"] = variant
                wanted = self.VARIANT.get(inp.get("alternative"))
                if variant in self.VARIANT.values() and variant != wanted:
                    # phase casts this card from the graveyard only with this variant, which
                    # the input does not ask for; phase's CastSpell cannot ask otherwise
                    self.cancel(seat)
                    raise Skip(f"phase casts the card with {variant} (its only way from the "
                               f"graveyard); a cast without it cannot be asked of phase")
                if wanted and variant != wanted:
                    self.cancel(seat)
                    raise Skip(f"phase casts the card with its {variant} variant, the input "
                               f"asks for {inp.get('alternative')}")
            if kind == "HarmonizeTapChoice":
                if inp.get("alternative") != "harmonize":
                    self.cancel(seat)
                    raise Skip(f"phase asks for a harmonize tap in a {variant} cast")
                tap = inp.get("harmonize_tap")
                self.apply(seat, action("HarmonizeTap", {
                    "creature_id": self.object_id(tap) if tap is not None else None}))
                continue
            if kind == "OptionalCostChoice" and '"Behold"' in json.dumps(data.get("cost")):
                # "[you may] behold a Dragon [or pay {1}]": paying the optional cost is
                # beholding (for "or pay", declining it adds the other cost)
                behold_offered = True
                self.apply(seat, action("DecideOptionalCost", {"pay": behold is not None}))
                continue
            if kind == "PayCost" and (data.get("kind") or {}).get("type") == "Behold":
                behold_offered = True
                if behold is None:
                    self.cancel(seat)
                    raise Rejected("cannot_pay", "phase asks for a card or permanent to behold, "
                                                 "the input names none")
                self.apply(seat, action("SelectCards", {"cards": [self.object_id(behold)]}))
                if self.casting is not None:
                    self.casting["beheld"] = True
                continue
            if behold is not None and not behold_offered and kind in ("ManaPayment", "Priority"):
                self.cancel(seat)
                raise Rejected("invalid_alternative", "phase asks for no behold for this card")
            if kind == "CastOffer" and (wf["data"].get("kind") or {}).get("type") == "Adventure":
                # phase asks which face of an adventure (or Omen) card is cast
                offered = True
                if face not in (None, "omen", "adventure"):
                    self.cancel(seat)
                    raise Rejected("invalid_choice", f"phase offers no {face!r} face")
                self.apply(seat, action("ChooseAdventureFace", {"creature": face is None}))
                if face is not None and self.casting is not None:
                    self.casting["face"] = face
                    self.faces_cast[oid] = face
                continue
            if face is not None and not offered:
                # the card has no face to cast: phase went on to cast its main face
                self.cancel(seat)
                raise Rejected("invalid_choice", f"phase offers no {face!r} face for this card")
            if kind == "TargetSelection":
                if not targets:
                    raise Rejected("missing_targets", "phase asks for a target the input "
                                                      "does not give")
                t = self.target_of(targets.pop(0))
                chosen.append(t)
                self.apply(seat, action("ChooseTarget", {"target": t}))
            elif kind == "ModeChoice":
                modes = inp.get("modes")
                if modes is None:
                    raise Rejected("invalid_mode", "phase asks for a mode")
                self.apply(seat, action("SelectModes", {"indices": list(modes)}))
                if self.casting is not None:
                    self.casting["modes"] = list(modes)
            elif kind == "ChooseXValue":
                if "x" not in inp:
                    raise Rejected("invalid_x", "phase asks for X")
                self.apply(seat, action("ChooseX", {"value": inp["x"]}))
                if self.casting is not None:
                    self.casting["x_chosen"] = True
            elif kind == "ManaPayment":
                if paid:
                    self.cancel(seat)
                    raise Rejected("cannot_pay", "the mana paid does not cover the cost")
                for src in pay:
                    if isinstance(src, dict):
                        sid, color = self.object_id(src["source"]), src.get("color")
                    else:
                        sid, color = self.object_id(src), None
                    self.apply(seat, self.mana_selection(sid, color))
                if inp.get("mana"):
                    self.pin_pool_mana(seat, inp["mana"])
                paid = True
                self.apply(seat, action("PassPriority"))
            else:
                break
        if targets:
            # phase picks a lone legal target itself (no prompt): compare with its choice
            engine = [t for ts in self.cast_targets.values() for t in ts]
            if not engine and self.pending_stack is not None:
                engine = self.stack_targets(self.pending_stack)
            wanted = [self.ref(self.object_id(t)) if t not in self.seat else t
                      for t in inp.get("targets") or []]
            if engine != wanted:
                raise Rejected("invalid_target", f"phase chose the targets {engine}, the input "
                                                 f"names {wanted}")

    def stack_variant(self, oid: int) -> str | None:
        """The casting variant of the spell ``oid`` on phase's stack (``Flashback``,
        ``Harmonize``, ...): phase's ``ManaPayment`` prompt does not repeat it."""
        for entry in self.game.stack() or []:
            if entry.get("id") == oid and (entry.get("kind") or {}).get("type") == "Spell":
                variant = ((entry.get("kind") or {}).get("data") or {}).get("casting_variant")
                return variant if variant and variant != "Normal" else None
        return None

    def pin_pool_mana(self, seat: int, mana: dict) -> None:
        """The input's ``mana`` (FORMAT §3.2: exactly which pool mana pays): phase's
        ``SpendPoolMana`` commits those units of its pool to the cost first."""
        units = list(((self.game.player(seat) or {}).get("mana_pool") or {}).get("mana", []))
        for letter, n in sorted(mana.items()):
            color = LETTER_PHASE_COLOR.get(letter)
            for _ in range(int(n)):
                unit = next((u for u in units if u.get("color") == color), None)
                if unit is None:
                    self.cancel(seat)
                    raise Skip(f"mana {mana}: phase's pool has no more {letter} to spend")
                units.remove(unit)
                self.apply(seat, action("SpendPoolMana", {"pip_id": unit["pip_id"]}))

    def check_mana_paid(self, inp: dict, paid: dict) -> None:
        """phase pays the rest of a cost itself once the named units are committed: when what
        it took is not exactly the input's ``mana``, the input's payment was not phase's."""
        want = {c: n for c, n in (inp.get("mana") or {}).items() if n}
        if want and paid != dict(sorted(want.items())):
            raise Skip(f"phase paid {paid} where the input's mana is {want}")

    def cancel(self, seat: int) -> None:
        try:
            self.game.apply(seat, action("CancelCast"))
        except ValueError:
            pass

    def declared_by_phase(self, event_type: str, player: str) -> bool:
        """Did phase make this declaration by itself, empty, while the previous input was
        processed? (phase declares no attackers, or no blockers, without asking when no
        creature can attack or block.)"""
        return any(e.get("type") == event_type and e.get("player") == player
                   and not e.get("attackers") and not e.get("blocks")
                   for e in self.events[getattr(self, "previous_mark", 0):self.input_mark])

    def do_declare_attackers(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        if not inp.get("attackers") and self.waiting().get("type") != "DeclareAttackers" \
                and self.declared_by_phase("attackers_declared", self.player(seat)):
            return  # the same answer phase gave by itself: no attackers
        self.expect_prompt(("DeclareAttackers",), seat, "declare_attackers")
        defender = {"type": "Player", "data": 1 - seat}
        attacks = [[self.object_id(a), defender] for a in inp.get("attackers", [])]
        self.apply(seat, action("DeclareAttackers", {"attacks": attacks, "bands": []}))

    def do_declare_blockers(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        if not inp.get("blocks") and self.waiting().get("type") != "DeclareBlockers" \
                and self.declared_by_phase("blockers_declared", self.player(seat)):
            return  # the same answer phase gave by itself: no blockers
        self.expect_prompt(("DeclareBlockers",), seat, "declare_blockers")
        pairs = [[self.object_id(b["blocker"]), self.object_id(b["attacker"])]
                 for b in inp.get("blocks", [])]
        self.apply(seat, action("DeclareBlockers", {"assignments": pairs}))

    def do_assign_damage(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        wf = self.expect_prompt(("AssignCombatDamage",), seat, "assign_damage")
        data = wf["data"]
        if data.get("attacker_id") != self.object_id(inp["attacker"]):
            raise Rejected("wrong_decision", "phase asks about another attacker")
        assignments, to_player = [], 0
        for who, n in inp.get("assignment", {}).items():
            if who in self.seat:
                to_player += n
            else:
                assignments.append([self.object_id(who), n])
        self.apply(seat, action("AssignCombatDamage", {
            "assignments": assignments, "controller_damage": 0, "mode": "Normal",
            "trample_damage": to_player}))

    def do_discard(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        self.expect_prompt(("DiscardToHandSize", "DiscardChoice"), seat, "discard")
        self.apply(seat, action("SelectCards",
                                {"cards": [self.object_id(c) for c in inp.get("cards", [])]}))

    def do_random(self, inp: dict) -> None:
        raise Skip("phase's random outcomes cannot be fixed by the script")

    def do_choose(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        wf = self.waiting()
        kind = wf.get("type")
        data = wf.get("data") if isinstance(wf.get("data"), dict) else {}
        choice = inp.get("choice")
        if kind == "OptionalEffectChoice" and choice in ("yes", "no"):
            self.apply(seat, action("DecideOptionalEffect", {"accept": choice == "yes"}))
            return
        if kind == "OptionalEffectChoice" and "behold" in str(data.get("description")).lower() \
                and isinstance(choice, str):
            # "you may behold a Dragon" (FORMAT §11.5): the answer names what is beheld.
            # phase asks yes/no, then which card or permanent (or picks a lone one itself)
            self.expect_prompt(("OptionalEffectChoice",), seat, "choose")
            self.apply(seat, action("DecideOptionalEffect", {"accept": True}))
            wf = self.waiting()
            if wf.get("type") in ("BeholdChoice", "PayCost"):
                self.apply(seat, action("SelectCards", {"cards": [self.object_id(choice)]}))
                return
            beheld = [e["object"] for e in self.events[self.input_mark:]
                      if e["type"] == "card_revealed"]
            if not beheld:
                # phase beheld a permanent by itself (a lone choice) and does not say which
                raise Skip("phase beheld a permanent of its own choosing without saying which: "
                           f"the input's {choice!r} cannot be checked")
            if beheld != [self.ref(self.object_id(choice))]:
                raise Rejected("invalid_choice", f"phase beheld {beheld or 'nothing'} itself "
                                                 f"(its only choice), the input names {choice}")
            return
        if kind == "ChooseOneOfBranch":
            # endure (FORMAT §11.5): phase's two branches, a token or +1/+1 counters; an
            # answer that is neither is given to phase as a branch it does not have
            effects = [((b.get("effect") or {}).get("type")) for b in data.get("branches", [])]
            want = {"token": "Token", "counters": "PutCounter"}.get(choice)
            index = effects.index(want) if want in effects else len(effects)
            self.apply(seat, action("ChooseBranch", {"index": index}))
            return
        if kind == "SearchChoice":
            nothing = choice in (None, "none", "no")
            self.apply(seat, action("SelectCards", {"cards": [] if nothing
                                                    else [self.object_id(choice)]}))
            if nothing:
                out: list = []
                self.note_found(out, None)
                self.events[self.input_mark:self.input_mark] = out
            return
        if kind == "NamedChoice" and isinstance(choice, str):
            self.apply(seat, action("ChooseOption", {"choice": choice}))
            # phase logs no event for the choice; it records it on the object
            src = ((((data.get("source") or {}).get("prompt") or {}).get("identity") or {})
                   .get("reference") or {}).get("object_id")
            chosen = [a.get("value") for a in ((self.game.object(src) or {})
                                               .get("chosen_attributes") or [])
                      if isinstance(src, int) and a.get("type") == "CardName"]
            if chosen:
                self.events.insert(self.input_mark, {"type": "card_name_chosen",
                                                     "object": self.ref(src),
                                                     "card": self.card(src),
                                                     "name": chosen[-1]})
            return
        if kind == "DamageSourceChoice":
            self.apply(seat, action("ChooseDamageSource", {"source": self.object_id(choice)}))
            return
        raise Skip(f"choose {choice!r}: phase asks for {kind}")

    def do_choose_targets(self, inp: dict) -> None:
        seat = self.seat_of(inp)
        wanted = [t if t in self.seat else self.ref(self.object_id(t))
                  for t in inp.get("targets", [])]
        if self.waiting().get("type") == "Priority":
            # phase puts a trigger with a lone legal choice of targets on the stack itself,
            # without a prompt: the input agrees with it or names a target phase did not allow
            top = next(iter(reversed(self.game.stack() or [])), None)
            if top is not None and top.get("id") in self.abilities and \
                    ((top.get("kind") or {}).get("type") == "TriggeredAbility"):
                chosen = self.stack_targets(top["id"])
                if chosen == wanted:
                    return
                raise Rejected("invalid_target", f"phase put the trigger on the stack with the "
                                                 f"only legal targets {chosen}")
        wf = self.expect_prompt(("TriggerTargetSelection", "TargetSelection", "CopyRetarget"),
                                seat, "choose_targets")
        for t in inp.get("targets", []):
            self.apply(seat, action("ChooseTarget", {"target": self.target_of(t)}))
        if wf.get("type") == "CopyRetarget":
            # a copy's targets (FORMAT §10 copy_targets): its spell_copied event gets the
            # targets phase's stack now holds for it
            cid = (wf.get("data") or {}).get("copy_id")
            for ev in reversed(self.events):
                if ev["type"] == "spell_copied" and ev["object"] == self.ref(cid):
                    ev["targets"] = self.stack_targets(cid)
                    break

    def do_order_triggers(self, inp: dict) -> None:
        wf = self.waiting()
        raise Skip(f"order_triggers: phase's {wf.get('type')} prompt is not translated")

    # ---- events ----------------------------------------------------------------------------

    def translate(self, events: list, skip_passes: bool = False) -> None:
        out: list[dict] = []
        resolved_at = len(self.events)
        for e in events or []:
            kind = e.get("type")
            d = e.get("data") or {}
            if kind == "PriorityPassed":
                continue
            if kind == "ZoneChanged":
                oid = d["object_id"]
                if d.get("from") == "Exile" and d.get("to") == "Stack" \
                        and oid not in self.copies and oid not in self.alias:
                    src = (self.game.object(oid) or {}).get("prepared_copy_source")
                    if src in self.prepared:
                        # the copy of a prepared permanent's prepare spell, cast (§11.9)
                        self.copies[oid] = self.prepared[src]
                if oid in self.copies and self.copies[oid].startswith("prepared#") \
                        and d.get("from") == "Stack":
                    # a copy of a spell ceases to exist as it leaves the stack (CR 707.10a)
                    out.append({"type": "copy_ceased_to_exist", "object": self.copies[oid],
                                "card": self.copies[oid]})
                    continue
                old = self.ref(oid)
                record = d.get("record") or {}
                if oid in self.alias:
                    self.count[oid] = self.count.get(oid, 1) + 1
                new = self.ref(oid)
                src, dst = ZONE_NAME.get(d.get("from"), str(d.get("from")).lower()), \
                    ZONE_NAME.get(d.get("to"), str(d.get("to")).lower())
                owner = record.get("owner")
                if d.get("from") is None:  # a token coming into being: token_created says it
                    if not record.get("name") and not self.probing:
                        # the protocol has no nameless object (a token's name, CR 111.4)
                        raise Skip("phase created a token with an empty name, which the "
                                   "protocol cannot carry")
                    if oid not in self.tokens:
                        self.tokens[oid] = f"token#{len(self.tokens) + 1}"
                    new = self.ref(oid)
                    if dst == "battlefield":
                        ctrl = record.get("controller", owner)
                        out.append({"type": "permanent_entered", "object": new,
                                    "card": self.card(oid), "name": record.get("name"),
                                    "controller": self.player(ctrl) if isinstance(ctrl, int)
                                    else None})
                    continue
                name = record.get("name")
                if src == "library" and dst != "library":
                    self.note_found(out, oid)
                cause = None
                if src == "stack" and dst != "stack":
                    # phase's record names the object that left (the Omen spell); FORMAT §5.1
                    # names the card it becomes, the main face everywhere but the stack
                    if self.faces_cast.pop(oid, None) == "adventure" and dst == "exile":
                        cause = "adventure"  # an Adventure exiled as it resolves (§11.7)
                    name = self.face_main.get(name, name)
                if src == "battlefield" and oid in self.prepared:
                    # the prepared permanent leaves: its copy ceases to exist (§11.9: phase
                    # has no copy object before the cast, its flag goes with the permanent)
                    ref = self.prepared.pop(oid)
                    out.append({"type": "copy_ceased_to_exist", "object": ref, "card": ref,
                                "after": "left_battlefield"})
                out.append({"type": "zone_changed", "object": old, "new_object": new,
                            "card": self.card(oid), "name": name,
                            "owner": self.player(owner) if isinstance(owner, int) else None,
                            "from": src, "to": dst, **({"cause": cause} if cause else {})})
                if dst == "battlefield":
                    ctrl = record.get("controller", owner)
                    out.append({"type": "permanent_entered", "object": new,
                                "card": self.card(oid), "name": record.get("name"),
                                "controller": self.player(ctrl) if isinstance(ctrl, int)
                                else None})
            elif kind == "Transformed":
                # a transforming permanent turned over (FORMAT §11.6): the same object, the
                # name of the face now up
                oid = d.get("object_id")
                obj = self.game.object(oid) or {}
                out.append({"type": "transformed", "object": self.ref(oid), "card": self.card(oid),
                            "name": obj.get("name"),
                            "face": "back" if obj.get("transformed") else "front"})
            elif kind == "BecamePrepared":
                oid = d.get("object_id")
                if oid not in self.prepared:
                    self.prepared_n += 1
                    self.prepared[oid] = f"prepared#{self.prepared_n}"
                obj = self.game.object(oid) or {}
                self.prepared_by[self.prepared[oid]] = obj.get("controller")
                entered = any(x["type"] == "permanent_entered" and x["card"] == self.card(oid)
                              for x in out)
                ctrl = obj.get("controller")
                out.append({"type": "became_prepared", "object": self.ref(oid),
                            "card": self.card(oid),
                            "player": self.player(ctrl) if isinstance(ctrl, int) else None,
                            "copy": self.prepared[oid],
                            "name": (obj.get("back_face") or {}).get("name"),
                            "cause": "enters_prepared" if entered else "effect"})
            elif kind == "BecameUnprepared":
                oid = d.get("object_id")
                ref = self.prepared.pop(oid, None)
                cast = self.casting is not None and self.casting.get("prepared") == oid
                out.append({"type": "unprepared", "object": self.ref(oid), "card": self.card(oid),
                            "cause": "cast" if cast else "effect"})
                if ref is not None and not cast:
                    out.append({"type": "copy_ceased_to_exist", "object": ref, "card": ref,
                                "after": "unprepared"})
            elif kind == "CardsRevealed":
                names = d.get("card_names") or []
                for oid in (d.get("card_ids") or [])[:1]:
                    self.note_found(out, oid)
                for j, oid in enumerate(d.get("card_ids") or []):
                    out.append({"type": "card_revealed",
                                "player": self.player(d.get("player_id", d.get("player"))),
                                "object": self.ref(oid), "card": self.card(oid),
                                "name": names[j] if j < len(names) else
                                (self.game.object(oid) or {}).get("name")})
            elif kind == "SpellCopied":
                oid, orig = d.get("object_id"), d.get("original_id")
                if oid not in self.copies:
                    self.copies[oid] = f"copy#{len(self.copies) + 1}"
                ctrl = d.get("controller")
                out.append({"type": "spell_copied", "object": self.copies[oid],
                            "card": self.copies[oid], "original": self.ref(orig),
                            "original_card": self.card(orig),
                            "controller": self.player(ctrl) if isinstance(ctrl, int) else None,
                            "targets": self.stack_targets(oid)})
            elif kind == "EffectResolved" and d.get("kind") == "Behold":
                # a behold effect (FORMAT §11.5): the card phase revealed for it is beheld
                sid = d.get("source_id")
                for x in [x for x in out if x["type"] == "card_revealed"]:
                    oid = self.object_id(x["object"])
                    out.append({"type": "beheld", "player": x["player"], "object": x["object"],
                                "card": x["card"], "name": x["name"],
                                "zone": ZONE_NAME.get((self.game.object(oid) or {}).get("zone"),
                                                      "hand"),
                                "spell": self.resolving_ref(sid)})
            elif kind == "PlayerPerformedAction" and d.get("action") == "SearchedLibrary":
                # phase says a search happened; the card it finds is the next card phase
                # moves out of that player's library (FORMAT §6 library_searched)
                self.searching = d.get("player_id")
            elif kind == "PlayerPerformedAction" and d.get("action") == "ShuffledLibrary":
                out.append({"type": "library_shuffled", "player": self.player(d["player_id"])})
            elif kind == "Milled":
                # phase reports the mill after the zone change it names
                oid = d.get("object_id")
                moved = next((x for x in reversed(out) if x["type"] == "zone_changed"
                              and x["card"] == self.card(oid) and x["from"] == "library"), None)
                if moved is not None:
                    moved["cause"] = "mill"
            elif kind == "LandPlayed":
                out.append({"type": "land_played", "player": self.player(d["player_id"]),
                            "object": self.ref(d["object_id"]), "card": self.card(d["object_id"])})
            elif kind == "BecomesTarget":
                self.targets.setdefault(d["source_id"], []).append(self.target_ref(d["target"]))
                self.cast_targets.setdefault(d["source_id"], []).append(
                    self.target_ref(d["target"]))
            elif kind == "XValueChosen":
                self.x_values[d.get("object_id")] = d.get("value")
            elif kind == "SpellCast":
                oid = d["object_id"]
                obj = self.game.object(oid) or {}
                ev = {"type": "spell_cast", "player": self.player(d["controller"]),
                      "object": self.ref(oid), "card": self.card(oid), "name": obj.get("name"),
                      "targets": self.targets.pop(oid, []), "x": self.x_values.pop(oid, 0)}
                if self.casting is not None:
                    self.casting["event"] = ev
                out.append(ev)
            elif kind == "AbilityActivated":
                sid = d.get("source_id")
                if d.get("kind") == "Mana":
                    out.append({"type": "mana_ability_activated",
                                "player": self.player(d["player_id"]), "source": self.ref(sid),
                                "source_card": self.card(sid), "ability": self.our_index(
                                    sid, ("mana",), 0)})
                elif self.pending_activation is not None and \
                        "object" not in self.pending_activation:
                    out.append(self.pending_activation)
            elif kind == "ManaAdded":
                sid = d.get("source_id")
                if self.casting is not None:
                    letter = PHASE_COLOR.get(d.get("mana_type"), "C")
                    self.casting["added"][letter] = self.casting["added"].get(letter, 0) + 1
                letter = PHASE_COLOR.get(d.get("mana_type"), "C")
                last = out[-1] if out else None
                if last is not None and last["type"] == "mana_added" and \
                        last["source"] == self.ref(sid) and \
                        last["player"] == self.player(d["player_id"]):
                    # one mana ability adding several mana is one event (FORMAT §6)
                    last["mana"][letter] = last["mana"].get(letter, 0) + 1
                else:
                    out.append({"type": "mana_added", "player": self.player(d["player_id"]),
                                "mana": {letter: 1}, "source": self.ref(sid),
                                "card": self.card(sid)})
            elif kind == "PermanentTapped":
                out.append({"type": "tapped", "object": self.ref(d["object_id"]),
                            "card": self.card(d["object_id"])})
            elif kind == "PermanentUntapped":
                out.append({"type": "untapped", "object": self.ref(d["object_id"]),
                            "card": self.card(d["object_id"])})
            elif kind == "StackResolved":
                oid = d["object_id"]
                is_ability = oid in self.abilities
                ev = {"type": "ability_resolved" if is_ability else "spell_resolved",
                      "object": self.ref(oid), "card": self.card(oid)}
                self.last_resolved = self.ref(oid)
                if not is_ability:
                    # the zone change that ended the resolution already renumbered it
                    last_move = next((x for x in reversed(out) if x["type"] == "zone_changed"
                                      and x["card"] == self.card(oid)), None)
                    if last_move is not None:
                        ev["object"] = last_move["object"]
                first = next((j for j, x in enumerate(out) if x["type"] not in
                              ("priority_passed",)), len(out))
                out.insert(first, ev)
            elif kind == "DamageDealt":
                sid = d.get("source_id")
                tgt = d.get("target") or {}
                ev = {"type": "damage_dealt", "source": self.ref(sid),
                      "source_card": self.card(sid), "amount": d.get("amount"),
                      "combat": bool(d.get("is_combat"))}
                if "Player" in tgt:
                    ev["target"] = self.player(tgt["Player"])
                elif "Object" in tgt:
                    ev["target"] = self.ref(tgt["Object"])
                    ev["target_card"] = self.card(tgt["Object"])
                out.append(ev)
            elif kind == "DamagePrevented":
                tgt = d.get("target") or {}
                out.append({"type": "damage_prevented", "source": self.ref(d.get("source_id")),
                            "target": self.target_ref(tgt), "amount": d.get("amount")})
            elif kind == "LifeChanged":
                amount = d.get("amount", 0)
                out.append({"type": "life_gained" if amount > 0 else "life_lost",
                            "player": self.player(d["player_id"]), "amount": abs(amount),
                            "life": d.get("new_total")})
            elif kind == "CreatureDestroyed":
                oid = d["object_id"]
                if d.get("source_id") is None:
                    # phase's source-less destruction: its lethal-damage state-based action
                    # (no card of this suite has deathtouch, CR 704.5h)
                    self.before_move(out, oid, {"type": "state_based_action", "rule": "704.5g",
                                                "card": self.card(oid)})
                self.before_move(out, oid, {"type": "destroyed", "card": self.card(oid)})
            elif kind == "PermanentSacrificed":
                oid = d["object_id"]
                self.before_move(out, oid, {"type": "sacrificed", "card": self.card(oid)})
            elif kind == "Regenerated":
                out.append({"type": "regenerated", "object": self.ref(d["object_id"]),
                            "card": self.card(d["object_id"])})
            elif kind == "CardDrawn":
                oid = d["object_id"]
                out.append({"type": "card_drawn", "player": self.player(d["player_id"]),
                            "object": self.ref(oid), "card": self.card(oid)})
            elif kind == "Discarded":
                oid = d["object_id"]
                out.append({"type": "card_discarded", "player": self.player(d["player_id"]),
                            "object": self.ref(oid), "card": self.card(oid)})
            elif kind == "CounterAdded":
                oid = d["object_id"]
                out.append({"type": "counters_added", "object": self.ref(oid),
                            "card": self.card(oid),
                            "counter": COUNTER_NAME.get(d.get("counter_type"),
                                                        str(d.get("counter_type"))),
                            "count": d.get("count")})
            elif kind == "CounterRemoved":
                oid = d["object_id"]
                out.append({"type": "counters_removed", "object": self.ref(oid),
                            "card": self.card(oid),
                            "counter": COUNTER_NAME.get(d.get("counter_type"),
                                                        str(d.get("counter_type"))),
                            "count": d.get("count")})
            elif kind == "PowerToughnessChanged":
                oid = d["object_id"]
                out.append({"type": "pt_changed", "object": self.ref(oid), "card": self.card(oid),
                            "power": d.get("power"), "toughness": d.get("toughness")})
            elif kind == "TokenCreated":
                oid = d["object_id"]
                if oid not in self.tokens:
                    self.tokens[oid] = f"token#{len(self.tokens) + 1}"
                obj = self.game.object(oid) or {}
                ctrl = obj.get("controller")
                ev = {"type": "token_created", "object": self.tokens[oid],
                      "card": self.tokens[oid], "name": d.get("name"),
                      "controller": self.player(ctrl) if isinstance(ctrl, int) else None}
                if obj.get("tapped"):
                    ev["tapped"] = True
                defender = self.attacking(oid)
                if defender is not None:
                    ev["attacking"] = defender
                out.append(ev)
            elif kind == "ControllerChanged":
                oid = d["object_id"]
                out.append({"type": "control_changed", "object": self.ref(oid),
                            "card": self.card(oid),
                            "controller": self.player(d["new_controller"])})
            elif kind == "SpellCountered":
                oid = d["object_id"]
                ev = {"type": "spell_countered", "object": self.ref(oid), "card": self.card(oid),
                      "reason": "countered"}
                out.append(ev)
            elif kind == "AttackersDeclared":
                attacks = d.get("attacks") or []
                attackers = []
                for oid, tgt in attacks:
                    defender = tgt.get("data") if isinstance(tgt, dict) else None
                    attackers.append({"object": self.ref(oid), "card": self.card(oid),
                                      "defender": self.player(defender)
                                      if isinstance(defender, int) else None})
                player = None
                if isinstance(d.get("defending_player"), int):
                    player = self.player(1 - d["defending_player"])
                out.append({"type": "attackers_declared", "player": player,
                            "attackers": attackers})
            elif kind == "BlockersDeclared":
                blocks = [{"blocker": self.ref(b), "blocker_card": self.card(b),
                           "attacker": self.ref(a), "attacker_card": self.card(a)}
                          for b, a in d.get("assignments") or []]
                out.append({"type": "blockers_declared", "blocks": blocks,
                            "player": self.player(self.actor)
                            if isinstance(self.actor, int) else None})
            elif kind == "PhaseChanged":
                step = PHASE_TO_STEP.get(d.get("phase"), str(d.get("phase")))
                if self.step is not None:
                    out.append({"type": "step_ended", "turn": self.step[0], "step": self.step[1]})
                self.step = (self.turn, step)
                out.append({"type": "step_began", "turn": self.turn,
                            "phase": STEP_PHASE.get(step, step), "step": step})
            elif kind == "TurnStarted":
                self.turn = d.get("turn_number", self.turn)
                out.append({"type": "turn_began", "turn": d.get("turn_number"),
                            "active_player": self.player(d["player_id"])})
            elif kind == "ManaPoolEmptied":
                out.append({"type": "mana_emptied", "player": self.player(d["player_id"]),
                            "mana": {PHASE_COLOR.get(d.get("color"), "C"): 1}})
            elif kind == "PlayerLost":
                seat = d["player_id"]
                P = self.game.player(seat) or {}
                ev = {"type": "player_lost", "player": self.player(seat)}
                if P.get("drew_from_empty_library"):
                    rule, ev["reason"] = "704.5b", "empty_library"
                elif isinstance(P.get("life"), int) and P["life"] <= 0:
                    rule, ev["reason"] = "704.5a", "life"
                else:
                    rule = None
                if rule:
                    out.append({"type": "state_based_action", "rule": rule,
                                "player": self.player(seat)})
                out.append(ev)
            elif kind == "GameOver":
                winner = d.get("winner")
                winners = [self.player(winner)] if isinstance(winner, int) else []
                out.append({"type": "game_ended", "winners": winners,
                            "losers": [p for p in self.players if p not in winners],
                            "draw": not winners})
        self.events.extend(out)
        del resolved_at

    def attacking(self, oid: int) -> str | None:
        """The player an attacking creature attacks, read off phase's combat state."""
        combat = (self.game.state().get("state") or {}).get("combat") or {}
        for a in combat.get("attackers") or []:
            if isinstance(a, dict) and a.get("object_id") == oid:
                tgt = a.get("defending_player", a.get("target"))
                if isinstance(tgt, dict) and tgt.get("type") == "Player":
                    return self.player(tgt["data"])
                if isinstance(tgt, int):
                    return self.player(tgt)
        return None

    def note_found(self, out: list, oid: int | None) -> None:
        """``library_searched`` once phase, having said a player searches, reveals or moves a
        card of that player's library (the card found; ``None`` when nothing is)."""
        if self.searching is None:
            return
        owner = (self.game.object(oid) or {}).get("owner") if isinstance(oid, int) else None
        if oid is not None and owner != self.searching:
            return
        out.append({"type": "library_searched", "player": self.player(self.searching),
                    "found": self.ref(oid) if oid is not None else None})
        self.searching = None

    def before_move(self, out: list, oid: int, ev: dict) -> None:
        """phase reports a destruction or sacrifice after the zone change it causes; FORMAT §6
        has it before: put ``ev`` (with the object's battlefield reference) just before that
        ``zone_changed``."""
        moved = next((x for x in reversed(out) if x["type"] == "zone_changed"
                      and x["card"] == self.card(oid) and x["from"] == "battlefield"), None)
        if moved is None:
            out.append({**ev, "object": self.ref(oid)})
        else:
            out.insert(out.index(moved), {**ev, "object": moved["object"]})

    # ---- state -----------------------------------------------------------------------------

    def attached_ref(self, value: Any) -> str | None:
        if isinstance(value, int):
            return self.ref(value)
        if isinstance(value, dict) and isinstance(value.get("data"), int):
            return self.ref(value["data"]) if value.get("type") == "Object" \
                else self.player(value["data"])
        return None

    def read_state(self) -> dict:
        st = self.game.state()["state"]
        objs = st["objects"]
        wf = st.get("waiting_for") or {}
        step = PHASE_TO_STEP.get(st.get("phase"), str(st.get("phase")))
        players = {}
        for seat, P in enumerate(st["players"]):
            pool = self.pool(seat)
            players[self.player(seat)] = {
                "life": P.get("life"),
                "library": [self.card(o) for o in P.get("library", [])],
                "hand": [self.card(o) for o in P.get("hand", [])],
                "graveyard": [self.card(o) for o in P.get("graveyard", [])],
                "exile": [self.card(o) for o in st.get("exile", [])
                          if objs[str(o)].get("owner") == seat]
                # the copy of a prepared permanent's prepare spell (FORMAT §11.9): phase
                # keeps a flag on the permanent and makes the copy object only as it is cast
                + [ref for pid, ref in self.prepared.items()
                   if self.prepared_by.get(ref) == seat
                   and (objs.get(str(pid)) or {}).get("prepared")],
                "mana_pool": pool,
                "lands_played": P.get("lands_played_this_turn", 0),
                "lost": (P.get("status") or {}).get("type") not in (None, "Active")
                or bool(P.get("is_eliminated"))}
            # cards of the hand phase keeps publicly revealed (a behold cost, FORMAT §11.5)
            shown = [self.card(o) for o in P.get("hand", [])
                     if o in (st.get("public_revealed_cards") or [])]
            if shown:
                players[self.player(seat)]["revealed"] = shown
        battlefield = {}
        for oid in st.get("battlefield", []):
            o = objs[str(oid)]
            key = self.card(oid)
            types = list((o.get("card_types") or {}).get("core_types", []))
            entry = {"object": self.ref(oid), "name": o.get("name"),
                     "owner": self.player(o["owner"]),
                     "controller": self.player(o["controller"]),
                     "tapped": bool(o.get("tapped")),
                     "summoning_sick": bool(o.get("summoning_sick", False)),
                     "damage": o.get("damage_marked", 0),
                     "counters": {COUNTER_NAME.get(k, k): v
                                  for k, v in (o.get("counters") or {}).items()},
                     "attached_to": self.attached_ref(o.get("attached_to")),
                     "types": types,
                     "subtypes": list((o.get("card_types") or {}).get("subtypes", [])),
                     "colors": sorted(COLOR_WORD.get(c, c.lower()) for c in o.get("color", [])),
                     # an Aura's Enchant is the card's `enchant` (FORMAT §5), not a keyword of the state
                     "keywords": sorted(keyword_name(k) for k in o.get("keywords", [])
                                        if not (isinstance(k, dict) and "Enchant" in k)),
                     "token": oid in self.tokens}
            if "Creature" in types:
                entry["power"], entry["toughness"] = o.get("power"), o.get("toughness")
            if o.get("transformed"):
                entry["face"] = "back"  # FORMAT §11.6: absent with the front face up
            if o.get("prepared"):
                entry["prepared"] = True
                if oid in self.prepared:
                    entry["prepared_copy"] = self.prepared[oid]
            battlefield[key] = entry
        stack = []
        for item in st.get("stack", []):
            oid = item.get("id") if isinstance(item, dict) else None
            if not isinstance(oid, int):
                continue
            entry = {"object": self.ref(oid), "card": self.card(oid),
                     "kind": "ability" if oid in self.abilities else "spell",
                     "controller": self.player(item["controller"]),
                     "targets": self.stack_targets(oid)}
            if oid in self.abilities and isinstance(item.get("source_id"), int):
                entry["source"] = self.ability_sources.get(oid) or self.ref(item["source_id"])
            elif oid not in self.abilities:
                entry["name"] = (objs.get(str(oid)) or {}).get("name")
                if oid in self.faces_cast:
                    entry["face"] = self.faces_cast[oid]
            stack.append(entry)
        combat = None
        if isinstance(st.get("combat"), dict):
            combat = self.read_combat(st["combat"], st["active_player"])
        game_over = None
        if wf.get("type") == "GameOver":
            winner = (wf.get("data") or {}).get("winner")
            winners = [self.player(winner)] if isinstance(winner, int) else []
            game_over = {"winners": winners,
                         "losers": [p for p in self.players if p not in winners],
                         "draw": not winners}
        priority = self.player(wf["data"]["player"]) if wf.get("type") == "Priority" else None
        if getattr(self, "bridge", []):  # inside the declare attackers step phase skipped
            step = "declare_attackers"
            priority = self.player(self.bridge[0]) if getattr(self, "bridge_declared", True) else None
        return {"turn": st.get("turn_number"), "active_player": self.player(st["active_player"]),
                "phase": STEP_PHASE.get(step, step), "step": step,
                "priority": priority,
                "players": players, "battlefield": battlefield, "stack": stack,
                "combat": combat, "game_over": game_over}

    def read_combat(self, combat: dict, active: int) -> dict:
        """phase's combat record in the shape of PROTOCOL §10.7: ``{"attackers": {card alias:
        defending player}, "blockers": {card alias: the alias of the attacker it blocks}}``
        (keys are card aliases, as the state's battlefield is keyed). With two players the
        defending player is the active player's opponent."""
        attackers, blockers = {}, {}
        defender = self.player(1 - active)
        for item in combat.get("attackers") or []:
            oid = item.get("object_id") if isinstance(item, dict) else item
            if isinstance(oid, int):
                attackers[self.card(oid)] = defender
        for key, value in (combat.get("blocker_to_attacker") or {}).items():
            for a in value if isinstance(value, list) else [value]:
                if isinstance(a, int) and str(key).isdigit():
                    blockers[self.card(int(key))] = self.card(a)
        return {"attackers": attackers, "blockers": blockers}

    # ---- the whole run ---------------------------------------------------------------------

    def save(self) -> tuple:
        return (self.game.state(), len(self.events), dict(self.count), dict(self.tokens),
                dict(self.abilities), set(self.stack_seen), self.ability_count, self.step,
                self.turn, copy.deepcopy(self.targets), dict(self.x_values),
                dict(self.faces_cast), self.searching, self.last_resolved, dict(self.copies),
                dict(self.prepared), self.prepared_n, dict(self.prepared_by))

    def restore(self, saved: tuple) -> None:
        state, n, self.count, self.tokens, self.abilities, self.stack_seen, \
            self.ability_count, self.step, self.turn, self.targets, self.x_values, \
            self.faces_cast, self.searching, self.last_resolved, self.copies, \
            self.prepared, self.prepared_n, self.prepared_by = saved
        self.game = self.engine.load_game(state)
        del self.events[n:]
        self.pending_activation = None

    def copy(self) -> "PhaseRun":
        other = copy.copy(self)
        other.game = self.engine.load_game(self.game.state())
        other.events = []
        other.alias, other.count = dict(self.alias), dict(self.count)
        other.tokens, other.abilities = dict(self.tokens), dict(self.abilities)
        other.targets = copy.deepcopy(self.targets)
        other.cast_targets = copy.deepcopy(self.cast_targets)
        other.stack_seen = set(self.stack_seen)
        other.faces_cast = dict(self.faces_cast)
        other.copies = dict(self.copies)
        other.prepared, other.prepared_by = dict(self.prepared), dict(self.prepared_by)
        other.ability_sources = dict(self.ability_sources)
        other.x_values = dict(self.x_values)
        return other

    def probe(self, act: dict) -> dict:
        trial = self.copy()
        trial.probing = True  # only whether phase accepts the input counts, not its events
        try:
            trial.run_input(-1, act)
        except Rejected as exc:
            if not exc.code:
                raise Skip(f"probe {act}: phase refuses it with a reason the adapter cannot "
                           f"classify: {exc}") from None
            return {"action": act, "legal": False, "code": exc.code}
        except ScriptError:
            return {"action": act, "legal": False, "code": None}
        return {"action": act, "legal": True, "code": None}

    def run(self) -> dict:
        self.build()
        script = self.scenario.get("script", [])
        wanted = {}
        for cp in self.scenario.get("expect", {}).get("checkpoints", []) or []:
            wanted.setdefault(cp.get("after"), []).append(cp)
        checkpoints = []
        for i, inp in enumerate(script):
            if self.waiting().get("type") == "GameOver":
                self.events.append({"type": "action_rejected", "at": i,
                                    "player": inp.get("player"), "action": inp.get("action"),
                                    "code": "game_over", "message": "the game is over"})
            else:
                saved = self.save()
                try:
                    self.run_input(i, inp)
                except Rejected as exc:
                    self.restore(saved)  # a rejected input changes nothing (FORMAT §3.2)
                    if not exc.code:
                        raise Skip(f"input #{i} ({inp.get('action')}): phase refuses it with a "
                                   f"reason the adapter cannot classify: {exc}") from None
                    self.events.append({"type": "action_rejected", "at": i,
                                        "player": inp.get("player"),
                                        "action": inp.get("action"), "code": exc.code,
                                        "message": str(exc)})
                except ScriptError as exc:
                    self.events.append({"type": "script_error", "at": i, "code": exc.code,
                                        "message": str(exc)})
                    break
            for cp in wanted.get(i, []):
                probes = [self.probe(a) for a in cp.get("legal", [])]
                probes += [self.probe(item["action"]) for item in cp.get("illegal", [])]
                checkpoints.append({"after": i, "state": self.read_state(), "probes": probes})
        return {"events": self.events, "state": self.read_state(), "checkpoints": checkpoints}


def keyword_name(kw: Any) -> str:
    """phase's keyword (``"FirstStrike"``, ``{"Protection": {"Color": "White"}}``,
    ``{"Landwalk": "Forest"}``) in FORMAT §4's names (``first_strike``, ``protection:white``,
    ``landwalk:Forest``)."""
    if isinstance(kw, str):
        return re.sub(r"(?<!^)(?=[A-Z])", "_", kw).lower()
    if isinstance(kw, dict) and len(kw) == 1:
        (name, value), = kw.items()
        if name == "Landwalk" and isinstance(value, str):
            return f"landwalk:{value}"
        if name == "Protection" and isinstance(value, dict) and "Color" in value:
            return f"protection:{str(value['Color']).lower()}"
        bare = re.sub(r'(?<!^)(?=[A-Z])', '_', name).lower()
        if isinstance(value, dict) and value.get("type") in ("Cost", "Mana"):
            return bare  # a keyword with a cost (echo {1}{G}{G}): FORMAT §4 names it alone
        return f"{bare}:{json.dumps(value)}"
    return json.dumps(kw)


# --------------------------------------------------------------------------------------------
# Protocol


def implementation() -> dict:
    if phase is None:
        raise RuntimeError("phase-python is not installed (pip install phase-python)")
    ver, homepage = package_info("phase-python")
    return {"name": NAME, "version": ver, "language": "rust", "homepage": homepage,
            "rulesets": list(RULESETS), "capabilities": list(CAPABILITIES)}


def play(scenario: dict, ruleset: str) -> dict:
    if ruleset not in RULESETS:
        raise Skip(f"ruleset {ruleset} is not implemented by phase")
    return PhaseRun(scenario, ruleset).run()


def main() -> int:
    return serve(implementation, play)


if __name__ == "__main__":
    sys.exit(main())
