"""phase bug: "If this creature would die, put it on top of its owner's library instead"
moves the creature to the graveyard first (CR 614.6). See the .md report beside this file."""

from repro import card, engine, fixed, kinds, main, pass_priority, pay_with_lands, play, reproduced, start


def body() -> None:
    zombie = card("Gravebane Zombie", "{3}{B}", "Creature — Zombie",
                  "If this creature would die, put it on top of its owner's library instead.",
                  "3", "2")
    wrath = card("Day of Judgment", "{2}{W}{W}", "Sorcery", "Destroy all creatures.")
    plains = card("Plains", None, "Basic Land — Plains", "({T}: Add {W}.)")
    island = card("Island", None, "Basic Land — Island", "({T}: Add {U}.)")
    game, ids = start(engine(zombie, wrath, plains, island), [
        {"library": ["Island"] * 3, "battlefield": ["Gravebane Zombie"]},
        {"library": ["Island"] * 3, "hand": ["Day of Judgment"], "battlefield": ["Plains"] * 4},
    ], active=1)
    zombie_id = ids[0]["battlefield"][0]
    play(game, 1, "CastSpell", object_id=ids[1]["hand"][0])
    pay_with_lands(game, 1, ids[1]["battlefield"])
    events = pass_priority(game, 2)  # both players pass: Day of Judgment resolves
    moves = [(e["data"]["from"], e["data"]["to"]) for e in events
             if e["type"] == "ZoneChanged" and e["data"]["object_id"] == zombie_id]
    print("Gravebane Zombie's zone changes:", moves, "events:", kinds(events))
    if ("Battlefield", "Graveyard") in moves:
        reproduced("the replaced destruction still moved Gravebane Zombie battlefield -> "
                   f"graveyard (then {moves[1:]}); it should go battlefield -> library")
    if moves == [("Battlefield", "Library")]:
        fixed("Gravebane Zombie went straight from the battlefield to the library")
    raise RuntimeError(f"unexpected zone changes {moves}")


main(body)
