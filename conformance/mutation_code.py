"""The mutations that are code (``"kind": "code"`` in ``conformance/mutations.json``): those
that wrap an engine function, patch the effect handlers' table, or replace a function by one
that computes something. Every other mutation is data in that file.

One function per mutation, named after it (``flanking-never-triggers`` is
:func:`flanking_never_triggers`): no arguments, returns the ``unittest.mock`` patchers that
apply it (see :mod:`mtg_judge.conformance.patching`), raises
:class:`~mtg_judge.conformance.patching.MutationError` when its anchor is gone. The name, CR
rule and documentation of each are in ``mutations.json``; the loader
(:mod:`mtg_judge.conformance.mutations`) checks that every code record has its function here
and every function here has its record.
"""

from __future__ import annotations

from typing import Any, Callable
from unittest import mock

from mtg_judge.conformance.patching import Edit, MutationError, replace, rewrite, wrap


def _engine() -> tuple[Any, Any, Any, Any, Any]:
    """The engine's ``Game`` class and its ``combat``, ``effects``, ``keywords`` and
    ``characteristics`` modules (imported when a mutation is applied, not at import)."""
    from mtg_judge.engine import characteristics, combat, effects, game, keywords
    return game.Game, combat, effects, keywords, characteristics


def _endure_patched(*edits: Edit) -> list[Any]:
    """The endure effect recompiled with ``edits``, both where it is defined and where
    ``effects.HANDLERS`` holds it (the dict keeps the function itself)."""
    from mtg_judge.engine import effects, endure_behold
    if effects.HANDLERS.get("endure") is not endure_behold.endure:
        raise MutationError("mtg_judge.engine.effects.HANDLERS['endure'] is not endure_behold.endure")
    patcher = rewrite(endure_behold, "endure", *edits)
    return [patcher, mock.patch.dict(effects.HANDLERS, {"endure": patcher.new})]


def flanking_never_triggers() -> list[Any]:
    """Mutation ``flanking-never-triggers`` (CR 702.25a): ``keywords.triggered_from_keywords``
    leaves flanking's ability out."""
    keywords = _engine()[3]

    def make(original: Callable) -> Callable:
        def without_flanking(kws: list) -> list:
            return [(key, ab) for key, ab in original(kws) if key != "flanking"]
        return without_flanking
    return [wrap(keywords, "triggered_from_keywords", make)]


def regeneration_ignored() -> list[Any]:
    """Mutation ``regeneration-ignored`` (CR 701.19): ``Game.destroy`` is always called as if the
    permanent "can't be regenerated"."""
    Game = _engine()[0]
    return [wrap(Game, "destroy", lambda original: lambda self, obj, can_regenerate=True: original(self, obj, False))]


def stack_resolves_first_in_first_out() -> list[Any]:
    """Mutation ``stack-resolves-first-in-first-out`` (CR 405.5): ``Game.resolve_top`` first moves
    the bottom object of the stack to the top."""
    Game = _engine()[0]

    def make(original: Callable) -> Callable:
        def resolve_bottom(self: Any) -> None:
            if len(self.stack) > 1:
                self.stack.append(self.stack.pop(0))
            original(self)
        return resolve_bottom
    return [wrap(Game, "resolve_top", make)]


def storm_makes_no_copies() -> list[Any]:
    """Mutation ``storm-makes-no-copies`` (CR 702.40a): ``effects.HANDLERS["storm_copies"]`` does
    nothing."""
    effects = _engine()[2]
    if "storm_copies" not in effects.HANDLERS:
        raise MutationError("mtg_judge.engine.effects.HANDLERS has no 'storm_copies' effect")
    return [mock.patch.dict(effects.HANDLERS, {"storm_copies": lambda ctx, eff: None})]


def copies_counted_as_cast() -> list[Any]:
    """Mutation ``copies-counted-as-cast`` (CR 702.40a): ``effects.copy_spell`` also adds one to
    ``Game.spells_cast_this_turn``."""
    effects = _engine()[2]

    def make(original: Callable) -> Callable:
        def copy_and_count(ctx: Any, item: Any, new_targets: bool) -> Any:
            ctx.game.spells_cast_this_turn += 1
            return original(ctx, item, new_targets)
        return copy_and_count
    return [wrap(effects, "copy_spell", make)]


def echo_never_triggers() -> list[Any]:
    """Mutation ``echo-never-triggers`` (CR 702.30a): ``keywords.triggered_from_keywords`` leaves
    echo's ability out."""
    keywords = _engine()[3]

    def make(original: Callable) -> Callable:
        def without_echo(kws: list) -> list:
            return [(key, ab) for key, ab in original(kws) if key != "echo"]
        return without_echo
    return [wrap(keywords, "triggered_from_keywords", make)]


def mobilize_sacrifice_at_end_of_combat() -> list[Any]:
    """Mutation ``mobilize-sacrifice-at-end-of-combat`` (CR 603.7c): ``keywords.mobilize_ability``
    builds its delayed trigger for ``end_of_combat``."""
    keywords = _engine()[3]

    def make(original: Callable) -> Callable:
        def at_end_of_combat(n: int) -> dict:
            ab = original(n)
            effects = [dict(e, trigger={**e["trigger"], "step": "end_of_combat"})
                       if e["type"] == "create_delayed_trigger" else e for e in ab["effects"]]
            return {**ab, "effects": effects}
        return at_end_of_combat
    return [wrap(keywords, "mobilize_ability", make)]


def entering_attacking_counts_as_attacking() -> list[Any]:
    """Mutation ``entering-attacking-counts-as-attacking`` (CR 508.4):
    ``combat.put_onto_battlefield_attacking`` also fires an ``attacks`` event."""
    combat = _engine()[1]

    def make(original: Callable) -> Callable:
        def and_attacks(game: Any, obj: Any) -> Any:
            defender = original(game, obj)
            if defender is not None:
                game.fire_triggers({"event": "attacks", "object": obj})
            return defender
        return and_attacks
    return [wrap(combat, "put_onto_battlefield_attacking", make)]


def flurry_counts_every_players_spells() -> list[Any]:
    """Mutation ``flurry-counts-every-players-spells`` (CR 207.2c):
    ``turn_records.record_spell_cast`` answers the turn's total of spells cast."""
    from mtg_judge.engine import turn_records

    def total(game: Any, player: str) -> int:
        game.spells_cast_by = {**game.spells_cast_by, player: game.spells_cast_by.get(player, 0) + 1}
        return sum(game.spells_cast_by.values())
    return [replace(turn_records, "record_spell_cast", total)]


def endure_off_the_battlefield_does_nothing() -> list[Any]:
    """Mutation ``endure-off-the-battlefield-does-nothing`` (CR 701.63a): ``endure_behold.endure``
    returns without creating the token when counters can't be put on the permanent."""
    return _endure_patched(Edit("create_token_for(g, who, spirit_token(n)) return", "return"))


def endure_always_counters() -> list[Any]:
    """Mutation ``endure-always-counters`` (CR 701.63a): ``endure_behold.endure`` puts the counters
    whatever the answer."""
    return _endure_patched(Edit('if choice == "counters":', "if True:"))


def beheld_forgotten_when_it_leaves() -> list[Any]:
    """Mutation ``beheld-forgotten-when-it-leaves`` (CR 701.4b): ``effects.condition_true`` answers
    ``beheld`` false when the beheld object is gone."""
    from mtg_judge.engine import effects

    def make(original: Callable) -> Callable:
        def condition_true(ctx: Any, cond: dict) -> Any:
            b = getattr(ctx.item, "beheld", None)
            if cond.get("beheld") and b and ctx.game.objects.get(b["object"]) is None:
                return False
            return bool(original(ctx, cond))
        return condition_true
    return [wrap(effects, "condition_true", make)]


def revealed_card_cannot_be_revealed_again() -> list[Any]:
    """Mutation ``revealed-card-cannot-be-revealed-again`` (CR 701.4a):
    ``endure_behold.can_behold`` refuses a card that is revealed now."""
    from mtg_judge.engine import endure_behold

    def make(original: Callable) -> Callable:
        def can_behold(game: Any, player: str, obj: Any, flt: Any) -> Any:
            if obj is not None and obj.card in endure_behold.revealed_cards(game, player):
                return f"{obj.name} is already revealed"
            return original(game, player, obj, flt)
        return can_behold
    return [wrap(endure_behold, "can_behold", make)]


def omen_keeps_its_omen_characteristics() -> list[Any]:
    """Mutation ``omen-keeps-its-omen-characteristics`` (CR 400.7): ``faces.card_of`` returns the
    object's current definition (the Omen face)."""
    from mtg_judge.engine import faces
    return [replace(faces, "card_of", lambda obj: obj.definition)]


def adventure_permission_for_any_exiled_card() -> list[Any]:
    """Mutation ``adventure-permission-for-any-exiled-card`` (CR 715.3d):
    ``adventure.on_adventure`` holds for every card its owner has in exile."""
    from mtg_judge.engine import adventure
    return [replace(adventure, "on_adventure",
                    lambda obj, player: obj is not None and obj.zone == "exile" and obj.owner == player)]


def has_an_adventure_only_as_an_adventure() -> list[Any]:
    """Mutation ``has-an-adventure-only-as-an-adventure`` (CR 715.2a): ``adventure.has_adventure``
    holds only for a spell cast with ``"face": "adventure"``."""
    from mtg_judge.engine import adventure
    return [replace(adventure, "has_adventure", lambda obj: obj.cast_face == "adventure")]


def mode_additional_cost_not_paid() -> list[Any]:
    """Mutation ``mode-additional-cost-not-paid`` (CR 700.2h):
    ``bookkeeping.mode_additional_costs`` finds no cost."""
    from mtg_judge.engine import bookkeeping
    return [replace(bookkeeping, "mode_additional_costs", lambda spell, modes: (None, {}))]


def ward_payment_counted_as_mana_spent() -> list[Any]:
    """Mutation ``ward-payment-counted-as-mana-spent`` (CR 601.2h): ``ward.counter_unless_pays``
    adds what was paid to the spell's ``mana_spent``."""
    from mtg_judge.engine import ward
    effects = _engine()[2]
    # effects.HANDLERS holds the function itself: route it through the module attribute
    late = {"counter_unless_pays": lambda ctx, eff: ward.counter_unless_pays(ctx, eff)}
    return [mock.patch.dict(effects.HANDLERS, late), rewrite(ward, "counter_unless_pays", Edit(
        "g.log(\"cost_paid\", player=payer, object=ctx.item.ref, mana=paid)",
        "g.log(\"cost_paid\", player=payer, object=ctx.item.ref, mana=paid); "
        "item.obj.mana_spent = {k: (item.obj.mana_spent or {}).get(k, 0) + paid.get(k, 0) "
        "for k in set(item.obj.mana_spent or {}) | set(paid)} if item.obj is not None else None"))]


def job_select_attaches_before_creating_the_token() -> list[Any]:
    """Mutation ``job-select-attaches-before-creating-the-token`` (CR 702.182a):
    ``job_select.JOB_SELECT`` has its two effects in the reverse order."""
    from mtg_judge.engine import job_select
    ab = dict(job_select.JOB_SELECT, effects=list(reversed(list(job_select.JOB_SELECT["effects"]))))
    return [mock.patch.object(job_select, "JOB_SELECT", ab)]


def job_select_no_token_without_the_equipment() -> list[Any]:
    """Mutation ``job-select-no-token-without-the-equipment`` (CR 702.182a):
    ``job_select.JOB_SELECT`` runs its effects only while its source is on the battlefield."""
    from mtg_judge.engine import job_select
    effects = _engine()[2]

    def only_with_source(ctx: Any, eff: dict) -> None:
        if ctx.objects("self"):
            effects.run(ctx, eff["then"])

    ab = dict(job_select.JOB_SELECT, effects=[{"type": "mutant_if_source", "then": job_select.JOB_SELECT["effects"]}])
    return [mock.patch.object(job_select, "JOB_SELECT", ab),
            mock.patch.dict(effects.HANDLERS, {"mutant_if_source": only_with_source})]


def job_select_attaches_to_the_first_hero() -> list[Any]:
    """Mutation ``job-select-attaches-to-the-first-hero`` (CR 702.182a): ``equipment.attach`` never
    asks the ``attach_to`` choice."""
    from mtg_judge.engine import equipment
    effects = _engine()[2]
    late = {"attach": lambda ctx, eff: equipment.attach(ctx, eff)}
    return [mock.patch.dict(effects.HANDLERS, late),
            rewrite(equipment, "attach", Edit("if len(hosts) > 1:", "if False:"))]


def becoming_a_land_triggers_landfall() -> list[Any]:
    """Mutation ``becoming-a-land-triggers-landfall`` (CR 603.6a): The ``gain_card_types`` effect
    also fires an ``enters_battlefield`` event for each permanent it affects."""
    from mtg_judge.engine import type_gain
    effects = _engine()[2]

    def entering(ctx: Any, eff: dict) -> None:
        type_gain.gain_card_types(ctx, eff)
        for obj in ctx.objects(eff["what"]):
            ctx.game.fire_triggers({"event": "enters_battlefield", "object": obj})

    return [mock.patch.dict(effects.HANDLERS, {"gain_card_types": entering})]


def animated_land_has_all_creature_types() -> list[Any]:
    """Mutation ``animated-land-has-all-creature-types`` (CR 205.3d): The ``become_creature``
    effect also adds an ``all_creature_types`` continuous effect to the permanents it
    animates."""
    from mtg_judge.engine import type_gain
    from mtg_judge.engine.objects import ContinuousEffect
    effects = _engine()[2]

    def typed(ctx: Any, eff: dict) -> None:
        type_gain.become_creature(ctx, eff)
        refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
        ctx.game.effects.append(ContinuousEffect("all_creature_types", refs, ctx.game.new_timestamp()))

    return [mock.patch.dict(effects.HANDLERS, {"become_creature": typed})]


def any_permanent_becomes_prepared() -> list[Any]:
    """Mutation ``any-permanent-becomes-prepared`` (CR 722.3a): ``prepare.prepare_spell`` returns
    the card when it has no prepare face."""
    from mtg_judge.engine import faces, prepare
    return [replace(prepare, "prepare_spell",
                    lambda obj: faces.card_of(obj).get_face("prepare") or faces.card_of(obj))]


def repartee_triggers_per_target() -> list[Any]:
    """Mutation ``repartee-triggers-per-target`` (CR 207.2c): ``Game.add_trigger`` adds a
    ``targeting`` trigger once per target permanent."""
    Game = _engine()[0]

    def make(original: Callable) -> Callable:
        def add_trigger(self: Any, src: Any, key: Any, ab: Any, event: dict) -> None:
            times = 1
            if isinstance(ab, dict) and "targeting" in ab.get("trigger", {}) and event.get("event") == "spell_cast":
                times = max(1, sum(1 for ref in event["spell"].targets
                                   if isinstance(ref, str) and ref in self.objects
                                   and self.objects[ref].zone == "battlefield"))
            for _ in range(times):
                original(self, src, key, ab, event)
        return add_trigger
    return [wrap(Game, "add_trigger", make)]


def attacking_a_planeswalker_damages_its_controller() -> list[Any]:
    """Mutation ``attacking-a-planeswalker-damages-its-controller`` (CR 510.1b):
    ``planeswalkers.recipient`` always answers the defending player."""
    from mtg_judge.engine import planeswalkers
    return [replace(planeswalkers, "recipient", lambda game, attacker_ref, defender: defender)]


def returned_spell_stays_on_the_stack() -> list[Any]:
    """Mutation ``returned-spell-stays-on-the-stack`` (CR 608.2b):
    ``effects.HANDLERS["return_to_hand"]`` moves only cards that are not on the stack."""
    from mtg_judge.engine import effects
    from mtg_judge.engine.objects import StackItem
    if "return_to_hand" not in effects.HANDLERS:
        raise MutationError("mtg_judge.engine.effects.HANDLERS has no 'return_to_hand' effect")
    original = effects.HANDLERS["return_to_hand"]

    def cards_only(ctx: Any, eff: dict) -> None:
        if not any(isinstance(r, StackItem) for r in ctx.refs(eff["what"])):
            original(ctx, eff)
    return [mock.patch.dict(effects.HANDLERS, {"return_to_hand": cards_only})]


def returned_aura_enchants_anything() -> list[Any]:
    """Mutation ``returned-aura-enchants-anything`` (CR 303.4f): ``flicker.aura_hosts`` offers
    every permanent."""
    from mtg_judge.engine import flicker
    return [replace(flicker, "aura_hosts", lambda game, aura: list(game.battlefield))]


def copy_is_prepared_like_the_original() -> list[Any]:
    """Mutation ``copy-is-prepared-like-the-original`` (CR 707.2): after
    ``transform.enter_as_copy``, the copy is marked prepared when a prepared permanent of
    the copied name is on the battlefield."""
    from mtg_judge.engine import transform

    def make(original: Callable) -> Callable:
        def enter_as_copy(game: Any, obj: Any) -> None:
            original(game, obj)
            if any(o.prepared and o is not obj and o.name == obj.name for o in game.battlefield):
                obj.prepared = True
        return enter_as_copy
    return [wrap(transform, "enter_as_copy", make)]


def token_copy_ignores_exceptions() -> list[Any]:
    """Mutation ``token-copy-ignores-exceptions`` (CR 707.9b): ``transform.with_exceptions``
    returns the definition unchanged."""
    from mtg_judge.engine import transform
    return [replace(transform, "with_exceptions", lambda definition, exceptions: definition)]


def prepare_spell_takes_the_copy_exceptions() -> list[Any]:
    """Mutation ``prepare-spell-takes-the-copy-exceptions`` (CR 707.9): ``prepare.prepare_spell``
    returns the face with the permanent's own values."""
    import dataclasses

    from mtg_judge.engine import prepare

    def make(original: Callable) -> Callable:
        def prepare_spell(obj: Any) -> Any:
            face = original(obj)
            if face is None:
                return None
            d = obj.definition
            return dataclasses.replace(face, colors=d.colors, subtypes=d.subtypes, power=d.power, toughness=d.toughness)
        return prepare_spell
    return [wrap(prepare, "prepare_spell", make)]


def life_at_most_is_strict() -> list[Any]:
    """Mutation ``life-at-most-is-strict`` (CR 103.4): "If your life total is less than or equal to
    half your starting life total" is read as "less than": Cecil, Dark Knight's Darkness at
    exactly 10 life does not untap and transform it (the condition ``life_at_most``,
    engine/game_end.py;
    finalfantasy.transform.darkness-loses-life-then-untaps-and-transforms)."""
    from mtg_judge.engine import game_end
    return [replace(game_end, "_life_at_most", lambda life, most: life < most)]
