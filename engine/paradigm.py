"""Paradigm (a keyword ability of Secrets of Strixhaven, CR 702; its subrule number was not
verified, docs/FORMAT.md §11.10) and repartee's trigger condition (an ability word, CR 207.2c).

Paradigm: "Then exile this spell. After you first resolve a spell with this name, you may
cast a copy of it from exile without paying its mana cost at the beginning of each of your
first main phases." (rulings strixhaven.paradigm.01–.03)

- As a spell with paradigm resolves, after its effects it is exiled (not put into the
  graveyard); a copy ceases to exist instead (CR 707.10a).
- The first time a spell with that name resolves for a player, a delayed triggered ability
  is created that triggers at the beginning of each of that player's first main phases for
  the rest of the game (``recurring``: it is not used up, unlike CR 603.7c's usual one). It
  remembers the card's characteristics, so what happens to the exiled card later doesn't
  matter (strixhaven.paradigm.03).
- As it resolves, a copy of the card is created in exile (CR 707.12; the copy's reference is
  ``copy#N``, kept on the stack) and its controller may cast it without paying its mana cost (a
  ``may_cast`` decision, reason ``paradigm``). A copy not cast ceases to exist the next time
  state-based actions are checked (CR 704.5e; strixhaven.paradigm.02).

Game state: ``Game.paradigm_resolved``, a tuple of ``(player, name)`` pairs, replaced and
never changed in place (engine/rollback.py copies the game's attributes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

from . import characteristics as ch
from .objects import GameObject

if TYPE_CHECKING:
    from .effects import Context
    from .game import Game
    from .objects import StackItem

KEYWORD = "paradigm"

DELAYED_TRIGGER = {"event": "beginning_of_step", "step": "precombat_main", "player": "you"}


def has_paradigm(obj: GameObject | None) -> TypeGuard[GameObject]:
    return obj is not None and any(k.get("keyword") == KEYWORD for k in obj.chars.keywords)


def resolves(game: "Game", item: "StackItem") -> bool:
    """Called as a spell finishes resolving (engine/resolution.py). For a spell with
    paradigm: exile it ("then exile this spell"; a copy ceases to exist) and, the first time
    its controller resolves a spell with this name, create the recurring delayed trigger.
    Returns True when it has moved the spell off the stack."""
    obj = item.obj
    if item.kind != "spell" or not has_paradigm(obj):
        return False
    key = (item.controller, obj.name)
    done = game.paradigm_resolved
    if key not in done:
        game.paradigm_resolved = done + (key,)
        lki = obj.copy()
        lki.controller = item.controller
        card = obj.card_definition or obj.definition
        ability: dict[str, Any] = {"kind": "triggered", "trigger": dict(DELAYED_TRIGGER),
                                   "effects": [{"type": "paradigm_copy"}], "delayed": True, "recurring": True}
        game.delayed_triggers = game.delayed_triggers + [{
            "source": lki, "key": KEYWORD, "ability": ability,
            "remembered": {"created_tokens": [], "paradigm_card": card},
        }]
    game.leave_stack(item, "exile", cause=KEYWORD)
    return True


def paradigm_copy(ctx: "Context", eff: dict[str, Any]) -> None:
    """The delayed ability's effect: create a copy of the card in exile (CR 707.12) owned by
    the ability's controller, and offer its cast without paying its mana cost as the ability
    finishes resolving (``Game._offer_pending_casts``, reason ``paradigm``)."""
    g = ctx.game
    card = ((ctx.item.trigger_event or {}).get("remembered") or {}).get("paradigm_card")
    if card is None:
        return
    ref = g.next_ref("copy")
    obj = GameObject(ref=ref, card=ref, definition=card, owner=ctx.controller, zone="exile",
                     timestamp=g.new_timestamp(), is_copy=True, paradigm_copy=True, layers=g.layers)
    g.objects[ref] = obj
    g.players[ctx.controller].exile.append(obj)
    g.pending_cast.append({"card": ref, "kind": KEYWORD})


def copies_cease_to_exist(game: "Game") -> bool:
    """CR 704.5e: a copy of a card in a zone other than the stack or the battlefield ceases
    to exist (a paradigm copy not cast). Returns True if one did."""
    done = False
    for p in game.players.values():
        for zone in ("hand", "library", "graveyard", "exile"):
            for obj in [o for o in p.zone(zone) if o.paradigm_copy]:
                p.zone(zone).remove(obj)
                game.objects.pop(obj.ref, None)
                game.log("state_based_action", rule="704.5e", object=obj.ref, card=obj.card)
                game.log("copy_ceased_to_exist", object=obj.ref, card=obj.card)
                done = True
    return done


def targets_match(game: "Game", spell: Any, spec: dict[str, Any] | None, controller: str | None) -> bool:
    """Repartee's trigger condition (``"targeting": F`` on a ``spell_cast`` trigger): the
    spell has at least one target that is a permanent matching F as it is cast ("that
    targets a creature"). The spell is cast once, so the ability triggers once however many
    creatures it targets (strixhaven.repartee.02); what happens to the targets later doesn't
    matter (strixhaven.repartee.04)."""
    if spec is None:
        return True
    item = spell if hasattr(spell, "targets") else next((it for it in game.stack if it.obj is spell), None)
    if item is None:
        return False
    for ref in item.targets:
        obj = game.objects.get(ref) if isinstance(ref, str) else None
        if obj is not None and obj.zone == "battlefield" and ch.matches(game, obj, spec, controller):
            return True
    return False
