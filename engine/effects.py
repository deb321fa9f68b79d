"""The effect interpreter: one-shot effects of resolving spells and abilities (CR 608.2c,
610), and the continuous effects and shields they create (CR 611, 615).

Effects are data (docs/FORMAT.md §5); each ``type`` has one function here (or in the module
``HANDLERS`` names), and its parameters, the keys it reads, are declared once in
engine/effect_params.py (``PARAMETERS``): :func:`run` hands the handler that view of the effect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from . import (
    bookkeeping,
    combat,
    combat_effects,
    copy_effects,
    delayed_triggers,
    end_turn,
    endure_behold,
    equipment,
    extra_turns,
    flicker,
    game_end,
    graveyard_abilities,
    graveyard_return,
    library_moves,
    no_combat_damage,
    paradigm,
    phasing,
    prepare,
    proliferate,
    sagas,
    surveil,
    token_copies,
    transform,
    type_gain,
    type_loss,
    unpreventable,
    ward,
)
from . import characteristics as ch
from .cards import CardDefinition, describe
from .conditions import condition_holds
from .control import set_controller
from .effect_params import declared
from .errors import IllegalAction
from .mana import COLOR_NAMES, ManaCost, parse_mana_symbols
from .objects import ContinuousEffect, GameObject, Shield, StackItem, effect_duration
from .rng import random_choice, shuffle_library
from .targets import filter_with_x
from .turn import COMBAT_STEPS

if TYPE_CHECKING:
    from .game import Game


@dataclass
class Context:
    """What a resolving spell or ability knows: its game, its stack item, and which of its
    targets are still legal (CR 608.2b: illegal targets are not affected)."""

    game: "Game"
    item: StackItem
    legal: list[bool]
    created: list[str] = field(default_factory=list)  # refs of the tokens created so far (created_tokens)

    @property
    def controller(self) -> str:
        return self.item.controller

    @property
    def source(self) -> GameObject | None:
        return self.item.obj if self.item.obj is not None else self.item.source_lki

    def amount(self, value: Any) -> int:
        """An amount (docs/FORMAT.md §5): an int, ``"X"`` (the value chosen on casting) or
        ``"-X"`` (its opposite: a signed amount), ``"damage_dealt"`` (the damage dealt in the
        triggering ``deals_damage`` event), ``{"blockers_beyond_first": n}`` (rampage: n for
        each creature blocking the source beyond the first, counted now, CR 702.23b), a
        bookkeeping amount (FORMAT §11.1), or an amount read from the game as the effect is
        applied (CR 608.2h, :func:`game_amount`): ``{"power_of": R}``, ``{"toughness_of": R}``,
        ``{"counters_on": R, "counter"?: kind}``. Raises ValueError for another value."""
        if value == "X":
            return self.item.x
        if value == "-X":
            return -self.item.x
        if isinstance(value, dict) and GAME_AMOUNT_KEYS & value.keys():
            return game_amount(self, value)
        if value == "damage_dealt":  # "that much": the damage dealt in the triggering event
            dealt: int = (self.item.trigger_event or {}).get("damage_dealt", 0)
            return dealt
        if bookkeeping.is_amount(value):  # mana spent, life gained this turn (FORMAT §11.1)
            src = self.source
            return bookkeeping.amount(self.game, value, own=src.mana_spent if src is not None else None,
                                      event=self.item.trigger_event, controller=self.controller)
        if isinstance(value, dict) and "blockers_beyond_first" in value:
            g = self.game
            source_ref = self.item.source
            blockers = len(g.combat.blockers_of(source_ref)) if g.combat is not None and source_ref else 0
            each: int = value["blockers_beyond_first"]
            return each * max(0, blockers - 1)
        return int(value)

    def refs(self, spec: Any) -> Sequence[GameObject | StackItem | str]:
        """Resolve a reference (docs/FORMAT.md §5) to a list of GameObjects, StackItems or
        player ids. A target that is no longer legal resolves to nothing."""
        g = self.game
        if isinstance(spec, dict) and "target" in spec:
            i = spec["target"]
            if i >= len(self.item.targets) or not self.legal[i]:
                return []
            ref = self.item.targets[i]
            if ref in g.players:
                return [ref]
            item = next((s for s in g.stack if s.ref == ref), None)
            if item is not None:
                return [item]
            obj = g.objects.get(ref) if ref is not None else None
            return [obj] if obj is not None else []
        if isinstance(spec, dict) and "all" in spec:  # "X" in the filter: this spell's X (CR 107.3)
            return ch.all_matching(g, list(g.battlefield), filter_with_x(spec["all"], self.item.x), self.controller,
                                   self.source if isinstance(self.source, GameObject) else None)
        if spec == "self":
            src = self.source
            if self.item.kind == "ability" and src is not None:
                cur = g.objects.get(src.ref)
                return [cur] if cur is not None else []
            return [src] if src is not None else []
        if spec in ("controller", "you"):
            return [self.controller]
        if spec == "each_player":
            return g.living()
        if spec == "each_opponent":
            return g.opponents(self.controller)
        if spec == "defending_player":
            if g.combat is not None and g.combat.attackers:
                return [next(iter(g.combat.attackers.values()))]
            return []
        if spec in ("enchanted", "equipped"):  # an Aura's or an Equipment's host (engine/equipment.py)
            src = self.source
            host = g.objects.get(src.attached_to) if src is not None and src.attached_to else None
            return [host] if host is not None else []
        if spec == "triggering_object":
            ref = (self.item.trigger_event or {}).get("triggering_object")
            obj = g.objects.get(ref) if ref else None
            return [obj] if obj is not None else []
        if spec == "triggering_card":  # the card, wherever it is now
            card = (self.item.trigger_event or {}).get("triggering_card")
            obj = g.by_card.get(card) if card else None
            return [obj] if obj is not None else []
        if spec == "exiled_cards":  # a delayed return's cards (engine/flicker.py)
            return flicker.exiled_cards(self)
        if spec == "created_tokens":  # CR 603.7c (delayed_triggers.py)
            return delayed_triggers.remembered_objects(self, spec)
        if spec == "damage_source_controller":  # "its controller": of the object that dealt the damage
            who = (self.item.trigger_event or {}).get("damage_source_controller")
            return [who] if who in g.players else []
        if spec == "triggering_player":
            who = (self.item.trigger_event or {}).get("triggering_player")
            return [who] if who in g.players else []
        if spec == "blocking_creature":
            ref = (self.item.trigger_event or {}).get("blocking_creature")
            obj = g.objects.get(ref) if ref else None
            return [obj] if obj is not None and obj.zone == "battlefield" else []
        if isinstance(spec, (list, tuple)):
            out: list[GameObject | StackItem | str] = []
            for s in spec:
                out += self.refs(s)
            return out
        raise ValueError(f"unknown reference {spec!r}")

    def objects(self, spec: Any) -> list[GameObject]:
        return [o for o in self.refs(spec) if isinstance(o, GameObject)]

    def known(self, spec: Any) -> list[GameObject]:
        """The objects a reference names, to read information from (CR 608.2h): each as it is
        now if it is still in the zone it was in, else its last known information (as it
        last existed there, ``Game.last_known``). A target is read even if it is illegal now
        (CR 608.2b: the effect may still determine information about illegal targets); an
        ability's ``"self"`` is its source, or the source's last known information once it
        has left the battlefield (CR 113.7a). Other references are read as :meth:`refs`
        resolves them."""
        g = self.game
        if isinstance(spec, dict) and "target" in spec:
            i = spec["target"]
            ref = self.item.targets[i] if i < len(self.item.targets) else None
            if ref is None or ref in g.players:
                return []
            spell = next((s for s in g.stack if s.ref == ref), None)
            if spell is not None:
                return [spell.obj] if spell.obj is not None else []
            return self._as_known(ref)
        if spec == "self" and self.item.kind == "ability" and self.item.source is not None:
            return self._as_known(self.item.source) or ([self.item.source_lki] if self.item.source_lki else [])
        if spec == "triggering_object":
            ref = (self.item.trigger_event or {}).get("triggering_object")
            return self._as_known(ref) if ref else []
        if isinstance(spec, (list, tuple)):
            return [o for s in spec for o in self.known(s)]
        return self.objects(spec)

    def _as_known(self, ref: str) -> list[GameObject]:
        g = self.game
        now, then = g.objects.get(ref), g.last_known.get(ref)
        if now is not None and (then is None or now.zone == then.zone):
            return [now]
        return [then] if then is not None else []


    def players(self, spec: Any) -> list[str]:
        return [p for p in self.refs(spec) if isinstance(p, str)]


#: The keys of an amount read from the game (``$defs.game_amount`` of schema/card.schema.json).
GAME_AMOUNT_KEYS = frozenset({"power_of", "toughness_of", "counters_on"})


def game_amount(ctx: Context, value: dict[str, Any]) -> int:
    """An amount read from the game as the effect is applied (CR 608.2h; FORMAT §5):
    ``{"power_of": R}`` / ``{"toughness_of": R}``, the power / toughness (CR 208.1, after
    every layer, CR 613.4) of the objects reference ``R`` names, or ``{"counters_on": R}``,
    the number of counters on them (CR 122.1), only those of kind ``"counter"`` if it is
    given. Objects are read with :meth:`Context.known` (last known information for one that
    left its zone); several objects count together (their sum, "the total power"); a player
    or nothing counts 0, and so does a total below 0 (CR 107.1b)."""
    objs = ctx.known(value.get("power_of", value.get("toughness_of", value.get("counters_on"))))
    if "counters_on" in value:
        kind = value.get("counter")
        total = sum(sum(o.counters.values()) if kind is None else o.counters.get(kind, 0) for o in objs)
    else:
        index = 0 if "power_of" in value else 1
        total = sum(ch.power_toughness(ctx.game, o)[index] for o in objs)
    return max(0, total)


def run(ctx: Context, effects: Any) -> None:
    """Carry out ``effects`` in the order written (CR 608.2c). Each handler reads its effect
    through its declared parameters (``effect_params.declared``: a key the declaration lacks
    raises ``UndeclaredParameter``). Raises ValueError for an unknown effect type."""
    for eff in effects:
        if ctx.game.over:
            return
        handler = HANDLERS.get(eff["type"])
        if handler is None:
            raise ValueError(f"unknown effect type {eff['type']!r}")
        handler(ctx, declared(eff))


# ---------------------------------------------------------------- handlers
def _deal_damage(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 120.3: deal ``amount`` damage to each object or player ``to`` names. The source is
    the spell, or the ability's source (its last known information if it has left); with
    ``from``, each object ``from`` names on the battlefield deals it instead ("target creature
    you control deals damage equal to its power to ...", Rabid Bite), with its own lifelink
    and deathtouch (CR 702.15b, 702.2b); an illegal target deals none (CR 608.2b). The amount
    is computed once, before any damage is dealt (CR 608.2h)."""
    n = ctx.amount(eff["amount"])
    sources: list[Any] = [ctx.item if ctx.item.kind == "spell" else ctx.item.source_lki]
    if eff.get("from") is not None:
        sources = [o for o in ctx.objects(eff["from"]) if o.zone == "battlefield"]
    for source in sources:
        for target in ctx.refs(eff["to"]):
            if isinstance(target, StackItem):
                continue
            if isinstance(target, GameObject) and target.zone != "battlefield":
                continue
            ctx.game.deal_damage(source, target, n)


def _destroy(ctx: Context, eff: dict[str, Any]) -> None:
    for obj in ctx.objects(eff["what"]):
        ctx.game.destroy(obj, can_regenerate=not eff.get("cant_be_regenerated", False))


def _move(to: str) -> Callable[[Context, dict[str, Any]], None]:
    """Move objects (a permanent, or a card named by ``triggering_card`` wherever it is), or
    a target spell off the stack without countering it ("return target spell to its owner's
    hand"; a copy ceases to exist, CR 707.10a)."""
    def handler(ctx: Context, eff: dict[str, Any]) -> None:
        for item in ctx.refs(eff["what"]):
            if isinstance(item, StackItem) and item.kind == "spell" and item in ctx.game.stack:
                ctx.game.leave_stack(item, to, cause=eff["type"])
        for obj in ctx.objects(eff["what"]):
            if obj.zone in ("battlefield", "graveyard", "exile", "hand", "library") and obj.zone != to:
                ctx.game.move(obj, to, cause=eff["type"])
    return handler


def _sacrifice(ctx: Context, eff: dict[str, Any]) -> None:
    for obj in ctx.objects(eff["what"]):
        if obj.zone == "battlefield":
            ctx.game.sacrifice(obj)


def _tap(ctx: Context, eff: dict[str, Any]) -> None:
    for obj in ctx.objects(eff["what"]):
        if not obj.tapped:
            ctx.game.tap(obj)


def _untap(ctx: Context, eff: dict[str, Any]) -> None:
    for obj in ctx.objects(eff["what"]):
        ctx.game.untap(obj)


def _counter(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 701.6; ``exile_instead`` and ``may_cast_free`` (Spelljack: exile it; its
    controller may cast it without paying its mana cost while it stays exiled)."""
    for item in ctx.refs(eff["what"]):
        if isinstance(item, StackItem) and item in ctx.game.stack:
            ctx.game.counter(item, to="exile" if eff.get("exile_instead") else "graveyard",
                             may_cast_free_by=ctx.controller if eff.get("may_cast_free") else None)


def _draw(ctx: Context, eff: dict[str, Any]) -> None:
    for p in ctx.players(eff.get("player", "controller")):
        ctx.game.draw(p, ctx.amount(eff.get("count", 1)))


def _discard(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 701.9: the player chooses unless the discard is random (a random outcome)."""
    g = ctx.game
    for p in ctx.players(eff.get("player", "controller")):
        hand = g.players[p].hand
        n = min(ctx.amount(eff.get("count", 1)), len(hand))
        if n == 0:
            continue
        if eff.get("random"):
            for _ in range(n):
                g.discard(random_choice(g, "random_discard", p, list(g.players[p].hand)))
            continue
        def choose(inp: dict[str, Any], p: str = p, n: int = n) -> list[GameObject]:
            cards = inp.get("cards") or []
            objs = [g.find(c) if isinstance(c, str) else None for c in cards]
            if len(objs) != n or len({id(o) for o in objs}) != n:
                raise IllegalAction("invalid_choice", f"discard exactly {n} different card(s)")
            for c, o in zip(cards, objs):
                if o is None or o.zone != "hand" or o.owner != p:
                    raise IllegalAction("not_in_hand", f"{c} is not in {p}'s hand")
            return [o for o in objs if o is not None]  # all of them (checked above)
        for obj in g.decide("discard", p, "discard", choose, count=n):
            g.discard(obj)


def _mill(ctx: Context, eff: dict[str, Any]) -> None:
    g = ctx.game
    for p in ctx.players(eff.get("player", "controller")):
        for _ in range(ctx.amount(eff.get("count", 1))):
            if g.players[p].library:
                g.move(g.players[p].library[0], "graveyard", cause="mill")


def _gain_life(ctx: Context, eff: dict[str, Any]) -> None:
    for p in ctx.players(eff.get("player", "controller")):
        ctx.game.gain_life(p, ctx.amount(eff["amount"]))


def _lose_life(ctx: Context, eff: dict[str, Any]) -> None:
    for p in ctx.players(eff.get("player", "controller")):
        ctx.game.lose_life(p, ctx.amount(eff["amount"]))


def _modify_pt(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 611.2c: the affected set is locked in as the effect begins."""
    g = ctx.game
    refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect("modify_pt", refs, g.new_timestamp(), power=ctx.amount(eff.get("power", 0)),
                                          toughness=ctx.amount(eff.get("toughness", 0)),
                                          until=effect_duration(eff)))
        for r in refs:
            obj = g.objects[r]
            p, t = ch.power_toughness(g, obj)
            g.log("pt_changed", object=r, card=obj.card, power=p, toughness=t)


def _grant_keywords(ctx: Context, eff: dict[str, Any]) -> None:
    g = ctx.game
    refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect("grant_keywords", refs, g.new_timestamp(),
                                          keywords=tuple(eff.get("keywords", ())),
                                          until=effect_duration(eff)))


def _regenerate(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 701.19a: the next time the permanent would be destroyed this turn, instead…"""
    for obj in ctx.objects(eff["what"]):
        if obj.zone == "battlefield":
            obj.regen_shields += 1
            ctx.game.log("regeneration_shield_created", object=obj.ref, card=obj.card)


def _prevent_damage(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 615.7: prevent the next N damage that would be dealt to the target this turn."""
    amount = eff.get("amount")
    for t in ctx.refs(eff["to"]):
        ref = t if isinstance(t, str) else t.ref
        ctx.game.shields.append(Shield(to=ref, amount=None if amount is None else ctx.amount(amount)))
        ctx.game.log("prevention_shield_created", target=ref, amount=amount)


def _prevent_from_chosen_source(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 615: the controller chooses a source as the ability resolves; the next time that
    source would deal damage to the protected player this turn, prevent that damage."""
    g = ctx.game
    flt = eff.get("source_filter")

    def choose(inp: dict[str, Any]) -> Any:
        ref = inp.get("choice")
        src = g.resolve_target_ref(ref) if isinstance(ref, str) else None
        if src is None or isinstance(src, str) or not ch.matches(g, src, flt, ctx.controller):
            raise IllegalAction("invalid_choice", f"choose a source matching {describe(flt or {})}")
        return src

    if not any(ch.matches(g, o, flt, ctx.controller) for o in list(g.stack) + list(g.objects.values())):
        return  # CR 609.7a: no object is such a source, so none is chosen and nothing is prevented
    src = g.decide("choose", ctx.controller, "choose", choose, reason="source_of_damage")
    src_ref = src.obj.ref if isinstance(src, StackItem) and src.obj else src.ref
    for t in ctx.refs(eff.get("to", "controller")):
        ref = t if isinstance(t, str) else t.ref
        g.shields.append(Shield(to=ref, amount=None, source=src_ref))
        g.log("prevention_shield_created", target=ref, source=src_ref, amount=None)


def _add_mana(ctx: Context, eff: dict[str, Any]) -> None:
    ctx.game.add_mana(ctx.controller, parse_mana_symbols(eff["mana"]), None)


def _create_token(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 111.1: a token is created on the battlefield under the controller's control;
    ``tapped``: it enters tapped; ``attacking``: it enters attacking (CR 508.4, see
    ``combat.put_onto_battlefield_attacking``)."""
    g = ctx.game
    definition = CardDefinition.token(dict(eff["token"]), g.rules.token_name_adds_token)  # CR 111.4
    for _ in range(sagas.tokens_to_create(g, ctx.controller, ctx.amount(eff.get("count", 1)))):
        ref = g.next_ref("token")
        obj = GameObject(ref=ref, card=ref, definition=definition, owner=ctx.controller, zone="battlefield",
                         controller=ctx.controller, timestamp=g.new_timestamp(), summoning_sick=True,
                         tapped=bool(eff.get("tapped")), layers=g.layers)
        g.battlefield.append(obj)
        g.objects[ref] = obj
        ctx.created.append(ref)
        attacking = combat.put_onto_battlefield_attacking(g, obj) if eff.get("attacking") else None
        g.log("token_created", object=ref, card=ref, name=definition.name, controller=ctx.controller,
              **({"tapped": True} if obj.tapped else {}), **({"attacking": attacking} if attacking else {}))
        g.fire_triggers({"event": "enters_battlefield", "object": obj})


def _add_counters(ctx: Context, eff: dict[str, Any]) -> None:
    """Put counters on objects; counter doublers apply and lore counters trigger chapter
    abilities (engine/sagas.py, CR 714.2b)."""
    for obj in ctx.objects(eff["what"]):
        sagas.put_counters(ctx.game, obj, eff["counter"], ctx.amount(eff.get("count", 1)))


def _remove_all_counters(ctx: Context, eff: dict[str, Any]) -> None:
    """Remove every counter from the objects (Vampire Hexmage); removing lore counters
    triggers no chapter ability (CR 714.2b)."""
    for obj in ctx.objects(eff["what"]):
        for kind in sorted(obj.counters):
            ctx.game.remove_counters(obj, kind, obj.counters[kind])


def _remove_counters(ctx: Context, eff: dict[str, Any]) -> None:
    for obj in ctx.objects(eff["what"]):
        ctx.game.remove_counters(obj, eff["counter"], ctx.amount(eff.get("count", 1)))


def _additional_combat_phase(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 500.8: an additional combat phase followed by an additional main phase, after
    the current main phase."""
    g = ctx.game
    if g.step not in ("precombat_main", "postcombat_main"):
        return
    i = g.plan.index(g.step)
    g.plan[i + 1:i + 1] = COMBAT_STEPS + ["postcombat_main"]
    g.log("phases_added", phases=["combat", "postcombat_main"])


def _gain_control(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 108.4 / 613.1b: the controller changes; the permanent is new to its controller
    for the purpose of summoning sickness (CR 302.6). A control change with a ``duration``
    (``end_of_turn``: "gain control of target creature until end of turn") is a continuous
    effect of kind ``control`` that ends in the cleanup step (CR 611.2a, 514.2), when
    :func:`~.control.restore_control` gives the permanent back; one without lasts for the game."""
    g = ctx.game
    for obj in ctx.objects(eff["what"]):
        if obj.controller != ctx.controller:
            previous = obj.controller or obj.owner
            set_controller(g, obj, ctx.controller)
            g.effects.append(ContinuousEffect("control", [obj.ref], obj.timestamp, until=effect_duration(eff),
                                              player=ctx.controller, previous=previous))


def _exchange_control(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 701.12b: if either object is gone or both have one controller, nothing happens."""
    g = ctx.game
    objs = ctx.objects(eff["what"])
    if len(objs) != 2 or objs[0].controller == objs[1].controller:
        return
    a, b = objs
    a.controller, b.controller = b.controller, a.controller
    for obj in (a, b):
        assert obj.controller is not None  # a permanent has a controller (CR 108.4)
        obj.summoning_sick = True
        obj.upkeep_mark = g.players[obj.controller].upkeeps
        g.log("control_changed", object=obj.ref, card=obj.card, controller=obj.controller)


def _shuffle_library(ctx: Context, eff: dict[str, Any]) -> None:
    for p in ctx.players(eff.get("player", "controller")):
        shuffle_library(ctx.game, p)


def _pay_optional(ctx: Context, eff: dict[str, Any]) -> None:
    """"You may pay COST. If you do, …" (CR 603.5, 608.2d): a yes/no ``choose``; ``yes``
    pays the cost's ``mana`` from the pool (``mana`` may name the mana, as on casting) and
    its ``exile_from_graveyard`` ("you may exile eight cards from your graveyard", Emeritus
    of Ideation: the answer's ``exile`` names the cards, exiled with cause ``cost``), then
    carries out the effects. A part that can't be paid rejects the answer (``cannot_pay``,
    ``invalid_payment``) before anything is paid. Mana abilities are activated before, while
    the player has priority."""
    g = ctx.game
    parts = dict(eff.get("cost", {}))
    cost = ManaCost.parse(parts.get("mana", ""))

    def answer(inp: dict[str, Any]) -> bool:
        choice = inp.get("choice")
        if choice == "no":
            return False
        if choice != "yes":
            raise IllegalAction("invalid_choice", "answer yes or no")
        exiled = graveyard_abilities.cards_to_exile_from_graveyard(g, ctx.controller, parts["exile_from_graveyard"],
                                                                   inp.get("exile")) \
            if parts.get("exile_from_graveyard") else []
        paid = g.players[ctx.controller].pool.pay(cost, inp.get("mana"))  # checks before it spends
        graveyard_abilities.exile_cards_for_cost(g, exiled)
        g.log("cost_paid", player=ctx.controller, object=ctx.item.ref, mana=paid)
        return True

    if g.decide("choose", ctx.controller, "choose", answer, reason="pay_optional"):
        run(ctx, eff.get("effects", ()))


def condition_true(ctx: Context, cond: dict[str, Any]) -> bool:
    """Conditions of ``conditional`` effects: ``kicked`` (a kicker index: the spell's, or
    for a triggered ability the permanent's, CR 702.33d), ``cast_during_your_main_phase``
    (a copy wasn't cast, so it's false for copies), ``threshold`` (cards in the
    controller's graveyard), the mana spent and life conditions; every other condition of
    the schema is about the source and is read by ``conditions.condition_holds`` exactly as
    in an intervening "if" (so a condition ``validate`` accepts in a ``conditional`` effect
    is one the engine evaluates there, issue 22). Raises ValueError only for a key of no
    evaluator (``conditions.condition_holds``)."""
    g = ctx.game
    for key, want in cond.items():
        if key == "kicked":
            kicked = ctx.item.kicked if ctx.item.kind == "spell" else (ctx.source.kicked if ctx.source else ())
            if want not in kicked:
                return False
        elif key == "cast_during_your_main_phase":
            if (ctx.item.cast and ctx.item.cast_in_main_phase) != want:
                return False
        elif key in ("threshold", "cards_in_graveyard_at_least"):
            if len(g.players[ctx.controller].graveyard) < want:
                return False
        elif key in bookkeeping.CONDITIONS:  # mana spent, life gained this turn (FORMAT §11.1)
            src = ctx.source
            current = g.objects.get(src.ref) if src is not None else None
            if not bookkeeping.condition(g, key, want, own=src.mana_spent if src is not None else None,
                                         event=ctx.item.trigger_event, controller=ctx.controller,
                                         current=current):
                return False
        elif key == "beheld":  # CR 701.4b: "if a Dragon was beheld" (engine/endure_behold.py)
            if not endure_behold.beheld_condition(ctx.item, want):
                return False
        elif key in game_end.CONDITIONS:  # life_at_least / life_at_most (engine/game_end.py)
            if not game_end.condition(g, key, want, ctx.controller):
                return False
        elif ctx.source is None or not condition_holds(g, ctx.source, {key: want}, event=ctx.item.trigger_event):
            # the conditions about the source itself (engine/conditions.py: own_and_control_named,
            # card_in_graveyard, in_exile, suspended, came_under_control_since_last_upkeep), read
            # as an intervening "if" or a static ability's condition reads them (CR 603.4, 608.2c)
            return False
    return True


def _behold(ctx: Context, eff: dict[str, Any]) -> None:
    """Behold as an effect ("you may behold a Dragon. If you do, …", CR 701.4a): the choice
    is ``endure_behold.behold_effect``'s; if something was beheld, the ``then`` effects."""
    if endure_behold.behold_effect(ctx, eff):
        run(ctx, eff.get("then", ()))


def _conditional(ctx: Context, eff: dict[str, Any]) -> None:
    run(ctx, eff.get("then", ()) if condition_true(ctx, eff["condition"]) else eff.get("else", ()))


def copy_spell(ctx: Context, original: StackItem, new_targets: bool) -> StackItem:
    """CR 707.10: put a copy of a spell on the stack (not cast); its controller may
    choose new targets for it (707.10c) — a ``choose_targets`` decision answered with the
    same or other targets."""
    g = ctx.game
    ref = g.next_ref("copy")
    src_obj = original.obj
    assert src_obj is not None  # a spell is a card's (or a copy's) object
    obj = GameObject(ref=ref, card=ref, definition=src_obj.definition, owner=ctx.controller, zone="stack",
                     controller=ctx.controller, timestamp=g.new_timestamp(), is_copy=True, face_down=src_obj.face_down,
                     kicked=original.kicked, cast_face=src_obj.cast_face, layers=g.layers)  # a copy of an Omen is an Omen (tarkir.omen.12)
    item = StackItem(ref=ref, kind="spell", controller=ctx.controller, ability=original.ability, obj=obj,
                     x=original.x, modes=list(original.modes), targets=list(original.targets), cast=False,
                     kicked=original.kicked, buyback=original.buyback,
                     beheld=original.beheld)  # CR 707.10: a copy copies the costs paid (behold)
    g.objects[ref] = obj
    specs = list(original.ability.get("targets", ()))
    if new_targets and specs:
        item.targets = g.decide("choose_targets", ctx.controller, "choose_targets",
                                lambda inp: g.choose_targets(item, specs, inp.get("targets"),
                                                             unchanged=original.targets),  # CR 707.10c
                                ability=ref, reason="copy_targets")
    g.stack.append(item)
    g.log("spell_copied", object=ref, card=ref, original=original.ref, original_card=original.card,
          controller=ctx.controller, targets=item.targets)
    return item


def _copy_spell(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 707.10: copy each spell ``what`` names: a target spell, or the spell that triggered
    the ability (``triggering_object``: its object on the stack; nothing once it has left)."""
    for item in ctx.refs(eff["what"]):
        if isinstance(item, GameObject) and item.zone == "stack":
            item = next((it for it in ctx.game.stack if it.obj is item), item)
        if isinstance(item, StackItem) and item.kind == "spell":
            copy_spell(ctx, item, eff.get("new_targets", True))


def _storm_copies(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 702.40a: a copy for each spell cast before it this turn (the count is fixed as
    the spell was cast); copies of the spell as it last existed if it has left the stack."""
    g = ctx.game
    info = ctx.item.trigger_event or {}
    n = info.get("storm_count", 0)
    ref = info.get("triggering_object")
    original = next((it for it in g.stack if it.ref == ref), None) or info.get("spell_lki")
    if original is None:
        return
    for _ in range(n):
        copy_spell(ctx, original, True)


def _cast_exiled(ctx: Context, eff: dict[str, Any]) -> None:
    """Suspend's and madness's cast abilities: the cast is offered as this ability finishes
    resolving (``Game._offer_pending_casts``)."""
    card = (ctx.item.trigger_event or {}).get("triggering_card") or ctx.item.source_card
    ctx.game.pending_cast.append({"card": card, "kind": eff["alternative"]})


def _search_library(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 701.19: search a library for a card matching the filter (finding none is
    allowed, 701.19b); reveal it, put it where the effect says; then shuffle (701.20)."""
    g = ctx.game
    for p in ctx.players(eff.get("player", "controller")):
        lib = g.players[p].library
        flt = filter_with_x(dict(eff.get("filter") or {}), ctx.item.x)  # "mana value X or less"

        def pick(inp: dict[str, Any]) -> GameObject | None:
            choice = inp.get("choice")
            if choice == "none":
                return None
            obj = g.find(choice) if isinstance(choice, str) else None
            if obj is None or obj not in lib or not ch.matches(g, obj, flt, p):
                raise IllegalAction("invalid_choice", f"choose a card in {p}'s library matching "
                                    f"{describe(flt)}, or 'none'")
            return obj

        found = g.decide("choose", p, "choose", pick, reason="search")
        g.log("library_searched", player=p, found=found.card if found else None)
        if found is not None:
            if eff.get("reveal"):
                g.log("card_revealed", player=p, object=found.ref, card=found.card, name=found.name)
            to = eff.get("to", "hand")  # "put it onto the battlefield tapped": ``tapped``
            g.move(found, to, cause="search", init={"tapped": True} if to == "battlefield" and eff.get("tapped") else None)
        shuffle_library(g, p)


def _pay_or_sacrifice(ctx: Context, eff: dict[str, Any]) -> None:
    """"Sacrifice it unless you pay COST" (echo, CR 702.30a): ``choose`` yes (pay, with
    ``pay_with``/``mana``) or no (sacrifice)."""
    g = ctx.game
    perm = next(iter(ctx.objects("self")), None)
    if perm is None:
        return
    cost = ManaCost.parse(eff["cost"])

    def answer(inp: dict[str, Any]) -> bool:
        if inp.get("choice") == "no":
            return False
        if inp.get("choice") != "yes":
            raise IllegalAction("invalid_choice", "pay? answer yes or no")
        g.dry_run(lambda c: c.pay_costs(ctx.controller, {"mana": cost}, inp, x=0, source=None))
        paid = g.pay_costs(ctx.controller, {"mana": cost}, inp, x=0, source=None)
        g.log("cost_paid", player=ctx.controller, object=ctx.item.ref, mana=paid)
        return True

    if not g.decide("choose", ctx.controller, "choose", answer, reason=eff.get("reason", "pay_or_sacrifice")):
        g.sacrifice(perm)


def _turn_face_down(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 701.34a: the permanent becomes a face-down 2/2 (same object)."""
    for obj in ctx.objects(eff["what"]):
        if obj.zone == "battlefield" and not obj.face_down:
            obj.face_down = True
            ctx.game.log("turned_face_down", object=obj.ref, card=obj.card)


def _turn_face_up(ctx: Context, eff: dict[str, Any]) -> None:
    """CR 701.34b: turned face up by an effect, without paying its morph cost."""
    for obj in ctx.objects(eff["what"]):
        if obj.zone == "battlefield" and obj.face_down:
            ctx.game.turn_face_up(obj)


def _creature_types(kind: str) -> Callable[[Context, dict[str, Any]], None]:
    """Type-changing effects (layer 4): gains all creature types / loses all of them."""
    def handler(ctx: Context, eff: dict[str, Any]) -> None:
        g = ctx.game
        refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
        if refs:
            g.effects.append(ContinuousEffect(kind, refs, g.new_timestamp(), until=effect_duration(eff)))
            g.log("types_changed", objects=refs, change=kind)
    return handler


def _choose_on_resolution(ctx: Context, reason: str, valid: Callable[[Any], Any]) -> Any:
    """Ask the controller a ``choose`` question while the ability resolves; ``valid(choice)``
    returns the meaning of the answer or raises IllegalAction."""
    return ctx.game.decide("choose", ctx.controller, "choose", lambda inp: valid(inp.get("choice")), reason=reason)


def _grant_keyword_choice(ctx: Context, eff: dict[str, Any]) -> None:
    """"Gains your choice of …" (Greater Morphling): the answer names the keyword as the
    state does (``flying``, ``rampage:1``, ``landwalk:Island``, ``protection:red``)."""

    def valid(choice: Any) -> dict[str, Any]:
        if not isinstance(choice, str):
            raise IllegalAction("invalid_choice", "name a keyword, e.g. flying or rampage:1")
        name, _, param = choice.partition(":")
        for opt in eff["options"]:
            kw = {"keyword": opt} if isinstance(opt, str) else dict(opt)
            if kw["keyword"] != name:
                continue
            if name == "landwalk":
                if not param:
                    break
                return {"keyword": "landwalk", "land_type": param}
            if name == "protection":
                if param not in COLOR_NAMES.values():
                    break
                return {"keyword": "protection", "from": {"colors": [param]}}
            if "n" in kw and param and param != str(kw["n"]):
                break
            return kw
        raise IllegalAction("invalid_choice", f"{choice!r} is not one of the choices")

    kw = _choose_on_resolution(ctx, "keyword_choice", valid)
    _grant_keywords(ctx, {"what": eff["what"], "keywords": [kw], "duration": effect_duration(eff)})


def _modify_pt_choice(ctx: Context, eff: dict[str, Any]) -> None:
    """"Gets +2/-2 or -2/+2": the answer is one of ``options`` as ``[power, toughness]``."""
    options = [list(o) for o in eff["options"]]

    def valid(choice: Any) -> list[int]:
        if choice not in options and not (isinstance(choice, str) and choice in [f"{p:+d}/{t:+d}" for p, t in options]):
            raise IllegalAction("invalid_choice", f"choose one of {[f'{p:+d}/{t:+d}' for p, t in options]}")
        if isinstance(choice, str):
            return options[[f"{p:+d}/{t:+d}" for p, t in options].index(choice)]
        picked: list[int] = choice
        return picked

    p, t = _choose_on_resolution(ctx, "pt_choice", valid)
    _modify_pt(ctx, {"what": eff["what"], "power": p, "toughness": t, "duration": effect_duration(eff)})


def _set_colors_choice(ctx: Context, eff: dict[str, Any]) -> None:
    """"Becomes the colors of your choice" (layer 5): the answer is a list of color names."""
    names = list(COLOR_NAMES.values())

    def valid(choice: Any) -> list[str]:
        chosen = [choice] if isinstance(choice, str) else choice
        if not isinstance(chosen, list) or not chosen or any(c not in names for c in chosen):
            raise IllegalAction("invalid_choice", f"choose one or more of {names}")
        return [c for c in names if c in chosen]

    colors = _choose_on_resolution(ctx, "colors", valid)
    g = ctx.game
    refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect("set_colors", refs, g.new_timestamp(), colors=tuple(colors),
                                          until=effect_duration(eff)))


def _set_creature_type_choice(ctx: Context, eff: dict[str, Any]) -> None:
    """"Becomes the creature type of your choice" (layer 4): its creature types are
    replaced by the one chosen."""
    def valid(choice: Any) -> str:
        if choice not in ch.all_creature_types():
            raise IllegalAction("invalid_choice", "name a creature type")
        named: str = choice
        return named

    chosen = _choose_on_resolution(ctx, "creature_type", valid)
    g = ctx.game
    refs = [o.ref for o in ctx.objects(eff["what"]) if o.zone == "battlefield"]
    if refs:
        g.effects.append(ContinuousEffect("set_creature_type", refs, g.new_timestamp(), creature_type=chosen,
                                          until=effect_duration(eff)))


HANDLERS: dict[str, Callable[[Context, dict[str, Any]], None]] = {
    "deal_damage": _deal_damage,
    "destroy": _destroy,
    "exile": _move("exile"),
    "return_to_hand": _move("hand"),
    "sacrifice": _sacrifice,
    "tap": _tap,
    "untap": _untap,
    "counter": _counter,
    "draw": _draw,
    "discard": _discard,
    "mill": _mill,
    "gain_life": _gain_life,
    "lose_life": _lose_life,
    "modify_pt": _modify_pt,
    "grant_keywords": _grant_keywords,
    "regenerate": _regenerate,
    "prevent_damage": _prevent_damage,
    "prevent_damage_from_chosen_source": _prevent_from_chosen_source,
    "add_mana": _add_mana,
    "create_token": _create_token,
    "create_delayed_trigger": delayed_triggers.create_delayed_trigger,
    "add_counters": _add_counters,
    "remove_counters": _remove_counters,
    "remove_all_counters": _remove_all_counters,
    "additional_combat_phase": _additional_combat_phase,
    "gain_control": _gain_control,
    "exchange_control": _exchange_control,
    "shuffle_library": _shuffle_library,
    "pay_optional": _pay_optional,
    "conditional": _conditional,
    "counter_unless_pays": ward.counter_unless_pays,
    "copy_spell": _copy_spell,
    "storm_copies": _storm_copies,
    "cast_exiled": _cast_exiled,
    "search_library": _search_library,
    "pay_or_sacrifice": _pay_or_sacrifice,
    "turn_face_down": _turn_face_down,
    "turn_face_up": _turn_face_up,
    "gain_all_creature_types": _creature_types("all_creature_types"),
    "lose_all_creature_types": _creature_types("no_creature_types"),
    "grant_keyword_choice": _grant_keyword_choice,
    "modify_pt_choice": _modify_pt_choice,
    "set_colors_choice": _set_colors_choice,
    "set_creature_type_choice": _set_creature_type_choice,
    "endure": endure_behold.endure,  # CR 701.63 (engine/endure_behold.py)
    **prepare.EFFECTS,  # become_prepared, unprepare (engine/prepare.py)
    **game_end.EFFECTS,  # win_game, lose_game, CR 104.2b, 104.3e (engine/game_end.py)
    **proliferate.EFFECTS,  # CR 701.34 (engine/proliferate.py)
    "behold": _behold,  # CR 701.4a as an effect (engine/endure_behold.py)
    **transform.EFFECTS,  # transform, put_onto_battlefield_transformed, meld, create_token_copy, exile_and_return
    "attach": equipment.attach,  # CR 701.3a (engine/equipment.py)
    "paradigm_copy": paradigm.paradigm_copy,  # engine/paradigm.py
    "lose_card_types": type_loss.lose_card_types,  # layer 4 (engine/type_loss.py)
    "gain_card_types": type_gain.gain_card_types,  # layer 4 (engine/type_gain.py)
    "become_creature": type_gain.become_creature,  # layers 4 and 7b (engine/type_gain.py)
    "add_creature_types": type_gain.add_creature_types,  # layer 4 (engine/type_gain.py)
    "put_into_graveyard": _move("graveyard"),  # "put target exiled card into its owner's graveyard"
    **extra_turns.EFFECTS,  # extra_turn, additional_phase, additional_step (CR 500.7–500.10)
    **end_turn.EFFECTS,  # end_the_turn (CR 723.1)
    **combat_effects.EFFECTS,  # attacks_if_able (CR 508.1d; engine/combat_effects.py)
    **no_combat_damage.EFFECTS,  # assign_no_combat_damage (CR 510.1a; engine/no_combat_damage.py)
    **flicker.EFFECTS,  # return_to_battlefield, exile_and_return_later (CR 400.7, 603.7)
    **phasing.EFFECTS,  # phase_out (CR 702.26; engine/phasing.py)
    **copy_effects.EFFECTS,  # become_copy until end of turn (CR 707.2, 613.2a; engine/copy_effects.py)
    **token_copies.EFFECTS,  # create_token_copy_of_card (CR 707.2; engine/token_copies.py)
    **library_moves.EFFECTS,  # put_on_library (CR 401.4; engine/library_moves.py)
    **unpreventable.EFFECTS,  # damage_cant_be_prevented (CR 615.12; engine/unpreventable.py)
    **surveil.EFFECTS,  # surveil (CR 701.25; engine/surveil.py)
    **graveyard_return.EFFECTS,  # return_from_graveyard_to_hand (engine/graveyard_return.py)
}
