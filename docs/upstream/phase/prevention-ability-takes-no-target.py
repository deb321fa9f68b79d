"""phase bug: "{T}: Prevent the next 1 damage that would be dealt to any target this turn"
(Samite Healer) is activated without choosing a target (CR 601.2c, 602.2b). See the .md
report beside this file."""

from repro import card, engine, fixed, main, play, reproduced, start


def body() -> None:
    healer = card("Samite Healer", "{1}{W}", "Creature — Human Cleric",
                  "{T}: Prevent the next 1 damage that would be dealt to any target this turn.",
                  "1", "1")
    giant = card("Hill Giant", "{3}{R}", "Creature — Giant", "", "3", "3")
    island = card("Island", None, "Basic Land — Island", "({T}: Add {U}.)")
    game, ids = start(engine(healer, giant, island), [
        {"library": ["Island"] * 3, "battlefield": ["Samite Healer", "Hill Giant"]},
        {"library": ["Island"] * 3},
    ], active=0)
    print("phase's parsed effect:", healer["abilities"][0]["effect"])
    events = play(game, 0, "ActivateAbility", source_id=ids[0]["battlefield"][0])
    prompt = game.waiting_for().get("type")
    stack = game.state()["state"]["stack"]
    targets = [entry.get("ability", {}).get("targets", entry.get("targets"))
               for entry in stack] if isinstance(stack, list) else stack
    print("after ActivateAbility: prompt", prompt, "; events", [e["type"] for e in events],
          "; stack", json_short(stack))
    if prompt == "Priority" and stack and not any(_targets(e) for e in stack):
        reproduced("the ability went on the stack with no target and no target was asked "
                   "for (its definition targets 'any target')")
    if prompt != "Priority" or any(_targets(e) for e in stack):
        fixed(f"phase asked for a target ({prompt}) or the stack entry has one ({targets})")
    raise RuntimeError("unexpected state")


def _targets(entry: object) -> list:
    """Every non-empty 'targets' list anywhere in a stack entry."""
    found: list = []
    if isinstance(entry, dict):
        for key, value in entry.items():
            if key == "targets" and value:
                found.append(value)
            found += _targets(value)
    elif isinstance(entry, list):
        for value in entry:
            found += _targets(value)
    return found


def json_short(value: object) -> str:
    import json

    text = json.dumps(value)
    return text if len(text) < 400 else text[:400] + "…"


main(body)
