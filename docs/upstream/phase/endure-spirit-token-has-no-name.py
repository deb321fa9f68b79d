"""phase bug: the Spirit token endure creates ("create a 1/1 white Spirit creature token")
has the name "" (CR 111.4: it is named "Spirit Token"). See the .md report beside this
file."""

from endure_common import branch, kin_guard_trigger
from repro import apply, fixed, main, pass_priority, reproduced


def body() -> None:
    game, _kg = kin_guard_trigger(bolt_it=False)
    pass_priority(game, 2)  # the endure trigger resolves: phase asks counters or a token
    events = apply(game, 0, "ChooseBranch", {"index": branch(game, "Token")})
    names = [e["data"].get("name") for e in events if e["type"] == "TokenCreated"]
    print("TokenCreated names:", names)
    if names == [""]:
        reproduced('the Spirit token was created with the name ""')
    if names and names[0]:
        fixed(f"the token is named {names[0]!r}")
    raise RuntimeError(f"no token created: {names}")


main(body)
