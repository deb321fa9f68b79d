"""phase bug: after a land's Adventure (Lindblum, Industrial Regency // Mage Siege) resolves
and the card is exiled on an adventure, its owner cannot play the land from exile (CR
715.3d; rulings finalfantasy.adventure.08, .11). See the .md report beside this file."""

from repro import apply, card, engine, fixed, kinds, main, mtgjson, pass_priority, reproduced, start, two_faced


def body() -> None:
    lindblum = two_faced("adventure", mtgjson(
        "Lindblum, Industrial Regency", None, "Land — Town",
        "This land enters tapped.\n{T}: Add {R}."), mtgjson(
        "Mage Siege", "{2}{R}", "Instant — Adventure",
        "Create a 0/1 black Wizard creature token with \"Whenever you cast a noncreature "
        "spell, this token deals 1 damage to each opponent.\""))
    mountain = card("Mountain", None, "Basic Land — Mountain", "({T}: Add {R}.)")
    game, ids = start(engine(lindblum, mountain), [
        {"library": ["Mountain"] * 3, "hand": ["Lindblum, Industrial Regency"],
         "battlefield": ["Mountain"] * 3},
        {"library": ["Mountain"] * 3},
    ], active=0)
    card_id = ids[0]["hand"][0]
    apply(game, 0, "CastSpell", {"object_id": card_id, "card_id": card_id, "targets": [],
                                 "payment_mode": {"type": "Auto"}})
    if game.waiting_for().get("type") == "CastOffer":  # the Adventure face, Mage Siege
        apply(game, 0, "ChooseAdventureFace", {"creature": False})
    while game.waiting_for().get("type") == "ManaPayment":
        pass_priority(game)
    pass_priority(game, 2)  # Mage Siege resolves: the card is exiled on an adventure
    obj = game.object(card_id)
    print("after Mage Siege resolved: the card is in", obj["zone"], "; lands played",
          game.state()["state"]["players"][0]["lands_played_this_turn"], "; phase", game.phase)
    assert obj["zone"] == "Exile", obj["zone"]
    legal = [a.to_dict() for a in game.actions() if a.kind == "PlayLand"]
    try:
        events = apply(game, 0, "PlayLand", {"object_id": card_id, "card_id": card_id})
    except ValueError as exc:
        reproduced(f"PlayLand of Lindblum from exile, on an adventure, in its owner's main "
                   f"phase with a land play left, is refused: {exc} (legal PlayLand: {legal})")
    print("events:", kinds(events))
    fixed(f"Lindblum was played from exile (now in {game.object(card_id)['zone']})")


main(body)
