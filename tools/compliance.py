"""``mtg-judge compliance``: the compliance of every engine, measured and published in one step
(DESIGN §10, §12; issue 24).

The command runs each engine on the whole suite (the reference engine in-process, phase.rs and
python-mtg through their protocol v1 adapters, manabrew-engine through its Rust adapter when it
is built: ``$MTG_JUDGE_MANABREW`` or ``tools/adapters/manabrew/build.sh``'s default path; not
built, its committed report is kept), saves each run's report, trimmed to what the
tables need, as ``docs/compliance/<engine>.jsonl`` (a report ``mtg-judge report`` reads, see
:func:`trim_report`), and renders ``docs/COMPLIANCE.md`` from those committed reports and
``docs/upstream/<engine>/bugs.json`` alone (:func:`render`): every figure of the document comes
from them, so the document cannot drift from a run. ``--check`` only re-renders and compares
(exit 1 when the document differs): a test does it without running any engine.

What a saved report's header adds to the run's (PROTOCOL §6) under ``"compliance"``::

    {"engine": "phase", "package": "phase-python", "package_version": "0.103.0",
     "command": "python -m mtg_judge.tools.adapters.phase_adapter",
     "suite_commit": "9e3ec6d", "validate_protocol": true,
     "upstream_scripts": {"<bug id>": "reproduces" | "fixed" | "broken"}}   # phase only

``package_version`` is read with :mod:`importlib.metadata` (the engine's installed
distribution; the suite's own for the reference engine; for a binary adapter, the version
its handshake declares, PROTOCOL §1); ``suite_commit`` is the checkout's
``git rev-parse --short HEAD``, suffixed ``+changes`` when the code or fixtures differ from
it; ``upstream_scripts`` is the exit status of each bug script of ``docs/upstream/phase/``
(:func:`run_bug_scripts`: 1 reproduces, 0 fixed, anything else broken).

Statuses are read generically (:data:`mtg_judge.conformance.runner.STATUSES`): a status the
runner gains gets its own column in every table.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

import click

from mtg_judge.conformance.reports import Report, dump_jsonl, read_report
from mtg_judge.conformance.runner import STATUSES, compliance, overall, played, summarize, total_row
from mtg_judge.engine.rulesets import DEFAULT_RULESET

#: The repository folder (the generated files are committed beside the code).
ROOT = Path(__file__).resolve().parent.parent
#: Where the saved reports live.
REPORTS_DIR = ROOT / "docs" / "compliance"
#: The generated document.
DOCUMENT = ROOT / "docs" / "COMPLIANCE.md"
#: The hand-written parts of the document (no figures: the generator writes those).
PROSE_DIR = REPORTS_DIR / "prose"
#: phase's bug reports and their data file.
UPSTREAM_DIR = ROOT / "docs" / "upstream" / "phase"
BUGS_FILE = UPSTREAM_DIR / "bugs.json"
#: The ruleset the third-party engines declare, and the one the comparison tables count.
MODERN = DEFAULT_RULESET
#: Characters kept of a case's message, and mismatches kept, in a saved report.
MESSAGE_LIMIT = 240
MISMATCH_LIMIT = 2


@dataclass(frozen=True)
class EngineSpec:
    """One engine the command knows: ``name`` (``--engines`` and the report's file name),
    ``label`` (tables), ``module`` (its Python adapter, run as ``python -m module``), or
    ``binary`` (a built adapter program: its default path relative to the repository, and
    ``binary_env`` the environment variable that overrides it; docs/MANABREW.md), neither
    for the in-process reference engine; ``package`` the distribution or crate whose
    version is recorded (a binary adapter's is the version its handshake declares)."""

    name: str
    label: str
    module: str | None
    package: str
    binary: str | None = None
    binary_env: str | None = None

    @property
    def is_adapter(self) -> bool:
        """True when the engine runs through a protocol v1 adapter (not in-process)."""
        return bool(self.module or self.binary)

    @property
    def command(self) -> str | None:
        """The portable command line shown in the document (``python -m ...`` or the
        binary's repository-relative path)."""
        if self.module:
            return f"python -m {self.module}"
        return self.binary

    def binary_path(self) -> Path | None:
        """A binary adapter's program: ``$binary_env`` if set, else ``ROOT / binary``; None
        for the others."""
        if not self.binary:
            return None
        override = os.environ.get(self.binary_env) if self.binary_env else None
        return Path(override) if override else ROOT / self.binary

    def available(self) -> bool:
        """False only for a binary adapter that is not built (:meth:`binary_path` missing)."""
        path = self.binary_path()
        return path is None or path.is_file()

    def run_command(self) -> str | None:
        """The command line actually run: this interpreter (the virtual environment's), or
        the binary's absolute path."""
        if self.module:
            return f"{sys.executable} -m {self.module}"
        path = self.binary_path()
        return shlex.quote(str(path)) if path is not None else None


ENGINES: dict[str, EngineSpec] = {spec.name: spec for spec in (
    EngineSpec("reference", "reference (in-process)", None, "mtg-judge"),
    EngineSpec("phase", "phase.rs", "mtg_judge.tools.adapters.phase_adapter", "phase-python"),
    EngineSpec("pymtg", "python-mtg", "mtg_judge.tools.adapters.pymtg_adapter", "python-mtg"),
    EngineSpec("manabrew", "manabrew-engine", None, "manabrew-engine",
               binary="tools/adapters/manabrew/target/debug/mtg-judge-manabrew",
               binary_env="MTG_JUDGE_MANABREW"),
)}

#: Engines whose confirmed bugs are listed, each with ``docs/upstream/<name>/bugs.json``.
BUG_ENGINES = ("phase", "manabrew")


def report_path(name: str, directory: Path = REPORTS_DIR) -> Path:
    """The saved report of engine ``name``: ``<directory>/<name>.jsonl``."""
    return directory / f"{name}.jsonl"


# --------------------------------------------------------------------------------------------
# Running and saving


def package_version(package: str) -> str:
    """The installed version of distribution ``package`` (:mod:`importlib.metadata`), or
    ``"not installed"``."""
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


#: The folders whose changes make a run differ from its commit (``+changes``).
CODE_PATHS = ("engine", "conformance", "fixtures", "tools", "schema")


def suite_commit(root: Path = ROOT) -> str:
    """The checkout's short commit, ``+changes`` when :data:`CODE_PATHS` differ from it,
    ``"unknown"`` outside a git checkout."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, check=True,
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", *CODE_PATHS], cwd=root,
                               check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{head}+changes" if dirty else head


def trim_record(case: dict) -> dict:
    """A case record (PROTOCOL §6) cut to what the tables and a reader need: id, ruleset,
    document, mechanic, status, check counts, the error kind and the message when there is
    one (at most :data:`MESSAGE_LIMIT` characters), and the first line of each of the first
    :data:`MISMATCH_LIMIT` mismatches; the name, path, engine's log, expectation,
    divergence and needs are dropped. The result is still a case record :func:`read_report`
    accepts (it fills in the name and the defaults)."""
    def cut(value: Any) -> str:
        text = str(value or "").replace(f"{ROOT}/", "").replace(sys.executable, "python")
        return text if len(text) <= MESSAGE_LIMIT else text[:MESSAGE_LIMIT - 1] + "…"

    out = {key: case[key] for key in ("kind", "id", "ruleset", "document", "mechanic",
                                      "status", "checks") if key in case}
    if case.get("error_kind") is not None:
        out["error_kind"] = case["error_kind"]
    if case.get("message"):
        out["message"] = cut(case["message"])
    mismatches = case.get("mismatches") or []
    if mismatches:  # the first line of each of the first few: enough to see why
        out["mismatches"] = [cut(str(m).splitlines()[0] if str(m).strip() else m)
                             for m in mismatches[:MISMATCH_LIMIT]]
        if len(mismatches) > MISMATCH_LIMIT:
            out["mismatches"].append(f"… {len(mismatches) - MISMATCH_LIMIT} more")
    return out


def trim_report(report: Report, spec: EngineSpec, extra: dict) -> Report:
    """``report`` as saved under ``docs/compliance/``: case records trimmed
    (:func:`trim_record`), the header's machine-specific ``fixtures`` and ``engine`` made
    portable (``"fixtures"``, :attr:`EngineSpec.command`), and ``compliance`` (``extra``:
    the module docstring's keys) added. The footer is the run's."""
    header = dict(report.header)
    header["fixtures"] = "fixtures"
    header["engine"] = spec.command
    header["compliance"] = {"engine": spec.name, "package": spec.package, **extra}
    return Report(header, [trim_record(c) for c in report.cases], dict(report.footer))


def run_engine(spec: EngineSpec, workers: int, timeout: float, validate: bool,
               fixtures_dir: Path | None = None) -> Report:
    """Run the whole suite on one engine with a progress bar on stderr; its full report.
    Raises ``click.ClickException`` when the engine cannot start."""
    from mtg_judge.conformance.protocol import describe_engine_error
    from mtg_judge.conformance.reports import build_report
    from mtg_judge.conformance.runner import DEFAULT_ROOT
    from mtg_judge.tools.cli import _collect, _run_with_progress

    fixtures = fixtures_dir or DEFAULT_ROOT
    cases = _collect(fixtures)
    implementation: dict = {}
    try:
        results = _run_with_progress(cases, spec.label, keep_passed_results=False,
                                     workers=workers, engine_command=spec.run_command(),
                                     timeout=timeout, validate=validate and spec.is_adapter,
                                     on_start=implementation.update)
    except click.ClickException:
        raise
    except Exception as exc:  # EngineError: the adapter cannot start (package missing)
        raise click.ClickException(f"{spec.label} cannot start: "
                                   f"{describe_engine_error(exc)}") from None
    return build_report(results, implementation, fixtures_root=fixtures,
                        engine_command=spec.command,
                        selection={"rulesets": None, "keyword": None})


def run_bug_scripts(bugs: list[dict], directory: Path = UPSTREAM_DIR,
                    timeout: float = 120.0) -> dict[str, str]:
    """Run each bug's script (``bugs.json``'s ``script``, a file of ``directory``) with this
    interpreter: ``{bug id: "reproduces" (exit 1) | "fixed" (exit 0) | "broken" (any other
    exit, or a timeout)}``, for the bugs that have a script."""
    out = {}
    for bug in bugs:
        script = bug.get("script")
        if not script:
            continue
        try:
            code = subprocess.run([sys.executable, str(directory / script)], cwd=directory,
                                  capture_output=True, text=True, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            code = -1
        out[bug["id"]] = {1: "reproduces", 0: "fixed"}.get(code, "broken")
    return out


def bugs_file(name: str) -> Path:
    """Engine ``name``'s bug list: ``docs/upstream/<name>/bugs.json``."""
    return ROOT / "docs" / "upstream" / name / "bugs.json"


def load_all_bugs() -> dict[str, list[dict]]:
    """``{engine name: its bugs}`` (:func:`load_bugs`) for each of :data:`BUG_ENGINES`
    whose ``bugs.json`` exists."""
    return {name: load_bugs(bugs_file(name)) for name in BUG_ENGINES if bugs_file(name).is_file()}


def load_bugs(path: Path = BUGS_FILE) -> list[dict]:
    """The bugs of a ``bugs.json`` (phase's by default) (a JSON object with ``bugs``: a list of
    ``{"id", "title", "status", "cr", "rulings", "fixtures", "script", "report",
    "upstream": {"status", "url"}}``). Raises ``click.ClickException`` for an unreadable
    file or a bug without ``id``/``title``/``status``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise click.ClickException(f"{path}: cannot read the bug list: {exc}") from None
    bugs = data.get("bugs") if isinstance(data, dict) else None
    if not isinstance(bugs, list):
        raise click.ClickException(f"{path}: expected an object with a 'bugs' list")
    for i, bug in enumerate(bugs):
        missing = [k for k in ("id", "title", "status") if not isinstance(bug.get(k), str)]
        if missing:
            raise click.ClickException(f"{path}: bugs[{i}]: missing {', '.join(missing)}")
    return bugs


# --------------------------------------------------------------------------------------------
# Rendering


def _cell(row: dict[str, int]) -> str:
    """A compact cell: the status counts in :data:`STATUSES` order, ``/``-separated, then
    the pass rate of the cases run (``12/3/0/5 · 80.0%``)."""
    return "/".join(str(row.get(s, 0)) for s in STATUSES) + f" · {compliance(row)}"


def _status_cells(row: dict[str, int]) -> str:
    run, selected = played(row)
    return (" | ".join(str(row.get(s, 0)) for s in STATUSES)
            + f" | {run}/{selected} | {compliance(row)} | {overall(row)}")


def _status_head(first: str) -> list[str]:
    heads = [first, *STATUSES, "run", "% of run", "% of all"]
    return ["| " + " | ".join(heads) + " |",
            "|---|" + "---:|" * (len(heads) - 1)]


#: A skip reason's variable parts: quoted text, numbers, object references.
_VARIABLE = re.compile(r"(?<![A-Za-z])'[^']*'(?![A-Za-z])|\"[^\"]*\"|`[^`]*`|\{[^}]*\}|\[[^\]]*\]|#\d+|\d+")


def skip_reason(message: str) -> str:
    """A skip or error message reduced to its reason, so that like messages group together:
    quoted text (but a lowercase field name such as ``'source'``), braces, brackets and
    numbers replaced by ``…``/``N``, cut at 140 characters."""
    def replace(match: re.Match) -> str:
        found: str = match.group()
        if found[-1].isdigit():
            return "N"
        if found[0] in "'\"`" and re.fullmatch(r"[a-z_]+", found[1:-1]):
            return found  # a field or key name ('source', 'kicker'): the reason itself
        return "…"

    text = _VARIABLE.sub(replace, message or "")
    text = re.sub(r"\s+", " ", text).strip() or "(no reason given)"
    return text if len(text) <= 140 else text[:139] + "…"


def _declared(report: Report) -> list[str]:
    return list((report.header.get("implementation") or {}).get("rulesets") or [])


def _esc(text: Any) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _prose(name: str, prose_dir: Path) -> str:
    path = prose_dir / f"{name}.md"
    return path.read_text(encoding="utf-8").strip() + "\n" if path.is_file() else ""


def render(reports: dict[str, Report], bugs: list[dict] | dict[str, list[dict]],
           prose_dir: Path = PROSE_DIR) -> str:
    """docs/COMPLIANCE.md from the saved reports (``{engine name: Report}``, in
    :data:`ENGINES` order) and the engines' bugs (:func:`load_all_bugs`: ``{engine name:
    bugs}``; a list is phase's alone, :func:`load_bugs`); the hand-written parts (no
    figures) are ``prose_dir/<part>.md``: ``intro``, ``analysis``. Deterministic: the same
    inputs give the same text."""
    by_engine = {"phase": bugs} if isinstance(bugs, list) else bugs
    order = [name for name in ENGINES if name in reports]
    label = {name: ENGINES[name].label for name in order}
    meta = {name: reports[name].header.get("compliance") or {} for name in order}
    out = ["# Compliance of real third-party engines", "",
           "<!-- generated by `mtg-judge compliance` from docs/compliance/*.jsonl, "
           "docs/compliance/prose/*.md and docs/upstream/*/bugs.json: edit those, "
           "then run `mtg-judge compliance --render` -->", ""]
    out.append(_prose("intro", prose_dir))
    out += ["## Runs", "",
            "Each row is one committed report (`docs/compliance/<engine>.jsonl`, read by "
            "`mtg-judge report FILE`). Compliance = passed / (passed + failed + errored), the "
            "pass rate of the cases run (DESIGN §10); `% of all` counts every skipped case "
            "against the engine (PROTOCOL §6).", "",
            "| engine | package | suite commit | run on | rulesets declared | capabilities "
            "| protocol validated |",
            "|---|---|---|---|---|---|---|"]
    for name in order:
        header, m = reports[name].header, meta[name]
        impl = header.get("implementation") or {}
        out.append(f"| {label[name]} | `{m.get('package', '?')}` {m.get('package_version', '?')} "
                   f"| `{m.get('suite_commit', '?')}` | {str(header.get('started', '?'))[:10]} "
                   f"| {', '.join(impl.get('rulesets') or []) or '-'} "
                   f"| {', '.join(impl.get('capabilities') or []) or '-'} "
                   f"| {'yes' if m.get('validate_protocol') else 'no'} |")
    out += ["", "Every case of the suite (all rulesets; a case of a ruleset the engine does "
            "not declare is skipped by the harness):", ""]
    out += _status_head("engine")
    for name in order:
        out.append(f"| {label[name]} | " + _status_cells(total_row(summarize(reports[name].cases,
                                                                            "document"))) + " |")
    out += ["", f"The `{MODERN}` cases only (the ruleset every third-party engine declares):", ""]
    out += _status_head("engine")
    for name in order:
        cases = [c for c in reports[name].cases if c["ruleset"] == MODERN]
        out.append(f"| {label[name]} | " + _status_cells(total_row(summarize(cases, "document")))
                   + " |")
    out += ["", "### Reproduce", "", "```sh",
            "pip install -e '.[test,adapters]'   # the pinned phase-python and python-mtg",
            "tools/adapters/manabrew/build.sh     # manabrew-engine's adapter (Rust; "
            "docs/MANABREW.md); not built: its report is kept",
            "mtg-judge compliance -n 2            # runs every engine, writes docs/compliance/ "
            "and this file",
            "mtg-judge compliance --engines phase # one engine again; the others' reports are kept",
            "mtg-judge compliance --check         # the document matches the committed reports",
            "```", "", "The same runs by hand:", "", "```sh"]
    for name in order:
        command = ENGINES[name].command
        validate = " --validate-protocol" if meta[name].get("validate_protocol") else ""
        ruleset = f" --ruleset {MODERN}" if ENGINES[name].binary else ""
        out.append(f"mtg-judge run -n 2 --by-mechanic{validate}{ruleset}"
                   + (f' --engine "{command}"' if command else "") + f"   # {label[name]}")
    out += ["```", ""]
    out += _by_table(reports, order, label, "document")
    out += _by_table(reports, order, label, "mechanic")
    out += _reason_tables(reports, order, label, "skipped", "Why cases are skipped")
    out += _reason_tables(reports, order, label, "errored", "Why cases error")
    out += _bug_table(reports.get("phase"), by_engine.get("phase") or [])
    out.append(_prose("analysis", prose_dir))
    for name in BUG_ENGINES:  # the other engines' bugs, each followed by its own prose part
        if name != "phase" and name in order:
            out += _engine_bug_table(name, label[name], reports.get(name), by_engine.get(name) or [])
            out.append(_prose(name, prose_dir))
    return "\n".join(out).rstrip("\n") + "\n"


def _by_table(reports: dict[str, Report], order: list[str], label: dict[str, str],
              by: str) -> list[str]:
    """The ``modern`` cases per document or mechanic, one column per engine."""
    tables = {name: summarize([c for c in reports[name].cases if c["ruleset"] == MODERN], by)
              for name in order}
    groups = sorted({g for t in tables.values() for g in t})
    lines = [f"## Per {by} (`{MODERN}` cases)", "",
             "Each cell: " + "/".join(STATUSES) + " · % of run (passed of the cases run).", "",
             f"| {by} | cases | " + " | ".join(label[n] for n in order) + " |",
             "|---|---:|" + "---|" * len(order)]
    for group in groups:
        cells = []
        total = 0
        for name in order:
            row = tables[name].get(group)
            total = max(total, row["total"] if row else 0)
            cells.append(_cell(row) if row else "-")
        lines.append(f"| {group} | {total} | " + " | ".join(cells) + " |")
    cells = [_cell(total_row(tables[name])) for name in order]
    total = max((total_row(tables[n])["total"] for n in order), default=0)
    lines += [f"| **total** | {total} | " + " | ".join(f"**{c}**" for c in cells) + " |", ""]
    return lines


#: Skip reasons listed per engine (the rest are counted on one line).
SKIP_REASONS = 25


def _reason_tables(reports: dict[str, Report], order: list[str], label: dict[str, str],
                   status: str, title: str) -> list[str]:
    """Per engine, its ``modern`` cases of ``status`` counted by reason (:func:`skip_reason`
    of each message), most frequent first."""
    lines = [f"## {title} (`{MODERN}` cases)", "",
             "Each engine's messages, grouped once quoted names and numbers are taken out "
             "(the full messages are in the committed reports).", ""]
    for name in order:
        cases = [c for c in reports[name].cases
                 if c["ruleset"] == MODERN and c["status"] == status]
        lines.append(f"### {label[name]}: {len(cases)} {status}")
        lines.append("")
        if not cases:
            lines += ["None.", ""]
            continue
        counts: dict[str, int] = {}
        for case in cases:
            reason = skip_reason(case.get("message") or "")
            counts[reason] = counts.get(reason, 0) + 1
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        lines += ["| cases | reason |", "|---:|---|"]
        for reason, n in ranked[:SKIP_REASONS]:
            lines.append(f"| {n} | {_esc(reason)} |")
        rest = ranked[SKIP_REASONS:]
        if rest:
            lines.append(f"| {sum(n for _, n in rest)} | {len(rest)} other reasons |")
        lines.append("")
    return lines


def _fixture_statuses(report: Report | None, fixture_ids: Iterable[str]) -> str:
    if report is None:
        return "-"
    status = {c["id"]: c["status"] for c in report.cases if c["ruleset"] == MODERN}
    parts = [f"{status.get(f, 'absent')}" for f in fixture_ids]
    return ", ".join(parts) or "-"


def _bug_table(report: Report | None, bugs: list[dict]) -> list[str]:
    if not bugs:
        return []
    scripts = ((report.header.get("compliance") or {}).get("upstream_scripts") or {}
               if report is not None else {})
    version = ((report.header.get("compliance") or {}).get("package_version", "?")
               if report is not None else "?")
    lines = ["## phase.rs bugs", "",
             "From `docs/upstream/phase/bugs.json`; each has a report and a script using "
             "phase-python alone (`docs/upstream/phase/`). *script* is the script's result "
             f"with phase-python {version} when the phase report was made (`reproduces`: "
             "it prints the wrong behaviour and exits 1; `fixed`: exits 0). *fixtures* is "
             "each fixture's status in the phase report.", "",
             "| bug | status | rule | fixtures | script | upstream |",
             "|---|---|---|---|---|---|"]
    for bug in bugs:
        report_link = f"[{_esc(bug['title'])}](upstream/phase/{bug['report']})" \
            if bug.get("report") else _esc(bug["title"])
        fixtures = bug.get("fixtures") or []
        fixture_text = "; ".join(f"`{f}`: {_fixture_statuses(report, [f])}" for f in fixtures) \
            or "none (found by fuzzing)"
        upstream = bug.get("upstream") or {}
        up = upstream.get("status", "not reported")
        if upstream.get("url"):
            up = f"[{up}]({upstream['url']})"
        lines.append(f"| {report_link} | {bug['status']} | {_esc(bug.get('cr', ''))} "
                     f"| {fixture_text} | {scripts.get(bug['id'], '-') if bug.get('script') else '-'} "
                     f"| {up} |")
    lines.append("")
    return lines


def _engine_bug_table(name: str, label: str, report: Report | None,
                      bugs: list[dict]) -> list[str]:
    """The bug table of an engine other than phase: no scripts are run (the reproduction
    is in each report, in the engine's own language), each fixture's status is read from
    the engine's report."""
    if not bugs:
        return []
    version = ((report.header.get("compliance") or {}).get("package_version", "?")
               if report is not None else "?")
    lines = [f"## {label} bugs", "",
             f"From `docs/upstream/{name}/bugs.json`; each has an upstream-ready report with a "
             f"minimal reproduction using {label}'s public API alone (`docs/upstream/{name}/`), "
             f"found with {label} {version}. *fixtures* is each fixture's status in the {label} "
             "report.", "",
             "| bug | status | rule | fixtures | upstream |",
             "|---|---|---|---|---|"]
    for bug in bugs:
        title = _esc(bug["title"])
        link = f"[{title}](upstream/{name}/{bug['report']})" if bug.get("report") else title
        fixtures = "; ".join(f"`{f}`: {_fixture_statuses(report, [f])}"
                             for f in bug.get("fixtures") or []) or "none"
        upstream = bug.get("upstream") or {}
        up = upstream.get("status", "not reported")
        if upstream.get("url"):
            up = f"[{up}]({upstream['url']})"
        lines.append(f"| {link} | {bug['status']} | {_esc(bug.get('cr', ''))} | {fixtures} "
                     f"| {up} |")
    lines.append("")
    return lines


# --------------------------------------------------------------------------------------------
# The command


def load_reports(directory: Path = REPORTS_DIR) -> dict[str, Report]:
    """The saved reports found in ``directory``, by engine name, in :data:`ENGINES` order."""
    return {name: read_report(report_path(name, directory)) for name in ENGINES
            if report_path(name, directory).is_file()}


def _parse_engines(ctx, param, value) -> list[str]:
    names = [n.strip() for part in value for n in part.split(",") if n.strip()] or list(ENGINES)
    unknown = [n for n in names if n not in ENGINES]
    if unknown:
        raise click.BadParameter(f"unknown engine {', '.join(unknown)}: choose from "
                                 f"{', '.join(ENGINES)}")
    return [n for n in ENGINES if n in names]


@click.command("compliance")
@click.option("--engines", multiple=True, metavar="NAMES", callback=_parse_engines,
              help=f"Engines to run, comma-separated or repeated ({', '.join(ENGINES)}; "
                   "default: all). The others' committed reports are kept.")
@click.option("-n", "--workers", type=click.IntRange(min=1), default=2, show_default=True,
              help="Worker processes (in-process) or engine processes (adapters) per run.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=60.0,
              show_default=True, help="Seconds to wait for each adapter reply.")
@click.option("--no-validate-protocol", "validate", flag_value=False, default=True,
              help="Do not check the adapters' messages against the protocol schemas "
                   "(checked by default: an invalid reply errors its case).")
@click.option("--render", "render_only", is_flag=True,
              help="Run nothing: write docs/COMPLIANCE.md from the committed reports.")
@click.option("--check", is_flag=True,
              help="Run nothing: exit 1 if docs/COMPLIANCE.md differs from what the committed "
                   "reports render to.")
def compliance_command(engines, workers, timeout, validate, render_only, check):
    """Measure every engine and write docs/COMPLIANCE.md from the reports.

    Runs the whole suite on each engine (the reference engine in-process, phase.rs and
    python-mtg through their adapters, manabrew-engine through its built Rust adapter, protocol
    messages validated; an adapter not built keeps its committed report), with a progress bar
    per engine; saves each report, trimmed, as docs/compliance/<engine>.jsonl (with the
    engine's package version and the suite's commit); runs the phase bug scripts of
    docs/upstream/phase/ and records whether each still reproduces; then renders
    docs/COMPLIANCE.md from the committed reports alone. Exit 1 with --check when the
    document is out of date; 2 when an engine cannot start or there is no checkout (an
    installed wheel has no docs/).
    """
    from mtg_judge.tools.generated_doc import write_or_check

    if not REPORTS_DIR.is_dir():  # an installed wheel carries no docs/ (the reports live in a checkout)
        raise click.UsageError(f"compliance needs a checkout of mtg-judge (git clone, pip install -e .): "
                               f"its reports and document live in docs/, and {REPORTS_DIR} does not exist")
    if not (render_only or check):
        bugs = load_bugs()
        commit = suite_commit()
        for name in engines:
            spec = ENGINES[name]
            if not spec.available():
                click.echo(f"{spec.label}: its adapter is not built ({spec.binary_path()}; "
                           f"${spec.binary_env} or its build script): its committed report is "
                           "kept", err=True)
                continue
            report = run_engine(spec, workers, timeout, validate)
            version = (str((report.header.get("implementation") or {}).get("version", "?"))
                       if spec.binary else package_version(spec.package))
            extra: dict[str, Any] = {"package_version": version,
                                     "command": spec.command, "suite_commit": commit,
                                     "validate_protocol": bool(validate and spec.is_adapter)}
            if name == "phase":
                click.echo("running the phase bug scripts of docs/upstream/phase/", err=True)
                extra["upstream_scripts"] = run_bug_scripts(bugs)
            saved = trim_report(report, spec, extra)
            path = report_path(name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(dump_jsonl(saved), encoding="utf-8")
            click.echo(f"{spec.label}: {report.footer['headline']}; wrote {path}", err=True)
    reports = load_reports()
    text = render(reports, load_all_bugs())
    code = write_or_check(DOCUMENT, text, check, "mtg_judge.tools.cli compliance --render")
    if not check:
        click.echo(f"wrote {DOCUMENT}", err=True)
    elif code == 0:
        click.echo(f"{DOCUMENT} matches its {len(reports)} committed reports", err=True)
    sys.exit(code)
