"""Casting spells and activating abilities: announcing, modes, additional and alternative
costs, X, targets, the total cost, then paying (CR 601, 602, 118 costs; kicker 702.33,
buyback 702.27, flashback 702.34, madness 702.35, morph 702.37, storm 702.40)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import (
    adventure,
    alternative_costs,
    bookkeeping,
    faces,
    graveyard_abilities,
    harmonize,
    library_top,
    planeswalkers,
    prepare,
    spell_statics,
    turn_records,
    ward,
)
from . import characteristics as ch
from .cards import CardDefinition
from .endure_behold import declare_behold, pay_behold
from .errors import IllegalAction
from .keywords import STORM, cycling_ability, landcycling_ability
from .mana import ManaCost
from .objects import GameObject, StackItem
from .turn import MAIN_PHASES

if TYPE_CHECKING:
    from .game import Game



class Casting:
    """Casting spells and activating abilities (a mixin of :class:`~.game.Game`)."""

    def cast(self: Game, player: str, inp: dict[str, Any], *, forced: str | None = None) -> StackItem:
        """CR 601.2: cast a spell: announce it (move it to the stack), choose modes, kicker
        and buyback (additional costs), an alternative cost, X and targets; determine the
        total cost (CR 601.2f: the mana cost or an alternative cost, plus additional
        costs); activate mana abilities and pay. Then the spell is cast (``spell_cast``)
        and "whenever you cast" abilities (and storm) trigger.

        From the hand; from the graveyard with flashback (CR 702.34); from exile when an
        effect allows it (Spelljack); from the top of the library with a static
        ``play_from_library_top`` (engine/library_top.py); or ``forced`` by a resolving suspend or madness trigger
        (``forced`` = ``"suspend"`` or ``"madness"``: timing is ignored, CR 702.62a,
        702.35a). The caller runs it inside ``Game.transaction`` (priority, a resolving
        "may cast") or ``Game.dry_run`` (the move generator): a cast found illegal part-way,
        e.g. a cost that can't be paid (CR 601.2h), leaves nothing changed.
        Raises IllegalAction (``not_in_hand``, ``sorcery_timing``, ``split_second``,
        ``cant_cast``, ``invalid_alternative``, ``cannot_pay``, ``invalid_target`` …)."""
        ref = inp.get("card")
        obj = self.find(ref) if isinstance(ref, str) else None
        if obj is None:
            raise IllegalAction("unknown_object", f"no object {ref!r}")
        # the alternative cost (engine/alternative_costs.py): forced by a resolving ability
        # (suspend, madness, paradigm: engine/paradigm.py), or the input's
        alternative = alternative_costs.paid_as(forced, inp.get("alternative"))
        named = alternative_costs.named(alternative)  # None: no alternative cost, or a permanent's
        cast_face_down = named is not None and named.face_down  # morph (CR 702.37c)
        d = obj.definition
        card_kws = {k["keyword"]: dict(k) for k in d.keywords}
        # where may it be cast from?
        if forced is not None:
            if obj.zone != "exile" or obj.owner != player:
                raise IllegalAction("not_in_hand", f"{ref} is not the exiled card to cast")
        elif obj.zone == "hand" and obj.owner == player:
            if named is not None and not named.any_zone:
                # CR 702.34a: flashback works from a graveyard; CR 702.35a: madness only as
                # its trigger resolves; nothing lets a card in hand be cast without paying
                raise IllegalAction("invalid_alternative", f"{d.name} can't be cast from a hand with "
                                    f"alternative {alternative!r}")
        elif obj.zone == "graveyard" and obj.owner == player and named is not None and named.from_graveyard:
            if named.keyword not in card_kws:  # CR 702.34a flashback, 702.180a harmonize (engine/harmonize.py)
                raise IllegalAction("invalid_alternative", f"{d.name} has no {named.name}")
        elif prepare.is_prepared_copy(obj):  # a prepared permanent's copy (strixhaven.prepare.10, .19)
            prepare.check_cast(self, obj, player, alternative)
        elif obj.zone == "exile" and obj.may_cast_free_by == player:
            if named is not alternative_costs.WITHOUT_PAYING:
                raise IllegalAction("invalid_alternative", "cast it with alternative 'without_paying'")
        elif adventure.on_adventure(obj, player):  # CR 715.3d: the permanent, not the Adventure
            adventure.check_cast_from_exile(obj, inp.get("face"))
        elif library_top.may_cast(self, obj, player):  # Future Sight (engine/library_top.py)
            library_top.check_alternative(obj, alternative)
        else:
            raise IllegalAction("not_in_hand", f"{ref} is not in {player}'s hand (or castable from its zone)")
        # the face chosen while casting (an Omen, FORMAT §11.2): only its characteristics count
        cast_obj = faces.as_cast(obj, inp.get("face"))
        if forced is None and obj.zone == "library":  # a filtered permission (Garruk's Horde), CR 601.3e
            library_top.check_filter(self, cast_obj, player)
        d = cast_obj.definition
        card_kws = {k["keyword"]: dict(k) for k in d.keywords}
        if ch.is_type(cast_obj, "Land"):
            raise IllegalAction("is_a_land", f"{d.name} is a land: lands are played, not cast (CR 305.9)")
        self.check_can_cast(player, cast_obj, ignore_timing=forced is not None,
                            face_down=cast_face_down)
        # CR 601.2b: modes, kicker, buyback, alternative cost
        if named is not None and named.face_down:
            if named.keyword not in card_kws:
                raise IllegalAction("invalid_alternative", f"{d.name} has no {named.name}: it can't be cast face down "
                                    "(CR 702.37c)")
            spell_ability: dict[str, Any] = {"targets": [], "effects": []}
            modes: list[int] = []
        else:
            spell_ability, modes = self._spell_ability(d, inp.get("modes"))
        kicked = self._kicker_choice(card_kws.get("kicker"), inp.get("kicker"))
        spell_ability = self.with_kicker_parts(d, spell_ability, kicked)
        buyback = bool(inp.get("buyback"))
        if buyback and "buyback" not in card_kws:
            raise IllegalAction("invalid_alternative", f"{d.name} has no buyback")
        # CR 700.2h, 601.2b: additional costs of the chosen modes (tiered; engine/bookkeeping.py)
        mode_mana, mode_parts = bookkeeping.mode_additional_costs(d.spell, modes)
        beheld, behold_mana = declare_behold(self, player, obj, inp)  # CR 701.4a: behold, an additional cost
        if behold_mana is not None:
            mode_mana = behold_mana if mode_mana is None else mode_mana.add(behold_mana)
        # CR 601.2b, 107.3b: X is chosen first, and only a cost paid with {X} in it lets it be
        # more than 0 (not "without paying its mana cost", nor an alternative cost without X)
        x = self._x_value(self._total_cost(player, cast_obj, alternative, card_kws, kicked, buyback,
                                           extra=mode_mana), inp)
        cost = self._total_cost(player, cast_obj, alternative, card_kws, kicked, buyback, extra=mode_mana, x=x)
        harmonized = harmonize.tap_choice(self, player, alternative, inp)  # CR 702.180a: up to one creature
        if named is not None and named.taps_for_reduction:
            cost = harmonize.reduced_cost(self, cost, x, harmonized)  # CR 601.2f: reductions come last
        # CR 601.2c: targets, checked against the card as it will be on the stack
        probe = StackItem(ref=obj.ref, kind="spell", controller=player, ability=spell_ability, obj=cast_obj, x=x, modes=modes,
                          kicked=tuple(kicked))
        if cast_face_down:
            probe.obj = obj.copy()
            probe.obj.face_down = True
        targets = self.choose_targets(probe, spell_ability.get("targets", ()), inp.get("targets"))
        # CR 601.2a, 601.2h: the card moves to the stack, then the costs are paid; a cost
        # that can't be paid raises IllegalAction there, and the caller's transaction puts
        # everything back (CR 732.1; no dry run of the payment first: it was a fifth of a cast)
        # now the spell is cast
        cast_from = obj.zone  # CR 601.2a: where it is cast from ("if you cast it from your hand")
        if prepare.is_prepared_copy(obj):  # the copy itself goes to the stack (strixhaven.prepare.05)
            stack_obj = prepare.to_stack(self, obj, player)
        else:
            stack_obj = self.move(obj, "stack", controller=player, face_down=cast_face_down,
                                  init=faces.stack_init(cast_obj))
        # CR 702.34a flashback, 702.180a harmonize: exiled whenever it would leave the stack
        stack_obj.exile_on_leaving_stack = named is not None and named.exiled_from_stack
        if named is not None and named.exile_rule is not None:
            stack_obj.exile_rule = named.exile_rule
        stack_obj.kicked = tuple(kicked)
        stack_obj.cast_from = cast_from
        forced_cast = alternative_costs.FORCED_CASTS.get(forced) if forced is not None else None
        if forced_cast is not None and forced_cast.haste and "Creature" in d.types:  # CR 702.62a
            stack_obj.haste_from_suspend = player
        item = StackItem(ref=stack_obj.ref, kind="spell", controller=player, ability=spell_ability, obj=stack_obj,
                         x=x, modes=modes, targets=targets, kicked=tuple(kicked), buyback=buyback,
                         alternative=alternative or forced,
                         cast_in_main_phase=(player == self.active and self.step in MAIN_PHASES), beheld=beheld)
        self.stack.append(item)
        paid = self.pay_costs(player, {"mana": cost, **mode_parts}, inp, x=x, source=None)
        pay_behold(self, player, item)  # CR 601.2h: the card is revealed / the permanent chosen
        harmonize.pay_tap(self, harmonized)
        stack_obj.mana_spent = bookkeeping.record(paid)  # CR 601.2h: the mana spent to cast it
        self.spells_cast_this_turn += 1
        nth = turn_records.record_spell_cast(self, player)  # per player (flurry)
        face_down = {"face_down": True} if stack_obj.face_down else {}
        self.log("spell_cast", player=player, object=item.ref, card=item.card, name=stack_obj.name,
                 targets=[t for t in item.targets if t is not None], modes=modes, x=x, mana_paid=paid, **face_down,
                 **({"kicked": list(kicked)} if kicked else {}), **({"buyback": True} if buyback else {}),
                 **({"alternative": item.alternative} if item.alternative else {}), **faces.face_fields(stack_obj))
        if stack_obj.prepared_for is not None:  # it unprepares its permanent (strixhaven.prepare.05, .21)
            prepare.cast_done(self, stack_obj)
        storms = 0 if stack_obj.face_down else (
            sum(1 for k in d.keywords if k["keyword"] == "storm") + self.spell_keywords(item).count("storm"))
        for _ in range(storms):  # CR 702.40b: each instance triggers separately
            self.add_trigger(stack_obj, "storm", STORM, {"event": "cast_self", "object": stack_obj,
                                                          "storm_count": self.spells_cast_this_turn - 1,
                                                          "spell_lki": item.copy()})
        self.fire_triggers({"event": "spell_cast", "spell": item, "player": player, "nth_this_turn": nth})
        ward.fire_becomes_target(self, item)  # CR 702.21a
        return item

    def spell_keywords(self: Game, item: StackItem) -> list[str]:
        """Keywords static abilities give to spells on the stack (``affected: {"spells":
        filter}``, e.g. "Instant and sorcery spells you cast have storm")."""
        out = []
        for src, eff in ch.static_effects(self):
            spells = eff.get("affected", {}).get("spells") if isinstance(eff.get("affected"), dict) else None
            if eff.get("type") == "grant_keywords" and spells is not None and ch.matches(self, item, spells, src.controller):
                out += [k if isinstance(k, str) else k["keyword"] for k in eff.get("keywords", ())]
        return out

    def split_second_on_stack(self: Game) -> bool:
        """CR 702.61a: a spell with split second is on the stack (then no spell can be cast,
        and only mana abilities activated; special actions stay possible): printed, or given
        by the spell's own conditional static ability ("if this spell was kicked, it has
        split second", engine/spell_statics.py)."""
        spells = [it.obj for it in self.stack if it.kind == "spell" and it.obj is not None]
        return (any(k["keyword"] == "split_second" for obj in spells for k in ch.keywords(self, obj))
                or any("split_second" in spell_statics.own_keywords(self, obj) for obj in spells))

    def check_can_cast(self: Game, player: str, obj: GameObject, ignore_timing: bool = False,
                       face_down: bool = False) -> None:
        """The restrictions on casting ``obj`` now, apart from costs and targets: timing
        (CR 307.1; flash, CR 702.8, or a static ``cast_as_though_flash`` of a permanent the
        player controls), split second on the stack (CR 702.61a) and "can't be
        cast" effects (Meddling Mage). Raises IllegalAction."""
        d = obj.definition
        planeswalkers.check_exists(self, obj)  # not_in_ruleset: no planeswalkers before 2007
        if self.split_second_on_stack():
            raise IllegalAction("split_second", "a spell with split second is on the stack: no spells can be cast")
        for src, eff in ch.static_effects(self):
            if eff.get("type") == "cant_cast":
                if eff.get("player") == "opponent" and src.controller == player:
                    continue  # "Your opponents can't cast spells with the chosen name" (Council of the Absolute)
                name = src.chosen_name if eff.get("name") == "chosen" else eff.get("name")
                if name is not None and name == d.name and not face_down:
                    raise IllegalAction("cant_cast", f"spells named {name} can't be cast ({src.name})")
        if ignore_timing:
            return
        instant_speed = not face_down and ("Instant" in d.types or any(k["keyword"] == "flash" for k in d.keywords))
        if not instant_speed and any(eff.get("type") == "cast_as_though_flash" and src.controller == player
                                     for src, eff in ch.static_effects(self)):
            instant_speed = True  # "you may cast spells as though they had flash" (Vedalken Orrery, CR 702.8a)
        if not instant_speed and not self.sorcery_timing_ok(player):
            raise IllegalAction("sorcery_timing", f"{d.name} can be cast only in your main phase with an empty stack")

    def _kicker_choice(self: Game, kicker: dict[str, Any] | None, chosen: Any) -> list[int]:
        """CR 702.33: which kicker costs the player declares (each at most once)."""
        if not chosen:
            return []
        costs = list((kicker or {}).get("costs", ()))
        if (not isinstance(chosen, list) or len(set(chosen)) != len(chosen)
                or not all(isinstance(i, int) and 0 <= i < len(costs) for i in chosen)):
            raise IllegalAction("invalid_choice", f"kicker: choose among {len(costs)} kicker cost(s), each once (CR 702.33c)")
        return sorted(chosen)

    def _total_cost(self: Game, player: str, obj: GameObject, alternative: Any, kws: dict[str, Any], kicked: list[int],
                    buyback: bool, extra: ManaCost | None = None, x: int | None = None) -> ManaCost:
        """CR 601.2f: the mana cost or the one alternative cost (flashback, madness, morph's
        {3}, "without paying its mana cost", or one granted by a permanent such as Fist of
        Suns), plus additional costs (kicker, buyback, ``extra``: those of the chosen modes,
        CR 700.2h), with X replaced by its value ``x`` when given (the result then has no X:
        a generic reduction also takes X's mana), plus cost increases, minus reductions
        (generic mana only, never below 0). Increases and reductions see the spell as it
        will be: controlled by its caster, face down for morph (CR 708.2a: colorless)."""
        d = obj.definition
        as_spell = obj.copy()  # the spell as it will be: controlled by its caster
        as_spell.controller = player
        named = alternative_costs.named(alternative)
        as_spell.face_down = named is not None and named.face_down
        if alternative is None:
            cost = d.mana_cost
        elif named is not None:  # its fixed cost, or its keyword's (harmonize: the power is taken off later)
            cost = ManaCost.parse(named.mana_cost(kws))
        else:
            src = self.find(alternative) if isinstance(alternative, str) else None
            effs = [eff for s, eff in ch.static_effects(self) if s is src and eff.get("type") == "alternative_cost"]
            if src is None or src.controller != player or not effs or not ch.matches(
                    self, as_spell, effs[0].get("filter"), player):
                raise IllegalAction("invalid_alternative", f"no alternative cost {alternative!r} for {d.name}")
            cost = ManaCost.parse(effs[0]["cost"])
        cost = ManaCost(cost.generic, cost.colored, d.mana_cost.x if alternative is None else cost.x, cost.present,
                        cost.hybrid)
        for k in kicked:
            cost = cost.add(ManaCost.parse(kws["kicker"]["costs"][k]))
        if buyback:
            cost = cost.add(ManaCost.parse(kws["buyback"]["cost"]))
        if extra is not None:
            cost = cost.add(extra)
        if not cost.present:
            return cost
        if x is not None:
            cost = cost.with_x(x)
        # CR 601.2f: then cost increases, then reductions (generic mana only, not below 0)
        # ("This spell costs {1} less to cast": its own statics, engine/spell_statics.py, CR 113.6)
        own = spell_statics.own_cost_effects(self, obj, player)
        for kind in ("cost_increase", "cost_reduction"):
            for src, eff in [(s, e) for s, e in ch.static_effects(self) if not spell_statics.is_own_cost_effect(e)] \
                    + [(obj, e) for e in own]:
                if eff.get("type") != kind or (src is not obj and not ch.matches(
                        self, as_spell, eff.get("filter"), src.controller, src)):
                    continue
                if eff.get("name") == "chosen" and (src.chosen_name is None or src.chosen_name != d.name):
                    continue  # "Spells with the chosen name you cast cost {2} less" (Council of the Absolute)
                delta = ManaCost.parse(eff["cost"])
                if kind == "cost_increase":
                    cost = cost.add(delta)
                else:
                    cost = ManaCost(max(0, cost.generic - delta.generic), cost.colored, cost.x, cost.present,
                                    cost.hybrid)
        return cost

    def spell_ability(self: Game, d: CardDefinition, modes: Any, kicked: list[int]) -> tuple[dict[str, Any], list[int]]:
        """The spell ability ``cast`` puts on the stack for card ``d`` (CR 601.2b-c): the
        chosen ``modes``' parts (CR 700.2; sorted 0-based indices returned with it) plus the
        parts of the kicker costs paid (``kicked``, CR 702.33d). Raises IllegalAction
        ``invalid_mode``. (Not for a face-down spell, which has none, CR 702.37c.)"""
        ability, chosen = self._spell_ability(d, modes)
        return self.with_kicker_parts(d, ability, kicked), chosen

    def with_kicker_parts(self: Game, d: CardDefinition, ability: dict[str, Any], kicked: list[int]) -> dict[str, Any]:
        """``ability`` (``{"targets", "effects"}``) with the targets and effects that card
        ``d``'s kicker costs ``kicked`` add (its ``kicker_effects``, CR 702.33d), in order."""
        for k in kicked:
            for e in (d.spell or {}).get("kicker_effects", ()):
                if e.get("kicker", 0) == k:
                    ability = {"targets": list(ability.get("targets", ())) + list(e.get("targets", ())),
                               "effects": list(ability.get("effects", ())) + list(e.get("effects", ()))}
        return ability

    def total_cost(self: Game, player: str, obj: GameObject, alternative: Any, kws: dict[str, Any], kicked: list[int],
                   buyback: bool, extra: ManaCost | None = None, x: int | None = None) -> ManaCost:
        """CR 601.2f: the total cost of casting ``obj`` as ``cast`` determines it (see
        ``_total_cost``: the mana cost or one alternative cost, plus additional costs, with X
        fixed to ``x`` if given, plus increases, minus reductions). Raises IllegalAction
        ``invalid_alternative``. The public entry point the legal-action generator plans
        payments with."""
        return self._total_cost(player, obj, alternative, kws, kicked, buyback, extra=extra, x=x)

    def _spell_ability(self: Game, d: CardDefinition, modes: Any) -> tuple[dict[str, Any], list[int]]:
        """The spell ability as data: ``{"targets": [...], "effects": [...]}``, with the
        chosen modes' parts concatenated (CR 700.2). Auras target what they enchant
        (CR 303.4a)."""
        if d.enchant is not None:
            return {"targets": [d.enchant], "effects": []}, []
        spell = d.spell or {"targets": [], "effects": []}
        if "modes" in spell:
            choose = spell.get("choose", 1)
            if (not isinstance(modes, list) or len(modes) != choose or len(set(modes)) != choose
                    or not all(isinstance(m, int) and 0 <= m < len(spell["modes"]) for m in modes)):
                raise IllegalAction("invalid_mode", f"choose {choose} of {len(spell['modes'])} modes (0-based)")
            targets, effects = [], []
            for m in sorted(modes):
                targets += list(spell["modes"][m].get("targets", ()))
                effects += list(spell["modes"][m].get("effects", ()))
            return {"targets": targets, "effects": effects}, sorted(modes)
        if modes:
            raise IllegalAction("invalid_mode", f"{d.name} is not modal")
        return spell, []

    def _x_value(self: Game, cost: ManaCost, inp: dict[str, Any], other_x: bool = False) -> int:
        """CR 107.3a: the X the input chooses, a whole number 0 or more, for a cost with X
        (in its mana, or ``other_x``: elsewhere, a loyalty cost of minus X); 0 otherwise.
        Raises IllegalAction ``invalid_x``."""
        x = inp.get("x")
        if cost.x or other_x:
            if not isinstance(x, int) or isinstance(x, bool) or x < 0:
                raise IllegalAction("invalid_x", "choose X, a whole number 0 or more (CR 107.3a)")
            return x
        if x not in (None, 0):
            raise IllegalAction("invalid_x", "this cost has no X")
        return 0

    def activate(self: Game, player: str, inp: dict[str, Any]) -> None:
        """CR 602: activate an activated ability (it goes on the stack) or a mana ability
        (CR 605: it resolves at once). ``ability`` is the index in the card's abilities, or
        the name of a keyword ability that is activated (``landcycling``, from the hand,
        CR 702.29). Split second forbids all but mana abilities (CR 702.61a).
        Raises IllegalAction."""
        ref = inp.get("source")
        src = self.find(ref) if isinstance(ref, str) else None
        if src is None:
            raise IllegalAction("unknown_object", f"no object {ref!r}")
        idx = inp.get("ability", 0)
        if idx in ("landcycling", "cycling"):
            kw = next((dict(k) for k in src.chars.keywords if k["keyword"] == idx), None)
            if kw is None:
                raise IllegalAction("no_such_ability", f"{src.name} has no {idx}")
            if src.zone != "hand" or src.owner != player:
                raise IllegalAction("not_in_hand", f"{src.name} is cycled from its owner's hand")
            if ch.cant_cycle(self, player):
                raise IllegalAction("cant_cycle", "players can't cycle cards (CR 702.29e)")
            ab = landcycling_ability(kw) if idx == "landcycling" else cycling_ability(kw)
        else:
            # CR 113.6k, 602.2: renew abilities work from their owner's graveyard only
            graveyard_abilities.check_source_zone(self, player, src, idx)
            if src.zone == "battlefield" and src.controller != player:
                raise IllegalAction("not_controller", f"only {src.controller} can activate {src.name}'s abilities (CR 602.2)")
            abilities = ch.abilities(self, src)
            if (not isinstance(idx, int) or isinstance(idx, bool) or not 0 <= idx < len(abilities)
                    or abilities[idx].get("kind") not in ("activated", "mana")):
                raise IllegalAction("no_such_ability", f"{src.name} has no activated ability {idx!r}")
            ab = abilities[idx]
            if ab["kind"] == "mana":
                self.activate_mana_ability(player, src, idx, inp.get("color"), inp)
                return
        if self.split_second_on_stack():
            raise IllegalAction("split_second", "a spell with split second is on the stack: only mana abilities "
                                "can be activated")
        planeswalkers.check_activation(self, player, src, ab)  # CR 606.3
        if ab.get("timing") == "sorcery" and not self.sorcery_timing_ok(player):
            raise IllegalAction("sorcery_timing", "activate only as a sorcery")
        if ab.get("timing") == "your_turn" and player != self.active:  # CR 602.5d (FORMAT §13.4)
            raise IllegalAction("not_your_turn", "activate only during your turn")
        cost = dict(ab.get("cost", {}))
        # X in a cost other than mana: a loyalty cost "[−X]" (CR 606.4, 107.3)
        x = self._x_value(ManaCost.parse(cost.get("mana", "")), inp,
                          other_x=cost.get("loyalty") == planeswalkers.MINUS_X)
        item = StackItem(ref=self.next_ref("ability"), kind="ability", controller=player, ability=ab,
                         source=src.ref, source_card=src.card, source_lki=src.copy(),
                         ability_index=idx, x=x)
        item.targets = self.choose_targets(item, ab.get("targets", ()), inp.get("targets"))
        paid = self.pay_costs(player, cost, inp, x=x, source=src)
        planeswalkers.record_activation(self, src, ab)
        self.stack.append(item)
        self.log("ability_activated", player=player, object=item.ref, card=item.ref, source=src.ref,
                 source_card=src.card, ability=idx, targets=[t for t in item.targets if t is not None], x=x, mana_paid=paid)
        if ab.get("cycling"):
            self.log("card_cycled", player=player, object=src.ref, card=src.card)
            self.fire_triggers({"event": "cycled", "player": player, "object": src, "cycled_card": src.card})
        ward.fire_becomes_target(self, item)  # CR 702.21a
