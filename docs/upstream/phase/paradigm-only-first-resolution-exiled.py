"""phase bug: paradigm ("Then exile this spell. ...") exiles only the first spell with that
name to resolve; a second one resolving goes to the graveyard (ruling strixhaven.paradigm.01:
each resolution exiles it, only the first creates the ability). See the .md report."""

from repro import apply, card, engine, fixed, main, pass_priority, play, reproduced, start


def body() -> None:
    dissertation = card(
        "Decorum Dissertation", "{3}{B}{B}", "Sorcery — Lesson",
        "Target player draws two cards and loses 2 life.\nParadigm (Then exile this spell. "
        "After you first resolve a spell with this name, you may cast a copy of it from exile "
        "without paying its mana cost at the beginning of each of your first main phases.)",
        keywords=("Paradigm",))
    swamp = card("Swamp", None, "Basic Land — Swamp", "({T}: Add {B}.)")
    game, ids = start(engine(dissertation, swamp), [
        {"library": ["Swamp"] * 3, "hand": ["Decorum Dissertation"] * 2,
         "battlefield": ["Swamp"] * 10},
        {"library": ["Swamp"] * 6},
    ], active=0)
    zones = []
    for spell in ids[0]["hand"]:
        play(game, 0, "CastSpell", object_id=spell)
        if game.waiting_for().get("type") == "TargetSelection":
            apply(game, 0, "ChooseTarget", {"target": {"Player": 1}})
        while game.waiting_for().get("type") == "ManaPayment":
            pass_priority(game)
        pass_priority(game, 2)  # it resolves
        zones.append(game.object(spell)["zone"])
    print("where each Decorum Dissertation went as it resolved:", zones)
    if zones == ["Exile", "Graveyard"]:
        reproduced("the second Decorum Dissertation to resolve was put into the graveyard, "
                   "not exiled")
    if zones == ["Exile", "Exile"]:
        fixed("both were exiled as they resolved")
    raise RuntimeError(f"unexpected zones {zones}")


main(body)
