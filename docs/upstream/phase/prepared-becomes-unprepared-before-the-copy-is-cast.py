"""phase bug (event order): a prepared permanent becomes unprepared as soon as the cast of its
copy is proposed (CastPreparedCopy), before targets are chosen and costs paid; it should
happen as the copy becomes cast (CR 601.2i; ruling strixhaven.prepare.05). See the .md
report beside this file."""

from repro import apply, card, engine, fixed, kinds, main, mtgjson, pass_priority, reproduced, start, two_faced


def body() -> None:
    emeritus = two_faced("prepare", mtgjson(
        "Emeritus of Conflict", "{1}{R}", "Creature — Human Wizard",
        "First strike\nWhenever you cast your third spell each turn, this creature becomes "
        "prepared. (While it's prepared, you may cast a copy of its spell. Doing so unprepares "
        "it.)", "2", "2", keywords=("First strike",)),
        mtgjson("Lightning Bolt", "{R}", "Instant", "Lightning Bolt deals 3 damage to any target."))
    mountain = card("Mountain", None, "Basic Land — Mountain", "({T}: Add {R}.)")

    def prepared(state: dict, ids: list[dict]) -> None:
        state["objects"][str(ids[0]["battlefield"][0])]["prepared"] = True

    game, ids = start(engine(emeritus, mountain), [
        {"library": ["Mountain"] * 3, "battlefield": ["Emeritus of Conflict", "Mountain"]},
        {"library": ["Mountain"] * 3},
    ], active=0, edit=prepared)
    source = ids[0]["battlefield"][0]
    proposed = apply(game, 0, "CastPreparedCopy", {"source": source})
    prompt = game.waiting_for().get("type")
    print("CastPreparedCopy:", kinds(proposed), "; phase now asks", prompt)
    cast: list = []
    if prompt == "TargetSelection":
        cast += apply(game, 0, "ChooseTarget", {"target": {"Player": 1}})
    while game.waiting_for().get("type") == "ManaPayment":
        cast += pass_priority(game)
    print("choosing the target and paying:", kinds(cast))
    if "BecameUnprepared" in kinds(proposed) and "SpellCast" not in kinds(proposed):
        reproduced("BecameUnprepared came with CastPreparedCopy itself, before the copy's "
                   f"target was chosen and its cost paid (SpellCast came later: {kinds(cast)})")
    if "BecameUnprepared" in kinds(cast):
        fixed("the permanent became unprepared as the copy was cast")
    raise RuntimeError("no BecameUnprepared")


main(body)
