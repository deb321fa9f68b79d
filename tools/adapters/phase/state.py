"""phase's game state as ours (FORMAT §4, PROTOCOL §10.7; :class:`State`, a mixin of
:class:`~.run.PhaseRun`).

State (FORMAT §4) is read from ``Game.state()`` at the end: zones, life, battlefield objects
with phase's own computed power, toughness, keywords, colors and types, the stack (an
ability's ``source`` as it was when the ability was put on the stack, and each entry's
``targets``), a back-face-up permanent's ``face: "back"``, a prepared permanent's
``prepared`` / ``prepared_copy`` and its copy listed in its creator's exile (read off phase's
``prepared`` flag), the cards of a hand
phase lists in ``public_revealed_cards`` (``revealed``; phase's list is of cards made
public, and keeps a card after the spell it was revealed for has left the stack, where
FORMAT §11.5 ends it), and the game result. Checkpoints (capability ``checkpoints``) are states read the same way after an
input; a legality probe runs the input on a copy of the game (``state()`` then
``load_game``) and reports whether phase accepts it.
"""

from __future__ import annotations

from typing import Any

from mtg_judge.tools.adapters.phase.core import RunCore
from mtg_judge.tools.adapters.phase.vocabulary import COLOR_WORD, COUNTER_NAME, PHASE_TO_STEP, STEP_PHASE, keyword_name


class State(RunCore):
    """Reads phase's state (a mixin of :class:`~.run.PhaseRun`; its attributes are
    :class:`~.core.RunCore`'s)."""

    def attached_ref(self, value: Any) -> str | None:
        """What phase's ``attached_to`` value names in the state (FORMAT §4): a permanent's
        card alias (the key the battlefield has it under), or a player."""
        if isinstance(value, int):
            return self.card(value)
        if isinstance(value, dict) and isinstance(value.get("data"), int):
            return self.card(value["data"]) if value.get("type") == "Object" \
                else self.player(value["data"])
        return None

    def read_state(self) -> dict:
        """The state (FORMAT §4, PROTOCOL §10) read off phase's game now: turn, step, priority,
        players' zones and life, battlefield, stack, combat and the game's result."""
        st = self.state_dict()["state"]
        objs = st["objects"]
        wf = st.get("waiting_for") or {}
        step = PHASE_TO_STEP.get(st.get("phase"), str(st.get("phase")))
        players = {}
        for seat, P in enumerate(st["players"]):
            pool = self.pool(seat)
            players[self.player(seat)] = {
                "life": P.get("life"),
                "library": [self.card(o) for o in P.get("library", [])],
                "hand": [self.card(o) for o in P.get("hand", [])],
                "graveyard": [self.card(o) for o in P.get("graveyard", [])],
                "exile": [self.card(o) for o in st.get("exile", [])
                          if objs[str(o)].get("owner") == seat]
                # the copy of a prepared permanent's prepare spell (FORMAT §11.9): phase
                # keeps a flag on the permanent and makes the copy object only as it is cast
                + [ref for pid, ref in self.prepared.items()
                   if self.prepared_by.get(ref) == seat
                   and (objs.get(str(pid)) or {}).get("prepared")],
                "mana_pool": pool,
                "lands_played": P.get("lands_played_this_turn", 0),
                "lost": (P.get("status") or {}).get("type") not in (None, "Active")
                or bool(P.get("is_eliminated"))}
            # the counters on the player's cards in exile (a suspended card's time counters)
            counted = {self.card(o): {COUNTER_NAME.get(k, k): v for k, v in
                                      (objs[str(o)].get("counters") or {}).items() if v}
                       for o in st.get("exile", []) if objs[str(o)].get("owner") == seat}
            counted = {k: v for k, v in counted.items() if v}
            if counted:
                players[self.player(seat)]["exile_counters"] = counted
            # cards of the hand phase keeps publicly revealed (a behold cost, FORMAT §11.5)
            shown = [self.card(o) for o in P.get("hand", [])
                     if o in (st.get("public_revealed_cards") or [])]
            if shown:
                players[self.player(seat)]["revealed"] = shown
        battlefield = {}
        for oid in st.get("battlefield", []):
            o = objs[str(oid)]
            key = self.card(oid)
            types = list((o.get("card_types") or {}).get("core_types", []))
            entry = {"object": self.ref(oid), "name": o.get("name") or None,
                     "owner": self.player(o["owner"]),
                     "controller": self.player(o["controller"]),
                     "tapped": bool(o.get("tapped")),
                     "summoning_sick": bool(o.get("summoning_sick", False)),
                     "damage": o.get("damage_marked", 0),
                     "counters": {COUNTER_NAME.get(k, k): v
                                  for k, v in (o.get("counters") or {}).items()},
                     "attached_to": self.attached_ref(o.get("attached_to")),
                     "types": types,
                     "subtypes": list((o.get("card_types") or {}).get("subtypes", [])),
                     "colors": sorted(COLOR_WORD.get(c, c.lower()) for c in o.get("color", [])),
                     # an Aura's Enchant is the card's `enchant` (FORMAT §5), not a keyword of the state
                     "keywords": sorted(keyword_name(k) for k in o.get("keywords", [])
                                        if not (isinstance(k, dict) and "Enchant" in k)),
                     "token": oid in self.tokens}
            if "Creature" in types:
                entry["power"], entry["toughness"] = o.get("power"), o.get("toughness")
            if o.get("face_down"):
                entry["face_down"], entry["name"] = True, None  # CR 708.2, FORMAT §4
            if o.get("transformed"):
                entry["face"] = "back"  # FORMAT §11.6: absent with the front face up
            if len(o.get("merged_components") or []) > 1:
                # a melded permanent (FORMAT §11.6, CR 712.4): the cards phase merged into it
                entry["melded"] = [self.card(c) for c in o["merged_components"]]
            if o.get("prepared"):
                entry["prepared"] = True
                if oid in self.prepared:
                    entry["prepared_copy"] = self.prepared[oid]
            battlefield[key] = entry
        stack = []
        for item in st.get("stack", []):
            oid = item.get("id") if isinstance(item, dict) else None
            if not isinstance(oid, int):
                continue
            entry = {"object": self.ref(oid), "card": self.card(oid),
                     "kind": "ability" if oid in self.abilities else "spell",
                     "controller": self.player(item["controller"]),
                     "targets": self.stack_targets(oid)}
            if oid in self.abilities and isinstance(item.get("source_id"), int):
                entry["source"] = self.ability_sources.get(oid) or self.ref(item["source_id"])
            elif oid not in self.abilities:
                entry["name"] = (objs.get(str(oid)) or {}).get("name") or None
                if (objs.get(str(oid)) or {}).get("face_down"):
                    entry["face_down"], entry["name"] = True, None  # a face-down spell
                if oid in self.faces_cast:
                    entry["face"] = self.faces_cast[oid]
            stack.append(entry)
        combat = None
        if isinstance(st.get("combat"), dict):
            combat = self.read_combat(st["combat"], st["active_player"])
        game_over = None
        if wf.get("type") == "GameOver":
            winner = (wf.get("data") or {}).get("winner")
            winners = [self.player(winner)] if isinstance(winner, int) else []
            game_over = {"winners": winners,
                         "losers": [p for p in self.players if p not in winners],
                         "draw": not winners}
        priority = self.player(wf["data"]["player"]) if wf.get("type") == "Priority" else None
        step, priority = self.bridge_state(step, priority)  # the 508.8 bridge (.bridge)
        return {"turn": st.get("turn_number"), "active_player": self.player(st["active_player"]),
                "phase": STEP_PHASE.get(step, step), "step": step,
                "priority": priority,
                "players": players, "battlefield": battlefield, "stack": stack,
                "combat": combat, "game_over": game_over}

    def read_combat(self, combat: dict, active: int) -> dict:
        """phase's combat record in the shape of PROTOCOL §10.7: ``{"attackers": {card alias:
        defending player}, "blockers": {card alias: the alias of the attacker it blocks}}``
        (keys are card aliases, as the state's battlefield is keyed). With two players the
        defending player is the active player's opponent."""
        attackers, blockers = {}, {}
        defender = self.player(1 - active)
        for item in combat.get("attackers") or []:
            oid = item.get("object_id") if isinstance(item, dict) else item
            if isinstance(oid, int):
                attackers[self.card(oid)] = defender
        for key, value in (combat.get("blocker_to_attacker") or {}).items():
            for a in value if isinstance(value, list) else [value]:
                if isinstance(a, int) and str(key).isdigit():
                    blockers[self.card(int(key))] = self.card(a)
        return {"attackers": attackers, "blockers": blockers}
