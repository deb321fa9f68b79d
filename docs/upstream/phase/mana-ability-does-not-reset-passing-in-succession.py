"""phase bug: a player who activates a mana ability while holding priority and then passes
ends the round of passes that began before it: the spell on the stack resolves (or the step
ends) without the other player passing again (CR 117.3c, 117.4). See the .md report."""

from repro import apply, card, engine, fixed, kinds, main, pass_priority, play, reproduced, start


def body() -> None:
    ritual = card("Dark Ritual", "{B}", "Instant", "Add {B}{B}{B}.")
    swamp = card("Swamp", None, "Basic Land — Swamp", "({T}: Add {B}.)")
    forest = card("Forest", None, "Basic Land — Forest", "({T}: Add {G}.)")
    game, ids = start(engine(ritual, swamp, forest), [
        {"library": ["Swamp"] * 3, "hand": ["Dark Ritual"], "battlefield": ["Swamp"]},
        {"library": ["Forest"] * 3, "battlefield": ["Forest"]},
    ], active=0)
    play(game, 0, "CastSpell", object_id=ids[0]["hand"][0])
    if game.waiting_for().get("type") == "ManaPayment":
        pass_priority(game)
    assert game.stack(), "Dark Ritual is not on the stack"
    pass_priority(game)  # alice passes: bob has priority
    mana = apply(game, 1, "ActivateAbility",
                 {"source_id": ids[1]["battlefield"][0], "ability_index": 0})
    print("bob taps his Forest for mana:", kinds(mana), "; then", game.waiting_for())
    events = pass_priority(game)  # bob passes
    print("bob passes:", kinds(events), "; stack now", len(game.stack()), "; waiting for",
          game.waiting_for())
    if "StackResolved" in kinds(events) or not game.stack():
        reproduced("Dark Ritual resolved at bob's pass although bob activated a mana ability "
                   "after alice passed: alice never passed again")
    if game.waiting_for().get("data", {}).get("player") == 0 and game.stack():
        fixed("alice gets priority again with Dark Ritual still on the stack")
    raise RuntimeError("unexpected state")


main(body)
