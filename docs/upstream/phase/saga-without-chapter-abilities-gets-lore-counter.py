"""phase bug: a Saga that has lost its chapter abilities (Dress Down: "Creatures lose all
abilities") still gets a lore counter as its controller's precombat main phase begins
(CR 714.3b: only a Saga with one or more chapter abilities; ruling
finalfantasy.saga-creature.07). See the .md report beside this file."""

from repro import card, engine, fixed, kinds, main, pass_priority, reproduced, start


def body() -> None:
    saga = card("Summon: Choco/Mog", "{2}{W}", "Enchantment Creature — Saga Bird Moogle",
                "(As this Saga enters and after your draw step, add a lore counter. Sacrifice "
                "after IV.)\nI, II, III, IV — Stampede! — Other creatures you control get +1/+0 "
                "until end of turn.", "3", "3")
    dress_down = card("Dress Down", "{1}{U}", "Enchantment",
                      "Flash\nWhen this enchantment enters, draw a card.\nCreatures lose all "
                      "abilities.\nAt the beginning of the end step, sacrifice this enchantment.",
                      keywords=("Flash",))
    plains = card("Plains", None, "Basic Land — Plains", "({T}: Add {W}.)")

    def four_lore_counters(state: dict, ids: list[dict]) -> None:
        state["objects"][str(ids[0]["battlefield"][0])]["counters"] = {"lore": 4}

    game, ids = start(engine(saga, dress_down, plains), [
        {"library": ["Plains"] * 3, "battlefield": ["Summon: Choco/Mog"]},
        {"library": ["Plains"] * 3, "battlefield": ["Dress Down"]},
    ], active=0, step="Draw", turn=5, edit=four_lore_counters)
    saga_id = ids[0]["battlefield"][0]
    events = pass_priority(game, 2)  # the draw step ends: the precombat main phase begins
    added = [e["data"] for e in events if e["type"] == "CounterAdded"
             and e["data"]["object_id"] == saga_id]
    print("events:", kinds(events),
          "; counters now", game.object(saga_id).get("counters"))
    if added:
        reproduced(f"a lore counter was put on the Saga ({added}) although it has no chapter "
                   "ability under Dress Down")
    fixed("no lore counter was put on the Saga without chapter abilities")


main(body)
