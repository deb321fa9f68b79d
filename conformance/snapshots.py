"""``mtg-judge snapshots update [--check]``: the rules-change workflow (issue 25, item 3).

The snapshots are the reference engine's logs of every case (``conformance/__snapshots__/
test_fixtures/test_fixture[<id>[<ruleset>]].json``, DESIGN §8), compared by syrupy in
``conformance/test_fixtures.py``. After a rules change they are regenerated here, in-process
(no pytest run), with three guarantees a blind ``pytest --snapshot-update`` lacks:

* the snapshot of a case whose expectation fails (or that errors) is **never rewritten**:
  the change would bless a failure; every such case is listed with its reason;
* ``check=True`` (``--check``, the CI mode) writes nothing and says what would change;
* an identical diff shared by several rulesets of one fixture is shown once, naming them.

The text of a snapshot is :func:`mtg_judge.conformance.canonical.snapshot_text` (what the
syrupy extension of ``conformance/conftest.py`` serializes), and its file name the one syrupy
gives the parametrized test (:func:`snapshot_name`), so a tree updated here passes
``pytest conformance`` unchanged.
"""

from __future__ import annotations

import contextlib
import os
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from mtg_judge.conformance.canonical import normalize, snapshot_text
from mtg_judge.conformance.runner import CaseResult

#: The folder of the snapshots of ``conformance/test_fixtures.py`` (syrupy's layout:
#: ``__snapshots__/<test module>/``), relative to the snapshot directory.
FOLDER = "test_fixtures"
#: A file name's longest length (syrupy truncates longer names to this many characters).
_MAX_NAME = 255


def snapshot_name(case_name: str) -> str:
    """The snapshot file of the case ``<id>[<ruleset>]``, relative to the snapshot
    directory: ``test_fixtures/test_fixture[<id>[<ruleset>]].json``, as syrupy's single-file
    extension names it (characters ``\\/?*:|"<>`` and control characters dropped, the stem
    cut at 250 characters)."""
    stem = "".join(c for c in f"test_fixture[{case_name}]"
                   if c not in '\\/?*:|"<>' and not unicodedata.category(c).startswith("C"))
    return f"{FOLDER}/{stem[:_MAX_NAME - len('.json')]}.json"


def read_snapshots(directory: Path | str) -> dict[str, str]:
    """Every snapshot file of ``directory/test_fixtures`` by its name relative to
    ``directory`` (POSIX form), with its text."""
    folder = Path(directory) / FOLDER
    if not folder.is_dir():
        return {}
    return {f"{FOLDER}/{p.name}": p.read_text(encoding="utf-8", errors="replace")
            for p in sorted(folder.iterdir()) if p.is_file()}


@dataclass
class Failure:
    """A case whose snapshot is left as it is: ``name`` (``<id>[<ruleset>]``), ``status``
    (``failed``: its expectation does not hold; ``errored``: no result) and ``reason`` (the
    first line of each mismatch, or the error's first line)."""

    name: str
    status: str
    reason: list[str]


@dataclass
class UpdatePlan:
    """What an update does: ``before`` and ``after`` (snapshot name -> text; ``after`` is
    what the directory holds once the plan is applied), ``failures`` (cases whose snapshot
    is kept, in case order), ``skipped`` (names of cases the reference engine skipped: kept
    too)."""

    before: dict[str, str]
    after: dict[str, str]
    failures: list[Failure] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    @property
    def changes(self) -> dict[str, list[str]]:
        """``{"added", "modified", "deleted"}``: snapshot names, sorted."""
        from mtg_judge.conformance.rulediff import snapshot_changes

        return snapshot_changes(self.before, self.after)

    @property
    def changed(self) -> bool:
        """Whether applying the plan would change some file."""
        return any(self.changes.values())


def _reason(result: CaseResult) -> list[str]:
    if result.mismatches:
        return [str(m).splitlines()[0] for m in result.mismatches]
    first = next((line for line in (result.message or "").splitlines() if line.strip()), "")
    return [first or result.status]


def plan_update(results: Iterable[CaseResult], before: dict[str, str]) -> UpdatePlan:
    """The :class:`UpdatePlan` of the reference engine's ``results`` (every case of the
    fixtures, from :func:`mtg_judge.conformance.runner.run_suite` with the results of passed
    cases kept) against the snapshot files ``before`` (:func:`read_snapshots`).

    A passed case gets its snapshot written (added, or modified when its log changed); a
    failed or errored case keeps the snapshot it has (none if it had none) and is listed in
    ``failures``; a skipped case keeps its snapshot. A snapshot of no case is deleted.
    """
    after: dict[str, str] = {}
    plan = UpdatePlan(before, after)
    for result in results:
        name = snapshot_name(result.case.name)
        if result.status == "passed" and result.result is not None:
            after[name] = snapshot_text(normalize(result.result))
            continue
        if result.status == "skipped":
            plan.skipped.append(result.case.name)
        else:
            plan.failures.append(Failure(result.case.name, result.status, _reason(result)))
        if name in before:
            after[name] = before[name]
    return plan


def apply_plan(plan: UpdatePlan, directory: Path | str) -> None:
    """Write the added and modified snapshots of ``plan`` into ``directory`` (each through
    a temporary file and a rename) and delete the deleted ones. Raises ``OSError``."""
    directory = Path(directory)
    changes = plan.changes
    for name in changes["added"] + changes["modified"]:
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8", newline="\n") as out:
                out.write(plan.after[name])
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    for name in changes["deleted"]:
        with contextlib.suppress(FileNotFoundError):
            (directory / name).unlink()


def _grouped(names: list[str], lines_of) -> list[tuple[str, list[str], list[str]]]:
    """``[(fixture id, [rulesets], lines)]``: the cases ``names`` (``<id>[<ruleset>]``) with
    the same fixture id and the same ``lines_of(name)`` joined into one entry, in the order
    of their first case."""
    from mtg_judge.conformance.rulediff import snapshot_case

    entries: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for name in names:
        found = snapshot_case(name) if name.startswith(FOLDER) else None
        fixture, ruleset = found if found else _split_case(name)
        key = (fixture, tuple(lines_of(name)))
        entries.setdefault(key, []).append(ruleset)
    return [(fixture, rulesets, list(lines)) for (fixture, lines), rulesets in entries.items()]


def _label(fixture: str, rulesets: list[str]) -> str:
    named = [r for r in rulesets if r]
    return f"{fixture} [{', '.join(named)}]" if named else fixture


def _split_case(name: str) -> tuple[str, str]:
    """``("<id>", "<ruleset>")`` of a case name ``<id>[<ruleset>]``."""
    if name.endswith("]") and "[" in name:
        fixture, _, ruleset = name[:-1].rpartition("[")
        return fixture, ruleset
    return name, ""


def format_plan(plan: UpdatePlan, check: bool = False) -> str:
    """The review list of an update: one entry per added, modified or deleted snapshot
    (``modified: <fixture id> [<ruleset>, <ruleset>]``: the rulesets whose diff is the same
    share one entry), each modified one followed by its indented diff
    (:func:`mtg_judge.conformance.rulediff.snapshot_diff`); then every failing case, none
    left out (``failed: <fixture id> [<rulesets>]`` and the first line of each mismatch:
    its snapshot is kept); then a count line. ``check``: the words of ``--check``
    (``would be modified``, nothing written)."""
    from mtg_judge.conformance.rulediff import snapshot_diff

    changes = plan.changes
    lines: list[str] = []
    for kind, names in changes.items():
        label = f"{kind} (not written)" if check else kind

        def diff(name: str, kind: str = kind) -> list[str]:
            return snapshot_diff(plan.before[name], plan.after[name]) if kind == "modified" else []

        for fixture, rulesets, body in _grouped(names, diff):
            lines.append(f"{label}: {_label(fixture, rulesets)}")
            lines += [f"    {line}" for line in body]
    by_name = {f.name: f for f in plan.failures}
    for fixture, rulesets, reason in _grouped(list(by_name), lambda n: [by_name[n].status,
                                                                        *by_name[n].reason]):
        kept = "snapshot kept" if any(snapshot_name(f"{fixture}[{r}]") in plan.before
                                      for r in rulesets) else "no snapshot written"
        lines.append(f"{reason[0]}: {_label(fixture, rulesets)} ({kept})")
        lines += [f"    {line}" for line in reason[1:]]
    counts = ", ".join(f"{len(v)} {k}" for k, v in changes.items())
    verb = "would change" if check else "changed"
    lines.append(f"snapshots {verb}: {counts}, {len(plan.after)} in total; "
                 f"{len(plan.failures)} failing cases not updated"
                 + (f", {len(plan.skipped)} skipped" if plan.skipped else ""))
    return "\n".join(lines)
