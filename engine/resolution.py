"""Resolving the top of the stack and countering: targets re-checked, intervening "if"s,
where a resolved spell goes, copies ceasing to exist, and the casts suspend and madness offer
as their abilities finish (CR 608, 701.6, 707.10a, 702.62a, 702.35a)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import adventure, combat, effects, faces, paradigm
from . import characteristics as ch
from .conditions import condition_holds
from .errors import IllegalAction
from .objects import GameObject, StackItem
from .targets import card_target_candidates

if TYPE_CHECKING:
    from .game import Game


class Resolution:
    """Resolving and countering spells and abilities (a mixin of :class:`~.game.Game`)."""

    def resolve_top(self: Game) -> None:
        """CR 608: resolve the top object of the stack. If it has targets and all are now
        illegal, it doesn't resolve (CR 608.2b); a triggered ability whose intervening "if"
        is now false does nothing (CR 603.4). A resolving instant or sorcery goes to its
        owner's graveyard last (CR 608.2n; buyback: to its owner's hand, CR 702.27a); a
        permanent spell enters the battlefield (CR 608.3); a copy ceases to exist (CR
        707.10a). Casts offered by the resolving ability (suspend, madness) happen as it
        finishes."""
        item = self.stack[-1]
        if item.kind == "combat_damage":
            self.stack.pop()
            combat.resolve_combat_damage(self, item)
            return
        specs = list(item.ability.get("targets", ()))
        legal = [self.target_still_legal(item, spec, ref) for spec, ref in zip(specs, item.targets)]
        kind = item.kind
        chosen = [ref for ref in item.targets if ref is not None]
        if chosen and not any(legal):
            self.stack.pop()
            self.log(f"{kind}_countered", object=item.ref, card=item.card, reason="illegal_targets")
            self.leave_stack(item, "graveyard", cause="countered")
            return
        if kind == "ability" and item.source_lki is not None and not condition_holds(
                self, item.source_lki, item.ability.get("condition"), event=item.trigger_event):
            self.stack.pop()
            self.log("ability_removed", object=item.ref, card=item.card, reason="condition_false")
            return
        self.log(f"{kind}_resolved", object=item.ref, card=item.card)
        ctx = effects.Context(self, item, legal)
        if item.ability.get("optional") and not self._yes(item.controller, "optional", item.ref):
            self.log("ability_declined", object=item.ref, card=item.card, player=item.controller)
        else:
            effects.run(ctx, item.ability.get("effects", ()))
        if item in self.stack:
            self.stack.remove(item)
        if item.kind == "spell" and item.obj is not None and item.obj.zone == "stack":
            if item.obj.chars.types and any(t in item.obj.chars.types for t in ("Artifact", "Creature",
                                                                                 "Enchantment", "Land",
                                                                                 "Planeswalker", "Battle")):
                self._spell_to_battlefield(item)
            elif item.buyback and self._buyback_applies(item):
                self.leave_stack(item, "hand", cause="buyback")
            elif faces.shuffles_on_resolution(item):  # an Omen, tarkir.omen.09 (engine/faces.py)
                faces.shuffle_into_library(self, item)
            elif paradigm.resolves(self, item):  # "then exile this spell" (engine/paradigm.py)
                pass
            elif adventure.exiles_on_resolution(item):  # CR 715.3d (engine/adventure.py)
                adventure.exile_on_adventure(self, item)
            else:
                self.leave_stack(item, "graveyard")
        self._offer_pending_casts()

    def _spell_to_battlefield(self: Game, item: StackItem) -> None:
        """CR 608.3: a permanent spell becomes a permanent under its controller's control
        (a face-down spell stays face down, CR 708.4; an Aura attaches to its target)."""
        spell = item.obj
        assert spell is not None  # a permanent spell is a card's (or a copy's) object
        if spell.is_copy:
            self.leave_stack(item, "battlefield")
            return
        face_down, haste = spell.face_down, spell.haste_from_suspend
        new = self.move(spell, "battlefield", controller=item.controller, face_down=face_down,
                        init={"kicked": item.kicked, "haste_from_suspend": haste,
                              "mana_spent": spell.mana_spent,  # the spell that became it (FORMAT §11.1)
                              "cast_from": spell.cast_from})  # "if you cast it from your hand" (CR 608.3)
        if spell.definition.enchant is not None and item.targets and not face_down:
            new.attached_to = self.objects[item.targets[0]].ref if item.targets[0] in self.objects else None
            self.log("attached", object=new.ref, card=new.card, attached_to=new.attached_to)

    def _buyback_applies(self: Game, item: StackItem) -> bool:
        """CR 702.27a: the spell goes to its owner's hand instead of the graveyard. Under
        the 2006 rules the replacement was "into your hand instead of into your graveyard",
        so it did nothing for a spell you control but don't own (``Ruleset.buyback_owner_only``)."""
        if self.rules.buyback_owner_only:
            return item.obj is not None and item.obj.owner == item.controller
        return True

    def leave_stack(self: Game, item: StackItem, to: str, cause: str | None = None) -> None:
        """Move a spell off the stack; a copy ceases to exist instead (CR 707.10a)."""
        if item in self.stack:
            self.stack.remove(item)
        if item.obj is None:
            return
        if item.obj.is_copy:
            self.copy_ceases_to_exist(item, after="to_hand" if to == "hand" and cause == "buyback" else None)
            return
        self.move(item.obj, to, cause=cause)

    def copy_ceases_to_exist(self: Game, item: StackItem, after: str | None = None) -> None:
        """CR 707.10a: a copy of a spell that leaves the stack ceases to exist: it is logged
        (``after`` says where it would have gone, e.g. ``to_hand`` for buyback) and
        unregistered, so its reference no longer names an object."""
        self.log("copy_ceased_to_exist", object=item.ref, card=item.card, **({"after": after} if after else {}))
        self.objects.pop(item.ref, None)

    def _offer_pending_casts(self: Game) -> None:
        """Casts that a resolving ability offered (suspend: must cast if able; madness: may
        cast, else the card goes to the graveyard) — CR 702.62a, 702.35a."""
        while self.pending_cast:
            offer = self.pending_cast.pop(0)
            obj = self.find(offer["card"])
            if obj is None or obj.zone != "exile":
                continue
            self._offer_cast(offer, obj)

    def _offer_cast(self: Game, offer: dict[str, Any], obj: GameObject) -> None:
        player, kind = obj.owner, offer["kind"]
        able = self._could_cast(player, obj, kind)
        if able and kind == "suspend":
            payable = self._payable(player, obj)
            if payable == "never":
                able = False
            # 2006 notes: cast it if able; an extra cost payable from the mana pool must be
            # paid; one payable only by activating mana abilities leaves the choice
            must = self.rules.suspend_cast_mandatory and payable == "pool"
        else:
            must = False
        if not able:  # no decision to make: the card can't be cast now (split second, no targets…)
            self.log("cast_declined", player=player, card=obj.card, reason=f"{kind}_cannot_cast")
            if kind == "madness":
                self.move(obj, "graveyard", cause="madness")
            else:
                obj.counters.pop("time", None)
            return

        def answer(inp: dict[str, Any]) -> bool:
            if inp.get("action") == "choose":
                if inp.get("choice") != "no":
                    raise IllegalAction("invalid_choice", "cast it, or answer choose 'no'")
                if must:
                    raise IllegalAction("invalid_choice", "a suspended card must be cast if able (2006 rules, 502.59a)")
                return False
            if inp.get("action") != "cast":
                raise IllegalAction("wrong_decision", f"{player} may cast {obj.card} now ('cast' or 'choose no')")
            if inp.get("card") not in (obj.card, obj.ref):
                raise IllegalAction("invalid_choice", f"the card to cast is {obj.card}")
            with self.transaction():
                self.cast(player, inp, forced=kind)
            return True

        def checked(inp: dict[str, Any]) -> bool:
            if inp.get("player", player) != player:
                raise IllegalAction("wrong_decision", f"it is {player}'s decision")
            return answer(inp)

        cast = self.until_answered("may_cast", player, checked, card=obj.card, reason=kind)
        if not cast:
            self.log("cast_declined", player=player, card=obj.card, reason=kind)
            if kind == "madness":
                card = self.find(obj.card)
                assert card is not None  # a card's alias always finds its current object
                self.move(card, "graveyard", cause="madness")
            else:
                obj.counters.pop("time", None)

    def _payable(self: Game, player: str, obj: GameObject) -> str:
        """Whether the total cost of casting ``obj`` without paying its mana cost (cost
        increases included) can be paid: ``"pool"`` (from the mana pool as it is),
        ``"abilities"`` (only by activating mana abilities of untapped permanents) or
        ``"never"``."""
        kws = {k["keyword"]: dict(k) for k in obj.definition.keywords}
        cost = self._total_cost(player, obj, "without_paying", kws, [], False)
        pool = self.players[player].pool
        try:
            pool.copy().pay(cost)
            return "pool"
        except IllegalAction:
            pass
        sources = sum(1 for p in self.battlefield if p.controller == player and not p.tapped
                      and any(ab.get("kind") == "mana" and ab.get("cost", {}).get("tap") for ab in ch.abilities(self, p)))
        return "abilities" if pool.total() + sources >= cost.mana_value() else "never"

    def _could_cast(self: Game, player: str, obj: GameObject, kind: str) -> bool:
        """Whether casting ``obj`` is possible at all: restrictions (split second, "can't be
        cast") and the existence of legal targets for each target the spell requires."""
        try:
            self.check_can_cast(player, obj, ignore_timing=True)
        except IllegalAction:
            return False
        d = obj.definition
        specs = list(d.spell.get("targets", ())) if d.spell and "targets" in d.spell else (
            [d.enchant] if d.enchant is not None else [])
        probe = StackItem(ref=obj.ref, kind="spell", controller=player, ability={"targets": specs}, obj=obj)
        candidates: list[Any] = list(self.living()) + list(self.battlefield) + list(self.stack)
        candidates += card_target_candidates(self)  # CR 115.1: cards in graveyards and exile
        return all(any(ch.target_kinds_match(self, spec, c, player, probe) for c in candidates) for spec in specs)

    def counter(self: Game, item: StackItem, to: str = "graveyard", may_cast_free_by: str | None = None) -> None:
        """CR 701.6: a countered spell or ability is removed from the stack; a countered
        spell card goes to its owner's graveyard (or where the effect says, e.g. exile for
        Spelljack, whose controller may then cast it without paying its mana cost)."""
        self.stack.remove(item)
        self.log(f"{item.kind}_countered", object=item.ref, card=item.card, reason="countered")
        if item.obj is not None and not item.obj.is_copy:
            new = self.move(item.obj, to, cause="countered")
            if may_cast_free_by is not None and new.zone == "exile":
                new.may_cast_free_by = may_cast_free_by
        elif item.obj is not None:
            self.copy_ceases_to_exist(item)
