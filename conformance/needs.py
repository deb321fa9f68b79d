"""What a case needs from an engine, and what to implement next (issue 16, the authors' kit).

:func:`case_needs` reads one case's scenario (a fixture resolved for its ruleset, with its
cards embedded under ``cards``: what a protocol ``run`` message carries, docs/PROTOCOL.md
§2) and lists the features an engine must have to play it, so that an engine can skip a
case up front and an author can see which features unlock the most cases. The lists go
into every case file and manifest entry of an ``mtg-judge export`` bundle (PROTOCOL §7)
and into every case line of ``report.jsonl`` (PROTOCOL §6).

:func:`next_steps` ranks, over the case records of a report, the skip reasons and the
missing needs by the number of skipped cases they hold back: the "what to implement next"
table of ``mtg-judge run``/``report`` (:func:`format_next_steps`) and of the HTML page
(:func:`next_steps_html`).

Everything here is a pure, deterministic function of its arguments (sorted lists, ties
broken by name).
"""

from __future__ import annotations

import html
from typing import Any, Iterable

#: The categories of :func:`case_needs`, in the order they are listed and flattened.
CATEGORIES = ("actions", "keywords", "abilities", "effects", "triggers", "layouts", "setup",
              "events", "rejections", "capabilities")
#: The categories :func:`_walk_card` fills from a card's JSON.
CARD_CATEGORIES = ("keywords", "abilities", "effects", "triggers", "layouts")
#: The singular prefix of each category in a flat need (``keyword:flash``).
PREFIX = {"actions": "action", "keywords": "keyword", "abilities": "ability",
          "effects": "effect", "triggers": "trigger", "layouts": "layout", "setup": "setup",
          "events": "event", "rejections": "rejection", "capabilities": "capability"}
#: Setup keys every scenario may use; any other key of ``setup`` is a need (``setup:start_of_game``).
BASIC_SETUP = frozenset({"seed", "players", "turn", "active_player", "step", "lands_played"})
#: Rows of each ranked table shown by :func:`format_next_steps` (the HTML shows more).
TEXT_ROWS = 10
HTML_ROWS = 30


def case_needs(scenario: dict, card_memo: dict | None = None) -> dict[str, list[str]]:
    """The features ``scenario`` needs, as ``{category: [sorted unique strings]}``.

    Shape (every key of :data:`CATEGORIES` is present, lists may be empty)::

        {"actions":      script actions and the actions of checkpoint probes
                         ("cast", "resolve", "declare_attackers", ...; FORMAT §3.2),
         "keywords":     keywords of its cards, printed or granted by an effect ("flash"),
         "abilities":    ability kinds of its cards ("activated", "mana", "static",
                         "triggered", "replacement"),
         "effects":      effect types of spells, abilities and static abilities, nested
                         ones included ("deal_damage", "grant_keywords", "modify_pt"),
         "triggers":     trigger events of triggered abilities ("enters_battlefield"),
         "layouts":      card layouts other than "normal" ("adventure", "transform"),
         "setup":        setup keys beyond the basic ones ("start_of_game", "deck_rules"),
         "events":       event types named by expect.events and expect.absent patterns
                         ("spell_resolved"; "action_rejected" when rejections are expected),
         "rejections":   rejection codes the expectation names (expect.rejections and
                         checkpoints' illegal probes),
         "capabilities": protocol capabilities its checks need ("events", "state",
                         "checkpoints"; PROTOCOL §3)}

    ``scenario`` is what a protocol ``run`` message carries (the fixture with its
    expectation resolved for one ruleset, cards under ``cards``); a fixture without
    ``cards`` gives empty card categories. Malformed parts (a non-list ``script``, a
    non-dict card) are ignored rather than raised on: the schema checks are elsewhere.
    Raises ``TypeError`` only if ``scenario`` is not a dict.

    ``card_memo``: an optional dict, empty at first, that the caller passes to every call
    over the same card objects (a report's cases share their card data): what a card
    needs is then walked once per card object rather than once per case; the result is
    the same. The card objects must not change while the memo is in use.
    """
    if not isinstance(scenario, dict):
        raise TypeError(f"a scenario is a JSON object, not {type(scenario).__name__}")
    found: dict[str, set[str]] = {category: set() for category in CATEGORIES}
    for step in _list(scenario.get("script")):
        if isinstance(step, dict) and isinstance(step.get("action"), str):
            found["actions"].add(step["action"])
    setup = scenario.get("setup")
    if isinstance(setup, dict):
        found["setup"].update(k for k in setup if k not in BASIC_SETUP)
    cards = scenario.get("cards")
    for card in (cards.values() if isinstance(cards, dict) else ()):
        if card_memo is None:
            _walk_card(card, found)
            continue
        known = card_memo.get(id(card))
        if known is None or known[0] is not card:  # the id of another, freed object
            own: dict[str, set[str]] = {category: set() for category in CARD_CATEGORIES}
            _walk_card(card, own)
            known = card_memo[id(card)] = (card, own)
        for category, values in known[1].items():
            found[category].update(values)
    expect = given if isinstance(given := scenario.get("expect"), dict) else {}
    for key in ("events", "absent"):
        for pattern in _list(expect.get(key)):
            if isinstance(pattern, dict) and isinstance(pattern.get("type"), str):
                found["events"].add(pattern["type"])
    for want in _list(expect.get("rejections")):
        found["events"].add("action_rejected")
        if isinstance(want, dict) and isinstance(want.get("code"), str):
            found["rejections"].add(want["code"])
    for checkpoint in _list(expect.get("checkpoints")):
        if not isinstance(checkpoint, dict):
            continue
        for action in _list(checkpoint.get("legal")):
            if isinstance(action, dict) and isinstance(action.get("action"), str):
                found["actions"].add(action["action"])
        for item in _list(checkpoint.get("illegal")):
            action = item.get("action") if isinstance(item, dict) else None
            if isinstance(action, dict) and isinstance(action.get("action"), str):
                found["actions"].add(action["action"])
            if isinstance(item, dict) and isinstance(item.get("code"), str):
                found["rejections"].add(item["code"])
    from mtg_judge.conformance.runner import plan_checks

    found["capabilities"].update(capability for _name, capability in plan_checks(
        {"expect": expect}))
    return {category: sorted(found[category]) for category in CATEGORIES}


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _walk_card(node: Any, found: dict[str, set[str]]) -> None:
    """Collect keywords, ability kinds, effect types, trigger events and layouts anywhere
    in a card's JSON (faces, granted abilities, tokens an effect creates included)."""
    if isinstance(node, list):
        for item in node:
            _walk_card(item, found)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key == "keywords" and isinstance(value, list):
            found["keywords"].update(k for k in value if isinstance(k, str))
        elif key == "abilities" and isinstance(value, list):
            found["abilities"].update(a["kind"] for a in value
                                      if isinstance(a, dict) and isinstance(a.get("kind"), str))
        elif key == "effects" and isinstance(value, list):
            found["effects"].update(e["type"] for e in value
                                    if isinstance(e, dict) and isinstance(e.get("type"), str))
        elif key == "effect" and isinstance(value, dict) and isinstance(value.get("type"), str):
            found["effects"].add(value["type"])
        elif key == "trigger" and isinstance(value, dict) and isinstance(value.get("event"), str):
            found["triggers"].add(value["event"])
        elif key == "layout" and isinstance(value, str) and value != "normal":
            found["layouts"].add(value)
        _walk_card(value, found)


def flatten(needs: dict[str, list[str]]) -> list[str]:
    """The needs as flat strings ``<kind>:<value>`` (``action:cast``, ``keyword:flash``,
    ``capability:checkpoints``; kinds from :data:`PREFIX`), in :data:`CATEGORIES` order then
    sorted. Unknown categories are kept under their own name.

    >>> flatten({"actions": ["resolve", "cast"], "keywords": ["flash"]})
    ['action:cast', 'action:resolve', 'keyword:flash']
    """
    order = {c: i for i, c in enumerate(CATEGORIES)}
    out = []
    for category in sorted(needs, key=lambda c: (order.get(c, len(order)), c)):
        values = needs[category]
        out += [f"{PREFIX.get(category, category)}:{v}" for v in sorted(values or [])]
    return out


# --------------------------------------------------------------------------------------------
# What to implement next


def next_steps(cases: Iterable[dict], known: Iterable[str] = ()) -> dict:
    """The "what to implement next" ranking of a report's case records (PROTOCOL §6).

    Returns::

        {"skipped": number of skipped cases,
         "reasons": [{"reason": the engine's skip message (or "(no reason given)"),
                      "cases": skipped cases with that reason,
                      "examples": up to 3 of their names, in report order}],
         "needs":   [{"need": "keyword:flash",
                      "unlocks": skipped cases whose only missing need it is,
                      "cases": skipped cases that need it and miss it}]}

    ``reasons`` are sorted by ``cases`` (descending), then by reason. A need is *missing*
    when no passed case has it (the needs of passed cases are what the engine shows it
    handles); each skipped case's missing needs are its needs (the ``needs`` of its record,
    :func:`case_needs`) minus those. ``needs`` lists every missing need of a skipped case,
    sorted by ``unlocks``, then ``cases`` (both descending), then name; implementing the
    top need alone lets ``unlocks`` skipped cases be played with features shown to work.
    Case records without ``needs`` (an older report) count in ``reasons`` only.
    ``known``: flat needs the engine is known to have without a pass to show it (the
    ``capability:<name>`` of the capabilities its handshake declares): never missing.
    Needs that every skipped case needing one of them also needs, and the other way round
    (they travel together, like ``action:turn_face_up`` and ``event:turned_face_up``), are
    one row, named ``a + b``; its ``unlocks`` counts the skipped cases whose missing needs
    are exactly that group. The ladder (:mod:`mtg_judge.conformance.ladder`) ranks whole
    sets of needs.
    """
    cases = list(cases)
    have: set[str] = set(known)
    for case in cases:
        if case.get("status") == "passed" and isinstance(case.get("needs"), dict):
            have.update(flatten(case["needs"]))
    reasons: dict[str, list[str]] = {}
    support: dict[str, list[int]] = {}
    missing_sets: list[frozenset[str]] = []
    skipped = [c for c in cases if c.get("status") == "skipped"]
    for case in skipped:
        reason = (case.get("message") or "").strip() or "(no reason given)"
        reasons.setdefault(reason, []).append(str(case.get("name", "?")))
        if not isinstance(case.get("needs"), dict):
            continue
        missing = frozenset(flatten(case["needs"])) - have
        for need in missing:
            support.setdefault(need, []).append(len(missing_sets))
        missing_sets.append(missing)
    together: dict[tuple[int, ...], list[str]] = {}
    for need in sorted(support):
        together.setdefault(tuple(support[need]), []).append(need)
    blocked: dict[str, int] = {}
    alone: dict[str, int] = {}
    for members, group in together.items():
        name = " + ".join(group)
        blocked[name] = len(members)
        alone[name] = sum(missing_sets[k] == frozenset(group) for k in members)
    return {
        "skipped": len(skipped),
        "reasons": [{"reason": r, "cases": len(names), "examples": names[:3]}
                    for r, names in sorted(reasons.items(), key=lambda kv: (-len(kv[1]), kv[0]))],
        "needs": [{"need": n, "unlocks": alone.get(n, 0), "cases": blocked[n]}
                  for n in sorted(blocked, key=lambda n: (-alone.get(n, 0), -blocked[n], n))],
    }


def format_next_steps(ranking: dict, rows: int = TEXT_ROWS) -> list[str]:
    """The text of :func:`next_steps` (``mtg-judge run`` and ``report`` print it when a case
    was skipped): a heading, the top ``rows`` skip reasons as ``<cases>  <reason>``, then the
    top ``rows`` missing needs as ``<unlocks>  <cases>  <need>``, each table followed by
    ``… N more`` when cut. ``[]`` when no case was skipped."""
    if not ranking.get("skipped"):
        return []
    lines = [f"what to implement next ({_plural(ranking['skipped'], 'skipped case')}):",
             "  cases  skip reason"]
    reasons = ranking.get("reasons") or []
    lines += [f"  {r['cases']:>5}  {r['reason']}" for r in reasons[:rows]]
    if len(reasons) > rows:
        lines.append(f"      … {len(reasons) - rows} more reasons")
    needs = ranking.get("needs") or []
    if needs:
        lines += ["", "  unlocks  skipped with it  missing need (in no passed case)"]
        lines += [f"  {n['unlocks']:>7}  {n['cases']:>15}  {n['need']}" for n in needs[:rows]]
        if len(needs) > rows:
            lines.append(f"           … {len(needs) - rows} more needs")
    return lines


def next_steps_html(ranking: dict, rows: int = HTML_ROWS) -> str:
    """The HTML section of :func:`next_steps` for ``index.html`` (a heading and two tables,
    the top ``rows`` of each; a short paragraph when no case was skipped)."""
    e = html.escape
    parts = ['<h2 id="next">What to implement next</h2>']
    if not ranking.get("skipped"):
        return parts[0] + "<p>Nothing: no case was skipped.</p>"
    parts.append(f"<p class=\"meta\">{e(_plural(ranking['skipped'], 'skipped case'))}, by skip "
                 "reason; then the needs of skipped cases that no passed case has "
                 "(<em>unlocks</em>: skipped cases it is the only missing need of).</p>")
    rows_html = "".join(f"<tr><td>{r['cases']}</td><td style=\"text-align:left\">"
                        f"{e(r['reason'])}</td></tr>" for r in ranking["reasons"][:rows])
    parts.append("<table><thead><tr><th>cases</th><th style=\"text-align:left\">skip reason"
                 f"</th></tr></thead><tbody>{rows_html}</tbody></table>")
    needs = ranking.get("needs") or []
    if needs:
        rows_html = "".join(f"<tr><td>{n['unlocks']}</td><td>{n['cases']}</td>"
                            f"<td style=\"text-align:left\"><code>{e(n['need'])}</code></td></tr>"
                            for n in needs[:rows])
        parts.append("<table><thead><tr><th>unlocks</th><th>skipped with it</th>"
                     "<th style=\"text-align:left\">missing need</th></tr></thead>"
                     f"<tbody>{rows_html}</tbody></table>")
    cut = max(len(ranking["reasons"]), len(needs)) - rows
    if cut > 0:
        parts.append(f"<p class=\"meta\">(top {rows} of each; the full ranking: "
                     "<code>report.jsonl</code> case lines carry <code>needs</code>)</p>")
    return "".join(parts)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"
