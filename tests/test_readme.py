"""README.md is a document a new user reads in ten minutes (issue 21), and nothing in it is a
figure nobody checks: its size, its two Quickstart commands, its links, and every number or
sample output it shows are checked here against the live project. (The Rulesets switch
table is checked by tests/test_rulesets.py.)"""

from __future__ import annotations

import json
import re
import tomllib
import unicodedata
from collections import Counter
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from mtg_judge.conformance.runner import collect, format_table
from mtg_judge.tools.cli import main as cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
TEXT = README.read_text(encoding="utf-8")

#: The size limit of issue 21, in characters.
LIMIT = 25_000

#: The Quickstart's commands, exactly: CI and new users copy them.
QUICKSTART = (
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/mtg-judge run",
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test,adapters]' && .venv/bin/pytest -n auto",
)

#: Documents whose relative links and anchors are checked (the README and what it points to
#: first; the other docs link mostly by section number in prose).
LINKED = ["README.md", "docs/BENCHMARKS.md", "docs/TESTING.md", "docs/DESIGN.md", "docs/COMPLIANCE.md"]


def section(title: str, text: str = TEXT) -> str:
    """The body of the ``## title`` section of ``text`` (up to the next ``## ``)."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.DOTALL | re.MULTILINE)
    assert match, f"README has no section '## {title}'"
    return match.group(1)


def code_blocks(text: str) -> list[tuple[str, str]]:
    """``(info string, body)`` of every fenced code block, indentation of a list item removed."""
    blocks = []
    for match in re.finditer(r"^( *)```(\w*)\n(.*?)^\1```$", text, re.DOTALL | re.MULTILINE):
        indent = len(match.group(1))
        body = "\n".join(line[indent:] for line in match.group(3).split("\n"))
        blocks.append((match.group(2), body.rstrip("\n")))
    return blocks


def test_readme_is_under_the_limit():
    assert len(TEXT) < LIMIT, f"README.md has {len(TEXT):,} characters (limit {LIMIT:,}): move detail to docs/"


def test_quickstart_commands_are_unchanged():
    blocks = [body for info, body in code_blocks(section("Quickstart")) if info == "sh"]
    assert blocks and blocks[0].split("\n") == list(QUICKSTART)


def test_quickstart_python_version_is_the_packages():
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    match = re.fullmatch(r">=\s*(\d+\.\d+)", requires)
    assert match, requires
    assert f"Python ≥ {match.group(1)}" in section("Quickstart")


def test_quickstart_summary_is_the_live_suite():
    """The sample summary of ``mtg-judge run``: one row per document with as many cases as the
    suite collects, all passed (the reference engine passes every case: the snapshot tests
    of conformance/test_fixtures.py check it)."""
    sample = next(body for info, body in code_blocks(section("Quickstart")) if info == "")
    per_document = Counter(case.document for case in collect())
    table = {doc: {"passed": n, "failed": 0, "errored": 0, "skipped": 0, "total": n}
             for doc, n in sorted(per_document.items())}
    assert sample == format_table(table)


def test_diff_rulesets_sample_is_the_commands_output():
    workflow = section("Rules-change workflow")
    [sample] = [body for info, body in code_blocks(workflow) if body.startswith("$ mtg-judge diff-rulesets")]
    command, _, expected = sample.partition("\n")
    args = command.split()[2:]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    output = result.stdout if hasattr(result, "stdout") else result.output
    assert output.rstrip("\n") == expected


def test_commands_table_lists_every_command():
    table = section("What you can do with it")
    listed = set(re.findall(r"^\| `mtg-judge ([a-z-]+)", table, re.MULTILINE))
    with click.Context(cli) as ctx:
        commands = set(cli.list_commands(ctx))  # click's listing: lazily imported commands too
    assert listed == commands, (
        f"README commands table: missing {sorted(commands - listed)}, "
        f"unknown {sorted(listed - commands)}")


def _elided(text: str) -> object:
    """The README's JSON excerpt with ``...`` for what is left out: ``[..., x]`` and ``[x, ...]``
    drop the elision, ``"key": ...`` becomes ``"key": ELIDED``."""
    text = re.sub(r"\[\s*\.\.\.\s*,", "[", text)
    text = re.sub(r",\s*\.\.\.\s*([\]}])", r"\1", text)
    text = re.sub(r":\s*\.\.\.", ': "__ELIDED__"', text)
    return json.loads(text)


def _is_excerpt(part: object, whole: object, path: str = "$") -> None:
    """``part`` is ``whole`` with keys and list items left out (lists: an ordered subsequence)."""
    if part == "__ELIDED__":
        return
    if isinstance(part, dict):
        assert isinstance(whole, dict), path
        for key, value in part.items():
            assert key in whole, f"{path}.{key}: not in the fixture"
            _is_excerpt(value, whole[key], f"{path}.{key}")
    elif isinstance(part, list) and isinstance(whole, list) and any(isinstance(x, dict) for x in part):
        rest = iter(enumerate(whole))
        for item in part:
            for _, candidate in rest:
                try:
                    _is_excerpt(item, candidate, path)
                    break
                except AssertionError:
                    continue
            else:
                raise AssertionError(f"{path}: {item} is not in the fixture's list (in order)")
    else:
        assert part == whole, f"{path}: README {part!r}, fixture {whole!r}"


def test_fixture_examples_are_excerpts_of_the_fixtures():
    examples = [_elided(body) for info, body in code_blocks(TEXT) if info == "json"]
    assert len(examples) >= 2
    fixtures = {case.fixture_id: case.path for case in collect()}
    for shown in examples:
        assert shown["id"] in fixtures, f"README shows the fixture {shown['id']}, which does not exist"
        _is_excerpt(shown, json.loads(fixtures[shown["id"]].read_text(encoding="utf-8")))


def test_mutants_bar_is_the_kill_rate_bar():
    from mtg_judge.conformance.mutants import KILL_RATE_BAR

    row = [line for line in section("What you can do with it").split("\n") if line.startswith("| `mtg-judge mutants")]
    assert row and f"at least {KILL_RATE_BAR:.0%}" in row[0]


def test_the_excerpt_check_refuses_what_the_fixture_does_not_say():
    with pytest.raises(AssertionError):
        _is_excerpt({"a": [{"b": 2}, {"b": 1}]}, {"a": [{"b": 1}, {"b": 2}]})  # out of order
    with pytest.raises(AssertionError):
        _is_excerpt({"a": 1, "c": 1}, {"a": 1})


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: inline code marks and punctuation dropped (``-`` and
    ``_`` kept), lowercase, spaces to ``-``."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = "".join(c for c in text if c in "-_ " or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading anchor of a Markdown text (outside code blocks), duplicates numbered."""
    seen: Counter[str] = Counter()
    out = set()
    in_code = False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            in_code = not in_code
        if in_code or not re.match(r"#{1,6} ", line):
            continue
        base = slug(line.lstrip("#"))
        out.add(base if not seen[base] else f"{base}-{seen[base]}")
        seen[base] += 1
    return out


def test_slug():
    assert slug(" 3. Fixture (`schema/scenario.schema.json`)") == "3-fixture-schemascenarioschemajson"
    assert slug(" Mutation self-check: does the suite notice a broken rule?") == \
        "mutation-self-check-does-the-suite-notice-a-broken-rule"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n") == {"a", "a-1"}


@pytest.mark.parametrize("name", LINKED)
def test_relative_links_and_anchors_resolve(name):
    source = ROOT / name
    text = source.read_text(encoding="utf-8")
    prose = re.sub(r"^( *)```.*?^\1```$", "", text, flags=re.DOTALL | re.MULTILINE)
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        file, _, anchor = target.partition("#")
        path = (source.parent / file).resolve() if file else source
        if not path.exists():
            broken.append(f"{target}: no file {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}")
        elif anchor and anchor not in anchors(path.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading #{anchor} in {path.relative_to(ROOT)}")
    assert not broken, f"{name}: " + "; ".join(broken)
