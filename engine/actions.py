"""Keyword actions and the basic events they cause: tap, untap, draw, discard, destroy,
sacrifice, counters, life gain and loss, and damage with its prevention (CR 701, 119, 120,
121, 122, 615)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import bookkeeping, planeswalkers, unpreventable
from . import characteristics as ch
from .draw_replacement import replace_draw
from .errors import IllegalAction
from .keywords import MADNESS_CAST, SUSPEND_CAST
from .objects import GameObject, StackItem

if TYPE_CHECKING:
    from .game import Game


class Actions:
    """Keyword actions, life and damage (a mixin of :class:`~.game.Game`)."""

    def tap(self: Game, obj: GameObject) -> None:
        """Tap the permanent (the keyword action "tap", CR 701); logged as ``tapped``."""
        obj.tapped = True
        self.log("tapped", object=obj.ref, card=obj.card)

    def untap(self: Game, obj: GameObject) -> None:
        """Untap the permanent if it is tapped (the keyword action "untap", CR 701); logged as
        ``untapped``; "whenever … becomes untapped" abilities trigger."""
        if obj.tapped:
            obj.tapped = False
            self.log("untapped", object=obj.ref, card=obj.card)
            self.fire_triggers({"event": "becomes_untapped", "object": obj})

    def draw(self: Game, player: str, n: int = 1) -> None:
        """CR 121: draw the top card; drawing from an empty library makes the player lose
        at the next state-based action check (CR 704.5b). A draw replacement of a permanent
        ``player`` controls (``{"kind": "replacement", "event": "draw", "affected":
        "controller", "condition"?, "instead": {"effects": [...]}}``, Laboratory Maniac)
        replaces each draw its condition allows, even from an empty library (CR 614.1a,
        614.11): the card is not drawn, the effects happen instead."""
        p = self.players[player]
        for _ in range(n):
            if replace_draw(self, player):
                continue
            if not p.library:
                p.drew_from_empty = True
                self.log("draw_from_empty_library", player=player)
                continue
            top = p.library[0]
            new = self.move(top, "hand")
            self.log("card_drawn", player=player, object=new.ref, card=new.card)

    def discard(self: Game, obj: GameObject) -> None:
        """CR 701.9: put a card from its owner's hand into their graveyard. Madness (CR
        702.35a) replaces that: its owner may exile it instead, and then its madness
        ability triggers; the card was still discarded."""
        to = "graveyard"
        if any(k["keyword"] == "madness" for k in obj.definition.keywords):
            to = "exile"
            if self.rules.madness_exile_optional:
                def answer(inp: dict[str, Any]) -> bool:
                    if inp.get("choice") not in ("yes", "no"):
                        raise IllegalAction("invalid_choice", "madness: exile it instead? answer yes or no")
                    return bool(inp["choice"] == "yes")
                if not self.decide("choose", obj.owner, "choose", answer, reason="madness", card=obj.card):
                    to = "graveyard"
        new = self.move(obj, to, cause="discard")
        self.log("card_discarded", player=obj.owner, object=new.ref, card=new.card,
                 **({"madness": True} if to == "exile" else {}))
        self.fire_triggers({"event": "discarded", "player": obj.owner, "object": new})
        if to == "exile":
            self.add_trigger(new, "madness", MADNESS_CAST, {"event": "madness_exiled", "object": new})

    def destroy(self: Game, obj: GameObject, can_regenerate: bool = True) -> None:
        """CR 701.8: move a permanent to its owner's graveyard, unless it has indestructible
        (CR 702.12b: nothing happens) or a regeneration shield replaces it (CR 701.19: tap
        it, remove all damage, remove it from combat)."""
        if obj.zone != "battlefield":
            return
        if ch.has_keyword(self, obj, "indestructible"):  # CR 702.12b: it isn't destroyed
            return
        if obj.regen_shields and can_regenerate:
            obj.regen_shields -= 1
            self.log("regenerated", object=obj.ref, card=obj.card)
            obj.damage = 0
            obj.dealt_deathtouch_damage = False
            if not obj.tapped:
                self.tap(obj)
            if self.combat is not None and self.combat.remove(obj.ref):
                self.log("removed_from_combat", object=obj.ref, card=obj.card)
            return
        self.log("destroyed", object=obj.ref, card=obj.card)
        self.move(obj, "graveyard", cause="destroy")

    def sacrifice(self: Game, obj: GameObject) -> None:
        """CR 701.17: the controller moves it to its owner's graveyard (no regeneration).
        A permanent that can't be sacrificed (``ch.cant_be_sacrificed``) isn't: nothing
        happens, no event (CR 101.2: "can't" wins)."""
        if ch.cant_be_sacrificed(self, obj):
            return
        self.log("sacrificed", object=obj.ref, card=obj.card)
        self.move(obj, "graveyard", cause="sacrifice")

    def gain_life(self: Game, player: str, n: int) -> None:
        """CR 119.3: the player gains ``n`` life (nothing for ``n`` of 0 or less)."""
        if n <= 0:
            return
        p = self.players[player]
        p.life += n
        bookkeeping.life_gained(self, player, n)
        self.log("life_gained", player=player, amount=n, life=p.life)

    def lose_life(self: Game, player: str, n: int) -> None:
        """CR 119.3: the player loses ``n`` life (nothing for ``n`` of 0 or less); losing the
        game at 0 life is a state-based action (CR 704.5a)."""
        if n <= 0:
            return
        p = self.players[player]
        p.life -= n
        self.log("life_lost", player=player, amount=n, life=p.life)

    def deal_damage(self: Game, source: Any, target: Any, amount: int, combat: bool = False) -> int:
        """CR 120: ``source`` (GameObject or StackItem) deals ``amount`` damage to
        ``target`` (a GameObject or a player id). Prevention (CR 615) applies first:
        protection (CR 702.16e), then shields in creation order, unless damage can't be
        prevented now (CR 615.12, engine/unpreventable.py: nothing is prevented and no
        shield is reduced). Damage to a player causes
        life loss; damage to a creature is marked on it. Returns the damage dealt."""
        if amount <= 0:
            return 0
        src_obj = source.obj or source.source_lki if isinstance(source, StackItem) else source
        src_ref = (source.obj.ref if source.obj else source.source) if isinstance(source, StackItem) else source.ref
        src_card = (source.obj.card if source.obj else source.source_card) if isinstance(source, StackItem) else source.card
        tgt_ref = target if isinstance(target, str) else target.ref
        prevented = 0
        preventable = not unpreventable.damage_cant_be_prevented(self)  # CR 615.12: no shield is used up
        if preventable and not isinstance(target, str) and ch.protected_from(self, target, source):
            prevented = amount
        for shield in list(self.shields) if preventable else []:
            if prevented >= amount:
                break
            if shield.to != tgt_ref or (shield.source is not None and shield.source != src_ref):
                continue
            n = amount - prevented if shield.amount is None else min(shield.amount, amount - prevented)
            prevented += n
            if shield.amount is not None:
                shield.amount -= n
            if shield.amount == 0 or shield.source is not None:
                self.shields.remove(shield)
        if prevented:
            self.log("damage_prevented", source=src_ref, source_card=src_card, target=tgt_ref, amount=prevented)
        dealt = amount - prevented
        if dealt <= 0:
            return 0
        if isinstance(target, str):
            self.log("damage_dealt", source=src_ref, source_card=src_card, target=target, amount=dealt, combat=combat)
            self.lose_life(target, dealt)
        else:
            if planeswalkers.marks_damage(target):  # CR 120.3c, 120.3e
                target.damage += dealt
            if src_obj is not None and any(k["keyword"] == "deathtouch" for k in ch.keywords(self, src_obj)):
                target.dealt_deathtouch_damage = True
            self.log("damage_dealt", source=src_ref, source_card=src_card, target=target.ref,
                     target_card=target.card, amount=dealt, combat=combat)
            planeswalkers.damage_removes_loyalty(self, target, dealt)  # CR 120.3c
        if src_obj is not None and any(k["keyword"] == "lifelink" for k in ch.keywords(self, src_obj)):
            self.gain_life(src_obj.controller or src_obj.owner, dealt)
        self.fire_triggers({"event": "deals_damage", "source": src_ref, "target": target, "combat": combat,
                            "source_object": src_obj, "amount": dealt})
        return dealt

    def remove_counters(self: Game, obj: GameObject, kind: str, n: int) -> None:
        """Remove ``n`` counters of ``kind``; removing the last time counter from an exiled
        card with suspend triggers its cast ability, whatever removed it (CR 702.62a)."""
        have = obj.counters.get(kind, 0)
        n = min(n, have)
        if not n:
            return
        obj.counters[kind] = have - n
        if not obj.counters[kind]:
            del obj.counters[kind]
        self.log("counters_removed", object=obj.ref, card=obj.card, counter=kind, count=n)
        if (kind == "time" and have - n == 0 and obj.zone == "exile"
                and any(k["keyword"] == "suspend" for k in obj.chars.keywords)):
            self.add_trigger(obj, "suspend", SUSPEND_CAST, {"event": "last_time_counter_removed", "object": obj})
