"""phase bug: when no creature attacks, phase goes from the declare attackers step straight
to the end of combat step, with no priority in the declare attackers step (CR 508.8 skips
only the declare blockers and combat damage steps; CR 508.2 gives priority). See the .md
report beside this file."""

from repro import card, engine, fixed, main, pass_priority, reproduced, start


def body() -> None:
    island = card("Island", None, "Basic Land — Island", "({T}: Add {U}.)")
    game, _ids = start(engine(island), [
        {"library": ["Island"] * 3, "battlefield": ["Island"]},
        {"library": ["Island"] * 3},
    ], active=0, step="BeginCombat")
    events = pass_priority(game, 2)  # both players pass in the beginning of combat step
    steps = [e["data"]["phase"] for e in events if e["type"] == "PhaseChanged"]
    now = game.phase
    print("steps begun:", steps, "; now in", now, "waiting for", game.waiting_for())
    if now == "EndCombat" and "DeclareAttackers" in steps:
        reproduced("the declare attackers step (no attackers) ended without priority: "
                   "phase is already in the end of combat step")
    if now == "DeclareAttackers" and game.waiting_for().get("type") == "Priority":
        fixed("the active player has priority in the declare attackers step")
    raise RuntimeError(f"unexpected step {now}")


main(body)
