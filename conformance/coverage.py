"""Coverage of the ruling catalog by passing fixtures (DESIGN §15, ``mtg-judge coverage``).

Every ruling id of ``conformance/rulings.json`` must be *covered* (listed in the ``rulings``
of at least one fixture whose cases all pass), or *untestable* (listed in
``fixtures/untestable.json`` with a reason); the rest are *missing*.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

from conformance.runner import DEFAULT_ROOT, CaseResult

CATALOG = Path(__file__).resolve().parent / "rulings.json"


def load_catalog(path: Path = CATALOG) -> dict:
    """The ruling catalog: ``{"documents": {name: {...}}, "rulings": [{"id", "doc", ...}]}``."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def untestable_ids(data: Any) -> dict[str, str]:
    """``{ruling id: reason}`` from the parsed ``fixtures/untestable.json``.

    Accepts a list of ``{"id", "reason"}`` objects, an object holding such a list under
    ``"rulings"`` or ``"untestable"``, or a plain ``{id: reason}`` object.
    """
    if isinstance(data, dict):
        for key in ("rulings", "untestable"):
            if isinstance(data.get(key), list):
                return untestable_ids(data[key])
        return {k: str(v) for k, v in data.items() if k not in ("version", "$schema")}
    return {item["id"]: str(item.get("reason", "")) for item in data or []}


def load_untestable(root: Path = DEFAULT_ROOT) -> dict[str, str]:
    """``{ruling id: reason}`` from ``<root>/untestable.json`` (empty if there is none)."""
    path = Path(root) / "untestable.json"
    if not path.exists():
        return {}
    return untestable_ids(json.loads(path.read_text(encoding="utf-8")))


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
