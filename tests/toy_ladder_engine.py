"""A toy rules engine written from docs/PROTOCOL.md alone (no mtg_judge import), for
tests/test_ladder.py: it climbs the first level of the ladder and nothing more.

``python toy_ladder_engine.py stub`` is the engine of PROTOCOL §5: it skips every case.
``python toy_ladder_engine.py level1`` implements what the ladder's first level names:
turn structure through ``advance`` (steps begin and end, FORMAT §3.2), the basic lands'
mana abilities (it never needs to tap them), ``declare_attackers`` (the attackers tap and
attack the opponent, CR 508.1; with none, the declare blockers and combat damage steps are
skipped, CR 508.8) and unblocked combat damage (CR 510). It declares the `modern` ruleset
and the `events` and `state` capabilities, and skips a case that needs anything else: a
script input other than those, a card with an ability that is not a mana ability or with a
keyword. It neither untaps nor draws, so a case that goes through those steps fails.
"""

import json
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "level1"
STEPS = ["untap", "upkeep", "draw", "precombat_main", "beginning_of_combat",
         "declare_attackers", "declare_blockers", "combat_damage", "end_of_combat",
         "postcombat_main", "end", "cleanup"]
PHASE = {"untap": "beginning", "upkeep": "beginning", "draw": "beginning",
         "precombat_main": "precombat_main", "postcombat_main": "postcombat_main",
         "end": "ending", "cleanup": "ending"}
ZONES = ("library", "hand", "graveyard", "exile")


class Skip(Exception):
    pass


def phase_of(step):
    return PHASE.get(step, "combat")


class Game:
    def __init__(self, scenario, ruleset):
        setup = scenario["setup"]
        self.cards = scenario.get("cards") or {}
        self.events = []
        self.turn = setup["turn"]
        self.active = setup["active_player"]
        self.step = setup["step"]
        self.order = [p["id"] for p in setup["players"]]
        self.players = {}
        self.permanents = {}
        self.attackers = []
        self.declared = False
        for player in setup["players"]:
            self.players[player["id"]] = {
                "life": player.get("life", 20), "mana_pool": {}, "lost": False,
                "lands_played": setup.get("lands_played", 0) if player["id"] == self.active else 0,
                **{zone: [c["alias"] for c in player.get(zone) or []] for zone in ZONES}}
            for perm in player.get("battlefield") or []:
                card = self.card(perm["card"])
                self.permanents[perm["alias"]] = {
                    "object": perm["alias"], "name": card["name"], "owner": player["id"],
                    "controller": perm.get("controller", player["id"]),
                    "tapped": bool(perm.get("tapped", False)),
                    "summoning_sick": bool(perm.get("summoning_sick", False)),
                    "damage": perm.get("damage", 0), "counters": perm.get("counters") or {},
                    "attached_to": None, "types": card.get("types", []),
                    "subtypes": card.get("subtypes", []), "colors": card.get("colors", []),
                    "keywords": [], "token": False,
                    **({"power": card["power"], "toughness": card["toughness"]}
                       if "Creature" in card.get("types", []) else {})}
        self.log("game_started", players=self.order, active_player=self.active,
                 turn=self.turn, step=self.step, ruleset=ruleset, seed=setup.get("seed", 0))
        self.log("step_began", turn=self.turn, phase=phase_of(self.step), step=self.step)

    def card(self, name):
        card = self.cards.get(name)
        if card is None:
            raise Skip(f"no card {name}")
        for ability in card.get("abilities") or []:
            if ability.get("kind") != "mana":
                raise Skip(f"{name}: {ability.get('kind')} abilities are not implemented")
        if card.get("keywords"):
            raise Skip(f"{name}: keywords are not implemented")
        return card

    def log(self, kind, **fields):
        self.events.append({"type": kind, **fields})

    def opponent(self):
        return next(p for p in self.order if p != self.active)

    def next_step(self):
        self.log("step_ended", turn=self.turn, phase=phase_of(self.step), step=self.step)
        index = STEPS.index(self.step) + 1
        if self.step == "declare_attackers" and not self.attackers:
            index = STEPS.index("end_of_combat")  # no attackers: CR 508.8
        if index == len(STEPS):
            self.turn += 1
            self.active = self.order[(self.order.index(self.active) + 1) % len(self.order)]
            self.log("turn_began", turn=self.turn, active_player=self.active)
            index = 0
        self.step = STEPS[index]
        self.declared = False
        self.log("step_began", turn=self.turn, phase=phase_of(self.step), step=self.step)
        if self.step == "declare_blockers":
            self.log("blockers_declared", player=self.opponent(), blocks=[])
        elif self.step == "combat_damage":
            self.combat_damage()
        elif self.step == "end_of_combat":
            self.attackers = []

    def declare(self, attackers):
        self.declared = True
        self.attackers = list(attackers)
        entries = []
        for alias in self.attackers:
            self.permanents[alias]["tapped"] = True
            self.log("tapped", object=alias, card=alias)
            entries.append({"object": alias, "card": alias, "defender": self.opponent()})
        self.log("attackers_declared", player=self.active, attackers=entries)

    def combat_damage(self):
        defender = self.players[self.opponent()]
        for alias in self.attackers:
            amount = self.permanents[alias]["power"]
            self.log("damage_dealt", source=alias, source_card=alias, target=self.opponent(),
                     amount=amount, combat=True)
            defender["life"] -= amount
            self.log("life_lost", player=self.opponent(), amount=amount, life=defender["life"])

    def play(self, script):
        for step in script:
            action = step.get("action")
            if action == "declare_attackers":
                self.declare(step.get("attackers") or [])
            elif action == "advance":
                if self.step == "declare_attackers" and not self.declared:
                    self.declare([])
                self.next_step()
                while self.step != step["to"]:
                    if self.step == "declare_attackers":
                        self.declare([])
                    self.next_step()
            else:
                raise Skip(f"the {action} input is not implemented")

    def state(self):
        return {"turn": self.turn, "active_player": self.active, "phase": phase_of(self.step),
                "step": self.step, "priority": self.active, "players": self.players,
                "battlefield": self.permanents, "stack": [], "combat": None}


def play(scenario, ruleset):
    if MODE == "stub":
        raise Skip(f"not implemented yet: {scenario['id']}")
    for step in scenario.get("script") or []:
        if step.get("action") not in ("advance", "declare_attackers"):
            raise Skip(f"the {step.get('action')} input is not implemented")
    game = Game(scenario, ruleset)
    game.play(scenario.get("script") or [])
    return {"events": game.events, "state": game.state()}


def reply(message):
    print(json.dumps(message), flush=True)


for line in sys.stdin:
    request = json.loads(line)
    if request["cmd"] == "start":
        reply({"version": 1, "implementation": {
            "name": "toy-ladder", "version": MODE, "language": "python",
            "homepage": "https://example.org/toy-ladder",
            "rulesets": ["modern"], "capabilities": ["events", "state"]}})
    elif request["cmd"] == "run":
        seq = request["seq"]
        try:
            reply({"seq": seq, **play(request["scenario"], request["ruleset"])})
        except Skip as exc:
            reply({"seq": seq, "skipped": True, "message": str(exc)})
        except Exception as exc:  # noqa: BLE001 - PROTOCOL §2: errored, and keep serving
            reply({"seq": seq, "errored": True, "context": {"message": repr(exc)}})
    elif request["cmd"] == "stop":
        break
