"""A fixture and its event log as a readable play-by-play (``mtg-judge show``).

Like OpenSpiel's golden playthroughs: a setup summary, then one plain-English line per event,
prefixed by the turn, the active player and the step
(``T3 alice, precombat main: alice casts Lightning Bolt (bolt#2) targeting bob``). Rejected
inputs and script errors are marked with ``✗``.
"""

from __future__ import annotations

from typing import Any

from mtg_judge.conformance.expect import check, summarize_event

ZONES = ("library", "hand", "graveyard", "exile")
MANA_ORDER = "WUBRGC"
#: Events hidden unless ``priority=True``: every pass would otherwise double the transcript.
PRIORITY_EVENTS = ("priority_received", "priority_passed")


def _words(name: Any) -> str:
    return str(name).replace("_", " ")


def step_name(step: Any) -> str:
    """``precombat_main`` -> ``precombat main phase``; ``end`` -> ``end step`` (FORMAT §2)."""
    if step in ("precombat_main", "postcombat_main"):
        return f"{_words(step)} phase"
    return f"{_words(step)} step" if step else "?"


def mana_symbols(mana: Any) -> str:
    """``{"G": 2, "R": 1}`` -> ``{R}{G}{G}`` (WUBRGC order); other values as text."""
    if not isinstance(mana, dict):
        return str(mana)
    keys = sorted(mana, key=lambda k: MANA_ORDER.index(k) if k in MANA_ORDER else 9)
    return "".join(f"{{{k}}}" * int(mana[k]) for k in keys) or "nothing"


class _Namer:
    """Names objects as ``Lightning Bolt (bolt#2)``; learns names from the setup and events."""

    def __init__(self, fixture: dict):
        self.names: dict[str, str] = {}
        self.players: set[str] = set()
        for player in (fixture.get("setup") or {}).get("players") or []:
            self.players.add(player.get("id"))
            for zone in (*ZONES, "battlefield"):
                for entry in player.get(zone) or []:
                    self.names[entry.get("alias")] = entry.get("card")

    def learn(self, event: dict) -> None:
        if "name" in event:
            for key in ("card", "object", "new_object"):
                if isinstance(event.get(key), str):
                    self.names.setdefault(event[key], event["name"])

    def __call__(self, ref: Any, card: Any = None) -> str:
        if isinstance(ref, list):
            return ", ".join(self(r) for r in ref) or "nothing"
        if isinstance(ref, dict):  # e.g. a target given as an object
            return self(ref.get("object") or ref.get("player"), ref.get("card"))
        if ref in self.players or ref is None:
            return str(ref)
        base = card if isinstance(card, str) else str(ref).split("#")[0]
        name = self.names.get(ref) or self.names.get(base)
        return f"{name} ({ref})" if name else str(ref)


def _targets(namer: _Namer, event: dict) -> str:
    targets = event.get("targets")
    return f" targeting {namer(targets)}" if targets else ""


def describe_event(event: dict, namer: _Namer, script: list) -> str:
    """One English sentence for ``event`` (FORMAT §6); unknown types fall back to key=value."""
    t, e, n = event.get("type"), event, namer
    obj = n(e.get("object"), e.get("card"))

    def script_input(at: Any) -> str:
        if isinstance(at, int) and 0 <= at < len(script):
            step = script[at]
            rest = " ".join(str(v) for k, v in step.items() if k not in ("action", "player"))
            return f"input #{at} ({' '.join(filter(None, [step.get('player'), step.get('action'), rest]))})"
        return f"input #{at}"

    if t == "game_started":
        return (f"the game starts: {', '.join(e.get('players', []))}; ruleset {e.get('ruleset')}, "
                f"seed {e.get('seed')}")
    if t == "turn_began":
        return f"turn {e.get('turn')} begins ({e.get('active_player')})"
    if t == "step_began":
        return f"{step_name(e.get('step'))} begins"
    if t == "step_ended":
        return f"{step_name(e.get('step'))} ends"
    if t == "priority_received":
        return f"{e.get('player')} receives priority"
    if t == "priority_passed":
        return f"{e.get('player')} passes priority"
    if t == "mana_added":
        return f"{e.get('player')} adds {mana_symbols(e.get('mana'))} ({n(e.get('source'), e.get('card'))})"
    if t == "mana_emptied":
        return f"{e.get('player')}'s unused mana empties: {mana_symbols(e.get('mana'))}"
    if t == "mana_burn":
        return f"{e.get('player')} takes {e.get('amount')} mana burn"
    if t == "land_played":
        return f"{e.get('player')} plays {obj}"
    if t == "spell_cast":
        extra = "".join([
            f", modes {e['modes']}" if e.get("modes") else "",
            f", X={e['x']}" if e.get("x") else "",
            f", kicked {e['kicked']}" if e.get("kicked") else "",
            ", with buyback" if e.get("buyback") else "",
            f", for its {_words(e['alternative'])} cost" if e.get("alternative") else "",
            " face down" if e.get("face_down") else "",
            f" as its {_words(e['face']).capitalize()}" if e.get("face") else "",
            f", paying {mana_symbols(e['mana_paid'])}" if e.get("mana_paid") else ""])
        return f"{e.get('player')} casts {obj}{_targets(n, e)}{extra}"
    if t == "ability_activated":
        return (f"{e.get('player')} activates ability {e.get('ability')} of "
                f"{n(e.get('source'), e.get('source_card'))} ({e.get('object')})"
                f"{_targets(n, e)}")
    if t == "mana_ability_activated":
        return (f"{e.get('player')} activates mana ability {e.get('ability')} of "
                f"{n(e.get('source'), e.get('source_card'))}")
    if t == "ability_triggered":
        delayed = "delayed ability (created by ability " if e.get("delayed") else "ability "
        chapter = f", chapter {e['chapter']}," if "chapter" in e else ""  # a Saga's chapter ability (CR 714.2b)
        return (f"{delayed}{e.get('ability')}{')' if e.get('delayed') else ''}{chapter} of "
                f"{n(e.get('source'), e.get('source_card'))} triggers ({e.get('object')})")
    if t == "ability_put_on_stack":
        return f"{e.get('object')} is put on the stack{_targets(n, e)}"
    if t in ("spell_resolved", "ability_resolved"):
        return f"{obj} resolves"
    if t in ("spell_countered", "ability_countered"):
        return f"{obj} is countered ({_words(e.get('reason'))})"
    if t == "zone_changed":
        return (f"{n(e.get('object'), e.get('card'))} moves from {_words(e.get('from'))} to "
                f"{_words(e.get('to'))} (now {e.get('new_object')})")
    if t == "permanent_entered":
        return f"{obj} enters the battlefield under {e.get('controller')}'s control"
    if t in ("tapped", "untapped"):
        return f"{obj} becomes {t}"
    if t == "card_drawn":
        return f"{e.get('player')} draws {obj}"
    if t == "card_discarded":
        return f"{e.get('player')} discards {obj}"
    if t == "damage_dealt":
        kind = " combat" if e.get("combat") else ""
        return (f"{n(e.get('source'), e.get('source_card'))} deals {e.get('amount')}{kind} damage"
                f" to {n(e.get('target'), e.get('target_card'))}")
    if t == "damage_prevented":
        return (f"{e.get('amount')} damage from {n(e.get('source'))} to {n(e.get('target'))} "
                f"is prevented")
    if t in ("life_gained", "life_lost"):
        verb = "gains" if t == "life_gained" else "loses"
        return f"{e.get('player')} {verb} {e.get('amount')} life (now {e.get('life')})"
    if t in ("destroyed", "sacrificed", "regenerated"):
        return f"{obj} is {t}"
    if t in ("counters_added", "counters_removed"):
        verb = "put on" if t == "counters_added" else "removed from"
        return f"{e.get('count')} {e.get('counter')} counter(s) {verb} {obj}"
    if t == "token_created":
        how = " tapped" if e.get("tapped") else ""
        how += f" and attacking {e.get('attacking')}" if e.get("attacking") and how else (
            f" attacking {e.get('attacking')}" if e.get("attacking") else "")
        return f"{obj} is created{how} under {e.get('controller')}'s control"
    if t == "attackers_declared":
        attackers = [f"{n(a.get('object'), a.get('card'))} → "
                     + (f"{n(a['planeswalker'], a.get('planeswalker_card'))} ({a.get('defender')})"
                        if a.get("planeswalker") else f"{a.get('defender')}")  # FORMAT §12.1
                     for a in e.get("attackers") or []]
        return f"{e.get('player')} attacks with {', '.join(attackers) or 'nothing'}"
    if t == "blockers_declared":
        blocks = [f"{n(b.get('blocker'), b.get('blocker_card'))} blocks "
                  f"{n(b.get('attacker'), b.get('attacker_card'))}" for b in e.get("blocks") or []]
        return f"{e.get('player')} declares blockers: {'; '.join(blocks) or 'none'}"
    if t == "removed_from_combat":
        return f"{obj} is removed from combat"
    if t == "combat_damage_assigned":
        parts = [f"{amount} to {n(who)}" for who, amount in (e.get("assignment") or {}).items()]
        return f"{n(e.get('attacker'))} assigns combat damage: {', '.join(parts)}"
    if t == "state_based_action":
        who = n(e.get("object"), e.get("card")) if e.get("object") else e.get("player")
        return f"state-based action (CR {e.get('rule')}): {who}"
    if t == "control_changed":
        return f"{e.get('controller')} gains control of {obj}"
    if t == "random_outcome":
        how = "scripted" if e.get("scripted") else "from the PRNG"
        return f"random {_words(e.get('kind'))} for {e.get('player')}: {e.get('result')} ({how})"
    if t == "library_shuffled":
        return f"{e.get('player')} shuffles their library"
    if t == "player_lost":
        return f"{e.get('player')} loses the game ({_words(e.get('reason'))})"
    if t == "player_won":
        return f"{e.get('player')} wins the game ({_words(e.get('reason'))})"
    if t == "game_ended":
        return f"the game ends: {_game_over(e)}"
    if t == "pt_changed":
        return f"{obj} is now {e.get('power')}/{e.get('toughness')}"
    if t == "attached":
        return f"{obj} is attached to {n(e.get('attached_to'))}"
    if t == "unattached":
        return f"{obj} becomes unattached from {n(e.get('attached_to'))}"
    if t == "replacement_applied":
        return f"replacement effect (CR {e.get('rule')}): {obj} goes to {_words(e.get('instead'))} instead"
    if t == "regeneration_shield_created":
        return f"{obj} gets a regeneration shield"
    if t == "prevention_shield_created":
        amount = "all" if e.get("amount") is None else f"the next {e.get('amount')}"
        source = f" from {n(e.get('source'))}" if e.get("source") else ""
        return f"{amount} damage{source} to {n(e.get('target'))} will be prevented this turn"
    if t == "token_ceased_to_exist":
        return f"{obj} ceases to exist"
    if t == "draw_from_empty_library":
        return f"{e.get('player')} must draw from an empty library"
    if t == "phases_added":
        return f"additional phases: {', '.join(_words(p) for p in e.get('phases') or [])}"
    if t == "combat_damage_put_on_stack":
        parts = [f"{n(a.get('source'), a.get('source_card'))} → {n(a.get('target'))}: {a.get('amount')}"
                 for a in e.get("assignments") or []]
        return f"combat damage goes on the stack ({'; '.join(parts)})"
    if t == "combat_damage_resolved":
        return "the combat damage on the stack resolves"
    if t == "combat_damage_not_dealt":
        return f"combat damage from {n(e.get('source'))} to {n(e.get('target'))} is not dealt ({_words(e.get('reason'))})"
    if t == "special_action":
        return f"{e.get('player')} takes a special action: {_words(e.get('action'))} {obj}"
    if t == "suspended":
        return f"{obj} is suspended with {e.get('time')} time counters"
    if t == "turned_face_up":
        return f"{obj} is turned face up: {e.get('name')}"
    if t == "turned_face_down":
        return f"{obj} is turned face down"
    if t == "card_revealed":
        return f"{e.get('player')} reveals {obj}"
    if t == "beheld":  # FORMAT §11.5
        how = "revealed from the hand" if e.get("zone") == "hand" else "chosen on the battlefield"
        return f"{e.get('player')} beholds {obj} ({how}) for {e.get('spell')}"
    if t == "spell_copied":
        return f"{e.get('controller')} puts {e.get('object')}, a copy of {n(e.get('original'), e.get('original_card'))}, on the stack{_targets(n, e)}"
    if t == "copy_ceased_to_exist":
        return f"{e.get('object')} ceases to exist"
    if t == "surveilled":
        gone = ", ".join(n(c) for c in e.get("graveyard") or []) or "nothing"
        return f"{e.get('player')} surveils {e.get('count')}: into the graveyard {gone}"
    if t == "library_searched":
        found = n(e.get("found")) if e.get("found") else "nothing"
        return f"{e.get('player')} searches their library and finds {found}"
    if t == "card_cycled":
        return f"{e.get('player')} cycles {obj}"
    if t == "cast_declined":
        return f"{e.get('player')} doesn't cast {n(e.get('card'))} ({_words(e.get('reason'))})"
    if t == "ability_removed":
        return f"{obj} is removed from the stack ({_words(e.get('reason'))})"
    if t == "ability_declined":
        return f"{e.get('player')} chooses not to use {obj}"
    if t == "cost_paid":
        return f"{e.get('player')} pays {mana_symbols(e.get('mana'))}"
    if t == "card_name_chosen":
        return f"{e.get('name')} is the name chosen for {obj}"
    if t == "deck_checked":
        verdict = "legal" if e.get("legal") else "illegal: " + "; ".join(e.get("problems") or [])
        return f"{e.get('player')}'s deck ({e.get('rules')}) is {verdict}"
    if t == "game_not_started":
        return f"the game doesn't start ({_words(e.get('reason'))}: {', '.join(e.get('players') or [])})"
    if t == "mulligan_taken":
        return f"{e.get('player')} takes mulligan #{e.get('mulligans')}"
    if t == "hand_kept":
        return f"{e.get('player')} keeps a hand of {e.get('hand_size')}"
    if t == "types_changed":
        return f"types change ({_words(e.get('change'))}): {', '.join(n(o) for o in e.get('objects') or [])}"
    if t == "action_rejected":
        return (f"✗ REJECTED {script_input(e.get('at'))}: {e.get('code')} — "
                f"{e.get('message', '')}").rstrip(" —")
    if t == "script_error":
        return f"✗ SCRIPT ERROR at {script_input(e.get('at'))}: {e.get('code')} — {e.get('message', '')}"
    return summarize_event(event)


def _game_over(e: dict) -> str:
    if e.get("draw"):
        return "a draw"
    return (f"{', '.join(e.get('winners') or []) or 'nobody'} wins, "
            f"{', '.join(e.get('losers') or []) or 'nobody'} loses")


def _setup_lines(fixture: dict) -> list[str]:
    setup = fixture.get("setup") or {}
    first = setup.get("active_player") or next((p.get("id") for p in setup.get("players") or []), None)
    if setup.get("start_of_game"):  # FORMAT §3.1: turn, step and lands_played are not used
        rules = f", {setup['deck_rules']} deck rules" if setup.get("deck_rules") else ""
        lines = [f"Start: the start of the game (CR 103), {first} plays first, seed {setup.get('seed', 0)}{rules}"]
    else:
        lines = [f"Start: turn {setup.get('turn', 1)}, {first}'s "
                 f"{step_name(setup.get('step', 'precombat_main'))}, seed {setup.get('seed', 0)}, "
                 f"{setup.get('lands_played', 0)} land(s) played"]
    for player in setup.get("players") or []:
        pool = player.get("mana_pool")
        lines.append(f"{player.get('id')}: life {player.get('life', 20)}"
                     + (f", mana pool {mana_symbols(pool)}" if pool else ""))
        for zone in ZONES:
            cards = [f"{c.get('card')} ({c.get('alias')})" for c in player.get(zone) or []]
            if cards:
                label = "library (top first)" if zone == "library" else zone
                lines.append(f"  {label}: {', '.join(cards)}")
        for perm in player.get("battlefield") or []:
            notes = [
                "tapped" if perm.get("tapped") else "",
                "summoning sick" if perm.get("summoning_sick") else "",
                f"{perm['damage']} damage" if perm.get("damage") else "",
                *(f"{k} ×{v}" for k, v in sorted((perm.get("counters") or {}).items())),
                f"attached to {perm['attached_to']}" if perm.get("attached_to") else "",
                f"controlled by {perm['controller']}"
                if perm.get("controller") not in (None, player.get("id")) else "",
            ]
            notes = [x for x in notes if x]
            lines.append(f"  battlefield: {perm.get('card')} ({perm.get('alias')})"
                         + (f" [{', '.join(notes)}]" if notes else ""))
    return lines


def _state_lines(state: dict, namer: _Namer) -> list[str]:
    lines = []
    for pid, player in sorted((state.get("players") or {}).items()):
        zones = ", ".join(f"{zone} {namer(player.get(zone) or [])}" for zone in ZONES[1:]
                          if player.get(zone))
        lost = ", has lost" if player.get("lost") else ""
        lines.append(f"  {pid}: life {player.get('life')}{lost}" + (f"; {zones}" if zones else ""))
    for alias, perm in sorted((state.get("battlefield") or {}).items()):
        notes = ", ".join(x for x in [
            "tapped" if perm.get("tapped") else "",
            f"{perm['power']}/{perm['toughness']}" if "power" in perm else "",
            f"{perm['damage']} damage" if perm.get("damage") else "",
        ] if x)
        lines.append(f"  battlefield: {namer(perm.get('object', alias), alias)}, "
                     f"{perm.get('controller')}" + (f" [{notes}]" if notes else ""))
    if state.get("stack"):
        lines.append(f"  stack (bottom first): {namer([s.get('object') for s in state['stack']])}")
    if state.get("game_over"):
        lines.append(f"  game over: {_game_over(state['game_over'])}")
    return lines


def render(fixture: dict, result: dict, ruleset: str | None = None, priority: bool = False) -> str:
    """The play-by-play of ``result`` (FORMAT §9 shape) for ``fixture`` as multi-line text.

    Sections: title and rulings; the setup (life, zones, permanents with their status); one
    line per event (priority events only with ``priority=True``), each prefixed
    ``T<turn> <active player>, <step>:``; the checkpoints' probes; and whether the result
    meets the fixture's expectations (the mismatches if not).
    """
    setup = fixture.get("setup") or {}
    script = fixture.get("script") or []
    head = f"{fixture.get('id')}" + (f" [{ruleset}]" if ruleset else "")
    lines = [head, f"  {fixture.get('title', '')}",
             f"  rulings: {', '.join(fixture.get('rulings') or []) or '-'}", ""]
    lines += _setup_lines(fixture)
    lines += ["", f"Play ({len(script)} script inputs):"]
    namer = _Namer(fixture)
    turn, active, step = setup.get("turn", 1), setup.get("active_player"), setup.get("step")
    for event in result.get("events") or []:
        namer.learn(event)
        if event.get("type") == "turn_began":
            turn, active = event.get("turn", turn), event.get("active_player", active)
            step = None
        elif event.get("type") == "step_began":
            turn, step = event.get("turn", turn), event.get("step", step)
        if event.get("type") in PRIORITY_EVENTS and not priority:
            continue
        prefix = f"T{turn} {active}" + (f", {_words(step)}" if step else "")
        lines.append(f"  {prefix}: {describe_event(event, namer, script)}")
    lines += ["", "End:"] + _state_lines(result.get("state") or {}, namer)
    for cp in result.get("checkpoints") or []:
        st = cp.get("state") or {}
        lines.append(f"Checkpoint after input #{cp.get('after')}: T{st.get('turn')} "
                     f"{st.get('active_player')}, {_words(st.get('step'))}, "
                     f"priority {st.get('priority')}")
        for probe in cp.get("probes") or []:
            verdict = "legal" if probe.get("legal") else f"illegal ({probe.get('code')})"
            action = " ".join(str(v) for v in (probe.get("action") or {}).values())
            lines.append(f"  {action}: {verdict}")
    mismatches = check(fixture, result)
    lines += ["", "Expectations: met" if not mismatches else "Expectations NOT met:"]
    lines += [f"  {line}" for m in mismatches for line in str(m).splitlines()]
    return "\n".join(lines)
