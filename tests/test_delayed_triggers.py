"""Delayed triggered abilities (CR 603.7, engine/delayed_triggers.py), tokens put onto the
battlefield tapped and attacking (CR 508.4) and spells cast this turn per player
(engine/turn_records.py): the machinery behind mobilize and flurry (docs/FORMAT.md §11.4),
on cases the Tarkir fixtures don't reach (a spell creating the delayed ability, "the next"
end step seen from an end step, tokens "attacking" outside combat, copies, rollback)."""

from mtg_judge.engine import turn_records
from mtg_judge.engine.errors import IllegalAction
from mtg_judge.engine.scenario import ScriptInputs, _card_db, build_game, run_scenario

SPIRIT = {"name": "Spirit", "types": ["Creature"], "subtypes": ["Spirit"], "colors": ["white"],
          "power": 1, "toughness": 1, "keywords": []}

# A test card (not a real one): an instant that creates a token tapped and "attacking" and
# sacrifices it at the beginning of the next end step.
FLEETING = {"name": "Test Fleeting Spirit", "mana_cost": "{W}", "type_line": "Instant", "supertypes": [],
            "types": ["Instant"], "subtypes": [], "layout": "normal", "keywords": [], "abilities": [],
            "oracle_text": "Create a 1/1 white Spirit creature token that's tapped and attacking. "
                           "Sacrifice it at the beginning of the next end step.",
            "spell": {"effects": [
                {"type": "create_token", "count": 1, "token": SPIRIT, "tapped": True, "attacking": True},
                {"type": "create_delayed_trigger",
                 "trigger": {"event": "beginning_of_step", "step": "end", "player": "each", "next": True},
                 "effects": [{"type": "sacrifice", "what": "created_tokens"}]}]}}


def _db():
    db = dict(_card_db(None))
    db.update(_card_db({FLEETING["name"]: FLEETING}))
    return db


def _players(alice_hand=(), alice_bf=(), bob_bf=()):
    lib = lambda p: [{"alias": f"{p}_lib{i}", "card": "Plains"} for i in range(6)]  # noqa: E731
    return [{"id": "alice", "library": lib("a"), "hand": [{"alias": a, "card": c} for a, c in alice_hand],
             "battlefield": [{"alias": a, "card": c} for a, c in alice_bf]},
            {"id": "bob", "library": lib("b"), "battlefield": [{"alias": a, "card": c} for a, c in bob_bf]}]


def test_a_delayed_ability_created_during_an_end_step_waits_for_the_next_one():
    """CR 603.7c: "the next end step" seen from an end step is the next turn's; a spell's
    delayed ability (ability key ``delayed``) triggers once; outside combat a token
    "attacking" just enters the battlefield (tapped)."""
    result = run_scenario({"setup": {"turn": 3, "active_player": "alice", "step": "end",
                                     "players": [{**_players([("fleeting", "Test Fleeting Spirit")])[0],
                                                  "mana_pool": {"W": 1}}, _players()[1]]},
                           "script": [{"action": "cast", "player": "alice", "card": "fleeting"},
                                      {"action": "resolve"},
                                      {"action": "advance", "to": "end", "turn": 4},
                                      {"action": "resolve"},
                                      {"action": "advance", "to": "end", "turn": 5}]},
                          "modern", cards=_db())
    events = result["events"]
    created = [e for e in events if e["type"] == "token_created"]
    assert created == [{"type": "token_created", "object": "token#1", "card": "token#1", "name": "Spirit",
                        "controller": "alice", "tapped": True}]  # no "attacking": not in combat
    delayed = [e for e in events if e["type"] == "ability_triggered" and e.get("delayed")]
    assert len(delayed) == 1 and delayed[0]["ability"] == "delayed" and delayed[0]["source_card"] == "fleeting"
    turn_of = {}
    turn = 3
    for e in events:
        if e["type"] == "turn_began":
            turn = e["turn"]
        turn_of[id(e)] = turn
    assert turn_of[id(delayed[0])] == 4  # not in turn 3's end step, where it was created
    assert [e["card"] for e in events if e["type"] == "sacrificed"] == ["token#1"]
    assert "token#1" not in result["state"]["battlefield"] and result["state"]["turn"] == 5


def test_a_token_that_left_the_battlefield_is_not_affected():
    """CR 603.7c / 400.7: the delayed ability affects the token only while it is the same
    object on the battlefield."""
    game = build_game({"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                                 "players": [{**_players([("fleeting", "Test Fleeting Spirit")])[0],
                                              "mana_pool": {"W": 1}}, _players()[1]]}},
                      "modern", _db(), ScriptInputs([]))
    game.cast("alice", {"card": "fleeting"})
    game.resolve_top()
    assert len(game.delayed_triggers) == 1 and game.delayed_triggers[0]["remembered"] == {"created_tokens": ["token#1"]}
    token = game.objects["token#1"]
    game.sacrifice(token)
    game.fire_triggers({"event": "beginning_of_step", "step": "end"})
    assert game.delayed_triggers == [] and len(game.pending_triggers) == 1
    game.put_triggers_on_stack()
    n = len(game.events)
    game.resolve_top()
    assert not [e for e in game.events[n:] if e["type"] == "sacrificed"]


def test_spells_cast_this_turn_per_player_reset_each_turn_and_rolled_back():
    """turn_records: each player's count; a rejected cast counts nothing; a new turn
    starts again at 0."""
    game = build_game({"setup": {"turn": 3, "active_player": "alice", "step": "precombat_main",
                                 "players": [{**_players([("bolt", "Lightning Bolt"), ("shock", "Shock")])[0],
                                              "mana_pool": {"R": 1}}, _players()[1]]}},
                      "modern", _db(), ScriptInputs([]))
    game.cast("alice", {"card": "bolt", "targets": ["bob"]})
    assert turn_records.spells_cast_this_turn(game, "alice") == 1
    assert turn_records.spells_cast_this_turn(game, "bob") == 0
    try:
        with game.transaction():
            game.cast("alice", {"card": "shock", "targets": ["bob"]})  # no mana left
    except IllegalAction:
        pass
    assert game.spells_cast_by == {"alice": 1}
    game.begin_turn(4, "bob")
    assert game.spells_cast_by == {}
