"""A failing case as a page: both play-by-plays side by side, the first divergence marked,
the board at that moment (issue 25, item 6).

:func:`case_divergence` plays a case on the reference engine (in-process, keeping the board
each time an input is read: :func:`mtg_judge.engine.boards`) and lines its log up with an
engine's (:func:`mtg_judge.conformance.sidebyside.align`, the alignment of ``mtg-judge show
ID --engine``). The result is a JSON-ready dict kept in the failed or errored case's record
of ``report.jsonl`` (key ``divergence``), so that a saved report re-renders its pages alone.
Its ``signature`` (the first differing event and field, reference → engine) groups failures
by root cause (:func:`mtg_judge.conformance.ladder.failure_groups`).

:func:`case_page_html` renders one record as a static page (no script, no external asset):
``cases/<fixture id>.<ruleset>.html`` beside ``index.html`` (:func:`page_path`).
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from mtg_judge.conformance.canonical import dumps
from mtg_judge.conformance.expect import summarize_event
from mtg_judge.conformance.rulediff import state_diff, value_changes
from mtg_judge.conformance.sidebyside import (
    FREE_TEXT,
    _with_prefixes,
    align,
    divergence_lines,
    first_divergence,
    play_lines,
    short_value,
)

#: The folder of the case pages, beside ``index.html``.
PAGES_DIR = "cases"
#: At most this many rows of the side-by-side table are kept in a record.
ROW_LIMIT = 400
#: At most this many final-state difference lines are kept.
STATE_LINES = 40


def page_path(name: str) -> str:
    """The page of case ``<id>[<ruleset>]`` relative to the report folder:
    ``cases/<id>.<ruleset>.html`` (characters other than letters, digits, ``.``, ``-`` and
    ``_`` become ``_``).

    >>> page_path("classic.stack.last-in-first-out[modern]")
    'cases/classic.stack.last-in-first-out.modern.html'
    """
    match = re.fullmatch(r"(.*)\[([^\]]*)\]", name)
    stem = f"{match.group(1)}.{match.group(2)}" if match else name
    return f"{PAGES_DIR}/{re.sub(r'[^A-Za-z0-9._-]', '_', stem)}.html"


def _value(value: Any) -> str:
    return short_value(value, 60)


def signature(reference: list[dict], engine: list[Any], rows: list, first: int | None) -> str | None:
    """The first divergence as one line, the key failures are grouped by:
    ``<type>: <field> <reference value> → <engine value>`` (same event type, the first
    field that differs), ``<reference type> → <engine type>``, ``missing <type>`` (only the
    reference logs it) or ``extra <type>`` (only the engine does); None when the logs agree.
    """
    if first is None:
        return None
    row = rows[first]
    ref = reference[row.ref] if row.ref is not None else None
    eng = engine[row.eng] if row.eng is not None else None
    if ref is None:
        kind = eng.get("type") if isinstance(eng, dict) else type(eng).__name__
        return f"extra {kind}"
    if eng is None:
        return f"missing {ref.get('type')}"
    if not isinstance(eng, dict):
        return f"{ref.get('type')} → {eng!r:.40}"
    if ref.get("type") != eng.get("type"):
        return f"{ref.get('type')} → {eng.get('type')}"
    for path, a, b in value_changes(ref, eng):
        top = re.split(r"[.\[]", path)[0]
        if top in ref and top not in FREE_TEXT:
            return f"{ref.get('type')}: {path} {_value(a)} → {_value(b)}"
    return f"{ref.get('type')}: differs"


def case_divergence(scenario: dict, ruleset: str, engine_result: dict | None,
                    priority: bool = False) -> dict | None:
    """The reference engine's play of ``scenario`` (a case's scenario, cards embedded) next
    to ``engine_result`` (the engine's reply: ``events``, ``state``), as the JSON-ready
    ``divergence`` of a case record::

        {"signature": str or None (:func:`signature`),
         "rows": [[tag, reference text or None, engine text or None]],  # sidebyside.align
         "first": index in rows of the first divergence, or None,
         "fields": [lines: the first divergence spelt out, sidebyside.divergence_lines],
         "board": {"input": i, "action": "<script input>", "state": {...}} or None:
                  the reference engine's board just before it read the input during
                  which the logs part (FORMAT §4),
         "final": [final-state differences, reference → engine],
         "setup": [the setup as text lines], "truncated": rows left out}

    Returns None when the reference engine cannot play the case (an exception) or the
    engine gave no result. Priority events are left out unless ``priority``.
    """
    if not isinstance(engine_result, dict):
        return None
    from mtg_judge.conformance.transcript import _setup_lines
    from mtg_judge.engine import boards

    try:
        copy = json.loads(dumps(scenario))
        played = boards(copy, ruleset, copy.get("cards"))
    except Exception:  # noqa: BLE001 - the reference engine cannot play it: no page data
        return None
    reference = played["events"]
    events = engine_result.get("events")
    engine = events if isinstance(events, list) else []
    rows = align(reference, engine, priority)
    first = first_divergence(rows)
    left = _with_prefixes(play_lines(scenario, reference), rows, "ref")
    right = _with_prefixes(play_lines(scenario, engine), rows, "eng")
    out_rows = [[row.tag, left.get(row.ref) if row.ref is not None else None,
                 right.get(row.eng) if row.eng is not None else None] for row in rows]
    board = None
    if first is not None:
        at = next((rows[k].ref for k in range(first, -1, -1) if rows[k].ref is not None), None)
        if rows[first].ref is None:  # an extra event of the engine: after that reference event
            at = None if at is None else at + 1
        kept = [b for b in played["boards"] if at is None or b["events"] <= at]
        if kept:
            script = scenario.get("script") or []
            i = kept[-1]["input"]
            action = (summarize_event({"type": script[i].get("action", "?"),
                                       **{k: v for k, v in script[i].items() if k != "action"}})
                      if i < len(script) and isinstance(script[i], dict) else "(end of script)")
            board = {"input": i, "action": action, "state": kept[-1]["state"]}
    final = []
    if isinstance(engine_result.get("state"), dict):
        final = state_diff(played["state"], engine_result["state"], "state")
    return {"signature": signature(reference, engine, rows, first),
            "rows": out_rows[:ROW_LIMIT], "truncated": max(0, len(out_rows) - ROW_LIMIT),
            "first": first, "fields": divergence_lines(reference, engine, priority, rows),
            "board": board, "final": final[:STATE_LINES], "setup": _setup_lines(scenario)}


# --------------------------------------------------------------------------------------------
# The page

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;
 color:#1d232a;background:#f6f7f9}
main{max-width:1400px;margin:0 auto;padding:20px 24px 48px}
h1{font-size:20px;margin:0 0 4px;font-family:ui-monospace,Menlo,monospace}
h2{font-size:17px;margin:26px 0 8px;border-bottom:1px solid #d8dce1;padding-bottom:3px}
.meta{color:#555e68;margin:0 0 2px}
.pill{padding:2px 9px;border-radius:11px;font-weight:600;font-size:13px}
.failed{background:#fbdada;color:#8a1414}.errored{background:#fde7c8;color:#7a4300}
table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}
th,td{padding:3px 8px;border-bottom:1px solid #eceef1;text-align:left;vertical-align:top}
th{background:#eef0f3;font-weight:600}
table.pbp td{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px;
 width:48%;white-space:pre-wrap;word-break:break-word}
table.pbp td.g,table.pbp th.g{width:2.5em;min-width:2.5em;white-space:nowrap;color:#8a939c;text-align:center}
tr.changed td{background:#fff4d6}tr.reference td.ref{background:#fde3e3}
tr.engine td.eng{background:#dff3e4}
tr.first td{border-top:3px solid #c0392b;border-bottom:3px solid #c0392b}
tr.first td.g{color:#c0392b;font-weight:700}
pre{background:#f3f4f6;padding:8px 10px;border-radius:4px;overflow-x:auto;font-size:12.5px;
 margin:0;white-space:pre-wrap}
.board{display:flex;gap:16px;flex-wrap:wrap}.board>div{flex:1 1 320px}
a{color:#0b5cad}
"""

_TAG_MARK = {"equal": "", "changed": "~", "reference": "-", "engine": "+"}


def _e(text: Any) -> str:
    from mtg_judge.conformance.reports import xml_safe

    return html.escape(xml_safe(text), quote=True)


def _board_html(board: dict) -> str:
    state = board.get("state") or {}
    parts = [f"<p class=\"meta\">The reference engine's board before it read script input "
             f"#{_e(board.get('input'))} (<code>{_e(board.get('action'))}</code>): turn "
             f"{_e(state.get('turn'))}, {_e(state.get('active_player'))}'s "
             f"{_e(str(state.get('step', '')).replace('_', ' '))}, priority "
             f"{_e(state.get('priority'))}</p>", '<div class="board">']
    players = given if isinstance(given := state.get("players"), dict) else {}
    for pid, player in sorted(players.items()):  # as a saved report has them: keys sorted
        if not isinstance(player, dict):
            continue
        rows = [("life", player.get("life"))]
        for zone in ("hand", "graveyard", "exile", "removed_from_game"):
            if zone in player:
                rows.append((zone, ", ".join(map(str, player.get(zone) or [])) or "—"))
        rows.append(("library", f"{len(player.get('library') or [])} cards"))
        pool = player.get("mana_pool") or {}
        if any(pool.values()) if isinstance(pool, dict) else pool:
            rows.append(("mana pool", _value(pool)))
        body = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in rows)
        parts.append(f"<div><h3>{_e(pid)}</h3><table>{body}</table></div>")
    parts.append("</div>")
    field = given if isinstance(given := state.get("battlefield"), dict) else {}
    if field:
        head = "<tr><th>permanent</th><th>name</th><th>controller</th><th>P/T</th><th>status</th></tr>"
        rows_html = []
        for alias, perm in sorted(field.items()):
            if not isinstance(perm, dict):
                continue
            pt = (f"{perm.get('power')}/{perm.get('toughness')}"
                  if perm.get("power") is not None else "")
            status = [s for s in ("tapped" if perm.get("tapped") else "",
                                  "summoning sick" if perm.get("summoning_sick") else "",
                                  f"{perm['damage']} damage" if perm.get("damage") else "",
                                  *(f"{k} ×{v}" for k, v in sorted((perm.get("counters") or {}).items())),
                                  f"attached to {perm['attached_to']}" if perm.get("attached_to") else "")
                      if s]
            rows_html.append(f"<tr><td><code>{_e(alias)}</code></td><td>{_e(perm.get('name'))}</td>"
                             f"<td>{_e(perm.get('controller'))}</td><td>{_e(pt)}</td>"
                             f"<td>{_e(', '.join(status))}</td></tr>")
        parts.append(f"<h3>Battlefield</h3><table>{head}{''.join(rows_html)}</table>")
    stack = state.get("stack") or []
    if stack:
        parts.append("<h3>Stack (bottom first)</h3><pre>"
                     + _e("\n".join(_value(item) for item in stack)) + "</pre>")
    return "".join(parts)


def case_page_html(case: dict, header: dict | None = None, index_href: str = "../index.html",
                   fixture_link: str = "") -> str:
    """The page of one failed or errored case record (:func:`case_divergence` in its
    ``divergence``): heading and verdict, both play-by-plays in a two-column table
    (``<table class="pbp">``, the first divergence's row ``id="first-divergence"`` with
    class ``first``), the first divergence spelt out, the board at that moment
    (``<section id="board">``), the expectation's failing checks, the final-state
    differences and the setup. A record without ``divergence`` (an errored
    case, a reference engine that cannot play it) shows its message and the engine's log.
    ``index_href`` links back to the report; ``fixture_link`` is an ``<a>`` to the file."""
    header = header or {}
    impl = header.get("implementation") or {}
    who = f"{impl.get('name', '?')} {impl.get('version', '')}".strip()
    status = case.get("status", "failed")
    div = case.get("divergence") if isinstance(case.get("divergence"), dict) else None
    body = [f'<p class="meta"><a href="{_e(index_href)}">← the report</a></p>',
            f"<h1>{_e(case.get('name'))} <span class=\"pill {_e(status)}\">{_e(status)}</span></h1>",
            f'<p class="meta">engine {_e(who)} · fixture {fixture_link or _e(case.get("path"))}'
            f' · ruleset <code>{_e(case.get("ruleset"))}</code></p>']
    if div and div.get("first") is not None:
        body.append(f'<p><a href="#first-divergence">first divergence</a>: '
                    f"<code>{_e(div.get('signature'))}</code></p>")
    problems = ""
    if case.get("mismatches"):
        problems = ("<h2>The expectation's failing checks</h2><pre>"
                    + _e("\n".join(case["mismatches"])) + "</pre>")
    elif case.get("message"):
        problems = "<h2>Error</h2><pre>" + _e(case["message"]) + "</pre>"
    if not div:
        body.append(problems)
    if div:
        rows = div.get("rows") or []
        first = div.get("first")
        table = ['<table class="pbp"><thead><tr><th class="g"></th><th>reference engine</th>'
                 f"<th>{_e(who)}</th></tr></thead><tbody>"]
        for k, (tag, ref, eng) in enumerate(rows):
            cls = [tag] + (["first"] if k == first else [])
            ident = ' id="first-divergence"' if k == first else ""
            mark = (">" if k == first else "") + _TAG_MARK.get(tag, "")
            table.append(f'<tr class="{" ".join(cls)}"{ident}><td class="g">{_e(mark)}</td>'
                         f'<td class="ref">{_e(ref or "")}</td><td class="eng">{_e(eng or "")}</td></tr>')
        table.append("</tbody></table>")
        if div.get("truncated"):
            table.append(f"<p class=\"meta\">… {div['truncated']} more rows</p>")
        body.append("<h2>Play-by-play, side by side</h2><p class=\"meta\">~ the events differ, "
                    "- only the reference logs it, + only this engine does, &gt; the first "
                    "divergence; priority events hidden (as <code>mtg-judge show ID --engine"
                    "</code>)</p>" + "".join(table))
        if div.get("fields"):
            body.append("<h2>The first divergence</h2><pre>" + _e("\n".join(div["fields"])) + "</pre>")
        if div.get("board"):
            body.append('<section id="board"><h2>The board at that moment</h2>'
                        + _board_html(div["board"]) + "</section>")
        body.append(problems)
        if div.get("final"):
            body.append("<h2>Final state (reference → this engine)</h2><pre>"
                        + _e("\n".join(div["final"])) + "</pre>")
        if div.get("setup"):
            body.append("<h2>Setup</h2><pre>" + _e("\n".join(div["setup"])) + "</pre>")
    elif case.get("log"):
        body.append("<h2>The engine's log</h2><pre>" + _e("\n".join(case["log"])) + "</pre>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(case.get('name'))}: {_e(status)}</title><style>{_CSS}</style>"
            "</head><body><main>\n" + "\n".join(body) + "\n</main></body></html>\n")
