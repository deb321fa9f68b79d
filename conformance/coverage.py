"""Coverage of the ruling catalog by passing fixtures (DESIGN §15, ``mtg-judge coverage``).

Every ruling id of ``conformance/rulings.json`` must be *covered* (listed in the ``rulings``
of at least one fixture whose cases all pass), or *untestable* (listed in
``fixtures/untestable.json`` with a reason); the rest are *missing*.

Being cited is not being checked: the citation audits ``fixtures/audit/*.json`` (DESIGN §15.1)
split a unit into its claims and name, for each, the fixture whose expectation fails when the
claim is broken. A unit is *claims checked* when it is audited and each of its claims is either
checked by a passing fixture or untestable (with the reason); a claim with status *open* (a
conforming engine could be tested on it, but the suite can't express the test yet) keeps its
unit from counting and is reported apart; units of documents no audit covers are reported as
not audited.
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


def claims_checked(unit: dict, passing: set[str]) -> bool:
    """True if every claim of the audited ``unit`` (an entry of
    :func:`~mtg_judge.conformance.loader.load_audits`) is untestable or checked by at least
    one fixture of ``passing`` (ids of fixtures whose every case passed); an ``open`` claim
    (testable in principle, not expressible by the suite yet) is not checked."""
    return bool(unit["claims"]) and all(
        claim["status"] == "untestable"
        or any(check["fixture"] in passing for check in claim["checked_by"])
        for claim in unit["claims"])


def _audit_row() -> dict:
    return {"audited": 0, "claims_checked": 0, "unchecked_ids": [], "open_claims": []}


def coverage_report(results: Iterable[CaseResult], catalog: dict | None = None,
                    untestable: dict[str, str] | None = None,
                    audits: dict[str, dict] | None = None) -> dict:
    """Per-document coverage of the catalog by ``results`` (from ``run_suite``).

    Returns ``{"documents": {doc: {"total", "covered", "untestable", "missing" (counts),
    "missing_ids": [...]}}, "totals": {same counts}, "unknown_ids": [...], "audit": {doc:
    {"audited", "claims_checked" (counts), "unchecked_ids": [...], "open_claims": [{"unit",
    "claim", "note"}]}}}``; documents in
    catalog order; ``unknown_ids`` are ruling ids that passing fixtures cite but the catalog
    lacks. A ruling both covered and listed untestable counts as covered. ``audits`` are the
    audited units (:func:`~mtg_judge.conformance.loader.load_audits`, none when None); under
    ``"audit"``, ``unchecked_ids`` are audited units some claim of which no passing fixture
    checks (an ``open`` claim included), ``open_claims`` the claims with status ``open`` in
    unit order; a document with no audited unit has ``"audited": 0``.
    """
    catalog = load_catalog() if catalog is None else catalog
    untestable = load_untestable() if untestable is None else untestable
    audits = {} if audits is None else audits
    passing = passing_fixtures(results)
    covered = {rid for ids in passing.values() for rid in ids}
    doc_of_file = {d.get("file"): name for name, d in catalog.get("documents", {}).items()}
    docs: dict[str, dict] = {name: {"total": 0, "covered": 0, "untestable": 0, "missing": 0,
                                    "missing_ids": []} for name in catalog.get("documents", {})}
    audit: dict[str, dict] = {name: _audit_row() for name in docs}
    known = set()
    for ruling in catalog.get("rulings", []):
        rid = ruling["id"]
        known.add(rid)
        doc = doc_of_file.get(ruling.get("doc")) or rid.split(".")[0]
        arow = audit.setdefault(doc, _audit_row())
        if rid in audits:
            arow["audited"] += 1
            arow["open_claims"] += [{"unit": rid, "claim": claim["claim"], "note": claim.get("note", "")}
                                    for claim in audits[rid]["claims"] if claim["status"] == "open"]
            if claims_checked(audits[rid], set(passing)):
                arow["claims_checked"] += 1
            else:
                arow["unchecked_ids"].append(rid)
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
    return {"documents": docs, "totals": totals, "unknown_ids": sorted(covered - known),
            "audit": audit}


def coverage_table(report: dict) -> str:
    """:func:`coverage_report` as a text table (one row per document, then the total).

    ``covered`` counts units cited by a passing fixture; ``claims checked`` counts the units
    an audit splits into claims each checked by a passing fixture or untestable, shown as
    ``checked/audited``, or ``not audited`` for a document no audit covers; ``open`` counts
    the audited claims with status ``open`` (testable in principle, not expressible by the
    suite yet), whose units are not claims checked."""
    cols = ("total", "covered", "untestable", "missing")
    rows = [*report["documents"].items(), ("total", report["totals"])]
    audit = report.get("audit", {})
    audit_total = {"audited": sum(a["audited"] for a in audit.values()),
                   "claims_checked": sum(a["claims_checked"] for a in audit.values()),
                   "open_claims": [c for a in audit.values() for c in a.get("open_claims", [])]}
    width = max(len("document"), *(len(name) for name, _ in rows))
    head = (f"{'document':<{width}}  " + "  ".join(f"{c:>10}" for c in cols) + "  done"
            + f"  {'claims checked':>14}  {'open':>4}")
    lines = [head, "-" * len(head)]
    for name, row in rows:
        if name == "total":
            lines.append("-" * len(head))
        done = (row["covered"] + row["untestable"]) / row["total"] if row["total"] else 1
        arow = audit_total if name == "total" else audit.get(name, {"audited": 0})
        checked = (f"{arow['claims_checked']}/{arow['audited']}" if arow["audited"]
                   else "not audited")
        n_open = len(arow.get("open_claims", [])) if arow["audited"] else "-"
        lines.append(f"{name:<{width}}  " + "  ".join(f"{row[c]:>10}" for c in cols)
                     + f"  {100 * done:>3.0f}%" + f"  {checked:>14}  {n_open:>4}")
    if report.get("unknown_ids"):
        lines.append(f"fixtures cite unknown ruling ids: {', '.join(report['unknown_ids'])}")
    return "\n".join(lines)
