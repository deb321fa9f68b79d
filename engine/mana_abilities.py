"""Mana abilities: activated ones resolve at once without the stack, triggered ones as the
permanent is tapped for mana; what an ability produces goes into its player's mana pool
(CR 605, 106.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from .effect_params import declared
from .errors import IllegalAction
from .mana import parse_mana_symbols
from .objects import GameObject

if TYPE_CHECKING:
    from .game import Game


class ManaAbilities:
    """Mana abilities and mana pools (a mixin of :class:`~.game.Game`)."""

    def activate_mana_ability(self: Game, player: str, src: GameObject, idx: int, color: Any,
                              inp: dict[str, Any] | None = None) -> None:
        """CR 605.3: a mana ability doesn't use the stack: pay its cost, add the mana now.
        An ability that adds X mana in a combination of colors (storage lands) takes ``x``
        and ``produce`` (``{"W": 1, "U": 2}``) from the input."""
        ab = ch.abilities(self, src)[idx]
        inp = inp or {}
        if src.controller != player:
            raise IllegalAction("not_controller", f"{player} doesn't control {src.name}")
        cost = dict(ab.get("cost", {}))
        add = ab.get("add")
        x = 0
        if isinstance(add, dict) and "combination_of" in add or "remove_counters" in cost:
            x = inp.get("x", 0)
            if not isinstance(x, int) or isinstance(x, bool) or x < 0:
                raise IllegalAction("invalid_x", "choose X, a whole number 0 or more")
        produced = self.mana_produced(add, color, x=x, produce=inp.get("produce"))
        self.log("mana_ability_activated", player=player, source=src.ref, source_card=src.card, ability=idx)
        self.pay_costs(player, cost, inp if "mana" in cost else {}, x=x, source=src)
        self.add_mana(player, produced, src)
        if cost.get("tap"):
            self._triggered_mana_abilities(src, inp)

    def mana_triggers(self: Game) -> list[tuple[GameObject, dict[str, Any]]]:
        """CR 605.1b: the triggered mana abilities on the battlefield that trigger when a
        permanent is tapped for mana, as ``(source permanent, ability)`` pairs (Fertile
        Ground's). :meth:`mana_triggered_by` says which apply to one permanent."""
        out = []
        statics = ch.static_effects(self)
        for perm in self.battlefield:
            for ab in ch.abilities(self, perm, statics):
                if (ab.get("kind") == "triggered" and ab.get("mana_ability")
                        and ab.get("trigger", {}).get("event") == "tapped_for_mana"):
                    out.append((perm, ab))
        return out

    @staticmethod
    def mana_triggered_by(triggers: list[tuple[GameObject, dict[str, Any]]], tapped: GameObject
                          ) -> list[tuple[GameObject, dict[str, Any], str | None]]:
        """Of ``triggers`` (:meth:`mana_triggers`), the ``add_mana`` effects that tapping
        ``tapped`` for mana triggers: ``(source permanent, effect, player who adds the
        mana)``. A trigger on ``"enchanted"`` applies only to the permanent its source
        enchants."""
        out: list[tuple[GameObject, dict[str, Any], str | None]] = []
        for perm, ab in triggers:
            if ab["trigger"].get("object") == "enchanted" and perm.attached_to != tapped.ref:
                continue
            for effect in ab.get("effects", ()):
                if effect.get("type") == "add_mana":
                    eff = declared(effect)  # read as its handler reads it (engine/effect_params.py)
                    who = tapped.controller if eff.get("player") == "enchanted_controller" else perm.controller
                    out.append((perm, eff, who))
        return out

    def _triggered_mana_abilities(self: Game, tapped: GameObject, inp: dict[str, Any]) -> None:
        """CR 605.1b / 605.4a: triggered mana abilities ("whenever enchanted land is tapped
        for mana, its controller adds …") resolve at once, without the stack. The color of an
        "any color" one is the input's ``extra_color`` (else its ``color``)."""
        for perm, eff, who in self.mana_triggered_by(self.mana_triggers(), tapped):
            mana = eff["mana"]
            try:
                produced = (parse_mana_symbols(mana) if isinstance(mana, str) else
                            self.mana_produced(mana, inp.get("extra_color", inp.get("color"))))
            except IllegalAction as err:
                raise IllegalAction(err.code, f"{perm.name} adds mana of a color of your choice when "
                                    f"{tapped.name} is tapped for mana: name it with 'extra_color' "
                                    f"(W, U, B, R or G)") from None
            self.log("ability_triggered", controller=perm.controller, object=self.next_ref("ability"),
                     source=perm.ref, source_card=perm.card, ability="mana", trigger="tapped_for_mana")
            assert who is not None  # a permanent has a controller (CR 108.4)
            self.add_mana(who, produced, perm)

    def mana_produced(self: Game, add: Any, color: Any, x: int = 0, produce: Any = None) -> dict[str, Any]:
        """What a mana ability's ``add`` produces: ``"{G}"``, ``{"one_of": [...]}``,
        ``{"any_color": n}`` (the ``color`` chosen) or ``{"combination_of": ["W", "U"],
        "amount": "X"}`` (``produce`` says which). Raises IllegalAction ``invalid_choice``."""
        if isinstance(add, str):
            return parse_mana_symbols(add)
        if "combination_of" in add:
            amount = x if add.get("amount") == "X" else int(add.get("amount", 1))
            if (not isinstance(produce, dict) or sum(produce.values()) != amount
                    or any(k not in add["combination_of"] or not isinstance(n, int) or n < 0
                           for k, n in produce.items())):
                raise IllegalAction("invalid_choice", f"produce {amount} mana among {list(add['combination_of'])}")
            return {k: n for k, n in produce.items() if n}
        if "one_of" in add:
            options = [parse_mana_symbols(o) for o in add["one_of"]]
            choice = parse_mana_symbols(f"{{{color}}}") if isinstance(color, str) and len(color) == 1 else None
            if choice not in options:
                raise IllegalAction("invalid_choice", f"choose one of {list(add['one_of'])} with 'color'")
            return choice
        if "any_color" in add:
            if color not in ("W", "U", "B", "R", "G"):
                raise IllegalAction("invalid_choice", "choose a color W, U, B, R or G with 'color'")
            return {color: add["any_color"]}
        raise IllegalAction("invalid_choice", f"unknown mana production {add!r}")

    def add_mana(self: Game, player: str, mana: dict[str, Any], src: GameObject | None) -> None:
        """CR 106.4: mana goes into the player's mana pool."""
        self.players[player].pool.add(mana)
        self.log("mana_added", player=player, mana=mana, source=src.ref if src else None,
                 card=src.card if src else None)
