"""Delayed triggered abilities (CR 603.7): abilities created by a resolving spell or ability
("Sacrifice them at the beginning of the next end step", mobilize, CR 702.181a) that
trigger once, the next time their event happens, and then cease to exist.

Card data: the effect ``{"type": "create_delayed_trigger", "trigger": {...}, "effects":
[...]}`` (docs/FORMAT.md §11.4). The trigger is a trigger spec as for printed triggered
abilities; ``"next": true`` reads "the next" (the first such event after the delayed
ability was created, CR 603.7c), and a ``beginning_of_step`` trigger without ``player``
means any player's step ("the next end step"). Effects of the delayed ability may name
``"created_tokens"``: the tokens the creating spell or ability created before it created
the delayed ability (CR 603.7c: it still affects those objects, if they are still where
it expects them; a token that has left the battlefield is gone).

The game keeps them in ``Game.delayed_triggers`` (a list of records that are never changed
after creation, so a rollback's shallow copy of the list restores them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game
    from .objects import GameObject


def create_delayed_trigger(ctx: "Context", eff: dict[str, Any]) -> None:
    """CR 603.7a: a resolving spell or ability creates a delayed triggered ability. Its
    source is the source of the creating ability, its controller the player who
    controlled that ability as it resolved (CR 603.7d–e); it remembers the tokens the
    ability created so far (``created_tokens``)."""
    ability_targets = list(eff["targets"]) if eff.get("targets") else None
    schedule_delayed_trigger(ctx, eff["trigger"], list(eff.get("effects", ())),
                             {"created_tokens": list(ctx.created)}, targets=ability_targets)


def schedule_delayed_trigger(ctx: "Context", trigger: dict[str, Any], effects: list[dict[str, Any]], remembered: dict[str, Any],
                             targets: list[str | None] | None = None) -> None:
    """Add a delayed triggered ability (CR 603.7a) created by the resolving ``ctx.item``:
    ``trigger`` a trigger dict of the card format (``beginning_of_step`` defaults to each
    player's step), ``effects`` its effect dicts, ``remembered`` what it acts on later
    (``created_tokens``, ``exiled_cards``: lists of references), ``targets`` its target
    specs. Its source is a copy of the creating ability's source (last known information),
    its controller the player who controlled that ability as it resolved (CR 603.7d–e).
    Does nothing when the creating ability has no source object."""
    g = ctx.game
    source = ctx.source
    if source is None:
        return
    lki = source.copy()
    lki.controller = ctx.controller
    item = ctx.item
    key = item.ability_index if item.kind == "ability" and item.ability_index is not None else "delayed"
    trigger = dict(trigger)
    if trigger.get("event") == "beginning_of_step":
        trigger.setdefault("player", "each")
    ability: dict[str, Any] = {"kind": "triggered", "trigger": trigger, "effects": list(effects),
                               "delayed": True}
    if targets:
        ability["targets"] = list(targets)
    g.delayed_triggers = g.delayed_triggers + [{
        "source": lki, "key": key, "ability": ability, "remembered": remembered,
    }]


def fire_delayed_triggers(game: "Game", event: dict[str, Any], matches: Callable[..., bool]) -> None:
    """CR 603.7c: a delayed triggered ability triggers only once, the next time its
    trigger event occurs; then it is gone. Called with every event the game checks
    triggers against (``TriggeredAbilities.fire_triggers``), with ``matches`` the trigger
    matcher of ``triggers.py`` (``matches(game, source, trigger, event)``)."""
    if not game.delayed_triggers:
        return
    waiting = []
    fired = []
    for rec in game.delayed_triggers:
        if matches(game, rec["source"], rec["ability"]["trigger"], event):
            fired.append(rec)
            if rec["ability"].get("recurring"):  # paradigm's: every time, for the rest of the game
                waiting.append(rec)
        else:
            waiting.append(rec)
    if not fired:
        return
    game.delayed_triggers = waiting
    for rec in fired:
        game.add_trigger(rec["source"], rec["key"], rec["ability"], {**event, "remembered": rec["remembered"]})


def remembered_objects(ctx: "Context", name: str) -> list[GameObject]:
    """The objects a reference such as ``created_tokens`` names: while the creating
    ability resolves, the tokens it has created so far; while a delayed ability resolves,
    the ones it remembered, those that still exist on the battlefield (CR 603.7c)."""
    g = ctx.game
    info = (ctx.item.trigger_event or {}).get("remembered")
    refs = info.get(name, []) if info is not None else (ctx.created if name == "created_tokens" else [])
    out = []
    for ref in refs:
        obj = g.objects.get(ref)
        if obj is not None and obj.zone == "battlefield":
            out.append(obj)
    return out
