"""Paying costs: mana abilities named for the payment, then mana, tapping, untapping, life,
discards, counters and sacrifices (CR 118, 601.2g–h, 602.2b, 302.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from . import graveyard_abilities, planeswalkers
from .errors import IllegalAction
from .mana import ManaCost
from .objects import GameObject

if TYPE_CHECKING:
    from .game import Game


class Costs:
    """Paying costs (a mixin of :class:`~.game.Game`)."""

    def pay_costs(self: Game, player: str, cost: dict[str, Any], inp: dict[str, Any], x: int, source: GameObject | None) -> dict[str, Any]:
        """CR 601.2g–h, 602.2: activate the mana abilities named in ``pay_with`` (an entry
        is a ref or ``{"source", "color", "extra_color"}``: the entry is the activation's
        input, so ``extra_color`` names the color a triggered mana ability adds), then pay
        the cost's parts: ``mana`` (a ManaCost or text), ``tap``, ``untap``,
        ``sacrifice_self``, ``pay_life``, ``discard``, ``exile_from_graveyard`` (the cards
        named in the input's ``exile``). Returns the mana spent.
        Raises IllegalAction ``cannot_pay``, ``invalid_payment``, ``already_tapped``,
        ``summoning_sick``."""
        for entry in inp.get("pay_with") or []:
            ref, color = (entry.get("source"), entry.get("color")) if isinstance(entry, dict) else (entry, None)
            src = self.find(ref) if isinstance(ref, str) else None
            if src is None or src.zone != "battlefield":
                raise IllegalAction("invalid_payment", f"{ref!r} is not a permanent on the battlefield")
            idx = next((i for i, ab in enumerate(ch.abilities(self, src)) if ab.get("kind") == "mana"), None)
            if idx is None:
                raise IllegalAction("invalid_payment", f"{src.name} has no mana ability")
            self.activate_mana_ability(player, src, idx, color, entry if isinstance(entry, dict) else None)
        if cost.get("tap") and source is not None:
            self._pay_tap(source)
        if cost.get("untap") and source is not None:
            if not source.tapped:
                raise IllegalAction("cannot_pay", f"{source.name} is untapped")
            source.tapped = False
            self.log("untapped", object=source.ref, card=source.card)
        mana = cost.get("mana")
        paid: dict[str, Any] = {}
        if mana is not None:
            mc = mana if isinstance(mana, ManaCost) else ManaCost.parse(mana)
            if mc.present or source is None:
                paid = self.players[player].pool.pay(mc.with_x(x), inp.get("mana"))
        if cost.get("pay_life"):
            n = cost["pay_life"]
            if self.players[player].life < n:
                raise IllegalAction("cannot_pay", f"{player} can't pay {n} life (CR 119.4)")
            self.lose_life(player, n)
        if cost.get("discard"):
            cards = inp.get("discard") or []
            if len(cards) != cost["discard"]:
                raise IllegalAction("cannot_pay", f"discard {cost['discard']} card(s): name them in 'discard'")
            for ref in cards:
                self.discard(self._in_hand(player, ref))
        if cost.get("exile_from_graveyard"):  # "exile N cards from your graveyard" (CR 118.3)
            chosen = graveyard_abilities.cards_to_exile_from_graveyard(self, player, cost["exile_from_graveyard"],
                                                                       inp.get("exile"))
            graveyard_abilities.exile_cards_for_cost(self, chosen)
        if cost.get("remove_counters") and source is not None:
            rc = cost["remove_counters"]
            n = x if rc.get("count") == "X" else int(rc.get("count", 1))
            if source.counters.get(rc["counter"], 0) < n:
                raise IllegalAction("cannot_pay", f"{source.name} has fewer than {n} {rc['counter']} counters")
            self.remove_counters(source, rc["counter"], n)
        if cost.get("loyalty") and source is not None:  # CR 606.4: a loyalty ability's cost
            planeswalkers.pay_loyalty(self, source, cost["loyalty"], x)
        if cost.get("discard_self") and source is not None:
            if source.zone != "hand":
                raise IllegalAction("cannot_pay", f"{source.name} is not in the hand")
            self.discard(source)
        if cost.get("sacrifice_self") and source is not None:
            if ch.cant_be_sacrificed(self, source):  # CR 118.3: a cost that can't be paid
                raise IllegalAction("cannot_pay", f"{source.name} can't be sacrificed")
            self.sacrifice(source)
        if cost.get("exile_self") and source is not None:  # renew (engine/graveyard_abilities.py)
            graveyard_abilities.pay_exile_self(self, source)
        return paid

    def _pay_tap(self: Game, source: GameObject) -> None:
        """CR 302.6 / 602.5a: {T} needs an untapped permanent; a creature's {T} ability needs
        it to be under its controller's control since their most recent turn began, or
        haste."""
        if source.tapped:
            raise IllegalAction("already_tapped", f"{source.name} is already tapped")
        if ch.is_type(source, "Creature") and source.summoning_sick and not ch.has_keyword(self, source, "haste"):
            raise IllegalAction("summoning_sick", f"{source.name} hasn't been under its controller's control "
                                "since the start of their most recent turn")
        self.tap(source)
