"""phase bug: Vicious Clown ("Whenever another creature you control with power 2 or less
enters, ...") does not trigger for the 1/1 Hero token job select creates, as if the Hero's
power were read after the Equipment was attached to it (4/3), not as it entered (CR 603.10;
ruling finalfantasy.job-select.03). See the .md report beside this file."""

from repro import card, engine, fixed, kinds, main, pass_priority, play, reproduced, start


def body() -> None:
    clown = card("Vicious Clown", "{2}{R}", "Creature — Human Clown",
                 "Whenever another creature you control with power 2 or less enters, this "
                 "creature gets +2/+0 until end of turn.", "2", "3")
    sword = card("Warrior's Sword", "{3}{R}", "Artifact — Equipment",
                 "Job select (When this Equipment enters, create a 1/1 colorless Hero creature "
                 "token, then attach this to it.)\nEquipped creature gets +3/+2 and is a Warrior "
                 "in addition to its other types.\nEquip {5} ({5}: Attach to target creature you "
                 "control. Equip only as a sorcery.)", keywords=("Job select",))
    mountain = card("Mountain", None, "Basic Land — Mountain", "({T}: Add {R}.)")
    game, ids = start(engine(clown, sword, mountain), [
        {"library": ["Mountain"] * 3, "hand": ["Warrior's Sword"],
         "battlefield": ["Vicious Clown"] + ["Mountain"] * 4},
        {"library": ["Mountain"] * 3},
    ], active=0)
    clown_id = ids[0]["battlefield"][0]
    play(game, 0, "CastSpell", object_id=ids[0]["hand"][0])
    while game.waiting_for().get("type") == "ManaPayment":
        pass_priority(game)
    pass_priority(game, 2)  # Warrior's Sword resolves; its job select trigger goes on the stack
    events = pass_priority(game, 2)  # job select resolves: the Hero enters, the Sword attaches
    tokens = [e["data"] for e in events if e["type"] == "TokenCreated"]
    stack = game.stack()
    clown_triggered = any(clown_id == (entry.get("source_id") or entry.get("source"))
                          or str(clown_id) in str(entry)[:400] for entry in stack)
    print("job select resolves:", kinds(events), "; tokens", tokens, "; stack", len(stack),
          "entries; waiting for", game.waiting_for().get("type"), "; Clown's power",
          game.object(clown_id).get("power"))
    if not tokens:
        raise RuntimeError("no Hero token")
    if not stack and game.waiting_for().get("type") == "Priority":
        reproduced("the 1/1 Hero entered under alice's control and Vicious Clown did not "
                   "trigger (no trigger on the stack)")
    if clown_triggered:
        fixed("Vicious Clown triggered for the Hero")
    raise RuntimeError(f"unexpected stack {stack}")


main(body)
