"""Returning cards to the battlefield, and "flicker" with a delayed return (CR 400.7,
603.7, 610.3; docs/FORMAT.md §13).

Card data:

- ``{"type": "return_to_battlefield", "what": R, "under": "owner"|"controller",
  "tapped": bool}``: put the cards ``R`` names (a target card in a graveyard or in exile,
  "return target creature card from your graveyard to the battlefield", Zombify; or the
  cards a delayed return remembers) onto the battlefield, under their owner's control
  (``under: "owner"``, the default) or under the effect's controller's. A card that isn't
  in a graveyard or in exile any more is not moved (it is a new object, CR 400.7).
- ``{"type": "exile_and_return_later", "what": R, "at": <trigger>, "under": "owner"}``:
  exile the permanents ``R`` names, then create a delayed triggered ability (CR 603.7a)
  that, when ``at`` happens next (default: the beginning of the next end step), returns
  those cards to the battlefield (Flickerwisp). It remembers the exiled cards: if one has
  left exile (or was a token, which ceased to exist, CR 111.7), it isn't returned.

An Aura returned this way isn't cast: the player it enters under chooses a permanent it could
enchant as it enters (a ``choose`` with reason ``aura_host``; CR 303.4f), and if there is
none it stays where it is.

The card that returns is a new object (CR 400.7): untapped, summoning sick, with no
counters, no damage, no Auras (they go to the graveyard as a state-based action, CR
704.5m) and no continuous effects of the permanent it was; its enters-the-battlefield
abilities trigger. The reference ``"exiled_cards"`` names the cards a delayed return
remembers (those still in exile).

Nothing here knows a particular card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from .delayed_triggers import schedule_delayed_trigger
from .errors import IllegalAction
from .late_binding import late_handler

if TYPE_CHECKING:
    from .objects import GameObject

NEXT_END_STEP = {"event": "beginning_of_step", "step": "end", "next": True}


def return_to_battlefield(ctx: Any, eff: dict[str, Any]) -> None:
    """Put each card ``what`` names from a graveyard or from exile onto the battlefield
    (CR 400.7: a new object), under its owner's control or the effect's controller's."""
    g = ctx.game
    for obj in ctx.objects(eff["what"]):
        if obj.zone not in ("graveyard", "exile") or obj.is_token or g.objects.get(obj.ref) is not obj:
            continue
        controller = obj.owner if eff.get("under", "owner") == "owner" else ctx.controller
        init: dict[str, Any] = {"tapped": True} if eff.get("tapped") else {}
        if obj.definition.enchant is not None:  # an Aura (CR 303.4f)
            host = choose_aura_host(g, obj, controller)
            if host is None:
                continue  # nothing it could enchant: it stays where it is
            init["attached_to"] = host.ref
        new = g.move(obj, "battlefield", controller=controller, cause=eff["type"], init=init or None)
        if new.attached_to is not None:
            g.log("attached", object=new.ref, card=new.card, attached_to=new.attached_to)


def aura_hosts(game: Any, aura: Any) -> list[GameObject]:
    """CR 303.4f: the permanents an Aura put onto the battlefield without being cast could
    enchant: those its enchant ability allows (kind and filter) and that don't have
    protection from it. It doesn't target, so shroud and hexproof don't matter."""
    spec = aura.definition.enchant or {}
    kind = spec.get("kind", "permanent")
    types = {"creature": "Creature", "land": "Land", "artifact": "Artifact", "enchantment": "Enchantment"}
    return [p for p in game.battlefield
            if (kind == "permanent" or (kind in types and ch.is_type(p, types[kind])))
            and ch.matches(game, p, spec.get("filter"), aura.owner)
            and not ch.protected_from(game, p, aura)]


def choose_aura_host(game: Any, aura: Any, player: str) -> Any:
    """CR 303.4f: the player putting the Aura onto the battlefield chooses what it enchants
    as it enters (a ``choose`` with reason ``aura_host`` and ``options``, the references of
    the permanents it could enchant; asked even with one: the answer is one of them, or its
    card alias). None when there is nothing it could enchant (then it stays in its zone).
    Raises IllegalAction ``invalid_choice``."""
    hosts = aura_hosts(game, aura)
    if not hosts:
        return None

    def valid(inp: dict[str, Any]) -> Any:
        ref = inp.get("choice")
        host = game.find(ref) if isinstance(ref, str) else None
        if host is None or host not in hosts:
            raise IllegalAction("invalid_choice", f"choose a permanent {aura.card} could enchant: "
                                f"{[h.card for h in hosts]}")
        return host
    return game.decide("choose", player, "choose", valid, reason="aura_host", options=[h.ref for h in hosts])


def exiled_cards(ctx: Any) -> list[GameObject]:
    """The reference ``"exiled_cards"``: the cards a delayed return remembers that are
    still the same objects in exile (CR 400.7, 603.7c)."""
    g = ctx.game
    info = (ctx.item.trigger_event or {}).get("remembered") or {}
    out = []
    for ref in info.get("exiled_cards", ()):
        obj = g.objects.get(ref)
        if obj is not None and obj.zone == "exile":
            out.append(obj)
    return out


def exile_and_return_later(ctx: Any, eff: dict[str, Any]) -> None:
    """Exile the permanents, then create the delayed triggered ability that returns them
    (CR 603.7a; its source is this effect's source, its controller this effect's
    controller, CR 603.7d–e)."""
    g = ctx.game
    exiled = []
    for obj in ctx.objects(eff["what"]):
        if obj.zone != "battlefield":
            continue
        new = g.move(obj, "exile", cause=eff["type"])
        if not new.is_token:
            exiled.append(new.ref)
    ret = {"type": "return_to_battlefield", "what": "exiled_cards", "under": eff.get("under", "owner")}
    schedule_delayed_trigger(ctx, eff.get("at") or NEXT_END_STEP, [ret],
                             {"created_tokens": [], "exiled_cards": exiled})


def _late(name: str) -> Any:
    """This module's function ``name`` as an effect handler bound at call time (mutations)."""
    return late_handler(globals(), name)


#: The effect handlers of this module, by effect type (``engine/effects.py`` HANDLERS).
EFFECTS = {
    "return_to_battlefield": _late("return_to_battlefield"),  # CR 400.7
    "exile_and_return_later": _late("exile_and_return_later"),  # CR 603.7a, 610.3
}
