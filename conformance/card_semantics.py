"""Card shapes the schema accepts but the reference engine would silently ignore (issue 14).

``mtg-judge validate`` (:func:`mtg_judge.conformance.lint.lint`) runs :func:`card_problems`
on every schema-valid card file. Each problem is a
:class:`~mtg_judge.conformance.loader.FixtureError` naming the card file, the JSON path and
why the engine would do nothing with it. Ten families of checks:

1. **Abilities of instants and sorceries** (CR 113.6: they function only while the spell is
   on the stack unless they say otherwise). The engine applies static abilities, replacement
   effects, mana abilities and chapter abilities only on the battlefield, triggered
   abilities on the battlefield or in exile (``"zone": "exile"``), activated abilities on
   the battlefield or in a graveyard (``"zone": "graveyard"``). An instant or sorcery (or
   an instant/sorcery face, FORMAT §5.1) never reaches the battlefield, so those abilities
   would be no-ops: they are refused (``STACK_ABILITY_KINDS`` names the kinds that work on
   the stack: none yet), except the two narrow static shapes the engine reads there: a
   spell's own cost modifier (``spell_statics.is_own_cost_effect``) and its own conditional
   split second ("if this spell was kicked, it has split second", CR 113.6, 702.61a;
   ``spell_statics.is_own_keyword_effect``). Keywords that only mean something for a permanent are refused the
   same way; :data:`SPELL_KEYWORDS` names the ones the engine applies to an instant or
   sorcery; so are the fields that say how a permanent enters (:data:`PERMANENT_FIELDS`).
   The other way round, :data:`INSTANT_SORCERY_KEYWORDS` (buyback, paradigm) are refused on
   a card that is not an instant or sorcery.

2. **Targets an effect cannot act on** (CR 115, 608.2b): an effect reference
   ``{"target": i}`` whose target spec names a kind of object the effect does nothing to
   (``destroy`` of a target spell, ``counter`` of a target creature, ``draw`` for a target
   creature). :data:`EFFECT_ZONES` says, for each effect type and reference key, which
   kinds of objects the engine's handler acts on; :data:`TARGET_ZONES` says where each
   target spec kind's objects are. A target kind whose zones are not all covered is
   refused: some legal choice of target would make the effect a no-op.
   ``tests/test_vocabulary_effects.py`` plays a scenario for each pair listed here.

3. **Costs that can never be paid**: ``discard_self`` in a card's printed costs (the engine
   activates printed abilities on the battlefield or in a graveyard, never from a hand).

4. **Triggers that can never trigger**: ``mana_ability`` without the ``tapped_for_mana``
   trigger or the other way round (CR 605.1b), a chapter ability on a card that is not a
   Saga (CR 714.2).

5. **References that name nothing**: ``self`` in a spell's own effects (the spell on the
   stack, which no effect acts on); ``exiled_cards`` and ``blocking_creature`` anywhere in
   card data (only abilities the engine builds itself use them: flicker's delayed return,
   flanking), ``triggering_object`` and the other trigger-event
   references outside a triggered ability, ``enchanted`` on a card that is not an Aura,
   ``equipped`` on one that is not an Equipment.

6. **Conditions that could never hold, or are not read, where they are**: ``in_exile`` /
   ``suspended`` outside an ability that works in exile, ``triggering_spell_*`` and
   ``triggering_object_matches`` outside a triggered ability, ``cast_during_your_main_phase``
   / ``beheld`` outside a spell's own effects (:data:`CAST_CONDITIONS`), ``own_and_control_named`` in a spell's effects
   (:data:`PERMANENT_CONDITIONS`), anything but ``kicked`` in a target's condition
   (:data:`TARGET_CONDITIONS`). Everywhere else the engine evaluates every condition the
   schema names (tests/test_field_walk.py walks the positions).

7. **Replacement abilities the engine would not apply as written**: a permanent's own trip
   to the graveyard with an ``affected`` other than ``"self"``, a draw replacement with one
   other than ``"controller"``, the wrong form of ``instead``, a condition where none is read.

8. **Labels of the engine's own decisions** (:data:`ENGINE_LABELS`): ``reason`` of a
   ``pay_or_sacrifice`` effect (the echo keyword's; nothing in the game reads it).

9. **Keys no handler reads** (issue 26 item 2): a key of a one-shot effect that its type's
   declaration (engine/effect_params.py ``PARAMETERS``) lacks, the same check card loading
   makes (``effect_params.check_card``). The schema's ``effect_*`` definitions agree with the
   declaration (tests/test_effect_params.py), so a schema-valid card meets it; it is here so
   that ``validate`` names the key should the two ever part.

10. **Amounts that read nothing** (issue 23): an amount read from the game (``power_of``,
   ``toughness_of``, ``counters_on``) of a player or of a target player or ability (it would
   always count 0), and an ``"X"`` in a filter (``mana_value``, ``mana_value_at_most``)
   anywhere but the targets, ``{"all": F}`` references and ``search_library`` filters of a
   spell or an activated ability, where the engine replaces it by the X chosen (a triggered
   or static ability has no X). Check 5 reads the references of those amounts and of
   ``deal_damage``'s ``from`` too (``self`` in a spell's own effects).
"""

from __future__ import annotations

from typing import Any, Iterator

from mtg_judge.conformance.loader import FixtureError, json_path
from mtg_judge.engine.effect_params import unread_keys
from mtg_judge.engine.spell_statics import is_own_cost_effect, is_own_keyword_effect

#: Ability kinds that function while an instant or sorcery spell is on the stack.
#: Empty: the one static ability the engine applies to a spell is its own cost modifier
#: (``cost_reduction`` / ``cost_increase`` with ``"affected": "self"``, "This spell costs {1}
#: less to cast [if …]", engine/spell_statics.py); every other ability of a spell is refused.
#: (Activated abilities with ``"zone": "graveyard"`` and triggered abilities with ``"zone":
#: "exile"`` are allowed: they work where they say, CR 113.6b.)
STACK_ABILITY_KINDS: frozenset[str] = frozenset()

#: Keywords the engine applies to an instant or sorcery card or spell (CR 702): the ones
#: that change how or from where it is cast, what it costs, or what happens as it is cast,
#: resolves or leaves the stack.
SPELL_KEYWORDS = frozenset({
    "split_second", "storm", "suspend", "buyback", "flashback", "harmonize", "madness",
    "kicker", "cycling", "landcycling", "paradigm",
})

#: Keywords the engine applies only to an instant or sorcery spell as it resolves.
INSTANT_SORCERY_KEYWORDS = frozenset({"buyback", "paradigm"})

#: Card fields that say how a permanent enters the battlefield: meaningless on an instant or
#: sorcery.
PERMANENT_FIELDS = ("enters_tapped", "enters_prepared", "as_enters")

#: Where the objects a target spec kind can name are (CR 115.1): ``battlefield``
#: (permanents), ``player``, ``spell`` and ``ability`` (on the stack), ``graveyard``,
#: ``exile`` (cards, ``"kind": "card"`` with its ``zone``).
TARGET_ZONES: dict[str, frozenset[str]] = {
    "any": frozenset({"battlefield", "player"}),
    "creature": frozenset({"battlefield"}),
    "permanent": frozenset({"battlefield"}),
    "land": frozenset({"battlefield"}),
    "artifact": frozenset({"battlefield"}),
    "enchantment": frozenset({"battlefield"}),
    "player": frozenset({"player"}),
    "spell": frozenset({"spell"}),
    "ability": frozenset({"ability"}),
    "card": frozenset({"graveyard"}),  # or its "zone"
}

_BF = frozenset({"battlefield"})
_PLAYER = frozenset({"player"})
_DAMAGE = frozenset({"battlefield", "player"})

#: ``(effect type, reference key)`` → the zones whose objects the engine's effect handler
#: acts on (engine/effects.py ``HANDLERS``). A reference key not listed acts on the
#: battlefield only, except ``player`` keys (players only).
EFFECT_ZONES: dict[tuple[str, str], frozenset[str]] = {
    ("deal_damage", "to"): _DAMAGE,
    ("prevent_damage", "to"): _DAMAGE,
    ("prevent_damage_from_chosen_source", "to"): _DAMAGE,
    # _move: a spell leaves the stack uncountered (CR 608.2b, 400.7); a card changes zone
    ("exile", "what"): frozenset({"battlefield", "spell", "graveyard"}),
    ("return_to_hand", "what"): frozenset({"battlefield", "spell", "graveyard", "exile"}),
    ("put_into_graveyard", "what"): frozenset({"battlefield", "spell", "exile"}),
    ("counter", "what"): frozenset({"spell", "ability"}),  # CR 701.6
    ("copy_spell", "what"): frozenset({"spell"}),  # CR 707.10
    ("return_to_battlefield", "what"): frozenset({"graveyard", "exile"}),  # engine/flicker.py
    ("create_token_copy_of_card", "what"): frozenset({"graveyard"}),  # engine/token_copies.py
}


def reference_zones(effect_type: str, key: str) -> frozenset[str]:
    """The zones whose objects effect ``effect_type`` acts on through reference ``key``
    (see :data:`EFFECT_ZONES`)."""
    if (effect_type, key) in EFFECT_ZONES:
        return EFFECT_ZONES[(effect_type, key)]
    return _PLAYER if key in ("player", "players") else _BF


def target_zones(spec: dict) -> frozenset[str]:
    """Where the objects target spec ``spec`` can name are (:data:`TARGET_ZONES`; a
    ``card`` target is in its ``zone``, default graveyard)."""
    if spec.get("kind") == "card":
        return frozenset({spec.get("zone", "graveyard")})
    return TARGET_ZONES.get(spec.get("kind") or "", frozenset())


def _is_spell_card(card: dict) -> bool:
    types = card.get("types") or ()
    return "Instant" in types or "Sorcery" in types


def _keyword_name(kw: Any) -> str:
    return kw if isinstance(kw, str) else kw.get("keyword", "")


def card_problems(card: dict, file: str) -> list[FixtureError]:
    """The no-op shapes of one schema-valid card file's data ``card`` (module docstring);
    ``file`` names it in the errors. Never raises for schema-valid data."""
    problems: list[FixtureError] = []
    parts: list[tuple[dict, list]] = [(card, [])]
    for i, face in enumerate(card.get("faces") or ()):
        if isinstance(face, dict):
            parts.append((face, ["faces", i]))
    for data, where in parts:
        if _is_spell_card(data):
            problems += _spell_ability_problems(data, where, file)
        else:
            problems += _permanent_keyword_problems(data, where, file)
        problems += _target_problems(data, where, file)
        problems += _trigger_problems(data, where, file)
        problems += _context_reference_problems(data, where, file)
        problems += _condition_problems(data, where, file)
        problems += _replacement_problems(data, where, file)
        problems += _engine_label_problems(data, where, file)
        problems += _amount_problems(data, where, file)
    problems += _cost_problems(card, [], file)
    for data, where in parts:
        for i, ab in enumerate(data.get("abilities") or ()):
            eff = ab.get("effect") if isinstance(ab, dict) else None
            if isinstance(eff, dict) and is_own_cost_effect(eff) and "filter" in eff:
                problems.append(FixtureError(
                    file, json_path(where + ["abilities", i, "effect", "filter"]),
                    "a filter on a cost modifier of \"affected\": \"self\" would do nothing: it "
                    "changes only this card's own cost (engine/spell_statics.py)",
                    "either \"affected\": \"self\" or a filter, not both"))
    for parts, message in unread_keys(card):  # check 9
        problems.append(FixtureError(file, json_path(parts), message, "only the keys its handler declares"))
    return problems


def _trigger_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Check 4 of the module docstring: triggered abilities that could never trigger. The
    engine runs a triggered ability with ``"mana_ability": true`` only when a permanent is
    tapped for mana (CR 605.1b), and the ``tapped_for_mana`` trigger only as such a mana
    ability; it puts lore counters only on Sagas, so a chapter ability of a card without
    the subtype Saga never triggers (CR 714.2)."""
    out = []
    for i, ab in enumerate(card.get("abilities") or ()):
        if not isinstance(ab, dict):
            continue
        path = json_path(where + ["abilities", i])
        if ab.get("kind") == "triggered":
            event = (ab.get("trigger") or {}).get("event")
            if bool(ab.get("mana_ability")) != (event == "tapped_for_mana"):
                out.append(FixtureError(
                    file, path,
                    "this triggered ability could never trigger: the engine runs a triggered mana "
                    "ability (\"mana_ability\": true) only for the tapped_for_mana trigger, and that "
                    "trigger only as a mana ability (CR 605.1b)",
                    "\"mana_ability\": true exactly when the trigger is tapped_for_mana"))
        elif ab.get("kind") == "chapter" and "Saga" not in (card.get("subtypes") or ()):
            out.append(FixtureError(
                file, path,
                "a chapter ability of a card without the subtype Saga could never trigger: "
                "only Sagas get lore counters (CR 714.2, 714.3)",
                "chapter abilities only on a Saga"))
    return out


#: References to the event that triggered the ability (FORMAT §5): they name something only
#: in a triggered ability (or in the effects of a delayed trigger an effect creates).
TRIGGER_REFERENCES = frozenset({"triggering_object", "triggering_card", "triggering_player"})
#: References that only abilities built by the engine use (what names them there).
ENGINE_REFERENCES = {
    "exiled_cards": "the delayed return of exile_and_return_later, engine/flicker.py",
    "blocking_creature": "flanking's trigger on becoming blocked by a creature, engine/keywords.py; no "
                         "trigger of the card schema carries a blocking creature",
}
#: References to the permanent the source is attached to, and the subtype the source needs.
HOST_REFERENCES = {"enchanted": "Aura", "enchanted_controller": "Aura", "equipped": "Equipment"}


def _context_reference_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Check 5 of the module docstring: references that name nothing where they are used.
    ``triggering_*`` and ``blocking_creature`` outside a triggered ability (a spell, an
    activated ability: there is no trigger event, FORMAT §5); ``enchanted`` /
    ``enchanted_controller`` on a card that is not an Aura, ``equipped`` on one that is not
    an Equipment (its source is never attached to anything, CR 303.4, 301.5)."""
    out: list[FixtureError] = []
    subtypes = set(card.get("subtypes") or ())

    def visit(node: Any, path: list, triggered: bool, spell: bool = False) -> None:
        if isinstance(node, dict):
            # a triggered ability (printed, granted, a token's) or a delayed trigger's effects
            here = triggered or node.get("kind") in ("triggered", "chapter")
            own = spell and "kind" not in node  # not an ability of a token or a grant
            for key, value in node.items():
                inner = here or (key == "effects" and node.get("type") == "create_delayed_trigger")
                visit(value, path + [key], inner, own and key not in ("token", "trigger") and not inner)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                visit(value, path + [i], triggered, spell)
        elif isinstance(node, str) and path and path[-1] in _REFERENCE_KEYS:
            if node == "self" and spell:
                out.append(FixtureError(
                    file, json_path(path),
                    "'self' in a spell's effect names the spell itself on the stack, which this "
                    "effect does not act on or read from (a resolving instant or sorcery goes to its "
                    "graveyard afterwards, CR 608.2n)", "a reference other than 'self' in a spell's effects"))
            elif node in ENGINE_REFERENCES:
                out.append(FixtureError(
                    file, json_path(path),
                    f"{node!r} names nothing in a card's data: it names what an ability the engine "
                    f"builds itself remembers ({ENGINE_REFERENCES[node]})",
                    "a reference that names something in card data"))
            elif node in TRIGGER_REFERENCES and not triggered:
                out.append(FixtureError(
                    file, json_path(path),
                    f"{node!r} names nothing here: only a triggered ability has a triggering event "
                    "(FORMAT §5)", "a reference that names something in a spell or activated ability"))
            elif node in HOST_REFERENCES and HOST_REFERENCES[node] not in subtypes:
                out.append(FixtureError(
                    file, json_path(path),
                    f"{node!r} names nothing: this card is not an {HOST_REFERENCES[node]}, so it is never "
                    "attached to a permanent (CR 303.4, 301.5)",
                    f"{node} only on an {HOST_REFERENCES[node]}"))

    spell = card.get("spell")
    if isinstance(spell, dict):
        visit(spell, where + ["spell"], False, True)
    for i, ab in enumerate(card.get("abilities") or ()):
        if isinstance(ab, dict):
            visit(ab, where + ["abilities", i], ab.get("kind") in ("triggered", "chapter"))
    return out


#: Conditions about the source being in exile: they can hold only for an ability that works
#: in exile (``"zone": "exile"``, CR 113.6b; suspend, CR 702.62b).
EXILE_CONDITIONS = frozenset({"in_exile", "suspended"})
#: Conditions about the spell whose casting triggered the ability, or the object of the
#: trigger event (engine/event_conditions.py): they need a trigger event.
TRIGGER_CONDITIONS = frozenset({"triggering_spell_mana_spent_at_least",
                                "triggering_spell_mana_spent_colors_at_least",
                                "triggering_spell_mana_spent_exceeds_power_or_toughness",
                                "triggering_spell_targets", "triggering_object_matches"})
#: Conditions about how the spell itself was cast (CR 601.2: "if this spell was cast during
#: your main phase", "if a Dragon was beheld", CR 701.4b): only a spell's own effects know
#: them; an ability (static, triggered, activated) has no cast to look at (issue 22).
CAST_CONDITIONS = frozenset({"cast_during_your_main_phase", "beheld"})
#: Conditions about the source as a permanent: a spell on the stack never satisfies them
#: (Vanille's "if you both own and control this creature and a creature named …").
PERMANENT_CONDITIONS = frozenset({"own_and_control_named"})
#: The condition keys a target spec reads (engine/targets.py ``target_spec_active``: a target
#: that depends on a kicker, CR 601.2c / 702.33e); any other is ignored there.
TARGET_CONDITIONS = frozenset({"kicked"})


def _condition_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Check 6 of the module docstring: conditions that could never hold where they are
    written, which makes what they guard a no-op: ``in_exile`` / ``suspended`` (true) outside
    an ability that works in exile, ``triggering_spell_*`` outside a triggered ability."""
    out: list[FixtureError] = []

    def visit(node: Any, path: list, exile: bool, triggered: bool, spell: bool) -> None:
        if isinstance(node, dict):
            exile = exile or node.get("zone") == "exile"
            triggered = triggered or node.get("kind") in ("triggered", "chapter")
            target_spec = bool(path) and path[-2:-1] == ["targets"] and "kind" in node and "type" not in node
            for key, value in node.items():
                if key == "condition" and isinstance(value, dict):
                    for name, want in value.items():
                        if target_spec and name not in TARGET_CONDITIONS:
                            out.append(FixtureError(
                                file, json_path(path + [key, name]),
                                f"condition {name} is not read here: a target's condition may only be "
                                "kicked (a target chosen only if that kicker was paid, CR 601.2c, 702.33e)",
                                "kicked, or the condition on the effect (conditional)"))
                        elif name in CAST_CONDITIONS and not spell:
                            out.append(FixtureError(
                                file, json_path(path + [key, name]),
                                f"condition {name} could never hold here: only a spell's own effects know "
                                "how it was cast (CR 601.2); an ability has no cast to look at",
                                f"{name} only in a spell's effects"))
                        elif name in PERMANENT_CONDITIONS and spell:
                            out.append(FixtureError(
                                file, json_path(path + [key, name]),
                                f"condition {name} could never hold here: it is about its source as a "
                                "permanent, and a spell is on the stack", f"{name} only in a permanent's abilities"))
                        elif name in EXILE_CONDITIONS and want and not exile:
                            out.append(FixtureError(
                                file, json_path(path + [key, name]),
                                f"condition {name} could never hold here: only an ability that works "
                                "in exile (\"zone\": \"exile\", CR 113.6b) sees its card in exile",
                                f"{name} only in an ability with \"zone\": \"exile\""))
                        elif name in TRIGGER_CONDITIONS and not triggered:
                            out.append(FixtureError(
                                file, json_path(path + [key, name]),
                                f"condition {name} could never hold here: there is no triggering spell "
                                "or trigger event outside a triggered ability", f"{name} only in a triggered ability"))
                inner = triggered or (key == "effects" and node.get("type") == "create_delayed_trigger")
                # a delayed trigger's or a token's abilities are not the spell's own effects
                in_spell = spell and not (key in ("effects", "token") and node.get("type") in (
                    "create_delayed_trigger", "create_token"))
                visit(value, path + [key], exile, inner, in_spell)
        elif isinstance(node, list):
            for i, value in enumerate(node):
                visit(value, path + [i], exile, triggered, spell)

    for key in ("spell", "abilities"):
        if key in card:
            visit(card[key], where + [key], False, False, key == "spell")
    return out


#: Fields of effects that only the engine's own abilities use, as labels of the decisions
#: they build (the echo keyword's upkeep payment, CR 702.30a, is a ``pay_or_sacrifice`` whose
#: ``choose`` decision has the reason ``echo``): nothing in the game reads them, so card data
#: has no use for them (issue 22's field walk).
ENGINE_LABELS = {("pay_or_sacrifice", "reason")}


def _engine_label_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Check 8 of the module docstring: :data:`ENGINE_LABELS` in a card's data."""
    out = []

    def visit(node: Any, path: list) -> None:
        if isinstance(node, dict):
            for etype, key in ENGINE_LABELS:
                if node.get("type") == etype and key in node:
                    out.append(FixtureError(file, json_path(path + [key]),
                                            f"{key} of {etype} is a label of the engine's own decisions and "
                                            "would change nothing in the game", f"{etype} without {key}"))
            for k, v in node.items():
                visit(v, path + [k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                visit(v, path + [i])

    for key in ("spell", "abilities"):
        if key in card:
            visit(card[key], where + [key])
    return out


#: What the engine reads of a replacement ability, per event: the ``affected`` it applies
#: to, the form of ``instead`` and whether a ``condition`` is read (engine/zones.py: a
#: permanent's own trip to the graveyard; engine/draw_replacement.py: its controller's draws).
_REPLACEMENTS = {"put_into_graveyard_from_battlefield": ("self", "to", False),
                 "draw": ("controller", "effects", True)}


def _replacement_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Check 7 of the module docstring: a replacement ability the engine would not apply as
    written. ``put_into_graveyard_from_battlefield`` replaces only its own permanent's move
    (``"affected": "self"``, ``instead: {"to"}``, no condition); ``draw`` replaces only its
    controller's draws (``"affected": "controller"``, ``instead: {"effects"}``, a condition
    read as the draw would happen). Anything else is a no-op and refused."""
    out = []
    for i, ab in enumerate(card.get("abilities") or ()):
        if not (isinstance(ab, dict) and ab.get("kind") == "replacement"):
            continue
        affected, instead, conditioned = _REPLACEMENTS.get(str(ab.get("event")), ("self", "to", False))
        if ab.get("affected", affected) != affected:
            out.append(FixtureError(
                file, json_path(where + ["abilities", i, "affected"]),
                f"a {ab.get('event')} replacement that affects something else would do nothing: the engine "
                f"applies it only to {'its own permanent' if affected == 'self' else 'its controller'}"
                " (CR 614.1a; engine/zones.py, engine/draw_replacement.py)",
                f"\"affected\": \"{affected}\""))
        if isinstance(ab.get("instead"), dict) and instead not in ab["instead"]:
            out.append(FixtureError(
                file, json_path(where + ["abilities", i, "instead"]),
                f"a {ab.get('event')} replacement is replaced by {{\"{instead}\": ...}}: the other form "
                "would do nothing", f"\"instead\": {{\"{instead}\": ...}}"))
        if "condition" in ab and not conditioned:
            out.append(FixtureError(
                file, json_path(where + ["abilities", i, "condition"]),
                f"the engine reads no condition on a {ab.get('event')} replacement: it would always apply",
                "no condition"))
    return out


#: The keys of an amount read from the game (schema ``$defs.game_amount``; engine/effects.py).
GAME_AMOUNT_KEYS = ("power_of", "toughness_of", "counters_on")
#: References that name players: a player has no power, toughness or counters the engine reads.
PLAYER_REFERENCES = frozenset({"controller", "each_player", "each_opponent", "defending_player", "triggering_player",
                               "damage_source_controller", "enchanted_controller"})
#: Target kinds that name no object an amount can be read from (a player; an ability on the
#: stack has no power, toughness or counters).
NO_OBJECT_TARGETS = frozenset({"player", "ability"})
#: Filter keys that may be ``"X"``, and the containers where the engine replaces it by the X
#: chosen (engine/targets.py ``filter_with_x``): a target spec's filter, an ``{"all": F}``
#: reference of an effect, a ``search_library`` filter.
X_FILTER_KEYS = ("mana_value", "mana_value_at_most")


def _amount_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Check 10 of the module docstring: an amount read from the game from something that has
    no such number (a player, a target player or ability: it would always count 0), and an
    ``"X"`` in a filter where no X is known (anywhere but the targets, ``{"all": F}``
    references and ``search_library`` filters of a spell or an activated ability: the
    engine would compare a mana value with the letter)."""
    out: list[FixtureError] = []

    def visit(node: Any, path: list, targets: list, x_known: bool, x_place: bool) -> None:
        if isinstance(node, list):
            for i, value in enumerate(node):
                visit(value, path + [i], targets, x_known, False)
            return
        if not isinstance(node, dict):
            return
        for key in GAME_AMOUNT_KEYS:
            if key not in node:
                continue
            ref, kind = node[key], None
            if isinstance(ref, dict) and isinstance(ref.get("target"), int) and ref["target"] < len(targets):
                spec = targets[ref["target"]]
                kind = spec.get("kind") if isinstance(spec, dict) else None
            if (isinstance(ref, str) and ref in PLAYER_REFERENCES) or kind in NO_OBJECT_TARGETS:
                named = f"a target {kind}" if kind else f"{ref!r}, a player"
                out.append(FixtureError(
                    file, json_path(path + [key]),
                    f"{key} reads the power, toughness or counters of an object, and this reference names "
                    f"{named}: it would always count 0 (FORMAT §5)", f"{key} of a reference to an object"))
        for key in X_FILTER_KEYS:
            if node.get(key) == "X" and not (x_known and x_place):
                out.append(FixtureError(
                    file, json_path(path + [key]),
                    "\"X\" in this filter is no known X: the engine replaces it by the X chosen (CR 107.3) "
                    "only in the targets, {\"all\": F} references and search_library filters of a spell or "
                    "an activated ability", "a number, or \"X\" where an X is chosen"))
        if "effects" in node:  # a spell, mode, kicker's effects or an ability: the targets its effects name
            own = list(node.get("targets") or ())
            targets = targets + own if path[-2:-1] == ["kicker_effects"] else own
        for key, value in node.items():
            inner_x = x_known and key not in ("token", "abilities", "trigger", "effect", "enchant", "at") and not (
                key == "effects" and node.get("type") == "create_delayed_trigger")  # no X in those
            place = (key == "all" or (key == "filter" and node.get("type") == "search_library")
                     or (key == "filter" and path[-2:-1] == ["targets"]))
            visit(value, path + [key], targets, inner_x, place)

    spell = card.get("spell")
    if isinstance(spell, dict):
        visit(spell, where + ["spell"], [], True, False)
    for i, ab in enumerate(card.get("abilities") or ()):
        if isinstance(ab, dict):
            visit(ab, where + ["abilities", i], [], ab.get("kind") == "activated", False)
    if isinstance(card.get("enchant"), dict):
        visit(card["enchant"], where + ["enchant"], [], False, False)
    return out


#: Keys whose string values are references (FORMAT §5 "References"): an effect's, and those
#: of an amount read from the game and of deal_damage's ``from`` (issue 23).
_REFERENCE_KEYS = frozenset({"what", "to", "player", "affected", "from", "power_of", "toughness_of", "counters_on"})


def _cost_problems(node: Any, where: list, file: str) -> list[FixtureError]:
    """Check 3 of the module docstring: a printed cost that says ``discard_self``. The engine
    activates printed abilities on the battlefield or in a graveyard, never from a hand, so
    "discard this card" could never be paid (it is the cost of the ``cycling`` and
    ``landcycling`` keywords, which the engine builds itself, CR 702.29a)."""
    out: list[FixtureError] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "cost" and isinstance(value, dict) and value.get("discard_self"):
                out.append(FixtureError(
                    file, json_path(where + [key, "discard_self"]),
                    "a cost of discarding this card could never be paid: the engine activates "
                    "printed abilities only on the battlefield or in a graveyard, not from a hand "
                    "(it is cycling's cost: use the cycling or landcycling keyword, CR 702.29a)",
                    "no discard_self in a card's costs"))
            out += _cost_problems(value, where + [key], file)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _cost_problems(value, where + [i], file)
    return out


def _spell_ability_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Check 1 of the module docstring: abilities and keywords of an instant or sorcery."""
    out = []
    what = "an instant or sorcery" + (" face" if where else "")
    for i, ab in enumerate(card.get("abilities") or ()):
        kind = ab.get("kind")
        zone = ab.get("zone", "battlefield")
        if kind in STACK_ABILITY_KINDS:
            continue
        if kind == "static" and is_own_cost_effect(ab.get("effect") or {}):
            continue  # "This spell costs {1} less to cast [if …]" works as it is cast (engine/spell_statics.py)
        if kind == "static" and is_own_keyword_effect(ab.get("effect") or {}):
            continue  # "If this spell was kicked, it has split second": read on the stack (CR 113.6, 702.61a)
        if (kind == "activated" and zone == "graveyard") or (kind == "triggered" and zone == "exile"):
            continue
        path = json_path(where + ["abilities", i])
        out.append(FixtureError(
            file, path,
            f"a {kind} ability of {what} would do nothing: abilities of instants and sorceries "
            f"function only while the spell is on the stack (CR 113.6), and the engine applies "
            f"{kind} abilities only on the battlefield, which this card never reaches (the "
            "static abilities applied to a spell are its own cost_reduction/cost_increase and "
            "its own grant_keywords of split_second, each with \"affected\": \"self\")",
            "no such ability on an instant or sorcery (or an activated ability with \"zone\": "
            "\"graveyard\", a triggered ability with \"zone\": \"exile\")"))
    for key in PERMANENT_FIELDS:
        if key in card:
            out.append(FixtureError(
                file, json_path(where + [key]),
                f"{key} on {what} would do nothing: it says how a permanent enters the "
                "battlefield, which an instant or sorcery never does (CR 110.1, 614.1c)",
                f"no {key} on an instant or sorcery"))
    for i, kw in enumerate(card.get("keywords") or ()):
        name = _keyword_name(kw)
        if name not in SPELL_KEYWORDS:
            out.append(FixtureError(
                file, json_path(where + ["keywords", i]),
                f"keyword {name!r} on {what} would do nothing: the engine applies it only to "
                "permanents (or, for flash, an instant already has instant timing, CR 304.1)",
                f"a keyword that works on a spell: {', '.join(sorted(SPELL_KEYWORDS))}"))
    return out


def _permanent_keyword_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Keywords that the engine applies only to instant and sorcery spells
    (:data:`INSTANT_SORCERY_KEYWORDS`) on a card (or face) that is neither: a permanent spell
    resolves onto the battlefield (CR 608.3), so "put it into your hand" (buyback, CR
    702.27a) or "exile it, then cast copies" (paradigm) never happens."""
    out = []
    for i, kw in enumerate(card.get("keywords") or ()):
        name = _keyword_name(kw)
        if name in INSTANT_SORCERY_KEYWORDS:
            out.append(FixtureError(
                file, json_path(where + ["keywords", i]),
                f"keyword {name!r} on a card that is not an instant or sorcery would do nothing: "
                "the engine applies it as an instant or sorcery spell resolves, and a permanent "
                "spell resolves onto the battlefield (CR 608.3)",
                f"{name} only on an instant or sorcery"))
    return out


def _target_problems(card: dict, where: list, file: str) -> list[FixtureError]:
    """Check 2 of the module docstring, for every targets/effects pair of the card: its
    spell (and modes, kicker effects) and its abilities."""
    out: list[FixtureError] = []
    spell = card.get("spell")
    if isinstance(spell, dict):
        base = list(spell.get("targets") or ())
        out += _check_effects(base, spell.get("effects") or (), where + ["spell"], file)
        for m, mode in enumerate(spell.get("modes") or ()):
            out += _check_effects(list(mode.get("targets") or ()), mode.get("effects") or (),
                                  where + ["spell", "modes", m], file)
        for k, extra in enumerate(spell.get("kicker_effects") or ()):
            # the kicker's targets are appended to the spell's (CR 702.33, FORMAT §10)
            out += _check_effects(base + list(extra.get("targets") or ()), extra.get("effects") or (),
                                  where + ["spell", "kicker_effects", k], file)
    for i, ab in enumerate(card.get("abilities") or ()):
        if isinstance(ab, dict) and "effects" in ab:
            out += _check_effects(list(ab.get("targets") or ()), ab.get("effects") or (),
                                  where + ["abilities", i], file)
    return out


def _iter_effects(effects: Any, where: list) -> Iterator[tuple[dict, list]]:
    """Every effect dict of the list ``effects`` (at JSON path ``where``), nested ones
    included (``conditional``, ``pay_optional``…: any list of effects under an effect), with
    its path."""
    for i, eff in enumerate(effects if isinstance(effects, list) else ()):
        if not isinstance(eff, dict):
            continue
        yield eff, where + [i]
        for key, value in eff.items():
            if isinstance(value, list) and value and all(isinstance(v, dict) and "type" in v for v in value):
                yield from _iter_effects(value, where + [i, key])


def _target_indexes(value: Any) -> Iterator[int]:
    if isinstance(value, dict) and isinstance(value.get("target"), int):
        yield value["target"]
    elif isinstance(value, list):
        for v in value:
            yield from _target_indexes(v)


def _check_effects(targets: list, effects: Any, where: list, file: str) -> list[FixtureError]:
    out = []
    for eff, path in _iter_effects(list(effects), where + ["effects"]):
        etype = eff.get("type")
        if not isinstance(etype, str):
            continue
        for key, value in eff.items():
            for i in _target_indexes(value):
                if i >= len(targets) or not isinstance(targets[i], dict):
                    continue
                zones = target_zones(targets[i])
                acts_on = reference_zones(etype, key)
                missing = sorted(zones - acts_on)
                if missing:
                    out.append(FixtureError(
                        file, json_path(path + [key]),
                        f"{etype} does nothing to a target of kind {targets[i].get('kind')!r} "
                        f"in {', '.join(missing)}: the engine's {etype} acts only on "
                        f"{', '.join(sorted(acts_on))} (CR 115, 608.2b); choose a target kind "
                        "the effect can act on",
                        f"a target whose kind the {etype} effect acts on: {', '.join(sorted(acts_on))}"))
    return out
