"""docs/WRITING_AN_ENGINE.md (issue 27 item 4) names only what exists: every ``-k`` selection
of its ladder selects cases of the suite, every section it names is a heading of that
document, every §10.4 / §10.9 row it names is a row there, and it is linked from PROTOCOL's
first screen and from the README.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_protocol_doc import table, ticked

from mtg_judge.conformance import runner

ROOT = Path(__file__).resolve().parent.parent
GUIDE = (ROOT / "docs" / "WRITING_AN_ENGINE.md").read_text(encoding="utf-8")
DOCS = {name: (ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8") for name in ("PROTOCOL", "FORMAT", "DESIGN")}


def _ladder() -> list[list[str]]:
    rows = [line for line in GUIDE.split("## The ladder", 1)[1].splitlines() if line.startswith("| ")]
    cells = [[c.strip() for c in line.strip().strip("|").split("|")] for line in rows]
    header, body = cells[0], cells[1:]
    assert header == ["#", "step", "read", "check with `-k`"]
    return [r for r in body if r[0].isdigit()]


LADDER = _ladder()


def _selections() -> list[str]:
    return [m for row in LADDER for m in re.findall(r'`"([^"]+)"`', row[3])]


def test_the_ladder_runs_in_the_documented_order():
    assert [int(r[0]) for r in LADDER] == list(range(1, len(LADDER) + 1))
    names = [re.match(r"\*\*([^*]+)\*\*", r[1]).group(1).lower() for r in LADDER]
    # the order of the ladder of levels (reports): turn structure, lands, mana, a creature spell,
    # combat, the stack, triggers, state-based actions, then the rest
    assert names[1:9] == ["turn structure and priority", "lands", "mana", "a creature spell", "combat",
                          "the stack", "triggers", "state-based actions"]


@pytest.mark.parametrize("expr", _selections())
def test_every_selection_selects_cases(expr):
    cases = runner.collect(rulesets=["modern"], keyword=expr)
    assert cases, f"-k {expr!r} selects no modern case"


def _sections(name: str) -> set[str]:
    return set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", DOCS[name], flags=re.M))


def test_every_section_named_exists():
    named = 0
    for m in re.finditer(r"\b(PROTOCOL|FORMAT|DESIGN)\b([^;|()]*)", GUIDE):
        for number in re.findall(r"§(\d+(?:\.\d+)?)", m.group(2)):
            assert number in _sections(m.group(1)), f"{m.group(1)} has no section {number}"
            named += 1
    assert named > 30


def test_every_row_named_exists():
    rows = ({ticked(r["id"])[0] for r in table("event-order")}
            | {ticked(r["id"])[0] for r in table("fixture-conventions")}
            | {w for r in table("rejection-precedence") for w in ticked(r["input"])})
    named = set()
    for m in re.finditer(r"\brows? ((?:`[\w-]+`(?:, | … | and |, and )?)+)", GUIDE):
        named |= set(re.findall(r"`([\w-]+)`", m.group(1)))
    assert named and not named - rows, sorted(named - rows)


def test_the_first_step_names_a_fixture():
    fixture_id = re.findall(r'`"([^"]+)"`', LADDER[0][3])[0]
    assert any(c.fixture_id == fixture_id for c in runner.collect(rulesets=["modern"], keyword=fixture_id))


def test_linked_from_protocols_first_screen_and_the_readme():
    first_screen = "\n".join(DOCS["PROTOCOL"].splitlines()[:40])
    assert "(WRITING_AN_ENGINE.md)" in first_screen
    assert "(docs/WRITING_AN_ENGINE.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
