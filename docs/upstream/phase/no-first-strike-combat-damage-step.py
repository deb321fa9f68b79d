"""phase bug: with a first striker in combat there is no first combat damage step with
priority before the regular one (CR 510.4, 510.3): both damage steps' damage is dealt in one
go. See the .md report beside this file."""

from repro import apply, card, engine, fixed, main, pass_priority, reproduced, start


def body() -> None:
    knight = card("Black Knight", "{B}{B}", "Creature — Human Knight",
                  "First strike (This creature deals combat damage before creatures without "
                  "first strike.)", "2", "2", keywords=("First strike",))
    bears = card("Grizzly Bears", "{1}{G}", "Creature — Bear", "", "2", "2")
    island = card("Island", None, "Basic Land — Island", "({T}: Add {U}.)")
    game, ids = start(engine(knight, bears, island), [
        {"library": ["Island"] * 3, "battlefield": ["Black Knight", "Grizzly Bears"]},
        {"library": ["Island"] * 3},
    ], active=0, step="BeginCombat")
    pass_priority(game, 2)  # beginning of combat ends: the declare attackers step begins
    prompt = game.waiting_for()
    assert prompt["type"] == "DeclareAttackers", prompt
    attackers = [[oid, {"type": "Player", "data": 1}] for oid in ids[0]["battlefield"]]
    apply(game, 0, "DeclareAttackers", {"attacks": attackers, "bands": []})
    steps, damage = [], []
    for _ in range(8):  # pass until both creatures have dealt their damage
        if game.waiting_for().get("type") != "Priority":
            break
        events = pass_priority(game)
        steps += [e["data"]["phase"] for e in events if e["type"] == "PhaseChanged"]
        dealt = [e["data"]["source_id"] for e in events if e["type"] == "DamageDealt"]
        if dealt:
            damage.append(dealt)
        if sum(map(len, damage)) >= 2:
            break
    print("steps begun:", steps, "; damage dealt by source, one list per priority window:",
          damage, "(knight", ids[0]["battlefield"][0], "bears", ids[0]["battlefield"][1], ")")
    if len(damage) == 1 and len(damage[0]) == 2:
        reproduced("the first striker's and the other attacker's combat damage were dealt by "
                   "the same pass, with no priority between the two combat damage steps")
    if len(damage) == 2:
        fixed("the players got priority between the first-strike damage and the regular damage")
    raise RuntimeError(f"unexpected damage {damage}")


main(body)
