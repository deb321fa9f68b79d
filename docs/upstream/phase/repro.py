"""A few lines over phase-python's own API shared by the reproduction scripts of this folder
(phase-python alone: nothing of mtg-judge is imported).

* :func:`card` builds a card from its Oracle text with ``phase.build_oracle_face``,
  :func:`two_faced` a card with two faces with ``phase.build_oracle_face_multi``;
* :func:`start` makes a two-player position: ``Engine.new_game`` with the position's cards as
  the decks, both players keep, then the exported state (``Game.state()``) is edited (each
  card put in its zone, in order; life; turn, active player, step, priority) and loaded
  back (``Engine.load_game``);
* :func:`apply` applies one action given in phase's tagged form and returns its events;
  :func:`play` picks a legal action of ``Game.actions()``;
* :func:`reproduced` / :func:`fixed` print the verdict and exit 1 (the bug is there) or 0.

Run a script with ``python <script>.py`` from this folder; exit status 1 means the wrong
behaviour was seen, 0 that it was not, 2 that the script itself could not run.
"""

from __future__ import annotations

import json
import sys
import traceback
import uuid
from typing import Any, Callable

import phase

ZONES = ("library", "hand", "graveyard", "exile", "battlefield")


def mtgjson(name: str, cost: str | None, type_line: str, text: str = "",
            power: str | None = None, toughness: str | None = None,
            keywords: tuple[str, ...] = ()) -> dict:
    """An Oracle card in the MTGJSON ``AtomicCard`` shape phase's builders read."""
    left, _, right = type_line.partition(" — ")
    words = left.split()
    supers = [w for w in words if w in ("Basic", "Legendary", "Snow", "World")]
    types = [w for w in words if w not in supers]
    colors = [c for c in "WUBRG" if cost and c in cost]
    mana_value = 0
    for symbol in (cost or "").replace("}", "").split("{")[1:]:
        mana_value += int(symbol) if symbol.isdigit() else (0 if symbol == "X" else 1)
    data = {"name": name, "manaCost": cost, "manaValue": mana_value, "colors": colors,
            "colorIdentity": colors, "type": type_line, "types": types,
            "subtypes": right.split(), "supertypes": supers, "text": text,
            "keywords": list(keywords), "layout": "normal", "identifiers": {}}
    if power is not None:
        data["power"], data["toughness"] = power, toughness
    return data


def card(name: str, cost: str | None, type_line: str, text: str = "",
         power: str | None = None, toughness: str | None = None,
         keywords: tuple[str, ...] = ()) -> dict:
    """phase's ``CardFace`` for an Oracle card (``phase.build_oracle_face``)."""
    return phase.build_oracle_face(mtgjson(name, cost, type_line, text, power, toughness,
                                           keywords), None)


def two_faced(layout: str, front: dict, back: dict) -> list[dict]:
    """The two card-database entries of a card with two faces (``layout``: ``transform``,
    ``adventure``, ``prepare``; ``front``/``back``: :func:`mtgjson` dicts), built with
    ``phase.build_oracle_face_multi`` under one oracle id, as phase's ``gen.py`` files them
    (``layout``, ``side`` a/b, ``faceName``; entries with ``face_index``)."""
    oracle_id = str(uuid.uuid5(uuid.NAMESPACE_URL, "phase-repro:" + front["name"]))
    entries = []
    for index, (side, face) in enumerate((("a", front), ("b", back))):
        data = dict(face, layout=layout, side=side)
        if side == "b":
            data["faceName"] = face["name"]
        built = phase.build_oracle_face_multi(data, oracle_id)
        entries.append(dict(built, layout=layout, face_index=index))
    return entries


def engine(*cards: dict | list[dict]) -> Any:
    """A phase ``Engine`` whose card database holds ``cards`` (faces from :func:`card`, or
    lists of entries from :func:`two_faced`)."""
    faces = [f for c in cards for f in (c if isinstance(c, list) else [c])]
    return phase.Engine.from_json(json.dumps({f["name"].lower(): f for f in faces}))


def start(db: Any, players: list[dict[str, list[str]]], *, active: int = 0,
          step: str = "PreCombatMain", turn: int = 3, life: tuple[int, int] = (20, 20),
          seed: int = 1, edit: Callable[[dict, list[dict]], None] | None = None) -> tuple[Any, list[dict]]:
    """A game at a position: ``players`` gives each seat's zones (``{"library": [names],
    "hand": [...], "graveyard": [...], "exile": [...], "battlefield": [...]}``, libraries
    top first); the active player has priority in ``step``. Permanents are untapped and
    have been under their controller's control since the turn began. ``edit(state, ids)`` may
    change the exported state before it is loaded (``ids``: as returned). Returns the game and, per seat,
    ``{zone: [object ids in the given order]}``."""
    decks = [[name for zone in ZONES for name in p.get(zone, [])] for p in players]
    game = db.new_game(player=decks[0], opponent=decks[1], seed=seed, first_player=active)
    while game.waiting_for().get("type") == "MulliganDecision":
        seat = game.waiting_for()["data"]["pending"][0]["player"]
        keep = next(a for a in game.actions() if a.kind == "MulliganDecision"
                    and a.data["choice"]["type"] == "Keep")
        game.apply(seat, keep)
    exported = game.state()
    st = exported["state"]
    objects = st["objects"]
    ids: list[dict] = []
    battlefield, exile = [], []
    for seat, p in enumerate(players):
        player = st["players"][seat]
        free: dict[str, list[int]] = {}
        for oid in sorted(player["library"] + player["hand"] + player["graveyard"]):
            free.setdefault(objects[str(oid)]["name"], []).append(oid)
        zones: dict[str, list[int]] = {}
        for zone in ZONES:
            zones[zone] = []
            for name in p.get(zone, []):
                oid = free[name].pop(0)
                o = objects[str(oid)]
                o["zone"] = zone.capitalize()
                if zone == "battlefield":
                    o.update(tapped=False, controller=seat, base_controller=seat,
                             summoning_sick=False, has_summoning_sickness=False,
                             entered_battlefield_turn=max(0, turn - 1))
                zones[zone].append(oid)
        player["library"], player["hand"], player["graveyard"] = (
            zones["library"], zones["hand"], zones["graveyard"])
        player["life"] = life[seat]
        player["lands_played_this_turn"] = 0
        battlefield += zones["battlefield"]
        exile += zones["exile"]
        ids.append(zones)
    st["battlefield"], st["exile"] = battlefield, exile
    st.update(turn_number=turn, active_player=active, priority_player=active, phase=step,
              waiting_for={"type": "Priority", "data": {"player": active}},
              priority_pass_count=0, priority_passes=[], lands_played_this_turn=0,
              zone_changes_this_turn=[], steps_started_this_turn={})
    if edit is not None:
        edit(st, ids)
    return db.load_game(exported), ids


def apply(game: Any, seat: int, kind: str, data: Any = None) -> list[dict]:
    """Apply phase action ``{"type": kind, "data": data}`` for ``seat``; its events."""
    act = phase.GameAction.from_dict({"type": kind, "data": data} if data is not None
                                     else {"type": kind})
    return list(game.apply(seat, act).events)


def play(game: Any, seat: int, kind: str, **match: Any) -> list[dict]:
    """Apply the first legal action (``Game.actions()``) of ``kind`` whose data has the
    ``match`` items; its events. Raises ``LookupError`` when there is none."""
    for act in game.actions():
        data = act.data if isinstance(act.data, dict) else {}
        if act.kind == kind and all(data.get(k) == v for k, v in match.items()):
            return list(game.apply(seat, act).events)
    raise LookupError(f"no legal {kind} {match} among "
                      f"{sorted({a.kind for a in game.actions()})}; waiting for "
                      f"{game.waiting_for()}")


def pay_with_lands(game: Any, seat: int, lands: list[int]) -> list[dict]:
    """Tap each land of ``lands`` for mana (its first ``TapLandForMana`` action) while a
    spell's cost is being paid (phase's ``ManaPayment`` prompt), then finish the payment;
    the events (none when phase paid the cost itself)."""
    events: list[dict] = []
    if game.waiting_for().get("type") != "ManaPayment":
        return events
    for land in lands:
        events += play_where(game, seat, "TapLandForMana",
                             lambda d: d["selection"]["source"]["object_id"] == land)
    if game.waiting_for().get("type") == "ManaPayment":
        events += apply(game, seat, "PassPriority")
    return events


def play_where(game: Any, seat: int, kind: str, test: Callable[[Any], bool]) -> list[dict]:
    """Apply the first legal action of ``kind`` whose data passes ``test``; its events."""
    for act in game.actions():
        if act.kind == kind and test(act.data):
            return list(game.apply(seat, act).events)
    raise LookupError(f"no such legal {kind}; waiting for {game.waiting_for()}")


def pass_priority(game: Any, times: int = 1) -> list[dict]:
    """The player with priority passes, ``times`` times; the events of all the passes."""
    events: list[dict] = []
    for _ in range(times):
        events += apply(game, game.waiting_for()["data"]["player"], "PassPriority")
    return events


def kinds(events: list[dict]) -> list[str]:
    """The ``type`` of each event."""
    return [e.get("type") for e in events]


def reproduced(what: str) -> None:
    """Print that the bug is there (``what``: phase's wrong behaviour) and exit 1."""
    print(f"BUG REPRODUCED (phase-python {version()}): {what}")
    sys.exit(1)


def fixed(what: str) -> None:
    """Print that the right behaviour was seen and exit 0."""
    print(f"not reproduced (phase-python {version()}): {what}")
    sys.exit(0)


def version() -> str:
    """The installed phase-python's version."""
    from importlib.metadata import version as v

    return v("phase-python")


def main(body: Callable[[], None]) -> None:
    """Run a script's ``body``; an exception (the script could not run) exits 2."""
    try:
        body()
    except SystemExit:
        raise
    except Exception:  # noqa: BLE001 - the script is broken, not the bug fixed
        traceback.print_exc()
        print("the reproduction could not run (exit 2)")
        sys.exit(2)
