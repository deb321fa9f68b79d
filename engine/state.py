"""The observable game state as a JSON-ready dict (docs/FORMAT.md §4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import characteristics as ch
from . import library_top, phasing, planeswalkers, transform
from .endure_behold import revealed_cards
from .prepare import state_fields as prepare_state

if TYPE_CHECKING:
    from .game import Game


def snapshot(game: "Game") -> dict[str, Any]:
    """Build the state dict: turn, step, priority, each player's life and zones (card
    aliases), the battlefield keyed by card alias (tokens by ref) with current
    characteristics, the stack bottom first, combat, and the game's result."""
    players = {}
    for pid in game.order:
        p = game.players[pid]
        counters = {o.card: dict(sorted(o.counters.items())) for o in p.exile if o.counters}
        players[pid] = {
            "life": p.life,
            "library": [o.card for o in p.library],
            "hand": [o.card for o in p.hand],
            "graveyard": [o.card for o in p.graveyard],
            game.zone_name("exile"): [o.card for o in p.exile],
            "mana_pool": p.pool.as_dict(),
            "lands_played": p.lands_played,
            "lost": p.lost,
        }
        if counters:
            players[pid]["exile_counters"] = counters
        phased = [o.card for o in phasing.phased_out_objects(game) if o.phased_out_under == pid]
        if phased:  # treated as though they don't exist (engine/phasing.py)
            players[pid]["phased_out"] = phased
        revealed = revealed_cards(game, pid)  # revealed for a cost while the spell is on the stack
        if revealed:
            players[pid]["revealed"] = revealed
        top = library_top.revealed_top(game, pid)  # "play with the top card of your library revealed"
        if top is not None:
            players[pid]["library_top_revealed"] = top.card
    battlefield = {}
    for perm in game.battlefield:
        power, toughness = ch.power_toughness(game, perm)
        entry = {
            "object": perm.ref,
            "name": perm.name,
            "owner": perm.owner,
            "controller": perm.controller,
            "tapped": perm.tapped,
            "summoning_sick": perm.summoning_sick,
            "damage": perm.damage,
            "counters": dict(sorted(perm.counters.items())),
            "attached_to": game.objects[perm.attached_to].card if perm.attached_to in game.objects else perm.attached_to,
            "types": ch.card_types(game, perm),  # after layer 4 (engine/layers/)
            "subtypes": ch.subtypes(game, perm),
            "colors": ch.colors(perm, game),
            "keywords": ch.keyword_names(game, perm),
            "token": perm.is_token,
        }
        if perm.face_down:
            entry["face_down"] = True
        entry.update(transform.state_fields(perm))  # "face": "back", "melded" (FORMAT §11.6)
        entry.update(prepare_state(perm))  # FORMAT §11.9
        if ch.is_type(perm, "Creature", game):
            entry["power"] = power
            entry["toughness"] = toughness
        battlefield[perm.card] = entry
    stack = [{"object": it.ref, "card": it.card, "kind": it.kind, "controller": it.controller,
              **({"face_down": True} if it.obj is not None and it.obj.face_down else {}),
              **({"face": it.obj.cast_face} if it.obj is not None and it.obj.cast_face else {}),
              **({"source": it.source_card} if it.kind == "ability" else
                 {"name": it.obj.name} if it.kind == "spell" and it.obj is not None else {}),
              "targets": list(it.targets)} for it in game.stack]
    combat = None
    if game.combat is not None:
        combat = {
            "attackers": {game.objects[a].card if a in game.objects else a: planeswalkers.combat_state_name(game, a, d)
                          for a, d in game.combat.attackers.items()},
            "blockers": {game.objects[b].card if b in game.objects else b:
                         (game.objects[a].card if a in game.objects else a) for b, a in game.combat.blockers.items()},
        }
    return {
        "turn": game.turn,
        "active_player": game.active,
        "phase": game.phase,
        "step": game.step,
        "priority": game.priority,
        "players": players,
        "battlefield": battlefield,
        "stack": stack,
        "combat": combat,
        "game_over": game.result,
    }
