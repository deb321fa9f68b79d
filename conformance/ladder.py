"""The suite as a curriculum for engine authors, and failures grouped by root cause (issue 25).

:func:`build_ladder` orders cases into **levels**: the first level holds the cases that need
the fewest features, each later level the cases that the fewest further features unlock.
Everything is computed from the cases' declared needs (:func:`mtg_judge.conformance.needs.
case_needs`, PROTOCOL §7), never from a hand-written list, so the ladder follows the suite as
fixtures are added. It is deterministic: the same needs give the same ladder.

The algorithm (a greedy cover, one level per step):

* a case's *missing* features are its needs (:func:`rung_needs`: capabilities left out,
  since a check whose capability an engine does not declare is skipped, not failed,
  PROTOCOL §3) minus the features already *known* (those of the levels before, and for a
  report the needs of the cases the engine passed);
* features that **travel together** (every remaining case that needs one needs the other,
  like ``action:turn_face_up`` and ``event:turned_face_up``) form one *group* and count as
  one feature;
* each distinct missing set of a remaining case is a candidate level; the level chosen is
  the one that unlocks the most cases (cases whose missing features it covers) per group it
  adds; ties go to fewer groups, then more cases, then the sorted feature names;
* its cases leave the pool, its features become known, and the next level is chosen.

:func:`report_ladder` applies it to a report: the engine's passes and declared rulesets
define what is known, the cases it does not pass are laid out as levels, and the first level
is "what to implement next". :func:`failure_groups` groups failed and errored cases by their
first divergence (the ``divergence`` of a case record, :mod:`mtg_judge.conformance.casepage`),
so that one root cause is one row with its count.
"""

from __future__ import annotations

import html
import re
from typing import Any, Iterable

from mtg_judge.conformance.needs import flatten

#: Need kinds never used as ladder features (PROTOCOL §3: an undeclared capability's checks
#: are skipped, so it holds nothing back).
NOT_RUNGS = ("capability:",)
#: Levels the terminal shows after the next one; the HTML shows every level.
TEXT_LEVELS = 3
#: Failure groups shown in the terminal.
TEXT_GROUPS = 10
#: Example case names kept per level or failure group.
EXAMPLES = 3


def rung_needs(needs: Any) -> frozenset[str]:
    """The ladder features of a case: its flat needs (``action:cast``, ``keyword:flash``,
    :func:`~mtg_judge.conformance.needs.flatten`) without capabilities (:data:`NOT_RUNGS`).
    ``needs`` is a case record's ``needs`` dict; anything else gives an empty set."""
    if not isinstance(needs, dict):
        return frozenset()
    return frozenset(n for n in flatten(needs) if not n.startswith(NOT_RUNGS))


def build_ladder(cases: Iterable[tuple[str, frozenset[str]]],
                 known: Iterable[str] = ()) -> list[dict]:
    """The levels of ``cases`` (``(case name, features)`` pairs, features as
    :func:`rung_needs` gives them), given features already ``known``.

    Returns one dict per level, in order::

        {"level": 1, "groups": [["action:declare_attackers"], ["action:turn_face_up",
         "event:turned_face_up"], ...],   # the new features, those that travel together
                                          # in one group; groups sorted by first name
         "features": number of features, "cost": number of groups,
         "cases": number of cases, "examples": up to EXAMPLES case names, "names": [all]}

    Cases whose features are all known are not levels (a report lists them apart:
    :func:`report_ladder`'s ``fix_first``). See the module docstring for the choice of each
    level. Deterministic: ties are broken by sorted feature names, names keep input order.
    """
    known_set = set(known)
    pool: dict[frozenset[str], list[str]] = {}  # missing features -> case names
    for name, features in cases:
        missing = frozenset(features) - known_set
        if missing:
            pool.setdefault(missing, []).append(name)
    levels: list[dict] = []
    bit = {f: 1 << i for i, f in enumerate(sorted({f for m in pool for f in m}))}
    while pool:
        entries = list(pool.items())
        masks = [sum(bit[f] for f in missing) for missing, _names in entries]
        sizes = [len(names) for _missing, names in entries]
        members: dict[str, list[int]] = {}
        for k, (missing, _names) in enumerate(entries):
            for feature in missing:
                members.setdefault(feature, []).append(k)
        together: dict[tuple[int, ...], list[str]] = {}
        for feature in sorted(members):
            together.setdefault(tuple(members[feature]), []).append(feature)
        group_of = {f: group[0] for group in together.values() for f in group}
        # an entry can only be covered by a candidate holding its rarest feature
        by_rarest: dict[str, list[int]] = {}
        for k, (missing, _names) in enumerate(entries):
            rarest = min(missing, key=lambda f: (len(members[f]), f))
            by_rarest.setdefault(rarest, []).append(k)
        best: tuple | None = None
        for k, (missing, _names) in enumerate(entries):
            mask = masks[k]
            cost = len({group_of[f] for f in missing})
            unlocked = sum(sizes[j] for f in missing for j in by_rarest.get(f, ())
                           if masks[j] & ~mask == 0)
            key = (-unlocked / cost, cost, -unlocked)
            if best is None or key < best[0] or (key == best[0] and sorted(missing) < best[2]):
                best = (key, k, sorted(missing))
        assert best is not None  # the pool is not empty
        chosen, chosen_mask = entries[best[1]][0], masks[best[1]]
        names = [n for (missing, found), mask in zip(entries, masks)
                 if mask & ~chosen_mask == 0 for n in found]
        order = {n: i for i, (_m, found) in enumerate(entries) for n in found}
        names.sort(key=order.__getitem__)
        groups: dict[str, list[str]] = {}
        for feature in sorted(chosen):
            groups.setdefault(group_of[feature], []).append(feature)
        levels.append({"level": len(levels) + 1,
                       "groups": sorted(groups.values()),
                       "features": len(chosen), "cost": len(groups),
                       "cases": len(names), "examples": names[:EXAMPLES], "names": names})
        rest: dict[frozenset[str], list[str]] = {}
        for (missing, found), mask in zip(entries, masks):
            if mask & ~chosen_mask:
                rest.setdefault(missing - chosen, []).extend(found)
        pool = rest
    return levels


def report_ladder(cases: list[dict], implementation: dict | None = None) -> dict:
    """The ladder of a report's case records for the engine that made it.

    ``implementation``: the handshake's (the report header's); its ``rulesets`` decide which
    cases the engine can ever be sent (None or absent: every ruleset of the cases). Known
    features are the :func:`rung_needs` of the passed cases. Returns::

        {"passed": passed cases, "known": number of known features,
         "undeclared": {ruleset: cases under a ruleset the engine does not declare},
         "fix_first": {"cases": n, "examples": [...]}   # not passed, every feature known:
                                                        # a bug, not a missing feature
         "levels": build_ladder(...) of the other cases not passed,
         "next": levels[0] or None}

    Case records without ``needs`` (a fixture with a problem, an older report) are left out.
    """
    declared = (implementation or {}).get("rulesets")
    rulesets = set(declared) if isinstance(declared, list) else None
    known: set[str] = set()
    for case in cases:
        if case.get("status") == "passed":
            known |= rung_needs(case.get("needs"))
    undeclared: dict[str, int] = {}
    todo: list[tuple[str, frozenset[str]]] = []
    fix: list[str] = []
    for case in cases:
        if case.get("status") == "passed" or not isinstance(case.get("needs"), dict):
            continue
        ruleset = str(case.get("ruleset", ""))
        if rulesets is not None and ruleset not in rulesets:
            undeclared[ruleset] = undeclared.get(ruleset, 0) + 1
            continue
        features = rung_needs(case["needs"])
        name = str(case.get("name", "?"))
        if features <= known:
            fix.append(name)
        else:
            todo.append((name, features))
    levels = build_ladder(todo, known)
    return {"passed": sum(c.get("status") == "passed" for c in cases), "known": len(known),
            "undeclared": dict(sorted(undeclared.items())),
            "fix_first": {"cases": len(fix), "examples": fix[:EXAMPLES]},
            "levels": levels, "next": levels[0] if levels else None}


def group_text(groups: list[list[str]]) -> str:
    """The features of a level as text: groups separated by ``, ``, the features of a group
    (that travel together) joined by `` + ``."""
    return ", ".join(" + ".join(group) for group in groups)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def level_line(level: dict) -> str:
    """``level 3: 2 features (5 cases): action:play_land + event:land_played``."""
    return (f"level {level['level']}: {_plural(level['cost'], 'feature')} "
            f"({_plural(level['cases'], 'case')}): {group_text(level['groups'])}")


def _step_text(level: dict) -> str:
    """``action:play_land + event:land_played (1 feature, 5 cases)``."""
    return (f"{group_text(level['groups'])} ({_plural(level['cost'], 'feature')}, "
            f"{_plural(level['cases'], 'case')})")


def format_ladder(ladder: dict, levels: int = TEXT_LEVELS) -> list[str]:
    """The short text of :func:`report_ladder` that ``run`` and ``report`` print: where the
    engine stands, the cases to fix first, the next level with its features and example
    cases, then the ``levels`` levels after it, one line each. ``[]`` when every case of
    the declared rulesets passes."""
    nxt, fix = ladder.get("next"), ladder.get("fix_first") or {}
    if nxt is None and not fix.get("cases"):
        return []
    steps = ladder.get("levels") or []
    lines = [f"ladder: {_plural(ladder.get('passed', 0), 'case')} passed, "
             f"{_plural(len(steps), 'level')} to go "
             f"(mtg-judge ladder lists them; docs/PROTOCOL.md §6)"]
    if fix.get("cases"):
        lines.append(f"  fix first: {_plural(fix['cases'], 'case')} not passing use only "
                     f"features your passing cases show, e.g. {', '.join(fix['examples'])}")
    if nxt is not None:
        lines.append(f"  next: {_step_text(nxt)}")
        lines.append(f"    e.g. {', '.join(nxt['examples'])}")
        for level in steps[1:1 + levels]:
            lines.append(f"  then: {_step_text(level)}")
        if len(steps) > 1 + levels:
            lines.append(f"  … {len(steps) - 1 - levels} more levels")
    undeclared = ladder.get("undeclared") or {}
    if undeclared:
        lines.append("  not in the ladder: " + ", ".join(
            f"{_plural(n, 'case')} under {r}" for r, n in undeclared.items())
            + " (rulesets your engine does not declare)")
    return lines


def ladder_html(ladder: dict, case_link: Any = None) -> str:
    """The ladder section of ``index.html`` (``<section id="ladder">``): the next level
    first, then a table of every level (its features, its case count, example cases).
    ``case_link``: an optional function from a case name to an ``href`` for the examples."""
    e = html.escape
    parts = ['<section id="ladder"><h2>The ladder: what to implement next</h2>']
    nxt, fix = ladder.get("next"), ladder.get("fix_first") or {}
    steps = ladder.get("levels") or []

    def names(found: list[str]) -> str:
        if case_link is None:
            return ", ".join(f"<code>{e(n)}</code>" for n in found)
        return ", ".join(f'<a href="{e(case_link(n))}"><code>{e(n)}</code></a>' for n in found)

    parts.append(f"<p class=\"meta\">{e(_plural(ladder.get('passed', 0), 'case'))} passed · "
                 f"{e(_plural(len(steps), 'level'))} to go. A level is the set of features "
                 "(needs, PROTOCOL §7) that unlocks the most cases per feature; features that "
                 "travel together count as one (joined by +).</p>")
    if fix.get("cases"):
        parts.append(f"<p><strong>Fix first</strong>: {e(_plural(fix['cases'], 'case'))} not "
                     f"passing use only features your passing cases show, e.g. "
                     f"{names(fix['examples'])}.</p>")
    if nxt is None:
        parts.append("<p>Every level is climbed.</p>" if not fix.get("cases") else "")
    else:
        feats = "".join(f"<li><code>{e(' + '.join(g))}</code></li>" for g in nxt["groups"])
        parts.append(f'<div class="next"><p><strong>Next</strong>: '
                     f"{e(_plural(nxt['cost'], 'feature'))} for "
                     f"{e(_plural(nxt['cases'], 'case'))}:</p><ul>{feats}</ul>"
                     f"<p class=\"meta\">e.g. {names(nxt['examples'])}</p></div>")
        rows = "".join(
            f"<tr><td>{lv['level']}</td><td>{lv['cost']}</td><td>{lv['cases']}</td>"
            f"<td style=\"text-align:left\"><code>{e(group_text(lv['groups']))}</code></td>"
            f"<td style=\"text-align:left\">{names(lv['examples'][:1])}</td></tr>"
            for lv in steps)
        parts.append("<details><summary>every level</summary><table><thead><tr><th>level</th>"
                     "<th>features</th><th>cases</th><th style=\"text-align:left\">new "
                     "features</th><th style=\"text-align:left\">e.g.</th></tr></thead>"
                     f"<tbody>{rows}</tbody></table></details>")
    undeclared = ladder.get("undeclared") or {}
    if undeclared:
        parts.append("<p class=\"meta\">Not in the ladder: " + e(", ".join(
            f"{_plural(n, 'case')} under {r}" for r, n in undeclared.items()))
            + " (rulesets the engine does not declare).</p>")
    parts.append("</section>")
    return "".join(parts)


# --------------------------------------------------------------------------------------------
# Failures grouped by their first divergence


def failure_signature(case: dict) -> str:
    """The root-cause key of a failed or errored case record: its ``divergence``'s
    ``signature`` (the first differing event and field, expected → got: ``damage_dealt:
    amount 3 → 2``) when the record has one; else its first mismatch's first line without
    indexes (``expect.events: no matching event`` followed by the pattern, ``expect.state:
    state.players.bob.life: expected 15, got 17``); for an errored case without either, its
    message's first line (``errored (<kind>): `` before it unless it starts with the kind)."""
    divergence = case.get("divergence")
    if isinstance(divergence, dict) and divergence.get("signature"):
        return str(divergence["signature"])
    mismatches = case.get("mismatches") or []
    if mismatches:
        lines = str(mismatches[0]).splitlines()
        first = re.sub(r"\[\d+\]", "", re.sub(r" (?:after|at) (?:event|input) #\d+", "",
                                                lines[0]))
        pattern = next((line.strip()[len("pattern: "):] for line in lines[1:]
                        if line.strip().startswith("pattern: ")), None)
        return f"{first}: {pattern}" if pattern else first
    message = next((line for line in str(case.get("message") or "").splitlines()
                    if line.strip()), "")[:160]
    kind = case.get("error_kind") or "?"
    return message if message.startswith(f"{kind}:") else f"{case.get('status')} ({kind}): {message}"


#: A first divergence in a field: ``<event type>: <field> <reference value> → <engine value>``.
_FIELD_CHANGE = re.compile(r"^([a-z_]+: \S+) (.+ → .+)$")


def failure_groups(cases: Iterable[dict]) -> list[dict]:
    """The failed and errored case records grouped by their first divergence::

        [{"signature": str, "cases": n, "examples": up to EXAMPLES names, "names": [all],
          "statuses": {"failed": n, "errored": n},
          "changes": [{"change": "3 → 2", "cases": n}, ...]}]

    The key is :func:`failure_signature`, its values left out when it is a field's change
    (``damage_dealt: amount 3 → 2`` and ``damage_dealt: amount 2 → 1`` are the one cause
    ``damage_dealt: amount``, an amount off by one): ``changes`` then counts each
    reference → engine pair, most first (``[]`` for other signatures). Groups are sorted by
    ``cases`` (most first), then signature."""
    groups: dict[str, dict] = {}
    for case in cases:
        status = case.get("status")
        if status not in ("failed", "errored"):
            continue
        key, change = failure_signature(case), None
        split = _FIELD_CHANGE.match(key)
        if split:
            key, change = split.group(1), split.group(2)
        group = groups.setdefault(key, {"signature": key, "cases": 0, "names": [],
                                        "statuses": {"failed": 0, "errored": 0},
                                        "changes": {}})
        group["cases"] += 1
        group["names"].append(str(case.get("name", "?")))
        group["statuses"][status] += 1
        if change is not None:
            group["changes"][change] = group["changes"].get(change, 0) + 1
    out = sorted(groups.values(), key=lambda g: (-g["cases"], g["signature"]))
    for group in out:
        group["examples"] = group["names"][:EXAMPLES]
        group["changes"] = [{"change": c, "cases": n} for c, n in
                            sorted(group["changes"].items(), key=lambda cn: (-cn[1], cn[0]))]
    return out


def _changes_text(group: dict, limit: int = 4) -> str:
    """`` (3 → 2 ×27, 2 → 1 ×22, … 3 more)``, or ``""`` without changes."""
    changes = group.get("changes") or []
    if not changes:
        return ""
    shown = [f"{c['change']}" + (f" ×{c['cases']}" if c["cases"] > 1 else "")
             for c in changes[:limit]]
    if len(changes) > limit:
        shown.append(f"… {len(changes) - limit} more")
    return f" ({', '.join(shown)})"


def format_failure_groups(groups: list[dict], rows: int = TEXT_GROUPS) -> list[str]:
    """The text of :func:`failure_groups`: a heading, then ``<signature>: <n> cases`` (with
    the value pairs of a field's change) and the examples under each, the top ``rows``
    groups. ``[]`` without failures."""
    if not groups:
        return []
    total = sum(g["cases"] for g in groups)
    lines = [f"failures by first divergence ({_plural(total, 'case')}, "
             f"{_plural(len(groups), 'cause')}):"]
    for group in groups[:rows]:
        lines.append(f"  {group['signature']}: {_plural(group['cases'], 'case')}"
                     f"{_changes_text(group)}")
        lines.append(f"    e.g. {', '.join(group['examples'])}")
    if len(groups) > rows:
        lines.append(f"  … {len(groups) - rows} more causes")
    return lines


def failure_groups_html(groups: list[dict], case_link: Any = None) -> str:
    """The failure groups as an HTML table (``<table id="causes">``): count, signature,
    example cases (linked through ``case_link`` when given)."""
    e = html.escape
    if not groups:
        return ""

    def link(name: str) -> str:
        if case_link is None:
            return f"<code>{e(name)}</code>"
        return f'<a href="{e(case_link(name))}"><code>{e(name)}</code></a>'

    rows = "".join(f"<tr><td>{g['cases']}</td><td style=\"text-align:left\"><code>"
                   f"{e(g['signature'])}</code>{e(_changes_text(g, 8))}</td>"
                   f"<td style=\"text-align:left\">"
                   f"{', '.join(link(n) for n in g['examples'])}</td></tr>" for g in groups)
    return ("<h3>By first divergence</h3><table id=\"causes\"><thead><tr><th>cases</th>"
            "<th style=\"text-align:left\">first divergence (reference → yours)</th>"
            "<th style=\"text-align:left\">e.g.</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")
