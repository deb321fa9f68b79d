"""Targets in other zones, extra turns, additional phases and steps, flicker and ending the
turn (docs/FORMAT.md §13; engine/extra_turns.py, engine/flicker.py, engine/end_turn.py) on
cases no ruling of the seed documents is about: CR 514.3a after a turn is ended, abilities
and copies exiled from the stack, additional steps, an extra turn for an opponent, the
new object a flickered permanent becomes, a delayed return whose card left exile, a card in
a hand that is never a target."""

from mtg_judge.engine.scenario import _card_db, run_scenario


def _card(name, text, effects, targets=(), type_="Instant", cost="{U}"):
    """A test card (not a real one)."""
    spell = {"effects": effects}
    if targets:
        spell["targets"] = list(targets)
    return {"name": name, "mana_cost": cost, "type_line": type_, "supertypes": [], "types": [type_],
            "subtypes": [], "layout": "normal", "keywords": [], "abilities": [], "oracle_text": text,
            "spell": spell}


ENDING_SHOCK = _card("Test Ending Shock", "Test Ending Shock deals 2 damage to target creature. End the turn.",
                     [{"type": "deal_damage", "amount": 2, "to": {"target": 0}}, {"type": "end_the_turn"}],
                     targets=[{"kind": "creature"}])
EXTRA_UPKEEP = _card("Test Second Upkeep", "After this step, there is an additional upkeep step.",
                     [{"type": "additional_step", "step": "upkeep"}])


def _db():
    db = dict(_card_db(None))
    db.update(_card_db({c["name"]: c for c in (ENDING_SHOCK, EXTRA_UPKEEP)}))
    return db


def _lib(p, card="Island"):
    return [{"alias": f"{p}_lib{i}", "card": card} for i in range(8)]


def _run(players, script, step="precombat_main", ruleset="modern"):
    return run_scenario({"setup": {"turn": 3, "active_player": "alice", "step": step, "players": players},
                         "script": script}, ruleset, cards=_db())


def _types(events, *types):
    return [e for e in events if e["type"] in types]


def test_a_trigger_from_ending_the_turn_gets_priority_in_cleanup_then_another_cleanup():
    """CR 723.1c: state-based actions are checked but no one gets priority: the Bears' death
    triggers Soul Net, whose ability waits for the cleanup step; there players get priority
    (it is put on the stack and resolves) and another cleanup step follows (CR 514.3a)."""
    players = [{"id": "alice", "library": _lib("a"), "hand": [{"alias": "shock", "card": "Test Ending Shock"}],
                "battlefield": [{"alias": "net", "card": "Soul Net"}], "mana_pool": {"U": 1}},
               {"id": "bob", "library": _lib("b"), "battlefield": [{"alias": "bears", "card": "Grizzly Bears"}]}]
    result = _run(players, [{"action": "cast", "player": "alice", "card": "shock", "targets": ["bears"]},
                            {"action": "resolve"},
                            {"action": "resolve"},
                            {"action": "choose", "player": "alice", "choice": "no"},
                            {"action": "resolve"}])
    ev = result["events"]
    i_end = next(i for i, e in enumerate(ev) if e["type"] == "turn_ending")
    after = ev[i_end:]
    kinds = [(e["type"], e.get("step")) for e in after
             if e["type"] in ("step_began", "ability_put_on_stack", "ability_resolved", "turn_began")]
    assert kinds[:5] == [("step_began", "cleanup"), ("ability_put_on_stack", None), ("ability_resolved", None),
                         ("step_began", "cleanup"), ("turn_began", None)]
    assert not [e for e in after if e["type"] == "step_began" and e["step"] in ("end", "beginning_of_combat")]
    assert result["state"]["turn"] == 4 and result["state"]["active_player"] == "bob"


def test_ending_the_turn_exiles_abilities_and_copies_too():
    """CR 723.1a: every object on the stack is exiled; an ability on the stack is removed
    (``ability_removed``, reason ``end_the_turn``); combat ends (CR 723.1b)."""
    players = [{"id": "alice", "library": _lib("a"), "battlefield": [{"alias": "sorc", "card": "Prodigal Sorcerer"}]},
               {"id": "bob", "library": _lib("b"), "hand": [{"alias": "stop", "card": "Time Stop"}],
                "battlefield": [{"alias": f"i{i}", "card": "Island"} for i in range(6)]}]
    result = _run(players, [{"action": "activate", "player": "alice", "source": "sorc", "ability": 0,
                             "targets": ["bob"]},
                            {"action": "pass", "player": "alice"},
                            {"action": "cast", "player": "bob", "card": "stop",
                             "pay_with": [f"i{i}" for i in range(6)]},
                            {"action": "resolve"}])
    ev = result["events"]
    assert _types(ev, "ability_removed") == [{"type": "ability_removed", "object": "ability#1", "card": "ability#1",
                                              "reason": "end_the_turn"}]
    assert not _types(ev, "damage_dealt")
    assert result["state"]["players"]["bob"]["exile"] == ["stop"]


def test_an_additional_upkeep_step_follows_this_step():
    """CR 500.10: an additional step directly after the current step; its "at the
    beginning of" moment and priority happen again (same turn)."""
    players = [{"id": "alice", "library": _lib("a"), "hand": [{"alias": "up", "card": "Test Second Upkeep"}],
                "mana_pool": {"U": 1}},
               {"id": "bob", "library": _lib("b")}]
    result = _run(players, [{"action": "cast", "player": "alice", "card": "up"}, {"action": "resolve"},
                            {"action": "advance", "to": "draw"}], step="upkeep")
    ev = result["events"]
    assert _types(ev, "steps_added") == [{"type": "steps_added", "steps": ["upkeep"]}]
    steps = [(e["turn"], e["step"]) for e in _types(ev, "step_began")]
    assert steps[:3] == [(3, "upkeep"), (3, "upkeep"), (3, "draw")]
    assert result["state"]["step"] == "draw" and result["state"]["turn"] == 3


def test_time_warp_on_the_opponent_gives_them_two_turns_in_a_row():
    """CR 500.7: the extra turn is added directly after the current one; then the normal
    turn order goes on (Bob's own turn 5)."""
    players = [{"id": "alice", "library": _lib("a"), "hand": [{"alias": "warp", "card": "Time Warp"}],
                "mana_pool": {"U": 5}},
               {"id": "bob", "library": _lib("b")}]
    result = _run(players, [{"action": "cast", "player": "alice", "card": "warp", "targets": ["bob"]},
                            {"action": "resolve"}, {"action": "advance", "to": "upkeep", "turn": 6}])
    began = [(e["turn"], e["active_player"], e.get("extra", False)) for e in _types(result["events"], "turn_began")]
    assert began == [(4, "bob", True), (5, "bob", False), (6, "alice", False)]


def test_a_flickered_permanent_is_a_new_object():
    """CR 400.7, 610.3: Cloudshift returns the card as a new permanent: untapped, summoning
    sick, no counters, no damage; the Aura that enchanted it goes to the graveyard
    (CR 704.5m); its enters trigger fires again."""
    players = [{"id": "alice", "library": _lib("a"), "hand": [{"alias": "shift", "card": "Cloudshift"}],
                "mana_pool": {"W": 1},
                "battlefield": [{"alias": "digger", "card": "Gravedigger", "tapped": True, "damage": 1,
                                 "counters": {"+1/+1": 2}}]},
               {"id": "bob", "library": _lib("b"),
                "battlefield": [{"alias": "pac", "card": "Pacifism", "attached_to": "digger"}]}]
    result = _run(players, [{"action": "cast", "player": "alice", "card": "shift", "targets": ["digger"]},
                            {"action": "resolve"}])
    ev = result["events"]
    assert [e["card"] for e in _types(ev, "zone_changed") if e["to"] == "graveyard"] == ["shift", "pac"]
    assert [e["source_card"] for e in _types(ev, "ability_triggered")] == ["digger"]
    perm = result["state"]["battlefield"]["digger"]
    assert (perm["tapped"], perm["summoning_sick"], perm["counters"], perm["damage"], perm["power"]) == \
        (False, True, {}, 0, 2)


def test_a_delayed_return_skips_a_card_that_left_exile():
    """CR 400.7, 603.7c: Flickerwisp's delayed ability returns "that card" only while it is
    the same object in exile; put into the graveyard from exile, it stays there."""
    players = [{"id": "alice", "library": _lib("a"),
                "hand": [{"alias": "wisp", "card": "Flickerwisp"}, {"alias": "pull", "card": "Pull from Eternity"}],
                "mana_pool": {"W": 4}},
               {"id": "bob", "library": _lib("b"), "battlefield": [{"alias": "bears", "card": "Grizzly Bears"}]}]
    result = _run(players, [{"action": "cast", "player": "alice", "card": "wisp"}, {"action": "resolve"},
                            {"action": "choose_targets", "player": "alice", "targets": ["bears"]},
                            {"action": "resolve"},
                            {"action": "cast", "player": "alice", "card": "pull", "targets": ["bears"]},
                            {"action": "resolve"},
                            {"action": "advance", "to": "end"}, {"action": "resolve"}])
    assert result["state"]["players"]["bob"]["graveyard"] == ["bears"]
    assert "bears" not in result["state"]["battlefield"]
    assert [e["to"] for e in _types(result["events"], "zone_changed") if e["card"] == "bears"] == \
        ["exile", "graveyard"]


def test_a_card_in_a_hand_is_never_a_target():
    """CR 115.1, 400.2: a target kind ``card`` names a card in a graveyard or in exile,
    never one in a hand (the same card, once discarded, is a legal target)."""
    players = [{"id": "alice", "library": _lib("a"),
                "hand": [{"alias": "raise", "card": "Raise Dead"}, {"alias": "bears", "card": "Grizzly Bears"}],
                "mana_pool": {"B": 1}},
               {"id": "bob", "library": _lib("b")}]
    result = _run(players, [{"action": "cast", "player": "alice", "card": "raise", "targets": ["bears"]}])
    assert [e["code"] for e in _types(result["events"], "action_rejected")] == ["invalid_target"]


def test_ending_the_turn_with_combat_damage_on_the_stack_2006():
    """Under the 2006 rules combat damage uses the stack: ending the turn exiles it with the
    rest, so it is never dealt (``combat_damage_not_dealt``, reason ``end_the_turn``), and
    the combat ends (CR 723.1a–b)."""
    players = [{"id": "alice", "library": _lib("a"), "battlefield": [{"alias": "bears", "card": "Grizzly Bears"}]},
               {"id": "bob", "library": _lib("b"), "hand": [{"alias": "stop", "card": "Time Stop"}],
                "battlefield": [{"alias": f"i{i}", "card": "Island"} for i in range(6)]}]
    result = _run(players, [{"action": "advance", "to": "declare_attackers"},
                            {"action": "declare_attackers", "player": "alice", "attackers": ["bears"]},
                            {"action": "advance", "to": "combat_damage"},
                            {"action": "pass", "player": "alice"},
                            {"action": "cast", "player": "bob", "card": "stop",
                             "pay_with": [f"i{i}" for i in range(6)]},
                            {"action": "resolve"}], ruleset="timespiral-2006")
    ev = result["events"]
    assert _types(ev, "combat_damage_put_on_stack")
    assert [(e["source"], e["target"], e["reason"]) for e in _types(ev, "combat_damage_not_dealt")] == \
        [("bears", "bob", "end_the_turn")]
    assert not _types(ev, "damage_dealt")
    assert result["state"]["players"]["bob"]["life"] == 20 and result["state"]["turn"] == 4


def test_an_additional_untap_step_untaps_again():
    """CR 500.9–500.10: an additional untap step directly after this step: the active
    player's permanents untap again (no one gets priority in it)."""
    untap_again = _card("Test Second Untap", "After this step, there is an additional untap step.",
                        [{"type": "additional_step", "step": "untap"}])
    db = _db()
    db.update(_card_db({untap_again["name"]: untap_again}))
    players = [{"id": "alice", "library": _lib("a"), "hand": [{"alias": "un", "card": "Test Second Untap"}],
                "battlefield": [{"alias": "i1", "card": "Island"}]},
               {"id": "bob", "library": _lib("b")}]
    result = run_scenario({"setup": {"turn": 3, "active_player": "alice", "step": "upkeep", "players": players},
                           "script": [{"action": "cast", "player": "alice", "card": "un", "pay_with": ["i1"]},
                                      {"action": "resolve"}, {"action": "advance", "to": "draw"}]},
                          "modern", cards=db)
    ev = result["events"]
    steps = [e["step"] for e in _types(ev, "step_began")]
    assert steps[:3] == ["upkeep", "untap", "draw"]
    assert [e["card"] for e in _types(ev, "untapped")] == ["i1"]
    assert result["state"]["battlefield"]["i1"]["tapped"] is False


def test_a_flickered_aura_is_attached_by_the_player_it_returns_under():
    """CR 303.4f: Flickerwisp exiles Bob's Pacifism (on Alice's Bears); at the end step it
    returns under Bob's control and Bob chooses what it enchants (``aura_host``, among
    the creatures: not Alice)."""
    def players(alice_bf):
        return [{"id": "alice", "library": _lib("a"), "hand": [{"alias": "wisp", "card": "Flickerwisp"}],
                 "mana_pool": {"W": 3}, "battlefield": alice_bf},
                {"id": "bob", "library": _lib("b"),
                 "battlefield": [{"alias": "pac", "card": "Pacifism", "attached_to": "bears"}]}]
    script = [{"action": "cast", "player": "alice", "card": "wisp"}, {"action": "resolve"},
              {"action": "choose_targets", "player": "alice", "targets": ["pac"]}, {"action": "resolve"},
              {"action": "advance", "to": "end"}, {"action": "resolve"},
              {"action": "choose", "player": "alice", "choice": "giant"},
              {"action": "choose", "player": "bob", "choice": "wisp"}]
    result = _run(players([{"alias": "bears", "card": "Grizzly Bears"}, {"alias": "giant", "card": "Hill Giant"}]),
                  script)
    ev = result["events"]
    asked = [e for e in ev if e["type"] == "action_rejected"]
    assert [e["code"] for e in asked] == ["wrong_decision"]  # alice doesn't choose: bob does
    assert result["state"]["battlefield"]["pac"]["attached_to"] == "wisp"
    assert result["state"]["battlefield"]["pac"]["controller"] == "bob"
