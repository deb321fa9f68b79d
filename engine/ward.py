"""Ward (CR 702.21) and the "becomes the target" event it triggers on (CR 115.1, 603.2).

Card data may trigger on it too: ``{"event": "becomes_target", "object": "self" | <filter>,
"targeted_by": "spell" | "ability"}`` ("whenever this creature becomes the target of a
spell", Bonecrusher Giant); ``triggering_player`` is the targeting spell's or ability's
controller ("that spell's controller").

"Ward [cost]" means "Whenever this permanent becomes the target of a spell or ability an
opponent controls, counter that spell or ability unless that player pays [cost]"
(CR 702.21a). The mana paid for a ward cost is not mana spent to cast the spell (rulings
``strixhaven.converge.02``, ``strixhaven.increment.03``, ``strixhaven.opus.02``): it is
paid as the ward ability resolves, never recorded in the spell's ``mana_spent``
(engine/bookkeeping.py).

The event ``{"event": "becomes_target", "object": permanent, "by": stack_item, "player":
controller_of_the_item}`` is fired for each permanent a spell targets as it is cast, an
activated ability as it is activated and a triggered ability as it is put on the stack
(each object once per spell or ability, CR 115.1). A copy given new targets does not fire
it (not needed by the fixtures yet).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import IllegalAction
from .mana import ManaCost
from .objects import StackItem

if TYPE_CHECKING:
    from .game import Game


def ward_ability(kw: dict[str, Any]) -> dict[str, Any]:
    """CR 702.21a: the triggered ability the keyword ``{"keyword": "ward", "cost": COST}``
    stands for (COST a cost object: ``mana`` and/or ``pay_life``)."""
    return {"kind": "triggered", "trigger": {"event": "becomes_target", "object": "self", "by": "opponent"},
            "effects": [{"type": "counter_unless_pays", "cost": dict(kw.get("cost") or {}), "reason": "ward"}]}


def fire_becomes_target(game: "Game", item: StackItem) -> None:
    """CR 603.2: each permanent ``item`` targets becomes its target (once each)."""
    seen: set[str] = set()
    for ref in item.targets:
        if not isinstance(ref, str) or ref in seen:
            continue
        seen.add(ref)
        obj = game.objects.get(ref)
        if obj is not None and obj.zone == "battlefield":
            game.fire_triggers({"event": "becomes_target", "object": obj, "by": item, "player": item.controller})


def matches(source: Any, trigger: dict[str, Any], event: dict[str, Any], object_ok: Any) -> bool:
    """CR 603.2: does a ``becomes_target`` trigger of ``source`` trigger on ``event``? ``by``:
    ``opponent`` (a spell or ability an opponent controls, ward, CR 702.21a) or ``any``;
    ``targeted_by`` (card data): ``spell`` or ``ability``, what targets it ("whenever this
    creature becomes the target of a spell", Bonecrusher Giant), absent for either."""
    if event["event"] != "becomes_target" or not object_ok(event["object"]):
        return False
    kind = trigger.get("targeted_by")
    by_item = event.get("by")
    if kind is not None and (not isinstance(by_item, StackItem) or by_item.kind != kind):
        return False
    by: str = trigger.get("by", "any")
    return by == "any" or (by == "opponent") == (event["player"] != source.controller)


def event_info(event: dict[str, Any]) -> dict[str, Any]:
    """What a ``becomes_target`` trigger remembers of its trigger event (CR 603.2): the
    targeting spell or ability, which ward counters unless paid for (CR 702.21a)."""
    by = event.get("by")
    return {"targeting": by.ref} if isinstance(by, StackItem) else {}


def counter_unless_pays(ctx: Any, eff: dict[str, Any]) -> None:
    """CR 702.21a, 701.6: counter the spell or ability that triggered the ward ability
    unless its controller pays the cost: a ``choose`` decision of that player, ``yes``
    (pay, with ``pay_with``/``mana`` as on casting; logged ``cost_paid``) or ``no``. A
    spell or ability no longer on the stack is left alone."""
    g: "Game" = ctx.game
    ref = (ctx.item.trigger_event or {}).get("targeting")
    item = next((s for s in g.stack if s.ref == ref), None)
    if item is None:
        return
    cost = dict(eff.get("cost") or {})
    if "mana" in cost:
        cost["mana"] = ManaCost.parse(cost["mana"])
    payer = item.controller

    def answer(inp: dict[str, Any]) -> bool:
        if inp.get("choice") == "no":
            return False
        if inp.get("choice") != "yes":
            raise IllegalAction("invalid_choice", "pay the ward cost? answer yes or no")
        g.dry_run(lambda c: c.pay_costs(payer, cost, inp, x=0, source=None))
        paid = g.pay_costs(payer, cost, inp, x=0, source=None)
        g.log("cost_paid", player=payer, object=ctx.item.ref, mana=paid)
        return True

    if not g.decide("choose", payer, "choose", answer, reason=eff.get("reason", "counter_unless_pays")):
        g.counter(item)
