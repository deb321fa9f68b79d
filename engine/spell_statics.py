"""Static abilities of a spell that modify its own cost: "This spell costs {1} less to cast
[if …]" and "This spell costs {1} more to cast" (CR 601.2f, 113.6); and a spell's own
conditional keyword on the stack: "If this spell was kicked, it has split second" (Molten
Disaster; CR 113.6, 702.61a; :func:`own_keywords`).

CR 113.6: abilities of an instant or sorcery function while it is on the stack; an ability
that modifies how much the object costs to cast functions as it is cast (CR 601.2f: the
total cost includes cost increases and reductions, then is locked in). Card data
(docs/FORMAT.md §5): a static ability ``{"kind": "static", "effect": {"type":
"cost_reduction" | "cost_increase", "cost": "{1}", "affected": "self"}}``, with an optional
``condition`` checked as the spell is cast (``{"threshold": 7}``: "costs {1} less if seven or
more cards are in your graveyard"). Such an ability does nothing on the battlefield: the
battlefield's cost modifiers (:func:`mtg_judge.engine.characteristics.static_effects`) skip
``"affected": "self"``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .conditions import condition_holds

if TYPE_CHECKING:
    from .game import Game
    from .objects import GameObject

#: The static effect types a spell may apply to its own total cost.
OWN_COST_TYPES = ("cost_increase", "cost_reduction")

#: The keywords a spell's own static ability may give it while it is on the stack (CR 113.6:
#: its abilities function there), the engine reading each there: split second (CR 702.61a).
OWN_STACK_KEYWORDS = frozenset({"split_second"})


def is_own_cost_effect(effect: dict[str, Any]) -> bool:
    """A static effect that modifies only its own object's cost as it is cast."""
    return effect.get("type") in OWN_COST_TYPES and effect.get("affected") == "self"


def is_own_keyword_effect(effect: dict[str, Any]) -> bool:
    """A static effect by which a spell gives itself keywords the engine reads on the stack:
    ``{"type": "grant_keywords", "affected": "self", "keywords": [...]}`` with keywords of
    :data:`OWN_STACK_KEYWORDS` only."""
    keywords = effect.get("keywords") or ()
    return (effect.get("type") == "grant_keywords" and effect.get("affected") == "self" and bool(keywords)
            and all(isinstance(k, str) and k in OWN_STACK_KEYWORDS for k in keywords))


def own_keywords(game: "Game", obj: "GameObject") -> list[str]:
    """CR 113.6, 702.61a: the keywords the static abilities of a spell on the stack (``obj``,
    its object there) give it, whose condition holds now ("If this spell was kicked, it has
    split second": ``{"condition": {"kicked": 0}, "effect": {"type": "grant_keywords",
    "affected": "self", "keywords": ["split_second"]}}``). A copy of the spell copies the
    kicker choice, so it has them too (CR 707.10)."""
    out: list[str] = []
    for ab in obj.chars.abilities:
        eff = ab.get("effect") if ab.get("kind") == "static" else None
        if isinstance(eff, dict) and is_own_keyword_effect(eff) and condition_holds(game, obj, ab.get("condition")):
            out += [k for k in eff["keywords"] if k not in out]
    return out


def own_cost_effects(game: "Game", obj: "GameObject", player: str) -> list[dict[str, Any]]:
    """CR 601.2f, 113.6: the ``cost_increase`` / ``cost_reduction`` effects of the static
    abilities of ``obj`` itself (the card being cast by ``player``, as the face it is cast
    with) whose condition holds now, in printed order. The condition is checked for
    ``player``, who will control the spell."""
    out = []
    for ab in obj.chars.abilities:
        eff = ab.get("effect") if ab.get("kind") == "static" else None
        if isinstance(eff, dict) and is_own_cost_effect(eff):
            as_spell = obj.copy()
            as_spell.controller = player
            if condition_holds(game, as_spell, ab.get("condition")):
                out.append(eff)
    return out
