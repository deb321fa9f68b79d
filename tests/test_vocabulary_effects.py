"""No silent no-ops (issue 14): every shape the card schema accepts changes the game, or
``mtg-judge validate`` refuses it.

The walk reads the vocabulary from ``schema/card.schema.json`` itself (:func:`vocabulary`):
effect types, static effect types, trigger events, keywords, conditions, target spec kinds
(and the zones a ``card`` target may be in) and their other fields, cost parts, ability
kinds and the zones an ability may say it works in, filter keys, reference words, the forms
of a mana ability's ``add``, card-level fields; and the zones a shape works in beyond the
battlefield: the static abilities that affect spells on the stack or their own card as it is
cast (``static_zone``), the zones keywords work in (:data:`KEYWORD_ZONES`, ``keyword_zone``),
the zones an effect acts on (``conformance/card_semantics.EFFECT_ZONES``, ``effect_zone``).
A name added to the schema later is walked too, so it fails here until it has a scenario (or
a refusal, or is listed in :data:`PENDING` with a reason, which pytest reports as an expected
failure, never a skip).

For each shape, a **knock-out** proves it changes the game: a scenario whose cards use the
shape is played twice in-process (``mtg_judge.engine.run_scenario``, as ``conformance/runner``
does), once as written and once with the shape removed from the card data (the effect
deleted, the static or triggered ability deleted, the keyword, condition, cost part or filter
key dropped, a target kind replaced by another, the effects using a reference word deleted, a
mana form replaced by colorless mana). The shape has an effect iff the event log (rejected
inputs and script errors aside) or the final state differ. The scenarios are the fixture
suite's (the first run must pass the fixture's own expectations, written from the rulings,
so the difference is the one the rules call for) plus :data:`EXTRA_SCENARIOS`, tiny
engine-only scenarios for shapes and zones no fixture reaches.

Shapes the engine would ignore are refused by ``validate`` (conformance/card_semantics.py):
:data:`REFUSED` (schema shapes refused wherever they appear) and the ``test_*_refused``
tests check each refusal's file, JSON path and reason; among them issue 14 (a), a static
ability of an instant or sorcery other than its own cost modifier.
"""

from __future__ import annotations

import copy
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from mtg_judge.conformance import card_semantics
from mtg_judge.conformance.lint import lint
from mtg_judge.conformance.runner import Case, collect, run_case
from mtg_judge.engine import run_scenario

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schema" / "card.schema.json").read_text())
CARDS = ROOT / "fixtures" / "cards"


#: Shapes the schema accepts that have no knock-out scenario yet, each with the reason.
#: Each is reported as an expected failure (``xfail``, strict: one that gains a scenario
#: fails until it is removed from here). Nothing is skipped silently.
PENDING: dict[tuple[str, str], str] = {
    # Empty: every shape of the schema has a scenario (or a refusal) as of issue 14 part 2,
    # including those other helpers added meanwhile (win/lose the game, proliferate, loyalty,
    # planeswalker targets, additional steps, return_to_battlefield). A shape added later
    # without one fails test_shape_changes_the_game: give it a scenario, a refusal (REFUSED),
    # or list it here as ("category", "name"): "the reason", reported as an expected failure.
}


#: Keywords that work in more than one zone (CR 113.6, 702): the zones where a card with it
#: starts a scenario that shows it working there (the ``keyword_zone`` shapes). Suspend works
#: in the hand (suspending it) and in exile (time counters, casting it, CR 702.62a); morph in
#: the hand (cast face down) and on the battlefield (turned face up, CR 702.37); changeling
#: everywhere (CR 702.73a: a characteristic-defining ability).
KEYWORD_ZONES: dict[str, tuple[str, ...]] = {
    "suspend": ("hand", "exile"),
    "morph": ("hand", "battlefield"),
    "madness": ("hand",),
    "flashback": ("graveyard",),
    "harmonize": ("graveyard",),
    "cycling": ("hand",),
    "landcycling": ("hand",),
    "changeling": ("battlefield", "hand", "graveyard"),
}


# ------------------------------------------------------------------ the vocabulary
def _defs() -> dict:
    return SCHEMA["$defs"]


def vocabulary() -> list[tuple[str, str]]:
    """Every ``(category, name)`` the card schema enumerates (module docstring)."""
    d = _defs()
    out: list[tuple[str, str]] = []
    out += [("effect", t) for t in d["effect"]["properties"]["type"]["enum"]]
    out += [("static", t) for t in d["static_effect"]["properties"]["type"]["enum"]]
    out += [("trigger", t) for t in d["trigger"]["properties"]["event"]["enum"]]
    named, parametered = d["keyword"]["anyOf"]
    out += [("keyword", k) for k in named["enum"]]
    out += [("keyword", k) for k in parametered["properties"]["keyword"]["enum"]]
    out += [("condition", c) for c in d["condition"]["properties"]]
    out += [("target", k) for k in d["target_spec"]["properties"]["kind"]["enum"]]
    out += [("target", f"card@{z}") for z in d["target_spec"]["properties"]["zone"]["enum"]]
    out += [("target_field", k) for k in d["target_spec"]["properties"] if k not in ("kind", "zone")]
    out += [("cost", c) for c in d["cost"]["properties"]]
    out += [("ability", k) for k in d["ability"]["properties"]["kind"]["enum"]]
    for kind in ("activated", "triggered"):
        zones = d[f"ability_{kind}"]["properties"].get("zone", {}).get("enum", [])
        out += [("ability_zone", f"{kind}@{z}") for z in zones if z != "battlefield"]
    out += [("filter", k) for k in d["filter"]["properties"]]
    out += [("card_field", k) for k in ("enters_tapped", "enters_prepared", "as_enters", "behold")
            if k in SCHEMA["properties"]]
    out += [("spell_field", k) for k in d["spell"]["properties"] if k == "kicker_effects"]
    for stype in d["static_effect"]["properties"]["type"]["enum"]:  # statics that reach the stack
        ref = next((branch["then"]["$ref"] for branch in d["static_effect"]["allOf"]
                    if branch["if"]["properties"]["type"].get("const") == stype), None)
        affected = d[ref.rsplit("/", 1)[1]]["properties"].get("affected", {}) if ref else {}
        if any("spells" in branch.get("properties", {}) for branch in affected.get("anyOf", ())):
            out.append(("static_zone", f"{stype}@spells"))
        if affected.get("const") == "self":  # "This spell costs {1} less": works as it is cast
            out.append(("static_zone", f"{stype}@self"))
    out += [("reference", w) for w in next(b["enum"] for b in d["reference"]["anyOf"] if "enum" in b)]
    out += [("amount", form) for form in amount_forms()]
    out += [("filter_x", k) for k, spec in d["filter"]["properties"].items()  # "mana value X or less"
            if any(b.get("const") == "X" for b in spec.get("anyOf", ()))]
    for branch in d["mana_produced"]["anyOf"]:  # "{G}", {"one_of": …}, {"any_color": n}, …
        out.append(("mana", "symbols" if branch.get("type") == "string" else next(iter(branch["required"]))))
    keywords = {k for c, k in out if c == "keyword"}
    out += [("keyword_zone", f"{k}@{z}") for k, zones in KEYWORD_ZONES.items() if k in keywords for z in zones]
    for (etype, key), zones in sorted(card_semantics.EFFECT_ZONES.items()):
        out += [("effect_zone", f"{etype}.{key}@{z}") for z in sorted(zones) if z != "battlefield"]
    return sorted(set(out))


def amount_forms() -> list[str]:
    """The forms of an amount (``$defs.amount`` and ``$defs.signed_amount``, their ``$ref``s
    followed): its words (``X``, ``-X``, ``damage_dealt``) and the key of each object form
    (``blockers_beyond_first``, ``mana_spent``, ``power_of``, ``counters_on`` …); a plain
    integer is no form (nothing to knock out)."""
    d = _defs()
    out: set[str] = set()

    def visit(node: dict) -> None:
        if "$ref" in node:
            visit(d[node["$ref"].rsplit("/", 1)[1]])
        for key in ("anyOf", "oneOf"):
            for sub in node.get(key, ()):
                visit(sub)
        out.update(v for v in [node.get("const"), *node.get("enum", ())] if isinstance(v, str))
        if node.get("type") == "object":
            out.update(node.get("required", ()))

    visit(d["amount"])
    visit(d["signed_amount"])
    return sorted(out)


@lru_cache(maxsize=1)
def amount_keys() -> dict[str, frozenset[str]]:
    """Effect type -> the keys of that effect whose value is an amount (the schema's
    ``effect_*`` properties that refer to ``amount`` or ``signed_amount``)."""
    out: dict[str, set[str]] = {}
    for name, spec in _defs().items():
        props = spec.get("properties", {}) if name.startswith("effect_") else {}
        tag = props.get("type", {})
        for key, prop in props.items():
            refs = [prop.get("$ref", "")] + [b.get("$ref", "") for b in prop.get("anyOf", ())]
            if any(r.endswith(("/amount", "/signed_amount")) for r in refs):
                for etype in [tag["const"]] if "const" in tag else tag.get("enum", ()):
                    out.setdefault(etype, set()).add(key)
    return {k: frozenset(v) for k, v in out.items()}


def amount_form(value: Any) -> str | None:
    """The form of an amount value (:func:`amount_forms`), None for an integer."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return next((k for k in value if k in amount_forms()), None)
    return None


# ------------------------------------------------------------------ knock-outs
def _walk(node: Any, key: str | None = None) -> Iterator[tuple[Any, str | None]]:
    """Every (value, key it sits under) inside ``node``, depth first."""
    yield node, key
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v, key)


def _kw_name(kw: Any) -> str | None:
    if isinstance(kw, str):
        return kw
    return kw.get("keyword") if isinstance(kw, dict) else None


def _drop_from_lists(card: dict, pred: Callable[[Any, str | None], bool]) -> int:
    """Remove every list item for which ``pred(item, key of the list)``; return how many."""
    n = 0
    for node, key in list(_walk(card)):
        if isinstance(node, list):
            keep = [v for v in node if not pred(v, key)]
            n += len(node) - len(keep)
            node[:] = keep
    return n


def _drop_keys(card: dict, container_keys: tuple[str, ...] | None, name: str,
               empty_parent_key: str | None = None) -> int:
    """Delete key ``name`` from every dict that sits under one of ``container_keys`` (any
    dict when None); a dict left empty under ``empty_parent_key`` is deleted from its parent."""
    n = 0
    for node, key in list(_walk(card)):
        if isinstance(node, dict) and (container_keys is None or key in container_keys) and name in node:
            del node[name]
            n += 1
    if empty_parent_key:
        for node, _ in list(_walk(card)):
            if isinstance(node, dict) and node.get(empty_parent_key) == {}:
                del node[empty_parent_key]
    return n


def _effect_zone_refs(card: dict, etype: str, key: str, zone: str) -> list[tuple[list, dict]]:
    """The (effects list, effect) pairs of ``card`` where effect ``etype``'s ``key`` names a
    target whose spec can be in ``zone``."""
    out = []
    parts = [card] + [f for f in card.get("faces") or () if isinstance(f, dict)]
    for part in parts:
        holders = []
        spell = part.get("spell") or {}
        holders.append((spell.get("targets") or [], spell.get("effects") or []))
        holders += [(m.get("targets") or [], m.get("effects") or []) for m in spell.get("modes") or ()]
        holders += [((spell.get("targets") or []) + (k.get("targets") or []), k.get("effects") or [])
                    for k in spell.get("kicker_effects") or ()]
        holders += [(ab.get("targets") or [], ab.get("effects") or []) for ab in part.get("abilities") or ()
                    if isinstance(ab, dict)]
        for targets, effects in holders:
            for node, _ in _walk(effects):
                if isinstance(node, list):
                    for eff in node:
                        if isinstance(eff, dict) and eff.get("type") == etype:
                            idx = list(card_semantics._target_indexes(eff.get(key)))
                            if any(i < len(targets) and zone in card_semantics.target_zones(targets[i])
                                   for i in idx):
                                out.append((node, eff))
    return out


def knock_out(card: dict, category: str, name: str) -> int:
    """Remove shape ``(category, name)`` from ``card`` in place; return how many places
    changed (0: the card does not use the shape)."""
    if category == "effect":
        return _drop_from_lists(card, lambda v, k: isinstance(v, dict) and v.get("type") == name
                                and "kind" not in v and k not in ("abilities",))
    if category == "static":
        return _drop_from_lists(card, lambda v, k: isinstance(v, dict) and v.get("kind") == "static"
                                and isinstance(v.get("effect"), dict) and v["effect"].get("type") == name)
    if category == "static_zone":  # a static ability that affects spells on the stack / itself as cast
        stype, _, where = name.partition("@")

        def affects(eff: dict) -> bool:
            aff = eff.get("affected")
            return aff == "self" if where == "self" else isinstance(aff, dict) and "spells" in aff
        return _drop_from_lists(card, lambda v, k: isinstance(v, dict) and v.get("kind") == "static"
                                and isinstance(v.get("effect"), dict) and v["effect"].get("type") == stype
                                and affects(v["effect"]))
    if category == "trigger":
        return _drop_from_lists(card, lambda v, k: isinstance(v, dict) and v.get("kind") == "triggered"
                                and isinstance(v.get("trigger"), dict) and v["trigger"].get("event") == name)
    if category == "keyword":
        return _drop_from_lists(card, lambda v, k: k == "keywords" and _kw_name(v) == name)
    if category == "condition":
        return _drop_keys(card, ("condition",), name)  # an empty condition holds
    if category == "cost":
        return _drop_keys(card, ("cost",), name)
    if category == "filter":
        return _drop_keys(card, ("filter", "all", "spells", "object", "source_filter", "blockers",
                                 "targeting"), name)
    if category == "spell_field":
        return _drop_keys(card, ("spell",), name)
    if category == "card_field":
        if name in card:
            del card[name]
            return 1
        return 0
    if category == "ability":
        return _drop_from_lists(card, lambda v, k: k == "abilities" and isinstance(v, dict) and v.get("kind") == name)
    if category == "ability_zone":
        kind, zone = name.split("@")
        return _drop_from_lists(card, lambda v, k: k == "abilities" and isinstance(v, dict)
                                and v.get("kind") == kind and v.get("zone") == zone)
    if category in ("target", "target_field"):
        n = 0
        for node, key in list(_walk(card)):
            specs = node if key == "targets" and isinstance(node, list) else (
                [node] if key == "enchant" and isinstance(node, dict) else [])
            for spec in specs:
                if not isinstance(spec, dict):
                    continue
                if category == "target_field" and name in spec:
                    del spec[name]
                    n += 1
                elif category == "target":
                    kind, _, zone = name.partition("@")
                    if spec.get("kind") == kind and (not zone or spec.get("zone", "graveyard") == zone):
                        spec["kind"] = "player" if kind != "player" else "creature"
                        spec.pop("zone", None)
                        spec.pop("owner", None)
                        n += 1
        return n
    if category == "keyword_zone":
        return knock_out(card, "keyword", name.split("@")[0])
    if category == "reference":  # the effects (and static abilities) that use the word
        def uses(eff: Any) -> bool:
            return isinstance(eff, dict) and any(
                eff.get(key) == name or (isinstance(eff.get(key), list) and name in eff[key])
                for key in ("what", "to", "player", "affected"))
        return _drop_from_lists(card, lambda v, k: isinstance(v, dict) and (
            ("type" in v and "kind" not in v and k != "abilities" and uses(v))
            or (v.get("kind") == "static" and uses(v.get("effect")))))
    if category == "mana":  # a mana ability's "add" of that form makes colorless mana instead
        n = 0
        for node, _ in list(_walk(card)):
            if isinstance(node, dict) and node.get("kind") == "mana" and "add" in node:
                add = node["add"]
                form = "symbols" if isinstance(add, str) else next(iter(add), None)
                if form == name:
                    node["add"] = "{C}" if add != "{C}" else "{W}"
                    n += 1
        return n
    if category == "amount":  # every amount of that form, in an effect's amount keys, becomes 0
        n = 0
        for node, key in list(_walk(card)):
            if isinstance(node, dict) and "type" in node and "kind" not in node and key != "effect":
                for k in amount_keys().get(node["type"], ()):
                    if k in node and amount_form(node[k]) == name:
                        node[k] = 0
                        n += 1
        return n
    if category == "filter_x":  # the filter key's "X" becomes 0
        n = 0
        for node, _ in list(_walk(card)):
            if isinstance(node, dict) and node.get(name) == "X":
                node[name] = 0
                n += 1
        return n
    if category == "effect_zone":
        etype_key, zone = name.split("@")
        etype, key = etype_key.split(".")
        found = _effect_zone_refs(card, etype, key, zone)
        for holder, eff in found:
            if eff in holder:
                holder.remove(eff)
        return len(found)
    raise AssertionError(f"no knock-out for category {category!r}")


# ------------------------------------------------------------------ playing
def _outcome(scenario: dict, ruleset: str) -> Any:
    """The event log and final state of one in-process run (or the error it raised)."""
    data = json.loads(json.dumps(scenario))
    try:
        result = run_scenario(data, ruleset, cards=data.get("cards"))
    except Exception as exc:  # noqa: BLE001 - a knocked-out card may break the script
        return ("raised", type(exc).__name__, str(exc))
    # a rejected input or a script error is not a change of the game by itself (the knocked-
    # out run may refuse an input the script gives for the shape, e.g. its choice): only the
    # other events and the state count
    events = [e for e in result.get("events") or () if e.get("type") not in ("action_rejected", "script_error")]
    return json.dumps([events, result.get("state")], sort_keys=True)


@lru_cache(maxsize=1)
def _cases() -> tuple[Case, ...]:
    return tuple(c for c in collect(ROOT / "fixtures") if not c.problem)


@lru_cache(maxsize=None)
def _passes(index: int) -> bool:
    return run_case(_cases()[index]).status == "passed"


def _candidates(category: str, name: str) -> Iterator[tuple[str, dict, str]]:
    """(label, scenario, ruleset) of each scenario whose cards use the shape: the
    :data:`EXTRA_SCENARIOS` first, then the fixtures whose expectations pass as written."""
    for build in EXTRA_SCENARIOS.get((category, name), ()):
        scenario, ruleset = build()
        yield f"extra:{build.__name__}", scenario, ruleset
    zone = None
    if category == "keyword_zone":  # the keyword's card starts the game in that zone
        name, zone = name.split("@")
        category = "keyword"
    users = _card_users(category, name)
    for i, case in enumerate(_cases()):
        if users & set(case.scenario.get("cards") or ()) and _passes(i) and (
                zone is None or users & _setup_cards_in(case.scenario, zone)):
            yield case.name, case.scenario, case.ruleset


def _setup_cards_in(scenario: dict, zone: str) -> set[str]:
    """The names of the cards the scenario's setup puts in ``zone`` (any player's)."""
    return {e["card"] for p in scenario["setup"]["players"] for e in p.get(zone) or ()
}


@lru_cache(maxsize=None)
def _card_users(category: str, name: str) -> frozenset[str]:
    """The names of the fixture cards that use the shape."""
    return frozenset(card["name"] for card in _all_cards() if knock_out(copy.deepcopy(card), category, name))


@lru_cache(maxsize=1)
def _all_cards() -> tuple[dict, ...]:
    seen: dict[str, dict] = {}
    for case in _cases():
        for card_name, card in (case.scenario.get("cards") or {}).items():
            seen.setdefault(card_name, card)
    return tuple(seen.values())


#: The outcome of each fixture case as written (by case name): many shapes knock out of one.
_BASE: dict[str, Any] = {}


def changes_the_game(category: str, name: str) -> tuple[str | None, list[str]]:
    """The first scenario where knocking the shape out changes the events or the state
    (None if none does), and the scenarios tried."""
    tried = []
    for label, scenario, ruleset in _candidates(category, name):
        tried.append(label)
        knocked = copy.deepcopy(scenario)
        for card in knocked.get("cards", {}).values():
            knock_out(card, category, name)
        base = _BASE.setdefault(label, _outcome(scenario, ruleset)) if not label.startswith("extra:") \
            else _outcome(scenario, ruleset)
        if base != _outcome(knocked, ruleset):
            return label, tried
    return None, tried


@pytest.mark.parametrize("category,name", vocabulary(), ids=lambda v: str(v))
def test_shape_changes_the_game(category: str, name: str) -> None:
    """Knock-out of each schema shape: some scenario plays differently without it."""
    shape = (category, name)
    if shape in REFUSED:
        card, path, words = REFUSED[shape]
        problems = card_semantics.card_problems(card, "fixtures/cards/x.json")
        assert [(p.path, words in p.message) for p in problems] == [(path, True)], problems
        return
    if shape in PENDING:
        found, _ = changes_the_game(category, name)
        if found is not None:
            pytest.fail(f"{shape} now changes the game in {found}: remove it from PENDING")
        pytest.xfail(f"PENDING {shape}: {PENDING[shape]}")
    found, tried = changes_the_game(category, name)
    assert found is not None, (
        f"no scenario shows that {category} {name!r} changes the game (tried {len(tried)}: "
        f"{tried[:6]}): add one to EXTRA_SCENARIOS, make validate refuse the shape, or list it "
        "in PENDING with the reason")


def test_pending_names_only_schema_shapes() -> None:
    """A PENDING entry that the schema no longer has is stale."""
    assert set(PENDING) <= set(vocabulary())
    assert set(REFUSED) <= set(vocabulary())
    assert not set(PENDING) & (set(REFUSED) | set(EXTRA_SCENARIOS))


# ------------------------------------------------------------------ engine-only scenarios
def _fixture_card(name: str) -> dict:
    from mtg_judge.conformance.lint import card_slug

    return json.loads((CARDS / f"{card_slug(name)}.json").read_text())


def _test_card(name: str, types: list[str], oracle: str, **fields: Any) -> dict:
    """A minimal card for an engine-only scenario (never a fixture card)."""
    card = {"name": name, "mana_cost": fields.pop("mana_cost", "{1}"), "type_line": " ".join(types),
            "supertypes": [], "types": types, "subtypes": [], "oracle_text": oracle, "layout": "normal",
            "keywords": [], "abilities": []}
    if "Creature" in types:
        card.update(power=2, toughness=2)
    card.update(fields)
    return card


def _zone(entries: Any) -> list[dict]:
    """``"alias=Card Name"`` strings (or full entry dicts) → setup zone entries."""
    out = []
    for e in entries or ():
        if isinstance(e, str):
            alias, _, card = e.partition("=")
            out.append({"alias": alias, "card": card})
        else:
            out.append(e)
    return out


def run_built(scenario_ruleset: tuple[dict, str]) -> dict:
    """Run a ``(scenario, ruleset)`` of :func:`_game` on the reference engine, the scenario
    through JSON first (as a fixture reaches it): the result of ``run_scenario``."""
    scenario, ruleset = scenario_ruleset
    return run_scenario(json.loads(json.dumps(scenario)), ruleset, cards=scenario["cards"])


def _game(alice: dict, bob: dict, script: list[dict], inline: list[dict] = (), *,
          step: str = "precombat_main", active: str = "alice", ruleset: str = "modern") -> tuple[dict, str]:
    """An engine-only scenario: players ``alice`` and ``bob`` (zones as ``_zone`` entries,
    ``life``, ``mana_pool``), the cards of ``inline`` plus the fixture cards the setup names."""
    players = []
    for pid, spec in (("alice", alice), ("bob", bob)):
        player = {"id": pid, "life": spec.get("life", 20),
                  "library": _zone(spec.get("library", [f"{pid[0]}_lib{i}=Island" for i in range(1, 6)]))}
        for zone in ("hand", "graveyard", "exile", "battlefield"):
            player[zone] = _zone(spec.get(zone))
        if "mana_pool" in spec:
            player["mana_pool"] = spec["mana_pool"]
        players.append(player)
    cards = {c["name"]: c for c in inline}
    for player in players:
        for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
            for entry in player[zone]:
                if entry["card"] not in cards:
                    cards[entry["card"]] = _fixture_card(entry["card"])
    scenario = {"id": "engine.vocabulary", "title": "engine-only vocabulary scenario", "rulings": [],
                "rulesets": [ruleset], "setup": {"seed": 1, "turn": 3, "active_player": active, "step": step,
                                                 "lands_played": 0, "players": players},
                "script": script, "expect": {}, "cards": cards}
    return scenario, ruleset


def _gain(n: int = 1) -> list[dict]:
    return [{"type": "gain_life", "player": "controller", "amount": n}]


def _bolt_the_bears(watcher: dict) -> Callable[[], tuple[dict, str]]:
    """Alice controls ``watcher`` and Grizzly Bears, and Lightning Bolts the Bears: they die
    (the watcher's dies / leaves-the-battlefield / put-into-graveyard trigger)."""
    def bolt_the_bears() -> tuple[dict, str]:
        return _game({"battlefield": ["watcher=" + watcher["name"], "bears=Grizzly Bears"],
                      "hand": ["bolt=Lightning Bolt"], "mana_pool": {"R": 1}}, {},
                     [{"action": "cast", "player": "alice", "card": "bolt", "targets": ["bears"]},
                      {"action": "resolve"}, {"action": "resolve"}], [watcher])
    return bolt_the_bears


def _watcher(event: str) -> dict:
    return _test_card(f"Test {event} watcher", ["Artifact"], f"Whenever a creature {event}, you gain 1 life.",
                      abilities=[{"kind": "triggered", "trigger": {"event": event, "object": {"types": ["Creature"]}},
                                  "effects": _gain()}])


def _attack_and_block(attacker: dict | str, blocker: dict | str) -> Callable[[], tuple[dict, str]]:
    """Alice's ``attacker`` attacks; Bob blocks it with ``blocker``; combat damage follows."""
    inline = [c for c in (attacker, blocker) if isinstance(c, dict)]
    a = attacker["name"] if isinstance(attacker, dict) else attacker
    b = blocker["name"] if isinstance(blocker, dict) else blocker

    def attack_and_block() -> tuple[dict, str]:
        return _game({"battlefield": [f"att={a}"]}, {"battlefield": [f"blk={b}"]},
                     [{"action": "declare_attackers", "player": "alice", "attackers": ["att"]},
                      {"action": "resolve"},
                      {"action": "declare_blockers", "player": "bob", "blocks": [{"blocker": "blk", "attacker": "att"}]},
                      {"action": "resolve"}, {"action": "resolve"}, {"action": "resolve"}],
                     inline, step="declare_attackers")
    return attack_and_block


def _static_creature(name: str, effect: dict, **fields: Any) -> dict:
    return _test_card(name, ["Creature"], name, abilities=[{"kind": "static", "effect": effect}], **fields)


def _sorcery(name: str, targets: list[dict], effects: list[dict], **fields: Any) -> dict:
    return _test_card(name, ["Sorcery"], name, spell={"targets": targets, "effects": effects}, **fields)


def _cast(card: dict, targets: list[str] = (), *, alice: dict | None = None, bob: dict | None = None,
          extra: list[dict] = (), then: list[dict] = ({"action": "resolve"},)) -> Callable[[], tuple[dict, str]]:
    """Alice casts ``card`` (from her hand, with 9 colorless and one of each color in her pool)
    at ``targets``; it resolves."""
    def cast() -> tuple[dict, str]:
        a = dict(alice or {})
        a["hand"] = list(a.get("hand", [])) + [f"spell={card['name']}"]
        a.setdefault("mana_pool", {"C": 9, "W": 1, "U": 1, "B": 1, "R": 1, "G": 1})
        return _game(a, bob or {}, [{"action": "cast", "player": "alice", "card": "spell",
                                    "targets": list(targets)}] + list(then), [card, *extra])
    cast.__name__ = f"cast_{card['name'].lower().replace(' ', '_')}"
    return cast


def _spell_on_the_stack(effect: dict) -> Callable[[], tuple[dict, str]]:
    """Alice casts Grizzly Bears; Bob answers with an instant whose effect acts on target
    spell (``effect``'s ``what`` is ``{"target": 0}``)."""
    answer = _test_card("Test Stack Answer", ["Instant"], "… target spell.",
                        spell={"targets": [{"kind": "spell"}], "effects": [effect]})

    def spell_on_the_stack() -> tuple[dict, str]:
        return _game({"hand": ["bears=Grizzly Bears"], "mana_pool": {"G": 1, "C": 1}},
                     {"hand": ["answer=Test Stack Answer"], "mana_pool": {"C": 1}},
                     [{"action": "cast", "player": "alice", "card": "bears"},
                      {"action": "pass", "player": "alice"},
                      {"action": "cast", "player": "bob", "card": "answer", "targets": ["bears"]},
                      {"action": "resolve"}, {"action": "resolve"}], [answer])
    return spell_on_the_stack


EXTRA_SCENARIOS: dict[tuple[str, str], list[Callable[[], tuple[dict, str]]]] = {
    ("trigger", "dies"): [_bolt_the_bears(_watcher("dies"))],
    ("trigger", "leaves_battlefield"): [_bolt_the_bears(_watcher("leaves_battlefield"))],
    ("trigger", "blocks"): [_attack_and_block("Grizzly Bears", _test_card(
        "Test Blocking Trigger", ["Creature"], "Whenever this creature blocks, you gain 1 life.",
        abilities=[{"kind": "triggered", "trigger": {"event": "blocks", "object": "self"}, "effects": _gain()}]))],
    ("trigger", "becomes_blocked"): [_attack_and_block(_test_card(
        "Test Blocked Trigger", ["Creature"], "Whenever this creature becomes blocked, you gain 1 life.",
        abilities=[{"kind": "triggered", "trigger": {"event": "becomes_blocked", "object": "self"},
                    "effects": _gain()}]), "Grizzly Bears")],
    ("static", "cant_block"): [_attack_and_block("Grizzly Bears", _static_creature(
        "Test Wall of Nothing", {"type": "cant_block", "affected": "self"}))],
    ("static", "can_block_only_flying"): [_attack_and_block("Grizzly Bears", _static_creature(
        "Test Sky Guard", {"type": "can_block_only_flying", "affected": "self"}))],
    ("static", "cant_be_blocked_except"): [_attack_and_block(_static_creature(
        "Test Fearsome", {"type": "cant_be_blocked_except", "affected": "self",
                          "blockers": [{"colors": ["black"]}]}), "Grizzly Bears")],
    ("keyword", "indestructible"): [_cast(_fixture_card("Lightning Bolt"), ["bear"], bob={"battlefield": [
        "bear=Test Darksteel Bear"]}, extra=[_test_card("Test Darksteel Bear", ["Creature"], "Indestructible",
                                                         keywords=["indestructible"])])],
    ("target", "enchantment"): [_cast(_sorcery("Test Enchantment Breaker", [{"kind": "enchantment"}],
                                               [{"type": "destroy", "what": {"target": 0}}]),
                                      ["crusade"], bob={"battlefield": ["crusade=Crusade"]})],
    ("effect", "shuffle_library"): [_cast(_sorcery("Test Shuffle", [], [{"type": "shuffle_library",
                                                                         "player": "controller"}]),
                                          alice={"library": [f"l{i}=Island" for i in range(4)] + [
                                              f"m{i}=Mountain" for i in range(4)]})],
    ("effect_zone", "exile.what@spell"): [_spell_on_the_stack({"type": "exile", "what": {"target": 0}})],
    ("effect_zone", "put_into_graveyard.what@spell"): [
        _spell_on_the_stack({"type": "put_into_graveyard", "what": {"target": 0}})],
    ("effect_zone", "return_to_hand.what@exile"): [_cast(_sorcery(
        "Test Exile Retrieval", [{"kind": "card", "zone": "exile"}], [{"type": "return_to_hand", "what": {"target": 0}}]),
        ["gone"], alice={"exile": ["gone=Grizzly Bears"]})],
}


# ------------------------------------------------------------------ refusals (validate)
def _lint_card(tmp_path: Path, card: dict) -> list:
    """``mtg-judge validate``'s problems for a fixtures folder holding only ``card``."""
    from mtg_judge.conformance.lint import card_slug

    folder = tmp_path / "fixtures"
    (folder / "cards").mkdir(parents=True)
    (folder / "cards" / f"{card_slug(card['name'])}.json").write_text(json.dumps(card))
    return lint(folder, rulings={"documents": {}, "rulings": []})


def _instant(**fields: Any) -> dict:
    """A valid instant ("Draw a card.") with ``fields`` added."""
    card = {"name": "Test Vocabulary Instant", "mana_cost": "{U}", "type_line": "Instant",
            "supertypes": [], "types": ["Instant"], "subtypes": [], "oracle_text": "Draw a card.",
            "layout": "normal", "keywords": [], "abilities": [],
            "spell": {"targets": [], "effects": [{"type": "draw", "player": "controller", "count": 1}]}}
    card.update(fields)
    return card


def _ability_examples() -> dict[str, dict]:
    """One ability of each kind (and one static ability of each static type, keyed
    ``static:<type>``) taken from the fixture cards: the shapes to transplant."""
    out: dict[str, dict] = {}
    for card in sorted(_all_cards(), key=lambda c: c["name"]):
        for ab in card.get("abilities") or ():
            out.setdefault(ab["kind"], ab)
            if ab["kind"] == "static":
                out.setdefault(f"static:{ab['effect']['type']}", ab)
    return out


def test_a_static_ability_of_each_type_on_an_instant_is_refused(tmp_path: Path) -> None:
    """Issue 14 (a): the engine applies no static ability while a spell is on the stack
    (card_semantics.STACK_ABILITY_KINDS is empty), so validate refuses every static ability
    of an instant or sorcery, whatever its type (each static type of the schema that some
    card uses is transplanted onto an instant), naming the file, the path and CR 113.6."""
    examples = _ability_examples()
    static_types = SCHEMA["$defs"]["static_effect"]["properties"]["type"]["enum"]
    assert "static" not in card_semantics.STACK_ABILITY_KINDS
    tried = 0
    for i, stype in enumerate(static_types):
        ab = examples.get(f"static:{stype}")
        if ab is None:
            continue  # no card uses it: test_shape_changes_the_game reports it
        folder = tmp_path / str(i)
        problems = [p for p in _lint_card(folder, _instant(abilities=[ab])) if "instant" in p.message]
        assert [(p.file, p.path) for p in problems] == [
            ("fixtures/cards/test-vocabulary-instant.json", "$.abilities[0]")], (stype, problems)
        assert "static ability of an instant or sorcery would do nothing" in problems[0].message
        assert "CR 113.6" in problems[0].message
        tried += 1
    assert tried >= 10
    conditional = dict(examples["static:cost_reduction"], condition={"threshold": 7})  # "costs {1} less if …"
    sorcery = _instant(abilities=[conditional], types=["Sorcery"], type_line="Sorcery")
    [problem] = _lint_card(tmp_path / "conditional", sorcery)
    assert problem.path == "$.abilities[0]" and "function only while the spell is on the stack" in problem.message


@pytest.mark.parametrize("kind", ["triggered", "activated", "mana", "replacement", "chapter"])
def test_other_abilities_of_an_instant_that_work_only_on_the_battlefield_are_refused(tmp_path: Path, kind: str) -> None:
    ab = _ability_examples()[kind]
    if ab.get("zone") not in (None, "battlefield"):
        ab = {k: v for k, v in ab.items() if k != "zone"}
    problems = _lint_card(tmp_path, _instant(abilities=[ab]))
    [problem] = [p for p in problems if "instant" in p.message]  # (a chapter ability: not a Saga either)
    assert problem.path == "$.abilities[0]"
    assert f"a {kind} ability of an instant or sorcery would do nothing" in problem.message


def test_abilities_that_say_where_they_work_are_allowed_on_an_instant(tmp_path: Path) -> None:
    """CR 113.6b: an activated ability that works from the graveyard, a triggered ability
    that works in exile: the engine applies them there."""
    renew = next(ab for card in _all_cards() for ab in card.get("abilities") or ()
                 if ab["kind"] == "activated" and ab.get("zone") == "graveyard")
    exiled = {"kind": "triggered", "zone": "exile",
              "trigger": {"event": "beginning_of_step", "step": "upkeep", "player": "you"},
              "effects": [{"type": "draw", "player": "controller", "count": 1}]}
    assert _lint_card(tmp_path, _instant(abilities=[renew, exiled])) == []


def test_permanent_keywords_on_an_instant_are_refused(tmp_path: Path) -> None:
    problems = _lint_card(tmp_path, _instant(keywords=["flying", "storm", {"keyword": "ward", "cost": {"mana": "{1}"}}]))
    assert [p.path for p in problems] == ["$.keywords[0]", "$.keywords[2]"]
    assert "keyword 'flying' on an instant or sorcery would do nothing" in problems[0].message


@pytest.mark.parametrize("etype,kind,key,path", [
    ("destroy", "spell", "what", "$.spell.effects[0].what"),
    ("tap", "spell", "what", "$.spell.effects[0].what"),
    ("counter", "creature", "what", "$.spell.effects[0].what"),
    ("copy_spell", "permanent", "what", "$.spell.effects[0].what"),
    ("draw", "creature", "player", "$.spell.effects[0].player"),
    ("destroy", "player", "what", "$.spell.effects[0].what"),
    ("exile", "ability", "what", "$.spell.effects[0].what"),
])
def test_a_target_the_effect_cannot_act_on_is_refused(tmp_path: Path, etype: str, kind: str, key: str,
                                                      path: str) -> None:
    spell = {"targets": [{"kind": kind}], "effects": [{"type": etype, key: {"target": 0}}]}
    if etype == "draw":
        spell["effects"][0]["count"] = 1
    [problem] = _lint_card(tmp_path, _instant(spell=spell))
    assert (problem.file, problem.path) == ("fixtures/cards/test-vocabulary-instant.json", path)
    assert problem.message.startswith(f"{etype} does nothing to a target of kind {kind!r}")


def test_return_to_hand_of_a_target_spell_is_accepted(tmp_path: Path) -> None:
    """Issue 14 (b): "return target spell to its owner's hand" is a shape the engine carries
    out (effect_zone return_to_hand.what@spell above), so validate takes it."""
    spell = {"targets": [{"kind": "spell"}], "effects": [{"type": "return_to_hand", "what": {"target": 0}}]}
    assert _lint_card(tmp_path, _instant(spell=spell)) == []


def test_the_fixture_cards_have_no_refused_shape() -> None:
    problems = [p for card in _all_cards() for p in card_semantics.card_problems(card, card["name"])]
    assert problems == []


# ------------------------------------------------------------------ batch 2: conditions, costs, filters
def _conditional_bear(condition: dict) -> Callable[[], tuple[dict, str]]:
    """Alice controls a 2/2 with "gets +1/+1 as long as <condition>"; the condition is false
    in this game (an empty graveyard, no spell cast, life 20…), so it stays a 2/2."""
    bear = _static_creature("Test Conditional Bear", {"type": "modify_pt", "affected": "self", "power": 1,
                                                       "toughness": 1})
    bear["abilities"][0]["condition"] = condition

    def conditional_bear() -> tuple[dict, str]:
        return _game({"battlefield": ["cb=Test Conditional Bear"]}, {}, [{"action": "pass", "player": "alice"}],
                     [bear])
    conditional_bear.__name__ = f"conditional_bear_{next(iter(condition))}"
    return conditional_bear


def _cast_trigger_condition(condition: dict) -> Callable[[], tuple[dict, str]]:
    """Alice controls "whenever you cast a creature spell, if <condition>, gain 1 life" and
    casts Grizzly Bears for {1}{G} paid with one green and one colorless mana."""
    watcher = _test_card("Test Cast Watcher", ["Enchantment"], "Whenever you cast a creature spell, if …",
                         abilities=[{"kind": "triggered", "trigger": {"event": "spell_cast", "player": "you",
                                                                      "filter": {"types": ["Creature"]}},
                                     "condition": condition, "effects": _gain()}])

    def cast_trigger_condition() -> tuple[dict, str]:
        return _game({"battlefield": ["w=Test Cast Watcher"], "hand": ["bears=Grizzly Bears"],
                      "mana_pool": {"G": 1, "C": 1}}, {},
                     [{"action": "cast", "player": "alice", "card": "bears"}, {"action": "resolve"},
                      {"action": "resolve"}], [watcher])
    cast_trigger_condition.__name__ = f"cast_trigger_{next(iter(condition))}"
    return cast_trigger_condition


def _activate(ability: dict, *, tapped: bool = False, life: int = 20) -> Callable[[], tuple[dict, str]]:
    """Alice activates ``ability`` of an artifact she controls, and it resolves."""
    artifact = _test_card("Test Activated Artifact", ["Artifact"], "…", abilities=[ability])

    def activate() -> tuple[dict, str]:
        return _game({"battlefield": [{"alias": "art", "card": "Test Activated Artifact", "tapped": tapped}],
                      "life": life, "mana_pool": {"C": 5}}, {},
                     [{"action": "activate", "player": "alice", "source": "art", "ability": 0},
                      {"action": "resolve"}], [artifact])
    return activate


def _destroy_all(flt: dict, alice_bf: list, bob_bf: list = (), inline: list[dict] = (), *,
                 step: str = "precombat_main", before: list[dict] = ()) -> Callable[[], tuple[dict, str]]:
    """Alice casts an instant "destroy all creatures that match ``flt``" (after the inputs
    ``before``): the filter key spares some creature that the knock-out destroys too."""
    wrath = _test_card("Test Selective Wrath", ["Instant"], "Destroy all creatures that …",
                       spell={"targets": [], "effects": [{"type": "destroy", "what": {"all": dict(
                           {"types": ["Creature"]}, **flt)}}]})

    def destroy_all() -> tuple[dict, str]:
        return _game({"battlefield": list(alice_bf) + ["land=Plains"], "hand": ["wrath=Test Selective Wrath"]},
                     {"battlefield": list(bob_bf)},
                     list(before) + [{"action": "cast", "player": "alice", "card": "wrath", "pay_with": ["land"]},
                                     {"action": "resolve"}],
                     [wrath, *inline], step=step)
    destroy_all.__name__ = f"destroy_all_{next(iter(flt))}"
    return destroy_all


_LEGEND = _test_card("Test Legendary Bear", ["Creature"], "", supertypes=["Legendary"])
_ATTACK = [{"action": "declare_attackers", "player": "alice", "attackers": ["b1"]}]
_BLOCK = _ATTACK + [{"action": "resolve"},
                    {"action": "declare_blockers", "player": "bob", "blocks": [{"blocker": "x1", "attacker": "b1"}]}]

EXTRA_SCENARIOS.update({
    ("condition", "threshold"): [_conditional_bear({"threshold": 7})],
    ("condition", "cards_in_graveyard_at_least"): [_conditional_bear({"cards_in_graveyard_at_least": 1})],
    ("condition", "card_in_graveyard"): [_conditional_bear({"card_in_graveyard": {"types": ["Instant"]}})],
    ("condition", "own_and_control_named"): [_conditional_bear({"own_and_control_named": "Grizzly Bears"})],
    ("condition", "mana_spent_at_least"): [_conditional_bear({"mana_spent_at_least": 1})],
    ("condition", "mana_spent_colors_at_least"): [_conditional_bear({"mana_spent_colors_at_least": 1})],
    ("condition", "came_under_control_since_last_upkeep"): [
        _conditional_bear({"came_under_control_since_last_upkeep": True}),
        _conditional_bear({"came_under_control_since_last_upkeep": False})],
    ("condition", "life_at_least"): [_conditional_bear({"life_at_least": 30})],
    ("condition", "life_at_most"): [_conditional_bear({"life_at_most": 10})],
    ("condition", "triggering_spell_mana_spent_colors_at_least"): [
        _cast_trigger_condition({"triggering_spell_mana_spent_colors_at_least": 2})],
    ("condition", "triggering_spell_mana_spent_exceeds_power_or_toughness"): [
        _cast_trigger_condition({"triggering_spell_mana_spent_exceeds_power_or_toughness": True})],
    ("cost", "pay_life"): [_activate({"kind": "activated", "cost": {"pay_life": 2},
                                      "effects": [{"type": "draw", "player": "controller", "count": 1}]})],
    ("cost", "untap"): [_activate({"kind": "activated", "cost": {"untap": True},
                                   "effects": [{"type": "draw", "player": "controller", "count": 1}]}, tapped=True)],
    ("filter", "tapped"): [_destroy_all({"tapped": True}, [{"alias": "b1", "card": "Grizzly Bears", "tapped": True},
                                                           "b2=Grizzly Bears"])],
    ("filter", "colorless"): [_destroy_all({"colorless": True}, ["b1=Grizzly Bears", "o1=Ornithopter"])],
    ("filter", "name"): [_destroy_all({"name": "Ornithopter"}, ["b1=Grizzly Bears", "o1=Ornithopter"])],
    ("filter", "not_keywords"): [_destroy_all({"not_keywords": ["flying"]}, ["b1=Grizzly Bears", "o1=Ornithopter"])],
    ("filter", "power_at_most"): [_destroy_all({"power_at_most": 1}, ["b1=Grizzly Bears", "o1=Ornithopter"])],
    ("filter", "supertypes"): [_destroy_all({"supertypes": ["Legendary"]}, ["b1=Grizzly Bears",
                                                                           "l1=Test Legendary Bear"], [], [_LEGEND])],
    ("filter", "attacking"): [_destroy_all({"attacking": True}, ["b1=Grizzly Bears", "b2=Grizzly Bears"],
                                           step="declare_attackers", before=_ATTACK)],
    ("filter", "attacking_or_blocking"): [_destroy_all({"attacking_or_blocking": True},
                                                       ["b1=Grizzly Bears", "b2=Grizzly Bears"],
                                                       step="declare_attackers", before=_ATTACK)],
    ("filter", "blocking"): [_destroy_all({"blocking": True}, ["b1=Grizzly Bears"],
                                          ["x1=Grizzly Bears", "x2=Grizzly Bears"],
                                          step="declare_attackers", before=_BLOCK)],
    ("filter", "attacked_this_turn"): [_destroy_all(
        {"attacked_this_turn": True}, ["b1=Grizzly Bears", "b2=Grizzly Bears"], step="declare_attackers",
        before=_ATTACK + [{"action": "advance", "to": "postcombat_main"}])],
    ("filter", "player"): [_cast(_sorcery("Test Opponent Shock", [{"kind": "player", "filter": {"player": "opponent"}}],
                                          [{"type": "deal_damage", "amount": 2, "to": {"target": 0}}]), ["alice"])],
})


# ------------------------------------------------------------------ batch 3: choices, prevention, ability targets
def _game_builder(build: Callable[[], tuple[dict, str]], name: str) -> Callable[[], tuple[dict, str]]:
    build.__name__ = name
    return build


def _choice_on_bears(effect: dict, choice: Any) -> Callable[[], tuple[dict, str]]:
    """Alice casts a sorcery with ``effect`` on her Grizzly Bears and answers its ``choose``."""
    return _cast(_sorcery(f"Test {effect['type']}", [{"kind": "creature"}], [effect]), ["bears"],
                 alice={"battlefield": ["bears=Grizzly Bears"]},
                 then=[{"action": "resolve"}, {"action": "choose", "player": "alice", "choice": choice}])


def _echo_upkeep() -> tuple[dict, str]:
    """Alice's permanent says "at the beginning of your upkeep, sacrifice it unless you pay
    {1}"; she answers no."""
    pact = _test_card("Test Upkeep Debt", ["Enchantment"], "At the beginning of your upkeep, sacrifice this "
                      "enchantment unless you pay {1}.",
                      abilities=[{"kind": "triggered", "trigger": {"event": "beginning_of_step", "step": "upkeep",
                                                                   "player": "you"},
                                  "effects": [{"type": "pay_or_sacrifice", "cost": "{1}"}]}])
    return _game({"battlefield": ["debt=Test Upkeep Debt"]}, {},
                 [{"action": "resolve"}, {"action": "choose", "player": "alice", "choice": "no"}], [pact], step="upkeep")


def _shield_a_target_player() -> tuple[dict, str]:
    """Bob Lightning Bolts Alice; she answers with an instant "the next time a red source of
    your choice would deal damage to target player this turn, prevent that damage"
    targeting herself and chooses the Bolt."""
    shield = _test_card("Test Red Shield", ["Instant"], "The next time a red source of your choice would deal "
                        "damage to target player this turn, prevent that damage.",
                        spell={"targets": [{"kind": "player"}],
                               "effects": [{"type": "prevent_damage_from_chosen_source", "to": {"target": 0},
                                            "source_filter": {"colors": ["red"]}}]})
    return _game({"hand": ["shield=Test Red Shield"], "mana_pool": {"C": 1}},
                 {"hand": ["bolt=Lightning Bolt"], "mana_pool": {"R": 1}},
                 [{"action": "cast", "player": "bob", "card": "bolt", "targets": ["alice"]},
                  {"action": "pass", "player": "bob"},
                  {"action": "cast", "player": "alice", "card": "shield", "targets": ["alice"]},
                  {"action": "resolve"}, {"action": "choose", "player": "alice", "choice": "bolt"},
                  {"action": "resolve"}], [shield], active="bob")


def _stifle_an_activated_ability() -> tuple[dict, str]:
    """Bob activates an artifact's ability; Alice tries to counter it with "counter target
    triggered ability" (an activated ability is not a legal target)."""
    stifle = _test_card("Test Trigger Stifle", ["Instant"], "Counter target triggered ability.",
                        spell={"targets": [{"kind": "ability", "filter": {"ability_kinds": ["triggered"]}}],
                               "effects": [{"type": "counter", "what": {"target": 0}}]})
    artifact = _test_card("Test Activated Artifact", ["Artifact"], "{1}: Draw a card.",
                          abilities=[{"kind": "activated", "cost": {"mana": "{1}"},
                                      "effects": [{"type": "draw", "player": "controller", "count": 1}]}])
    return _game({"hand": ["stifle=Test Trigger Stifle"], "mana_pool": {"C": 1}},
                 {"battlefield": ["art=Test Activated Artifact"], "mana_pool": {"C": 1}},
                 [{"action": "activate", "player": "bob", "source": "art", "ability": 0},
                  {"action": "pass", "player": "bob"},
                  {"action": "cast", "player": "alice", "card": "stifle", "targets": ["ability#1"]},
                  {"action": "resolve"}, {"action": "resolve"}], [stifle, artifact], active="bob")


EXTRA_SCENARIOS.update({
    ("effect", "modify_pt_choice"): [_choice_on_bears(
        {"type": "modify_pt_choice", "what": {"target": 0}, "options": [[2, -2], [-2, 2]]}, "+2/-2")],
    ("effect", "set_creature_type_choice"): [_choice_on_bears(
        {"type": "set_creature_type_choice", "what": {"target": 0}}, "Elf")],
    ("effect", "pay_or_sacrifice"): [_echo_upkeep],
    ("effect_zone", "prevent_damage_from_chosen_source.to@player"): [_shield_a_target_player],
    ("filter", "ability_kinds"): [_stifle_an_activated_ability],
    ("static", "cant_attack"): [_game_builder(
        lambda: _game({"battlefield": ["att=Test Pacifist"]}, {},
                      [{"action": "declare_attackers", "player": "alice", "attackers": ["att"]},
                       {"action": "advance", "to": "end"}],
                      [_static_creature("Test Pacifist", {"type": "cant_attack", "affected": "self"})],
                      step="declare_attackers"), "pacifist_attacks")],
    ("static_zone", "cost_increase@self"): [_cast(_test_card(
        "Test Taxing Word", ["Instant"], "This spell costs {1} more to cast. Draw a card.", mana_cost="{U}",
        abilities=[{"kind": "static", "effect": {"type": "cost_increase", "cost": "{1}", "affected": "self"}}],
        spell={"targets": [], "effects": [{"type": "draw", "player": "controller", "count": 1}]}),
        alice={"mana_pool": {"U": 1}})],
    ("filter", "face_down"): [_destroy_all({"face_down": True}, [
        {"alias": "b1", "card": "Hystrodon", "face_down": True}, "b2=Grizzly Bears"])],
})

#: Shapes the schema accepts that ``validate`` refuses wherever they appear (the engine could
#: never carry them out): a card using it, the JSON path and words of the refusal.
REFUSED: dict[tuple[str, str], tuple[dict, str, str]] = {
    ("cost", "discard_self"): (
        _test_card("Test Discard Self", ["Artifact"], "Discard this card: Draw a card.",
                   abilities=[{"kind": "activated", "cost": {"discard_self": True},
                               "effects": [{"type": "draw", "player": "controller", "count": 1}]}]),
        "$.abilities[0].cost.discard_self", "could never be paid"),
}


def test_triggers_that_could_never_trigger_are_refused(tmp_path: Path) -> None:
    """A triggered mana ability needs the tapped_for_mana trigger and that trigger needs
    ``"mana_ability": true`` (CR 605.1b); chapter abilities need a Saga (CR 714.2)."""
    add = [{"type": "add_mana", "mana": "{G}", "player": "enchanted_controller"}]
    cases = [
        {"kind": "triggered", "trigger": {"event": "tapped_for_mana", "object": "enchanted"}, "effects": add},
        {"kind": "triggered", "mana_ability": True, "trigger": {"event": "enters_battlefield", "object": "self"},
         "effects": _gain()},
        {"kind": "chapter", "chapters": [1], "effects": _gain()},
    ]
    for i, ab in enumerate(cases):
        card = _test_card("Test Never Triggers", ["Artifact"], "…", abilities=[ab])
        problems = [p for p in _lint_card(tmp_path / str(i), card) if "enchanted" not in p.message]
        assert [p.path for p in problems] == ["$.abilities[0]"], (ab, problems)
        assert "could never trigger" in problems[0].message
    saga = _test_card("Test Saga", ["Enchantment"], "I — You gain 1 life.", subtypes=["Saga"],
                      abilities=[cases[2]])
    assert _lint_card(tmp_path / "saga", saga) == []


def test_how_a_permanent_enters_is_refused_on_an_instant(tmp_path: Path) -> None:
    problems = _lint_card(tmp_path, _instant(enters_tapped=True))
    assert [p.path for p in problems] == ["$.enters_tapped"]
    assert "enters_tapped on an instant or sorcery would do nothing" in problems[0].message


def test_a_spells_own_cost_modifier_is_accepted_and_applied(tmp_path: Path) -> None:
    """Issue 14 (a), the other way: "This spell costs {1} less to cast if …" (``"affected":
    "self"`` with a condition) is the static ability of an instant the engine applies as it
    is cast (engine/spell_statics.py): validate takes it; with a filter it is refused."""
    own = {"kind": "static", "effect": {"type": "cost_reduction", "cost": "{1}", "affected": "self"},
           "condition": {"threshold": 1}}
    assert _lint_card(tmp_path / "ok", _instant(abilities=[own], mana_cost="{1}{U}")) == []
    bad = copy.deepcopy(own)
    bad["effect"]["filter"] = {"types": ["Instant"]}
    [problem] = _lint_card(tmp_path / "bad", _instant(abilities=[bad]))
    assert problem.path == "$.abilities[0].effect.filter" and "would do nothing" in problem.message
    card = _instant(abilities=[own], mana_cost="{1}{U}", name="Test Vocabulary Instant")
    for graveyard, paid in (([], None), (["g1=Island"], {"U": 1})):
        scenario, ruleset = _game({"hand": ["spell=Test Vocabulary Instant"], "graveyard": graveyard,
                                   "mana_pool": {"U": 1}}, {},
                                  [{"action": "cast", "player": "alice", "card": "spell"}], [card])
        events = run_scenario(scenario, ruleset, cards=scenario["cards"])["events"]
        cast = [e for e in events if e["type"] == "spell_cast"]
        if paid is None:  # the condition is false: {1}{U} with one blue mana can't be paid
            assert not cast and any(e["type"] == "action_rejected" for e in events)
        else:  # threshold 1 holds: {U}
            assert [e["mana_paid"] for e in cast] == [paid]


def test_spell_only_keywords_on_a_permanent_are_refused(tmp_path: Path) -> None:
    bear = _test_card("Test Buyback Bear", ["Creature"], "Buyback {2}",
                      keywords=[{"keyword": "buyback", "cost": "{2}"}, "paradigm"])
    problems = _lint_card(tmp_path, bear)
    assert [p.path for p in problems] == ["$.keywords[0]", "$.keywords[1]"]
    assert "keyword 'buyback' on a card that is not an instant or sorcery would do nothing" in problems[0].message


def test_references_that_name_nothing_are_refused(tmp_path: Path) -> None:
    """``triggering_object`` in a spell (no trigger event), ``enchanted`` on a non-Aura."""
    spell = {"targets": [], "effects": [{"type": "destroy", "what": "triggering_object"},
                                        {"type": "tap", "what": "enchanted"}]}
    problems = _lint_card(tmp_path / "a", _instant(spell=spell))
    assert [p.path for p in problems] == ["$.spell.effects[0].what", "$.spell.effects[1].what"]
    assert "'triggering_object' names nothing here" in problems[0].message
    assert "'enchanted' names nothing: this card is not an Aura" in problems[1].message
    delayed = {"targets": [], "effects": [{"type": "create_delayed_trigger",
                                           "trigger": {"event": "dies", "object": {"types": ["Creature"]}},
                                           "effects": [{"type": "exile", "what": "triggering_card"}]}]}
    assert _lint_card(tmp_path / "b", _instant(spell=delayed)) == []


# ------------------------------------------------------------------ batch 4: vocabulary added meanwhile
def _garruk_makes_a_beast() -> tuple[dict, str]:
    """Alice activates Garruk Wildspeaker's -1 (a loyalty ability, CR 606.4)."""
    return _game({"battlefield": [{"alias": "garruk", "card": "Garruk Wildspeaker", "counters": {"loyalty": 3}}]}, {},
                 [{"action": "activate", "player": "alice", "source": "garruk", "ability": 1},
                  {"action": "resolve"}])


EXTRA_SCENARIOS.update({
    ("effect", "win_game"): [_cast(_sorcery("Test Victory", [], [{"type": "win_game", "player": "controller"}]))],
    ("effect", "lose_game"): [_cast(_sorcery("Test Defeat", [], [{"type": "lose_game", "player": "each_opponent"}]))],
    ("effect", "additional_step"): [_cast(_sorcery("Test Second Upkeep", [], [{"type": "additional_step",
                                                                               "step": "upkeep"}]),
                                          then=[{"action": "resolve"},
                                                {"action": "advance", "to": "beginning_of_combat"}])],
    ("effect_zone", "return_to_battlefield.what@exile"): [_cast(_sorcery(
        "Test Exile Return", [{"kind": "card", "zone": "exile"}], [{"type": "return_to_battlefield",
                                                                    "what": {"target": 0}}]),
        ["gone"], alice={"exile": ["gone=Grizzly Bears"]})],
    ("cost", "loyalty"): [_garruk_makes_a_beast],
    ("target", "planeswalker"): [_cast(_sorcery("Test Planeswalker Shock", [{"kind": "planeswalker"}],
                                                [{"type": "deal_damage", "amount": 2, "to": {"target": 0}}]),
                                       ["garruk"], bob={"battlefield": [{"alias": "garruk", "card": "Garruk Wildspeaker",
                                                                         "counters": {"loyalty": 3}}]})],
})


# ------------------------------------------------------------------ batch 5: keywords in their other zones
_SHIFTER = _test_card("Test Shapeshifter", ["Creature"], "Changeling (This card is every creature type.)",
                      subtypes=["Shapeshifter"], keywords=["changeling"])


def _behold_a_changeling() -> tuple[dict, str]:
    """Alice casts Caustic Exhale ("behold a Dragon or pay {1}") with only {B}, beholding a
    changeling creature card in her hand: it is a Dragon there too (CR 702.73a)."""
    return _game({"hand": ["exhale=Caustic Exhale", "shifter=Test Shapeshifter"], "mana_pool": {"B": 1}},
                 {"battlefield": ["bears=Grizzly Bears"]},
                 [{"action": "cast", "player": "alice", "card": "exhale", "targets": ["bears"], "behold": "shifter"},
                  {"action": "resolve"}], [_SHIFTER])


def _changeling_in_the_graveyard() -> tuple[dict, str]:
    """A 2/2 gets +1/+1 as long as there is an Elf card in its controller's graveyard; the
    only card there is a changeling creature card, every creature type in every zone."""
    bear = _static_creature("Test Elf Mourner", {"type": "modify_pt", "affected": "self", "power": 1, "toughness": 1})
    bear["abilities"][0]["condition"] = {"card_in_graveyard": {"subtypes": ["Elf"]}}
    return _game({"battlefield": ["m=Test Elf Mourner"], "graveyard": ["shifter=Test Shapeshifter"]}, {},
                 [{"action": "pass", "player": "alice"}], [bear, _SHIFTER])


def _cycle_from_the_hand() -> tuple[dict, str]:
    """Alice cycles Backslide from her hand (CR 702.29a): she discards it and draws."""
    return _game({"hand": ["slide=Backslide"], "mana_pool": {"U": 1}}, {},
                 [{"action": "activate", "player": "alice", "source": "slide", "ability": "cycling"},
                  {"action": "resolve"}])


EXTRA_SCENARIOS.update({
    ("keyword_zone", "changeling@hand"): [_behold_a_changeling],
    ("keyword_zone", "changeling@graveyard"): [_changeling_in_the_graveyard],
    ("keyword_zone", "cycling@hand"): [_cycle_from_the_hand],
})



# ------------------------------------------------------------------ batch 6: references, mana forms
def _attacker_with(trigger: str, effect: dict) -> dict:
    return _test_card(f"Test {trigger} Raider", ["Creature"], "…",
                      abilities=[{"kind": "triggered", "trigger": {"event": trigger, "object": "self"},
                                  "effects": [effect]}])


def _dual_land_pays_white() -> tuple[dict, str]:
    """Alice taps a land that adds {W} or {U} for white to cast a {W} sorcery."""
    land = _test_card("Test Dual Land", ["Land"], "{T}: Add {W} or {U}.", mana_cost=None,
                      abilities=[{"kind": "mana", "cost": {"tap": True}, "add": {"one_of": ["{W}", "{U}"]}}])
    spell = _sorcery("Test White Word", [], [{"type": "draw", "player": "controller", "count": 1}], mana_cost="{W}")
    return _game({"battlefield": ["dual=Test Dual Land"], "hand": ["word=Test White Word"]}, {},
                 [{"action": "cast", "player": "alice", "card": "word", "pay_with": [{"source": "dual", "color": "W"}]},
                  {"action": "resolve"}], [land, spell])


EXTRA_SCENARIOS.update({
    ("reference", "defending_player"): [_attack_and_block(_attacker_with(
        "attacks", {"type": "lose_life", "player": "defending_player", "amount": 1}), "Grizzly Bears")],
    ("reference", "created_tokens"): [_cast(_sorcery("Test Tapped Recruits", [], [
        {"type": "create_token", "count": 1, "token": {"name": "Soldier", "types": ["Creature"], "subtypes": ["Soldier"],
                                                       "colors": ["white"], "power": 1, "toughness": 1, "keywords": []}},
        {"type": "tap", "what": "created_tokens"}]))],
    ("mana", "one_of"): [_dual_land_pays_white],
})
REFUSED[("reference", "exiled_cards")] = (
    _sorcery("Test Stray Return", [], [{"type": "return_to_battlefield", "what": "exiled_cards"}]),
    "$.spell.effects[0].what", "names nothing in a card's data")
REFUSED[("reference", "blocking_creature")] = (
    _attacker_with("becomes_blocked", {"type": "modify_pt", "what": "blocking_creature", "power": -1,
                                       "toughness": -1, "duration": "end_of_turn"}),
    "$.abilities[0].effects[0].what", "names nothing in a card's data")



# ------------------------------------------------------------------ batch 7: exile conditions
def _exiled_watcher(condition: dict) -> dict:
    return _test_card("Test Exiled Watcher", ["Creature"], "While this card is exiled, at the beginning of your "
                      "upkeep, if …, you gain 1 life.",
                      abilities=[{"kind": "triggered", "zone": "exile", "condition": condition,
                                  "trigger": {"event": "beginning_of_step", "step": "upkeep", "player": "you"},
                                  "effects": _gain()}])


def _not_suspended_in_exile() -> tuple[dict, str]:
    """The watcher is exiled without time counters (not suspended, CR 702.62b): "if it's
    suspended" is false as its upkeep begins."""
    return _game({"exile": ["w=Test Exiled Watcher"]}, {}, [{"action": "resolve"}],
                 [_exiled_watcher({"suspended": True})], step="upkeep")


def _leaves_exile_in_response() -> tuple[dict, str]:
    """The watcher's trigger ("if this card is still exiled") goes on the stack; Alice
    returns the card from exile to her hand in response, so the condition is false as the
    trigger resolves (CR 603.4)."""
    retrieve = _test_card("Test Exile Recall", ["Instant"], "Return target card in exile to its owner's hand.",
                          spell={"targets": [{"kind": "card", "zone": "exile"}],
                                 "effects": [{"type": "return_to_hand", "what": {"target": 0}}]})
    return _game({"exile": ["w=Test Exiled Watcher"], "hand": ["recall=Test Exile Recall"], "mana_pool": {"C": 1}}, {},
                 [{"action": "cast", "player": "alice", "card": "recall", "targets": ["w"]},
                  {"action": "resolve"}, {"action": "resolve"}],
                 [_exiled_watcher({"in_exile": True}), retrieve], step="upkeep")


EXTRA_SCENARIOS.update({
    ("condition", "suspended"): [_not_suspended_in_exile],
    ("condition", "in_exile"): [_leaves_exile_in_response],
})


def test_conditions_that_could_never_hold_and_replacements_of_others_are_refused(tmp_path: Path) -> None:
    bear = _static_creature("Test Exile Bear", {"type": "modify_pt", "affected": "self", "power": 1, "toughness": 1})
    bear["abilities"][0]["condition"] = {"in_exile": True}
    spell = {"targets": [], "effects": [{"type": "conditional",
                                         "condition": {"triggering_spell_mana_spent_at_least": 2},
                                         "then": _gain()}]}
    replacement = _test_card("Test Other Replacement", ["Artifact"], "…", abilities=[
        {"kind": "replacement", "event": "put_into_graveyard_from_battlefield", "affected": {"all": {"types": ["Creature"]}},
         "instead": {"to": "library_top"}}])
    cases = [(bear, "$.abilities[0].condition.in_exile", "could never hold here"),
             (_instant(spell=spell), "$.spell.effects[0].condition.triggering_spell_mana_spent_at_least",
              "could never hold here"),
             (replacement, "$.abilities[0].affected", "replacement that affects something else")]
    for i, (card, path, words) in enumerate(cases):
        problems = _lint_card(tmp_path / str(i), card)
        assert [(p.path, words in p.message) for p in problems] == [(path, True)], problems
    assert _lint_card(tmp_path / "ok", _exiled_watcher({"suspended": True})) == []


def test_self_in_a_spells_effects_is_refused_but_not_in_its_tokens(tmp_path: Path) -> None:
    spell = {"targets": [], "effects": [{"type": "exile", "what": "self"}]}
    [problem] = _lint_card(tmp_path / "a", _instant(spell=spell))
    assert problem.path == "$.spell.effects[0].what" and "names the spell itself" in problem.message
    token_self = next(c for c in _all_cards() if c["name"] == "Gysahl Greens")  # a token's "this token"
    assert card_semantics.card_problems(token_self, "x") == []


def _kicked_draw() -> tuple[dict, str]:
    """Alice casts a kicked "Draw a card; if kicked, draw another" (CR 702.33)."""
    spell = _sorcery("Test Kicked Study", [], [{"type": "draw", "player": "controller", "count": 1}],
                     keywords=[{"keyword": "kicker", "costs": ["{1}"]}])
    spell["spell"]["kicker_effects"] = [{"kicker": 0, "effects": [{"type": "draw", "player": "controller",
                                                                   "count": 1}]}]
    return _game({"hand": ["study=Test Kicked Study"], "mana_pool": {"C": 2}}, {},
                 [{"action": "cast", "player": "alice", "card": "study", "kicker": [0]}, {"action": "resolve"}],
                 [spell])


EXTRA_SCENARIOS[("spell_field", "kicker_effects")] = [_kicked_draw]


# Croaking Counterpart's "target non-Frog creature" (filter not_subtypes): at a Frog it is
# rejected; without the filter key it would make a token copy of the Frog.
EXTRA_SCENARIOS.update({
    ("filter", "not_subtypes"): [_cast(_fixture_card("Croaking Counterpart"), ["frog"], bob={"battlefield": [
        "frog=Test Frog"]}, extra=[_test_card("Test Frog", ["Creature"], "", subtypes=["Frog"])])],
})


# The phasing keyword (CR 702.26a): Teferi's Drake phases out in its controller's untap step;
# without the keyword it stays.
EXTRA_SCENARIOS[("keyword", "phasing")] = [_game_builder(
    lambda: _game({"battlefield": ["drake=Teferi's Drake"]}, {}, [{"action": "advance", "to": "upkeep", "turn": 4}],
                  step="end", active="bob"), "_drake_phases_out")]


# ------------------------------------------------------------------ amounts read from the game
# Issue 23: the forms of an amount each change some game when knocked out (made 0). Rabid Bite
# (power_of, deal_damage's from), a destroy-then-gain-its-toughness sorcery (toughness_of, read
# from the destroyed creature's last known information, CR 608.2h), Magma Mine with pressure
# and charge counters (counters_on and its counter), "-X/-X" and rampage's count.
def _rabid_bite() -> tuple[dict, str]:
    """Alice's Grizzly Bears bite Bob's Serra Angel (2 damage, from the Bears)."""
    return _game({"hand": ["bite=Rabid Bite"], "battlefield": ["mine=Grizzly Bears"], "mana_pool": {"G": 1, "C": 1}},
                 {"battlefield": ["his=Serra Angel"]},
                 [{"action": "cast", "player": "alice", "card": "bite", "targets": ["mine", "his"]},
                  {"action": "resolve"}])


def _sever_and_gain() -> tuple[dict, str]:
    """"Destroy target creature. You gain life equal to its toughness": Serra Angel, 4."""
    spell = _sorcery("Test Sever", [{"kind": "creature"}], [
        {"type": "destroy", "what": {"target": 0}},
        {"type": "gain_life", "player": "controller", "amount": {"toughness_of": {"target": 0}}}])
    return _game({"hand": ["s=Test Sever"], "mana_pool": {"C": 1}}, {"battlefield": ["his=Serra Angel"]},
                 [{"action": "cast", "player": "alice", "card": "s", "targets": ["his"]}, {"action": "resolve"}],
                 [spell])


def _magma_mine() -> tuple[dict, str]:
    """Alice sacrifices Magma Mine (2 pressure and 1 charge counters): 2 damage to Bob."""
    return _game({"battlefield": [{"alias": "mm", "card": "Magma Mine", "counters": {"pressure": 2, "charge": 1}}]}, {},
                 [{"action": "activate", "player": "alice", "source": "mm", "ability": 1, "targets": ["bob"]},
                  {"action": "resolve"}])


def _minus_x() -> tuple[dict, str]:
    """"Target creature gets -X/-X until end of turn" with X = 2 on Grizzly Bears."""
    spell = _sorcery("Test Wither", [{"kind": "creature"}], [
        {"type": "modify_pt", "what": {"target": 0}, "power": "-X", "toughness": "-X", "duration": "end_of_turn"}],
        mana_cost="{X}{B}")
    return _game({"hand": ["s=Test Wither"], "mana_pool": {"B": 1, "C": 2}}, {"battlefield": ["his=Grizzly Bears"]},
                 [{"action": "cast", "player": "alice", "card": "s", "targets": ["his"], "x": 2}, {"action": "resolve"}],
                 [spell])


def _rampaging_double_block() -> tuple[dict, str]:
    """Alice's creature "gets +1/+1 for each creature blocking it beyond the first" when it
    becomes blocked (rampage's effect, written out); Bob blocks it with two Grizzly Bears."""
    rampager = _test_card("Test Rampager", ["Creature"], "…", abilities=[
        {"kind": "triggered", "trigger": {"event": "becomes_blocked", "object": "self"},
         "effects": [{"type": "modify_pt", "what": "self", "power": {"blockers_beyond_first": 1},
                      "toughness": {"blockers_beyond_first": 1}, "duration": "end_of_turn"}]}])
    return _game({"battlefield": ["att=Test Rampager"]}, {"battlefield": ["b1=Grizzly Bears", "b2=Grizzly Bears"]},
                 [{"action": "declare_attackers", "player": "alice", "attackers": ["att"]}, {"action": "resolve"},
                  {"action": "declare_blockers", "player": "bob", "blocks": [{"blocker": "b1", "attacker": "att"},
                                                                            {"blocker": "b2", "attacker": "att"}]},
                  {"action": "resolve"}], [rampager], step="declare_attackers")


def _gain_twice() -> tuple[dict, str]:
    """"You gain 2 life, then you gain life equal to the life you gained this turn" (FORMAT
    §11.1's bookkeeping amount; no card of the pool uses it as an amount yet): 20 + 2 + 2."""
    spell = _sorcery("Test Second Wind", [], [
        {"type": "gain_life", "player": "controller", "amount": 2},
        {"type": "gain_life", "player": "controller", "amount": {"life_gained_this_turn": "you"}}])
    return _game({"hand": ["s=Test Second Wind"], "mana_pool": {"C": 1}}, {},
                 [{"action": "cast", "player": "alice", "card": "s"}, {"action": "resolve"}], [spell])


def _small_sweep() -> tuple[dict, str]:
    """"Destroy each creature with mana value X or less", X = 2: Bob's Grizzly Bears (2) die,
    his Serra Angel (5) stays (an "X" in an {"all": F} reference, engine/targets.py
    filter_with_x)."""
    spell = _sorcery("Test Small Sweep", [], [
        {"type": "destroy", "what": {"all": {"types": ["Creature"], "mana_value_at_most": "X"}}}], mana_cost="{X}{B}")
    return _game({"hand": ["s=Test Small Sweep"], "mana_pool": {"B": 1, "C": 2}},
                 {"battlefield": ["bears=Grizzly Bears", "angel=Serra Angel"]},
                 [{"action": "cast", "player": "alice", "card": "s", "x": 2}, {"action": "resolve"}], [spell])


EXTRA_SCENARIOS.update({
    ("filter_x", "mana_value_at_most"): [_small_sweep],
    ("amount", "life_gained_this_turn"): [_gain_twice],
    ("amount", "power_of"): [_rabid_bite],
    ("amount", "toughness_of"): [_sever_and_gain],
    ("amount", "counters_on"): [_magma_mine],
    ("amount", "-X"): [_minus_x],
    ("amount", "blockers_beyond_first"): [_rampaging_double_block],
})


# Bonecrusher Giant // Stomp: "whenever this creature becomes the target of a spell" (CR 603.2;
# without the trigger bob loses no life) and "damage can't be prevented this turn" (CR 615.12;
# without it the Salve's shield prevents Stomp's damage to the Bears).
EXTRA_SCENARIOS[("trigger", "becomes_target")] = [_game_builder(
    lambda: _game({"battlefield": ["giant=Bonecrusher Giant"]}, {"hand": ["bolt=Lightning Bolt"],
                                                                 "battlefield": ["m1=Mountain"]},
                  [{"action": "pass", "player": "alice"},
                   {"action": "cast", "player": "bob", "card": "bolt", "targets": ["giant"], "pay_with": ["m1"]},
                   {"action": "resolve"}, {"action": "resolve"}]), "_bolt_the_giant")]
EXTRA_SCENARIOS[("effect", "damage_cant_be_prevented")] = [_game_builder(
    lambda: _game({"hand": ["giant=Bonecrusher Giant"], "battlefield": ["m1=Mountain", "m2=Mountain"]},
                  {"hand": ["salve=Healing Salve"], "battlefield": ["p1=Plains", "bears=Grizzly Bears"]},
                  [{"action": "pass", "player": "alice"},
                   {"action": "cast", "player": "bob", "card": "salve", "modes": [1], "targets": ["bears"],
                    "pay_with": ["p1"]},
                   {"action": "resolve"},
                   {"action": "cast", "player": "alice", "card": "giant", "face": "adventure", "targets": ["bears"],
                    "pay_with": ["m1", "m2"]},
                   {"action": "resolve"}]), "_stomp_the_shielded_bears"), _game_builder(
    # "this turn", not "this combat" (CR 615.12, 514.2): after combat, bob's Salve shield does
    # not prevent Shock's damage to the Bears while Stomp's effect lasts (the duration walk)
    lambda: _game({"hand": ["giant=Bonecrusher Giant", "shock=Shock"],
                   "battlefield": ["m1=Mountain", "m2=Mountain", "m3=Mountain"]},
                  {"hand": ["salve=Healing Salve"], "battlefield": ["p1=Plains", "bears=Grizzly Bears"]},
                  [{"action": "cast", "player": "alice", "card": "giant", "face": "adventure", "targets": ["bob"],
                    "pay_with": ["m1", "m2"]},
                   {"action": "resolve"},
                   {"action": "advance", "to": "postcombat_main"},
                   {"action": "pass", "player": "alice"},
                   {"action": "cast", "player": "bob", "card": "salve", "modes": [1], "targets": ["bears"],
                    "pay_with": ["p1"]},
                   {"action": "resolve"},
                   {"action": "cast", "player": "alice", "card": "shock", "targets": ["bears"], "pay_with": ["m3"]},
                   {"action": "resolve"}]), "_stomp_then_shock_after_combat")]

# Garland, Knight of Cornelia: "whenever you cast a noncreature spell, surveil 1" (CR 701.25a):
# the top card goes to the graveyard; without the effect it stays.
EXTRA_SCENARIOS[("effect", "surveil")] = [_game_builder(
    lambda: _game({"hand": ["shock=Shock"], "battlefield": ["garland=Garland, Knight of Cornelia", "m1=Mountain"]}, {},
                  [{"action": "cast", "player": "alice", "card": "shock", "targets": ["bob"], "pay_with": ["m1"]},
                   {"action": "resolve"}, {"action": "choose", "player": "alice", "choice": "a_lib1"},
                   {"action": "resolve"}]), "_garland_surveils")]

# Vanille, Cheerful l'Cie: "When Vanille enters, mill two cards, then return a permanent card
# from your graveyard to your hand" (no target; without the effect the Bears stay milled).
EXTRA_SCENARIOS[("effect", "return_from_graveyard_to_hand")] = [_game_builder(
    lambda: _game({"library": ["bolt=Lightning Bolt", "bears=Grizzly Bears", "a_lib3=Island"],
                   "hand": ["vanille=Vanille, Cheerful l'Cie"],
                   "battlefield": ["s1=Swamp", "s2=Swamp", "s3=Swamp", "f1=Forest"]}, {},
                  [{"action": "cast", "player": "alice", "card": "vanille", "pay_with": ["s1", "s2", "s3", "f1"]},
                   {"action": "resolve"}, {"action": "resolve"}]), "_vanille_returns_the_bears")]


# ------------------------------------------------------------------ issue 23: conditions of the turn
# Stolen Vitality ("If it's your turn, that creature gains trample until end of turn.
# Otherwise, it gains first strike"): cast in Bob's turn, the Bears gain first strike; without
# the condition (an empty condition holds) they would gain trample.
def _stolen_vitality_in_bobs_turn() -> tuple[dict, str]:
    return _game({"hand": ["sv=Stolen Vitality"], "battlefield": ["bears=Grizzly Bears"], "mana_pool": {"R": 1, "C": 1}},
                 {}, [{"action": "pass", "player": "bob"},
                      {"action": "cast", "player": "alice", "card": "sv", "targets": ["bears"]},
                      {"action": "resolve"}], active="bob")


EXTRA_SCENARIOS[("condition", "your_turn")] = [_stolen_vitality_in_bobs_turn]


# Zurgo, Thunder's Decree: "During your end step, Warrior tokens you control have 'This token
# can't be sacrificed'" (condition your_turn + step end, static cant_be_sacrificed, filter
# token). Its mobilize tokens survive their delayed sacrifice at the beginning of Alice's end
# step; without the static ability, or with another step in its condition, they are sacrificed.
def _zurgo_keeps_its_warriors() -> tuple[dict, str]:
    return _game({"battlefield": ["zurgo=Zurgo, Thunder's Decree"]}, {},
                 [{"action": "declare_attackers", "player": "alice", "attackers": ["zurgo"]},
                  {"action": "resolve"}, {"action": "advance", "to": "end"}, {"action": "resolve"},
                  {"action": "advance", "to": "upkeep", "turn": 4}], step="declare_attackers")


# A nontoken Warrior in Alice's end step can still be sacrificed for its own cost: the filter's
# "token" keeps it out of Zurgo's ability (without the key, the activation can't be paid).
def _zurgo_spares_no_nontoken_warrior() -> tuple[dict, str]:
    veteran = _test_card("Test Warrior Veteran", ["Creature"], "Sacrifice this creature: You gain 1 life.",
                         subtypes=["Warrior"], abilities=[
                             {"kind": "activated", "cost": {"sacrifice_self": True}, "effects": _gain()}])
    return _game({"battlefield": ["zurgo=Zurgo, Thunder's Decree", "vet=Test Warrior Veteran"]}, {},
                 [{"action": "activate", "player": "alice", "source": "vet", "ability": 0}, {"action": "resolve"}],
                 [veteran], step="end")


# In Alice's main phase (her turn, not her end step) a Warrior token she creates and then
# sacrifices is sacrificed: the step in Zurgo's condition matters.
def _zurgo_in_the_main_phase() -> tuple[dict, str]:
    offering = _sorcery("Test Warrior Offering", [], [
        {"type": "create_token", "count": 1, "token": {"types": ["Creature"], "subtypes": ["Warrior"],
                                                       "colors": ["red"], "power": 1, "toughness": 1}},
        {"type": "sacrifice", "what": "created_tokens"}])
    return _game({"battlefield": ["zurgo=Zurgo, Thunder's Decree"], "hand": ["s=Test Warrior Offering"],
                  "mana_pool": {"C": 1}}, {},
                 [{"action": "cast", "player": "alice", "card": "s"}, {"action": "resolve"}], [offering])


EXTRA_SCENARIOS.update({
    ("condition", "step"): [_zurgo_keeps_its_warriors, _zurgo_in_the_main_phase],
    ("static", "cant_be_sacrificed"): [_zurgo_keeps_its_warriors],
    ("filter", "token"): [_zurgo_spares_no_nontoken_warrior],
})


# ------------------------------------------------------------------ issue 23: combat-long effects
# Boiling Blood ("Target creature attacks this turn if able", CR 508.1d) on Alice's Grizzly
# Bears: her empty declaration is refused (attack_requirement) and the Bears attack; without
# the effect the empty declaration stands (and the next input is out of turn).
def _boiling_blood_on_the_bears() -> tuple[dict, str]:
    return _game({"hand": ["bb=Boiling Blood"], "battlefield": ["bears=Grizzly Bears"], "mana_pool": {"R": 1, "C": 2}}, {},
                 [{"action": "cast", "player": "alice", "card": "bb", "targets": ["bears"]}, {"action": "resolve"},
                  {"action": "advance", "to": "declare_attackers"},
                  {"action": "declare_attackers", "player": "alice", "attackers": []},
                  {"action": "declare_attackers", "player": "alice", "attackers": ["bears"]},
                  {"action": "advance", "to": "postcombat_main"}])


EXTRA_SCENARIOS[("effect", "attacks_if_able")] = [_boiling_blood_on_the_bears]


# Phage the Untouchable cast from Alice's hand: its "if you didn't cast it from your hand"
# trigger doesn't trigger; without the condition, Alice would lose the game.
def _phage_cast_from_the_hand() -> tuple[dict, str]:
    return _game({"hand": ["phage=Phage the Untouchable"], "mana_pool": {"B": 4, "C": 3}}, {},
                 [{"action": "cast", "player": "alice", "card": "phage"}, {"action": "resolve"},
                  {"action": "pass", "player": "alice"}])


EXTRA_SCENARIOS[("condition", "cast_from_hand")] = [_phage_cast_from_the_hand]


# ------------------------------------------------------------------ breadth1 (issue 23 item 4)
DRAGONFORM = _sorcery("Test Dragonform", [{"kind": "creature"}], [
    {"type": "add_creature_types", "what": {"target": 0}, "subtypes": ["Dragon"], "duration": "end_of_turn"}])


def _sarkhan_sees_a_dragon() -> tuple[dict, str]:
    """Alice casts Shivan Dragon next to Sarkhan, Dragon Ascendant: its trigger makes Sarkhan
    a Dragon until end of turn (the one-shot ``add_creature_types``, layer 4)."""
    return _game({"hand": ["shivan=Shivan Dragon"], "mana_pool": {"C": 4, "R": 2},
                  "battlefield": ["sarkhan=Sarkhan, Dragon Ascendant"]}, {},
                 [{"action": "cast", "player": "alice", "card": "shivan"}, {"action": "resolve"},
                  {"action": "resolve"}])


EXTRA_SCENARIOS.update({
    # menace (CR 702.111b): one Grizzly Bears can't block Boggart Brute (rejected: 3 damage to Bob);
    # without the keyword the block stands
    ("keyword", "menace"): [_attack_and_block("Boggart Brute", "Grizzly Bears")],
    ("effect", "add_creature_types"): [_sarkhan_sees_a_dragon,
                                       _cast(DRAGONFORM, ["bears"], alice={"battlefield": ["bears=Grizzly Bears"]})],
})
