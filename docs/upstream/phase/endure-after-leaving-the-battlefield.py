"""phase bug: endure on a permanent that has left the battlefield still asks "counters or a
token?" and, answered "counters", puts the counters on the card in the graveyard and makes
no token (CR 701.63a; ruling tarkir.endure.03). See the .md report beside this file."""

from endure_common import branch, kin_guard_trigger
from repro import apply, fixed, kinds, main, pass_priority, reproduced


def body() -> None:
    game, kg = kin_guard_trigger(bolt_it=True)
    events = pass_priority(game, 2)  # the endure trigger resolves, Kin-Guard in the graveyard
    prompt = game.waiting_for()
    print("the trigger resolves:", kinds(events), "; phase asks", prompt.get("type"))
    if prompt.get("type") != "ChooseOneOfBranch":
        tokens = [e for e in events if e["type"] == "TokenCreated"]
        if tokens:
            fixed("no choice was asked and the Spirit token was created")
        raise RuntimeError(f"unexpected prompt {prompt}")
    events = apply(game, 0, "ChooseBranch", {"index": branch(game, "PutCounter")})
    counters = game.object(kg).get("counters")
    print("answered 'counters':", kinds(events), "; Kin-Guard is in", game.object(kg)["zone"],
          "with counters", counters)
    reproduced("endure asked counters-or-token although Kin-Guard is in the graveyard; "
               f"'counters' put {counters} on the graveyard card and created no token")


main(body)
