"""Endure and behold, the keyword actions of Tarkir: Dragonstorm (docs/FORMAT.md §11.5).

CR numbers are those of the edition docs/FORMAT.md §11 pins: behold is 701.4 (701.4a the
action, 701.4b "if a [quality] was beheld"; so since the Edge of Eternities edition of
2025-07-25), endure 701.63 (701.63a the action, 701.63b endure 0). The Tarkir: Dragonstorm
edition (2025-04-04) numbered them 701.61 and 701.62.

- **Endure N** (an effect, ``{"type": "endure", "what": <ref>, "n": N}``): the permanent's
  controller chooses, as the effect happens, to put N +1/+1 counters on it or to create an
  N/N white Spirit creature token (a ``choose`` decision, reason ``endure``, answered
  ``"counters"`` or ``"token"``). Nothing happens between the choice and its result. If
  counters can't be put on it (it isn't on the battlefield any more), the token is created
  and nothing is asked (rulings tarkir.endure.01–04).
- **Behold** (an additional cost to cast a spell, the card's ``behold`` data, and the cast
  input's ``behold`` field): reveal a card with the quality from your hand or choose a
  permanent you control with it. The spell remembers that something was beheld
  (``StackItem.beheld``), whatever happens to that card or permanent later (condition
  ``{"beheld": true}``); a card revealed for the cost stays revealed until the spell leaves
  the stack (derived from the stack: :func:`revealed_cards`), and an already revealed card
  may be revealed again for another cost (rulings tarkir.behold.01–05).

Nothing here is new mutable game state: the choice of a behold is kept on the stack item
(saved and restored with it by ``rollback``); what is revealed is computed from the stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from .cards import CardDefinition, describe
from .errors import IllegalAction
from .mana import ManaCost
from .objects import GameObject, StackItem

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game

#: the answers to an endure decision
ENDURE_CHOICES = ("counters", "token")


# ------------------------------------------------------------------------------- endure
def spirit_token(n: int) -> dict[str, Any]:
    """The token endure N creates: an N/N white Spirit creature token (CR 701.63a), named
    by CR 111.4 ("Spirit Token" today; engine/cards.py ``token_name``)."""
    return {"types": ["Creature"], "subtypes": ["Spirit"], "colors": ["white"],
            "power": n, "toughness": n}


def create_token_for(game: "Game", controller: str, spec: dict[str, Any]) -> GameObject:
    """CR 111.1: create one token with the characteristics ``spec`` under ``controller``'s
    control on the battlefield (logs ``token_created``; enters-the-battlefield triggers)."""
    definition = CardDefinition.token(dict(spec), game.rules.token_name_adds_token)  # CR 111.4
    ref = game.next_ref("token")
    obj = GameObject(ref=ref, card=ref, definition=definition, owner=controller, zone="battlefield",
                     controller=controller, timestamp=game.new_timestamp(), summoning_sick=True,
                     layers=game.layers)
    game.battlefield.append(obj)
    game.objects[ref] = obj
    game.log("token_created", object=ref, card=ref, name=definition.name, controller=controller)
    game.fire_triggers({"event": "enters_battlefield", "object": obj})
    return obj


def can_put_counters(game: "Game", obj: GameObject | None) -> bool:
    """Can +1/+1 counters be put on ``obj`` now? Only on a permanent on the battlefield
    (ruling tarkir.endure.03: a creature that has left the battlefield gets none). Any
    permanent can get them, a noncreature one too (ruling tarkir.endure.04)."""
    return obj is not None and obj.zone == "battlefield" and game.objects.get(obj.ref) is obj


def endure(ctx: "Context", eff: dict[str, Any]) -> None:
    """CR 701.63a (ruling tarkir.endure.01): the permanent ``what`` endures ``n``: its
    controller creates an N/N white Spirit creature token unless they put N +1/+1 counters
    on it. The choice is made as the effect happens (a ``choose`` decision answered
    ``counters`` or ``token``) and carried out at once: no player acts in between (ruling
    tarkir.endure.02). If counters can't be put on it (it is no longer on the battlefield),
    the token is created without a choice (ruling tarkir.endure.03). A noncreature
    permanent endures the same way (ruling tarkir.endure.04). Endure 0 does nothing
    (CR 701.63b)."""
    g = ctx.game
    n = ctx.amount(eff.get("n", 1))
    if n <= 0:
        return
    found = [o for o in ctx.objects(eff["what"])]
    perm = found[0] if found else None
    if not can_put_counters(g, perm):
        lki = ctx.item.source_lki if eff["what"] == "self" else None
        who = lki.controller if lki is not None and lki.controller else ctx.controller
        create_token_for(g, who, spirit_token(n))
        return
    assert perm is not None  # can_put_counters: a permanent on the battlefield
    who = perm.controller or ctx.controller

    def valid(inp: dict[str, Any]) -> str:
        choice = inp.get("choice")
        if not isinstance(choice, str) or choice not in ENDURE_CHOICES:
            raise IllegalAction("invalid_choice", f"endure {n}: answer 'counters' (put {n} +1/+1 counter(s) on "
                                f"{perm.name}) or 'token' (create a {n}/{n} white Spirit creature token)")
        return choice

    choice = g.decide("choose", who, "choose", valid, reason="endure", about=perm.ref, n=n,
                      options=list(ENDURE_CHOICES))
    if choice == "counters":
        perm.counters["+1/+1"] = perm.counters.get("+1/+1", 0) + n
        g.log("counters_added", object=perm.ref, card=perm.card, counter="+1/+1", count=n)
    else:
        create_token_for(g, who, spirit_token(n))


# ------------------------------------------------------------------------------- behold
def behold_spec(definition: CardDefinition) -> dict[str, Any] | None:
    """The card's behold cost (``behold`` in its card data), or None: ``filter`` (the
    quality), ``optional`` ("you may behold") or ``or_pay`` ("behold … or pay {1}");
    neither: the behold is mandatory."""
    raw = definition.raw or {}
    return raw.get("behold") if isinstance(raw, dict) else None


def can_behold(game: "Game", player: str, obj: GameObject | None, flt: dict[str, Any] | None) -> str | None:
    """Why ``obj`` can't be beheld by ``player`` for the quality ``flt``, or None if it can
    (CR 701.4a): a card in that player's hand or a permanent they control, that has the
    quality. "A Dragon card" is a card with the subtype Dragon, not a card that merely shows
    or makes Dragons (ruling tarkir.behold.02). A card already revealed may be revealed
    again (ruling tarkir.behold.05)."""
    if obj is None:
        return "no such object"
    if obj.zone == "hand":
        if obj.owner != player:
            return f"{obj.name} is not in {player}'s hand"
    elif obj.zone == "battlefield":
        if obj.controller != player:
            return f"{player} doesn't control {obj.name}"
    else:
        return f"{obj.name} is neither in {player}'s hand nor a permanent {player} controls"
    if not ch.matches(game, obj, flt, player):
        return f"{obj.name} doesn't have the quality {describe(flt or {})}"
    return None


def declare_behold(game: "Game", player: str, obj: GameObject, inp: dict[str, Any]) -> tuple[dict[str, Any] | None, ManaCost | None]:
    """CR 601.2b, 601.2f: the player declares a behold cost with the cast input's
    ``behold`` (the alias of the card or permanent beheld). Checked before anything
    changes; returns ``(beheld, extra mana)``: ``beheld`` is ``{"object", "card", "name",
    "zone"}`` or None; the extra mana is ``or_pay`` when the player doesn't behold (an
    additional cost added to the total cost, CR 601.2f), else None.
    Raises IllegalAction: ``invalid_alternative`` (the card has no behold cost),
    ``unknown_object``, ``invalid_payment`` (that object can't be beheld), ``cannot_pay``
    (a mandatory behold not declared)."""
    spec = behold_spec(obj.definition)
    chosen = inp.get("behold")
    if spec is None:
        if chosen is not None:
            raise IllegalAction("invalid_alternative", f"{obj.definition.name} has no behold cost")
        return None, None
    if chosen is None:
        if spec.get("or_pay") is not None:
            return None, ManaCost.parse(spec["or_pay"])
        if spec.get("optional"):
            return None, None
        raise IllegalAction("cannot_pay", f"{obj.definition.name}: behold {describe(spec.get('filter') or {})} "
                            "(name the card or permanent in 'behold')")
    target = game.find(chosen)
    if target is None:
        raise IllegalAction("unknown_object", f"no object {chosen!r} to behold")
    if target is obj:
        raise IllegalAction("invalid_payment", f"{obj.definition.name} can't behold itself: it is on the stack "
                            "once announced (CR 601.2a)")
    problem = can_behold(game, player, target, spec.get("filter"))
    if problem is not None:
        raise IllegalAction("invalid_payment", f"can't behold {chosen}: {problem} (CR 701.4a)")
    return {"object": target.ref, "card": target.card, "name": target.name, "zone": target.zone}, None


def pay_behold(game: "Game", player: str, item: StackItem) -> None:
    """CR 601.2h, 701.4a: behold as the spell's costs are paid: reveal the card from the hand
    (``card_revealed``) or choose the permanent; then ``beheld`` (``player``, ``object``,
    ``card``, ``name``, ``zone``, ``spell``). The card stays revealed while the spell is on
    the stack (ruling tarkir.behold.04, :func:`revealed_cards`)."""
    b = item.beheld
    if not b:
        return
    if b["zone"] == "hand":
        game.log("card_revealed", player=player, object=b["object"], card=b["card"], name=b["name"])
    game.log("beheld", player=player, object=b["object"], card=b["card"], name=b["name"], zone=b["zone"],
             spell=item.ref)


def revealed_cards(game: "Game", player: str) -> list[str]:
    """The cards in ``player``'s hand that are revealed now, by card alias: a card revealed
    to pay a spell's cost stays revealed from the time the spell is announced until it leaves
    the stack (ruling tarkir.behold.04); once it leaves the hand it is a new object, no
    longer revealed (CR 400.7). Each card once, in stack order."""
    out: list[str] = []
    for item in game.stack:
        b = getattr(item, "beheld", None)
        if not b or b.get("zone") != "hand":
            continue
        obj = game.objects.get(b["object"])
        if obj is not None and obj.zone == "hand" and obj.owner == player and obj.card not in out:
            out.append(obj.card)
    return out


def beheld_condition(item: StackItem, want: Any) -> bool:
    """Condition ``{"beheld": true}`` ("if a Dragon was beheld", CR 701.4b, ruling
    tarkir.behold.03): true if a card or permanent was beheld as the spell was cast,
    whatever happened to it since."""
    return bool(getattr(item, "beheld", None)) == bool(want)


def behold_options(game: "Game", player: str, obj: GameObject, limit: int = 2) -> list[tuple[str | None, ManaCost | None]]:
    """The ways ``player`` may declare ``obj``'s behold cost now, for the legal-action
    generator (engine/legal.py): ``(alias or None, extra mana or None)``: up to ``limit``
    cards or permanents that can be beheld (CR 701.4a), then not beholding (paying ``or_pay``
    instead, or nothing for an optional behold). A card without a behold cost: one way,
    ``(None, None)``."""
    spec = behold_spec(obj.definition)
    if spec is None:
        return [(None, None)]
    out: list[tuple[str | None, ManaCost | None]] = []
    candidates = list(game.players[player].hand) + [o for o in game.battlefield if o.controller == player]
    for cand in candidates:
        if len(out) >= limit:
            break
        if cand is not obj and can_behold(game, player, cand, spec.get("filter")) is None:
            out.append((cand.ref, None))
    if spec.get("or_pay") is not None:
        out.append((None, ManaCost.parse(spec["or_pay"])))
    elif spec.get("optional"):
        out.append((None, None))
    return out


def behold_effect(ctx: "Context", eff: dict[str, Any]) -> bool:
    """Behold as an effect, ``{"type": "behold", "filter": F, "optional": true, "then":
    [...]}`` ("you may behold a Dragon. If you do, …", CR 701.4a): the controller chooses a
    card with the quality F in their hand (revealed: ``card_revealed``) or a permanent they
    control with it (a ``choose`` decision, reason ``behold``, answered with its alias, or
    ``no`` when optional); then ``beheld`` is logged (``spell``: the resolving spell or
    ability). Returns whether something was beheld: then the effect's ``then`` effects
    happen (``effects._behold``). With nothing to behold, nothing is asked."""
    g = ctx.game
    player = ctx.controller
    flt = eff.get("filter")
    options = [o.ref for o in list(g.players[player].hand) + [p for p in g.battlefield if p.controller == player]
               if can_behold(g, player, o, flt) is None]
    if not options:
        return False
    optional = bool(eff.get("optional"))

    def valid(inp: dict[str, Any]) -> GameObject | None:
        choice = inp.get("choice")
        if optional and choice == "no":
            return None
        obj = g.find(choice) if isinstance(choice, str) else None
        problem = can_behold(g, player, obj, flt)
        if problem is not None:
            raise IllegalAction("invalid_choice", f"behold {describe(flt or {})}: {problem}"
                                + (" (or answer 'no')" if optional else ""))
        return obj

    obj = g.decide("choose", player, "choose", valid, reason="behold", about=ctx.item.ref,
                   options=options + (["no"] if optional else []))
    if obj is None:
        return False
    if obj.zone == "hand":
        g.log("card_revealed", player=player, object=obj.ref, card=obj.card, name=obj.name)
    g.log("beheld", player=player, object=obj.ref, card=obj.card, name=obj.name, zone=obj.zone, spell=ctx.item.ref)
    return True
