"""phase bug: a card returned "to the battlefield transformed" enters front face up and then
transforms on the battlefield (CR 712.14a; ruling finalfantasy.transform.11: it enters with
its back face up). See the .md report beside this file."""

from repro import card, engine, fixed, kinds, main, mtgjson, pass_priority, play, reproduced, start, two_faced


def body() -> None:
    garland = two_faced("transform", mtgjson(
        "Garland, Knight of Cornelia", "{B}{R}", "Legendary Creature — Human Knight",
        "Whenever you cast a noncreature spell, surveil 1. (Look at the top card of your "
        "library. You may put it into your graveyard.)\n{3}{B}{B}{R}{R}: Return this card from "
        "your graveyard to the battlefield transformed. Activate only as a sorcery.", "3", "2"),
        mtgjson("Chaos, the Endless", None, "Legendary Creature — Demon",
                "Flying\nWhen Chaos dies, put it on the bottom of its owner's library.", "5", "5"))
    lands = [card("Swamp", None, "Basic Land — Swamp", "({T}: Add {B}.)"),
             card("Mountain", None, "Basic Land — Mountain", "({T}: Add {R}.)"),
             card("Plains", None, "Basic Land — Plains", "({T}: Add {W}.)")]
    game, ids = start(engine(garland, *lands), [
        {"library": ["Plains"] * 3, "graveyard": ["Garland, Knight of Cornelia"],
         "battlefield": ["Swamp", "Swamp", "Mountain", "Mountain", "Plains", "Plains", "Plains"]},
        {"library": ["Plains"] * 3},
    ], active=0)
    garland_id = ids[0]["graveyard"][0]
    play(game, 0, "ActivateAbility", source_id=garland_id)
    while game.waiting_for().get("type") == "ManaPayment":
        pass_priority(game)
    events = pass_priority(game, 2)  # the ability resolves
    entered = [e["data"]["record"]["name"] for e in events if e["type"] == "ZoneChanged"
               and e["data"]["object_id"] == garland_id and e["data"]["to"] == "Battlefield"]
    print("events:", kinds(events), "; entered the battlefield as", entered,
          "; now named", game.object(garland_id)["name"])
    if entered == ["Garland, Knight of Cornelia"] and "Transformed" in kinds(events):
        reproduced("the card entered the battlefield as its front face (Garland) and then "
                   "transformed on the battlefield")
    if entered == ["Chaos, the Endless"] and "Transformed" not in kinds(events):
        fixed("it entered as Chaos, the Endless, with no transform")
    raise RuntimeError(f"unexpected: entered as {entered}")


main(body)
