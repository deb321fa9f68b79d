"""Coverage of the ruling catalog by passing fixtures (DESIGN §15, ``mtg-judge coverage``).

Every ruling id of ``conformance/rulings.json`` must be *covered* (listed in the ``rulings``
of at least one fixture whose cases all pass), or *untestable* (listed in
``fixtures/untestable.json`` with a reason); the rest are *missing*.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from mtg_judge.conformance.loader import UNTESTABLE_FILE, load_rulings
from mtg_judge.conformance.loader import load_untestable as _load_untestable
from mtg_judge.conformance.runner import DEFAULT_ROOT, CaseResult


def load_catalog() -> dict:
    """The ruling catalog ``conformance/rulings.json`` (``mtg_judge.conformance.loader.load_rulings``)."""
    return load_rulings()


def load_untestable(root: Path = DEFAULT_ROOT) -> dict[str, str]:
    """``{ruling id: reason}`` from ``<root>/untestable.json`` (empty if there is none).

    Raises ``mtg_judge.conformance.loader.FixtureError`` for a malformed file.
    """
    return {item["id"]: item["reason"] for item in _load_untestable(Path(root) / UNTESTABLE_FILE)}


def passing_fixtures(results: Iterable[CaseResult]) -> dict[str, list[str]]:
    """``{fixture id: its ruling ids}`` for fixtures whose every case passed."""
    status: dict[str, bool] = {}
    rulings: dict[str, list[str]] = {}
    for r in results:
        fid = r.case.fixture_id
        status[fid] = status.get(fid, True) and r.status == "passed"
        rulings[fid] = list(r.case.scenario.get("rulings") or [])
    return {fid: rulings[fid] for fid in sorted(status) if status[fid]}


def coverage_report(results: Iterable[CaseResult], catalog: dict | None = None,
                    untestable: dict[str, str] | None = None) -> dict:
    """Per-document coverage of the catalog by ``results`` (from ``run_suite``).

    Returns ``{"documents": {doc: {"total", "covered", "untestable", "missing" (counts),
    "missing_ids": [...]}}, "totals": {same counts}, "unknown_ids": [...]}``; documents in
    catalog order; ``unknown_ids`` are ruling ids that passing fixtures cite but the catalog
    lacks. A ruling both covered and listed untestable counts as covered.
    """
    catalog = load_catalog() if catalog is None else catalog
    untestable = load_untestable() if untestable is None else untestable
    covered = {rid for ids in passing_fixtures(results).values() for rid in ids}
    doc_of_file = {d.get("file"): name for name, d in catalog.get("documents", {}).items()}
    docs: dict[str, dict] = {name: {"total": 0, "covered": 0, "untestable": 0, "missing": 0,
                                    "missing_ids": []} for name in catalog.get("documents", {})}
    known = set()
    for ruling in catalog.get("rulings", []):
        rid = ruling["id"]
        known.add(rid)
        doc = doc_of_file.get(ruling.get("doc")) or rid.split(".")[0]
        row = docs.setdefault(doc, {"total": 0, "covered": 0, "untestable": 0, "missing": 0,
                                    "missing_ids": []})
        row["total"] += 1
        if rid in covered:
            row["covered"] += 1
        elif rid in untestable:
            row["untestable"] += 1
        else:
            row["missing"] += 1
            row["missing_ids"].append(rid)
    totals = {k: sum(row[k] for row in docs.values())
              for k in ("total", "covered", "untestable", "missing")}
    return {"documents": docs, "totals": totals, "unknown_ids": sorted(covered - known)}


def coverage_table(report: dict) -> str:
    """:func:`coverage_report` as a text table (one row per document, then the total)."""
    cols = ("total", "covered", "untestable", "missing")
    rows = [*report["documents"].items(), ("total", report["totals"])]
    width = max(len("document"), *(len(name) for name, _ in rows))
    head = f"{'document':<{width}}  " + "  ".join(f"{c:>10}" for c in cols) + "  done"
    lines = [head, "-" * len(head)]
    for name, row in rows:
        if name == "total":
            lines.append("-" * len(head))
        done = (row["covered"] + row["untestable"]) / row["total"] if row["total"] else 1
        lines.append(f"{name:<{width}}  " + "  ".join(f"{row[c]:>10}" for c in cols)
                     + f"  {100 * done:.0f}%")
    if report.get("unknown_ids"):
        lines.append(f"fixtures cite unknown ruling ids: {', '.join(report['unknown_ids'])}")
    return "\n".join(lines)
