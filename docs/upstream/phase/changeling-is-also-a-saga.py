"""phase bug: a changeling permanent has the enchantment subtype Saga among its subtypes;
changeling gives every creature type only (CR 702.73a, 205.3m; Saga is an enchantment type,
CR 205.3h). See the .md report beside this file."""

import json

from repro import card, engine, fixed, main, pass_priority, play, reproduced, start


def body() -> None:
    changeling = card("Amoeboid Changeling", "{1}{U}", "Creature — Shapeshifter",
                      "Changeling (This card is every creature type.)\n{T}: Target creature "
                      "gains all creature types until end of turn.\n{T}: Target creature loses "
                      "all creature types until end of turn.", "1", "1",
                      keywords=("Changeling",))
    island = card("Island", None, "Basic Land — Island", "({T}: Add {U}.)")
    # a Saga creature in the card database (it is not even in the game)
    saga = card("Summon: Choco/Mog", "{2}{W}", "Enchantment Creature — Saga Bird Moogle",
                "(As this Saga enters and after your draw step, add a lore counter. Sacrifice "
                "after IV.)\nI, II, III, IV — Stampede! — Other creatures you control get +1/+0 "
                "until end of turn.", "3", "3")
    game, ids = start(engine(changeling, island, saga), [
        {"library": ["Island"] * 3, "hand": ["Amoeboid Changeling"],
         "battlefield": ["Island", "Island"]},
        {"library": ["Island"] * 3},
    ], active=0)
    oid = ids[0]["hand"][0]
    play(game, 0, "CastSpell", object_id=oid)  # cast it and let it resolve: layers applied
    if game.waiting_for().get("type") == "ManaPayment":
        pass_priority(game)
    pass_priority(game, 2)
    obj = game.object(oid)
    assert obj["zone"] == "Battlefield", obj["zone"]
    subtypes = (obj.get("card_types") or {}).get("subtypes") or []
    if not subtypes:
        raise RuntimeError(f"no subtypes found in {json.dumps(obj)[:300]}")
    other = sorted(set(subtypes) & {"Saga", "Aura", "Equipment", "Vehicle", "Forest", "Island",
                                     "Clue", "Food", "Treasure", "Class", "Case", "Room"})
    print(f"subtypes {subtypes}; non-creature subtypes among them: {other}")
    if other:
        reproduced(f"the changeling has the non-creature subtype(s) {other}")
    fixed("the changeling has creature types only")


main(body)
