"""phase bug (minor): in a two-player game, the player who loses by drawing from an empty
library has the cards in their hand exiled as the game ends, phase's handling of a player
leaving a multiplayer game (CR 800.4a) applied where the game simply ends (CR 104.2a). See
the .md report beside this file."""

from repro import card, engine, fixed, kinds, main, pass_priority, play, reproduced, start


def body() -> None:
    recall = card("Ancestral Recall", "{U}", "Instant", "Target player draws three cards.")
    island = card("Island", None, "Basic Land — Island", "({T}: Add {U}.)")
    forest = card("Forest", None, "Basic Land — Forest", "({T}: Add {G}.)")
    game, ids = start(engine(recall, island, forest), [
        {"library": ["Island"] * 3, "hand": ["Ancestral Recall"], "battlefield": ["Island"]},
        {"library": ["Forest", "Forest"]},
    ], active=0)
    play(game, 0, "CastSpell", object_id=ids[0]["hand"][0])
    if game.waiting_for().get("type") == "TargetSelection":
        play(game, 0, "ChooseTarget", target={"Player": 1})
    if game.waiting_for().get("type") == "ManaPayment":
        pass_priority(game)
    events = pass_priority(game, 2)  # Ancestral Recall resolves: bob draws 2 of 3, then loses
    drawn = [e["data"]["object_id"] for e in events if e["type"] == "CardDrawn"]
    state = game.state()["state"]
    bob = state["players"][1]
    where = {oid: state["objects"][str(oid)]["zone"] for oid in drawn}
    print("events:", kinds(events))
    print("game over:", game.waiting_for().get("type"), "; bob drew", drawn, "; they are now in",
          where, "; bob's hand", bob["hand"])
    if game.waiting_for().get("type") != "GameOver" or len(drawn) != 2:
        raise RuntimeError("the game did not end with bob's two draws")
    if any(zone != "Hand" for zone in where.values()):
        reproduced("the two-player game ended and the loser's drawn cards were moved out of "
                   f"his hand ({where})")
    fixed("the loser's drawn cards are still in his hand when the game ends")


main(body)
