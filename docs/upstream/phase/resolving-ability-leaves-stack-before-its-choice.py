"""phase bug (reported upstream as phase-rs/phase#6360 for a spell): a resolving spell or
ability is removed from the stack (StackResolved) before the choice its effect asks for is
made, here endure's "counters or a token" (CR 608.2c, 608.2n). See the .md report."""

from endure_common import kin_guard_trigger
from repro import fixed, kinds, main, pass_priority, reproduced


def body() -> None:
    game, _kg = kin_guard_trigger(bolt_it=False)
    events = pass_priority(game, 2)  # the endure trigger starts resolving
    prompt = game.waiting_for().get("type")
    print("events:", kinds(events), "; prompt", prompt, "; stack size", len(game.stack()))
    if prompt != "ChooseOneOfBranch":
        raise RuntimeError(f"unexpected prompt {prompt}")
    if "StackResolved" in kinds(events) and not game.stack():
        reproduced("the endure trigger left the stack (StackResolved, empty stack) while "
                   "its controller is still choosing counters or a token")
    fixed("the trigger is still on the stack while its controller chooses")


main(body)
