"""The position shared by the endure scripts (phase-python alone): alice casts Fortress
Kin-Guard ("When this creature enters, it endures 1."); its enters trigger goes on the
stack. Imported by the endure-*.py scripts of this folder."""

from repro import apply, card, engine, pass_priority, play, start


def kin_guard_trigger(bolt_it: bool):
    """The game with Fortress Kin-Guard's endure trigger on the stack (and, with
    ``bolt_it``, Kin-Guard killed by bob's Lightning Bolt in response, the trigger still on
    the stack); returns ``(game, kin_guard_id)``."""
    kin_guard = card("Fortress Kin-Guard", "{1}{W}", "Creature — Dog Soldier",
                     "When this creature enters, it endures 1. (Put a +1/+1 counter on it or "
                     "create a 1/1 white Spirit creature token.)", "1", "2")
    bolt = card("Lightning Bolt", "{R}", "Instant", "Lightning Bolt deals 3 damage to any target.")
    plains = card("Plains", None, "Basic Land — Plains", "({T}: Add {W}.)")
    mountain = card("Mountain", None, "Basic Land — Mountain", "({T}: Add {R}.)")
    game, ids = start(engine(kin_guard, bolt, plains, mountain), [
        {"library": ["Plains"] * 3, "hand": ["Fortress Kin-Guard"], "battlefield": ["Plains"] * 2},
        {"library": ["Mountain"] * 3, "hand": ["Lightning Bolt"], "battlefield": ["Mountain"]},
    ], active=0)
    kg = ids[0]["hand"][0]
    play(game, 0, "CastSpell", object_id=kg)
    if game.waiting_for().get("type") == "ManaPayment":
        pass_priority(game)
    pass_priority(game, 2)  # Kin-Guard resolves; its trigger goes on the stack
    assert game.object(kg)["zone"] == "Battlefield" and game.stack(), "no endure trigger"
    if bolt_it:
        pass_priority(game)  # alice passes with the trigger on the stack
        play(game, 1, "CastSpell", object_id=ids[1]["hand"][0])
        if game.waiting_for().get("type") == "TargetSelection":
            apply(game, 1, "ChooseTarget", {"target": {"Object": kg}})
        if game.waiting_for().get("type") == "ManaPayment":
            pass_priority(game)
        pass_priority(game, 2)  # Lightning Bolt resolves: Kin-Guard dies
        assert game.object(kg)["zone"] == "Graveyard", game.object(kg)["zone"]
    return game, kg


def branch(game, effect_type: str) -> int:
    """The index of the ``ChooseOneOfBranch`` branch whose effect is ``effect_type``."""
    branches = game.waiting_for()["data"]["branches"]
    return [b["effect"]["type"] for b in branches].index(effect_type)
