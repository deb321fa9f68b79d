"""Benchmarks of the reference engine and the protocol (DESIGN §13). A script, not a test.

    python -m mtg_judge.tools.bench [-r 5] [-n 2] [-k EXPR] [--cli-runs 5] [--baseline REV]
                                    [--engine NAME=COMMAND ...] [--no-protocol] [--record [PATH]]

Measures, on every case of the suite (fixture × ruleset):

* **the command as a user types it**: ``mtg-judge run -n 1`` and ``mtg-judge run`` (the
  default workers, every core) as subprocesses, wall-clock from the shell's point of view:
  interpreter start-up, imports, collection, the run, the summary; ``--cli-runs`` runs each,
  the median is shown;
* **collection** (``mtg_judge.conformance.runner.collect()`` of every case), cold: the first
  call in a fresh process, with the import of the runner shown apart;
* reference-engine time per scenario, in-process: each case run ``-r`` times, the case's
  time is the median of its runs; the table gives the median and p95 over cases;
* whole-suite wall time in-process (run and check every case, collection excluded)
  serially and with ``-n`` worker processes (``run_suite``), and the speed-up;
* protocol round-trip time per scenario through ``mtg-judge serve`` and its overhead over
  in-process (per case: protocol median minus in-process median);
* with ``--validate``, the same with every protocol message checked against the schemas;
* the same per-scenario protocol time for any other engine given with ``--engine``
  (e.g. a third-party adapter), side by side with the reference engine.

The collection, per-scenario and in-process measures run in a fresh subprocess (a *probe*)
so that collection is cold and both columns below are measured the same way.

``--baseline REV`` (e.g. ``--baseline 8488881``) checks REV out into a temporary ``git
worktree`` and measures the same things there, interleaved with the working tree's runs
(baseline, now, baseline, now, ...) so that a load on the machine weighs on both alike;
the table then has a column per tree and the ratio baseline / now (above 1: now is
faster). A REV from before the package rename (top-level ``engine``, ``conformance``,
``tools``) runs as ``python -c "from tools.cli import main; main()"`` with the worktree as
working directory and on ``PYTHONPATH``; a later one through a folder of symbolic links
``mtg_judge/<engine|conformance|tools|fixtures|schema>`` put first on ``PYTHONPATH``. The
worktree is removed afterwards (``git worktree remove --force``).

``--record`` (``--record PATH``: another file) also appends the run to the table of
``docs/BENCHMARKS.md`` (``tools/bench_record.py``): one row with the date (UTC), the commit
(``git rev-parse --short HEAD``, ``+dirty`` when ``git status --porcelain`` lists anything),
the 1-minute load average before and after, the number of cases, every figure above and
the command line; with ``--baseline REV``, the baseline's row first, then the current
tree's with the ratio baseline / now after each figure. The table is checked before the
benchmark starts, and the file is rewritten atomically (a temporary file renamed over it):
an interrupted run leaves it as it was.

Nothing is asserted: the numbers are printed, medians with ratios that mean something
across machines. Times are wall-clock (``time.perf_counter``); the load average is printed
before and after, since other processes on the machine slow every column.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Sequence

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python tools/bench.py` from a source checkout
    sys.path.insert(0, str(ROOT))

from mtg_judge.conformance.protocol import EngineError, ProtocolEngine, Skipped  # noqa: E402
from mtg_judge.tools import bench_record


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0-100) of ``values``; NaN if there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def serve_command() -> str:
    """``mtg-judge serve`` if the console script is installed, else via this interpreter."""
    if shutil.which("mtg-judge"):
        return "mtg-judge serve"
    return f"{sys.executable} -m mtg_judge.tools.cli serve"


def load_cases(keyword: str | None):
    """The suite's cases (``mtg_judge.conformance.runner.collect``), filtered by a ``-k`` expression."""
    from mtg_judge.conformance.runner import collect

    return [case for case in collect(keyword=keyword) if not case.problem]


def time_cases(cases, run: Callable[[dict, str], object], repeat: int,
               label: str) -> tuple[dict[str, float], dict[str, str]]:
    """Median seconds per case over ``repeat`` timed runs (after one untimed warm-up run).

    Returns ``(times by case name, error message by case name)``; a case that raises is not
    timed.
    """
    times, errors = {}, {}
    for i, case in enumerate(cases, 1):
        try:
            run(case.scenario, case.ruleset)  # warm-up: caches, lazy imports
            samples = []
            for _ in range(repeat):
                start = time.perf_counter()
                run(case.scenario, case.ruleset)
                samples.append(time.perf_counter() - start)
        except Exception as exc:  # noqa: BLE001 - report, don't stop
            errors[case.name] = f"{type(exc).__name__}: {exc}"
            continue
        times[case.name] = statistics.median(samples)
        _progress(f"{label}: {i}/{len(cases)}")
    _progress("")
    return times, errors


def protocol_runner(engine: ProtocolEngine) -> Callable[[dict, str], object]:
    def run(scenario: dict, ruleset: str) -> object:
        reply = engine.run(scenario, ruleset)
        if isinstance(reply, Skipped):
            raise RuntimeError(f"skipped: {reply.message}")
        return reply.result()

    return run


def _progress(text: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K" + text)
        sys.stderr.flush()


def _ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.2f} ms"


def _s(seconds: float) -> str:
    return f"{seconds:.2f} s"


def _ratio(value: float) -> str:
    return "-" if math.isnan(value) else f"{value:.2f}x"


def table(rows: list[tuple[str, str, str, str, str]]) -> str:
    """Format rows of (measure, median, p95, total, ratio) as an aligned text table."""
    head = ("measure", "median", "p95", "total", "ratio")
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(5)]
    fmt = lambda r: "  ".join(  # noqa: E731
        r[i].ljust(widths[i]) if i == 0 else r[i].rjust(widths[i]) for i in range(5))
    return "\n".join([fmt(head), "-" * (sum(widths) + 8), *map(fmt, rows)])


def summarize_times(name: str, times: dict[str, float], base: dict[str, float] | None = None
                    ) -> tuple[str, str, str, str, str]:
    """One table row for per-case times; ``ratio`` is the median of per-case time / base."""
    values = list(times.values())
    ratio = ""
    if base is not None:
        shared = [times[k] / base[k] for k in times if k in base and base[k] > 0]
        ratio = _ratio(statistics.median(shared) if shared else math.nan)
    return (name, _ms(statistics.median(values) if values else math.nan),
            _ms(percentile(values, 95)), _s(sum(values)) if values else "-", ratio)


# --------------------------------------------------------------------------------------------
# A tree to measure: the working tree, or an older commit checked out in a git worktree

#: Run in a fresh interpreter by :func:`probe`: argv = prefix ("" or "mtg_judge."), repeat,
#: workers, suite runs, -k expression. Prints one JSON object.
PROBE = r"""
import importlib, json, statistics, sys, time
t0 = time.perf_counter()
prefix, repeat, workers, runs, keyword = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5] or None
runner = importlib.import_module(prefix + "conformance.runner")
t1 = time.perf_counter()
cases = runner.collect(keyword=keyword)
t2 = time.perf_counter()
cases = [c for c in cases if not c.problem]
run_scenario = importlib.import_module(prefix + "engine").run_scenario
per_case = {}
for case in cases:
    if repeat:
        run_scenario(case.scenario, case.ruleset, cards=case.scenario.get("cards"))
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        run_scenario(case.scenario, case.ruleset, cards=case.scenario.get("cards"))
        samples.append(time.perf_counter() - start)
    if samples:
        per_case[case.name] = statistics.median(samples)
suite = {}
for n in sorted({1, workers}):
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        runner.run_suite(cases, workers=n)
        samples.append(time.perf_counter() - start)
    suite[str(n)] = statistics.median(samples) if samples else None
print(json.dumps({"import": t1 - t0, "collect": t2 - t1, "cases": len(cases), "per_case": per_case, "suite": suite,
                  "file": runner.__file__}))
"""


@dataclass
class Tree:
    """How to run one version of the project: ``cli`` is the command line of ``mtg-judge``,
    ``python`` runs the probe, both with ``cwd`` and ``env``; ``prefix`` is the package
    prefix of its modules (``"mtg_judge."``, or ``""`` before the rename)."""

    label: str
    cli: list[str]
    cwd: Path
    env: dict[str, str]
    prefix: str
    notes: list[str] = field(default_factory=list)


def current_tree() -> Tree:
    """The working tree as installed: the ``mtg-judge`` console script next to this
    interpreter (else on PATH, else ``python -m mtg_judge.tools.cli``)."""
    script = Path(sys.executable).parent / "mtg-judge"
    if script.exists():
        cli = [str(script)]
    elif found := shutil.which("mtg-judge"):
        cli = [found]
    else:
        cli = [sys.executable, "-m", "mtg_judge.tools.cli"]
    head = _git("rev-parse", "--short", "HEAD") or "?"
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    changed = len(dirty.splitlines()) if dirty else 0
    label = f"now ({head}" + (f" + {changed} modified files)" if changed else ")")
    return Tree(label, cli, ROOT, dict(os.environ), "mtg_judge.")


@contextlib.contextmanager
def baseline_tree(rev: str) -> Iterator[Tree]:
    """REV checked out (detached) into a temporary ``git worktree``, removed afterwards."""
    short = _git("rev-parse", "--short", f"{rev}^{{commit}}")
    if not short:
        raise SystemExit(f"bench: --baseline {rev}: not a commit of {ROOT}")
    tmp = Path(tempfile.mkdtemp(prefix="mtg-judge-bench-"))
    path = tmp / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), short],
                   check=True, capture_output=True, text=True)
    try:
        env = dict(os.environ)
        pyproject = (path / "pyproject.toml").read_text(encoding="utf-8") \
            if (path / "pyproject.toml").exists() else ""
        if "mtg_judge" in pyproject:  # after the rename: mtg_judge.* -> the worktree's folders
            shim = tmp / "shim" / "mtg_judge"
            shim.mkdir(parents=True)
            (shim / "__init__.py").write_text("")
            for name in ("engine", "conformance", "tools", "fixtures", "schema"):
                if (path / name).is_dir():
                    (shim / name).symlink_to(path / name, target_is_directory=True)
            env["PYTHONPATH"] = str(shim.parent)
            tree = Tree(f"{short}", [sys.executable, "-m", "mtg_judge.tools.cli"], path, env, "mtg_judge.",
                        [f"{short}: mtg_judge.* imported from the worktree through {shim}"])
        else:  # before the rename: top-level engine, conformance, tools
            env["PYTHONPATH"] = str(path)
            tree = Tree(f"{short}", [sys.executable, "-c", "from tools.cli import main; main()"], path, env,
                        "", [f"{short}: python -c \"from tools.cli import main; main()\" in the worktree"])
        yield tree
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)],
                       capture_output=True, text=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], capture_output=True, text=True)
        shutil.rmtree(tmp, ignore_errors=True)


def _git(*args: str) -> str:
    proc = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True)
    return proc.stdout.strip() if proc.returncode == 0 else ""


def probe(tree: Tree, repeat: int, workers: int, runs: int, keyword: str | None) -> dict:
    """Run :data:`PROBE` for ``tree`` in a fresh interpreter; its JSON result."""
    proc = subprocess.run([sys.executable, "-c", PROBE, tree.prefix, str(repeat), str(workers), str(runs),
                           keyword or ""], cwd=tree.cwd, env=tree.env, capture_output=True, text=True)
    if proc.returncode != 0 or not proc.stdout.strip():
        raise SystemExit(f"bench: the probe failed in {tree.label} (exit {proc.returncode}):\n"
                         f"{proc.stderr[-3000:]}")
    out: dict = json.loads(proc.stdout.strip().splitlines()[-1])
    if not Path(out["file"]).resolve().is_relative_to(tree.cwd.resolve()):
        raise SystemExit(f"bench: {tree.label} imported {out['file']}, not its own code in {tree.cwd}")
    return out


def time_cli(tree: Tree, args: list[str]) -> tuple[float, int]:
    """Wall seconds of one ``mtg-judge <args>`` subprocess, start-up included; its exit code."""
    start = time.perf_counter()
    proc = subprocess.run([*tree.cli, *args], cwd=tree.cwd, env=tree.env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, proc.returncode


def whole_command(trees: list[Tree], args, workers: int, cli_medians: dict[tuple[str, int], float] | None = None
                  ) -> tuple[list[list[str]], dict[str, list[dict]]]:
    """The rows of the side-by-side table: one measure per row, a column per tree, and the
    ratio first tree / last tree when there are two; and the probes' results by tree label
    (the first probe of each tree also timed every case and the in-process suite).

    ``cli_medians``, when given, receives the median seconds of each command as typed by
    ``(tree label, 0)`` (``mtg-judge run -n 1``) and ``(tree label, 1)`` (``mtg-judge run``)."""
    keyword = ["-k", args.keyword] if args.keyword else []
    commands = [("mtg-judge run -n 1 (subprocess wall)", ["run", "-n", "1", *keyword]),
                (f"mtg-judge run (default workers: {os.cpu_count()})", ["run", *keyword])]
    probes: dict[str, list[dict]] = {t.label: [] for t in trees}
    cli: dict[tuple[str, str], list[float]] = {}
    codes: dict[tuple[str, str], set[int]] = {}
    for i in range(max(1, args.probe_runs)):
        for tree in trees:
            _progress(f"probe {i + 1}/{args.probe_runs}: {tree.label}")
            probes[tree.label].append(probe(tree, args.repeat if i == 0 else 0, workers,
                                            args.suite_runs if i == 0 else 0, args.keyword))
    for i in range(max(1, args.cli_runs)):
        for name, cmd in commands:
            for tree in trees:
                _progress(f"{name} {i + 1}/{args.cli_runs}: {tree.label}")
                seconds, code = time_cli(tree, cmd)
                cli.setdefault((name, tree.label), []).append(seconds)
                codes.setdefault((name, tree.label), set()).add(code)
    _progress("")
    if cli_medians is not None:
        for index, (name, _) in enumerate(commands):
            for tree in trees:
                cli_medians[(tree.label, index)] = statistics.median(cli[(name, tree.label)])

    def median_of(label: str, key: str) -> float:
        median: float = statistics.median(p[key] for p in probes[label])
        return median

    rows: list[tuple[str, list[float], Callable[[float], str]]] = []
    rows.append(("import of the runner, fresh process", [median_of(t.label, "import") for t in trees], _s))
    rows.append(("collection, cold (collect())", [median_of(t.label, "collect") for t in trees], _s))
    per_case = [list(probes[t.label][0]["per_case"].values()) for t in trees]
    rows.append(("engine per scenario, median over cases",
                 [statistics.median(v) if v else math.nan for v in per_case], _ms))
    rows.append(("engine per scenario, p95", [percentile(v, 95) for v in per_case], _ms))
    for n in sorted({1, workers}):
        rows.append((f"suite in-process, run_suite -n {n} (no collection)",
                     [probes[t.label][0]["suite"].get(str(n)) or math.nan for t in trees], _s))
    for name, _ in commands:
        rows.append((name, [statistics.median(cli[(name, t.label)]) for t in trees], _s))
    out = [["measure", *[t.label for t in trees], *(["ratio (before / now)"] if len(trees) == 2 else [])]]
    for name, values, fmt in rows:
        ratio = [_ratio(values[0] / values[1]) if values[1] and not math.isnan(values[1]) else "-"] \
            if len(trees) == 2 else []
        out.append([name, *[fmt(v) for v in values], *ratio])
    for (name, label), seen in codes.items():
        if seen != {0}:
            out.append([f"  (exit codes of {name} in {label}: {sorted(seen)})", *[""] * (len(out[0]) - 1)])
    cases = [str(probes[t.label][0]["cases"]) for t in trees]
    out.append(["cases collected", *cases, *([""] if len(trees) == 2 else [])])
    return out, probes


def grid(rows: list[list[str]]) -> str:
    """An aligned text table: the first row is the header, the first column left-aligned."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    fmt = lambda r: "  ".join(  # noqa: E731
        r[i].ljust(widths[i]) if i == 0 else r[i].rjust(widths[i]) for i in range(len(r)))
    return "\n".join([fmt(rows[0]), "-" * (sum(widths) + 2 * (len(widths) - 1)), *map(fmt, rows[1:])])


def _load() -> str:
    try:
        return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def measured(tree: Tree, commit: str, probes: list[dict], cli_medians: dict[tuple[str, int], float],
             workers: int, protocol: dict[str, object] | None = None) -> bench_record.Measured:
    """The figures of ``tree`` for ``--record``: from its probes (import and cold collection:
    medians over the probes; per scenario and in-process suite: its first probe), the
    commands as typed (``cli_medians`` of :func:`whole_command`) and, for the working tree,
    the protocol figures ``protocol`` (``serve``, ``overhead``: per-scenario medians in
    seconds; ``engines``: a tuple of :class:`bench_record.EngineTime`)."""
    per_case = list(probes[0]["per_case"].values())
    suite = probes[0]["suite"]
    protocol = protocol or {}
    return bench_record.Measured(
        commit=commit, cases=probes[0]["cases"], run_default=cli_medians.get((tree.label, 1)),
        run_serial=cli_medians.get((tree.label, 0)), default_workers=os.cpu_count(),
        scenario_median=statistics.median(per_case) if per_case else None,
        scenario_p95=percentile(per_case, 95) if per_case else None,
        collection_cold=statistics.median(p["collect"] for p in probes),
        runner_import=statistics.median(p["import"] for p in probes),
        suite_serial=suite.get("1"), suite_parallel=suite.get(str(workers)) if workers != 1 else None,
        workers=workers if workers != 1 else None,
        serve_per_scenario=protocol.get("serve"), protocol_overhead=protocol.get("overhead"),  # type: ignore[arg-type]
        engines=protocol.get("engines", ()))  # type: ignore[arg-type]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print the tables. Returns 0 (1 if there is nothing to run)."""
    parser = argparse.ArgumentParser(prog="python -m mtg_judge.tools.bench", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-r", "--repeat", type=int, default=5,
                        help="timed runs per case (default 5)")
    parser.add_argument("-n", "--workers", default="2",
                        help="worker processes for the parallel in-process suite run, or 'auto' "
                             "(default 2)")
    parser.add_argument("--suite-runs", type=int, default=3,
                        help="in-process whole-suite runs per setting; the median is shown (default 3)")
    parser.add_argument("--cli-runs", type=int, default=5,
                        help="runs of each 'mtg-judge run' command per tree; the median is shown "
                             "(default 5)")
    parser.add_argument("--probe-runs", type=int, default=3,
                        help="fresh processes timing import and cold collection per tree; the "
                             "median is shown (default 3)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also measure commit REV (checked out into a temporary git worktree) "
                             "and print both columns and their ratio, e.g. --baseline 8488881")
    parser.add_argument("-k", "--keyword", help="only cases matching this -k expression")
    parser.add_argument("--serve", default=None,
                        help="command of the reference protocol server "
                             "(default: mtg-judge serve)")
    parser.add_argument("--engine", action="append", default=[], metavar="NAME=COMMAND",
                        help="also time another protocol engine on the same cases "
                             "(repeatable)")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="protocol read timeout in seconds (default 30)")
    parser.add_argument("--no-protocol", action="store_true",
                        help="skip the protocol measurements")
    parser.add_argument("--validate", action="store_true",
                        help="also time the reference server with every protocol message "
                             "validated against schema/protocol-*.schema.json")
    parser.add_argument("--record", nargs="?", const=str(ROOT / "docs" / "BENCHMARKS.md"), metavar="PATH",
                        help="append the run's figures as a row to the table of docs/BENCHMARKS.md "
                             "(or PATH); with --baseline, the baseline's row too")
    args = parser.parse_args(argv)
    record_start = None
    if args.record:  # check the table first: a long run must not end on a file it can't write
        record_path = Path(args.record)
        try:
            bench_record.insert_rows(record_path.read_text(encoding="utf-8"), [])
        except (OSError, ValueError) as exc:
            print(f"bench: --record {record_path}: {exc}", file=sys.stderr)
            return 2
        record_start = (time.strftime("%Y-%m-%d %H:%M", time.gmtime()), bench_record.load_average(),
                        bench_record.commit_label(ROOT))
    workers = (os.cpu_count() or 1) if args.workers == "auto" else int(args.workers)
    args.repeat = max(1, args.repeat)

    cases = load_cases(args.keyword)
    if not cases:
        print("no cases to run", file=sys.stderr)
        return 1
    print(f"mtg-judge benchmark: {len(cases)} cases (fixture x ruleset), {args.repeat} timed runs "
          f"per case, {args.cli_runs} runs per command; Python {platform.python_version()} on "
          f"{platform.machine()}, {os.cpu_count()} CPUs; {_load()} at the start")

    now = current_tree()
    with contextlib.ExitStack() as stack:
        trees = [stack.enter_context(baseline_tree(args.baseline))] if args.baseline else []
        trees.append(now)
        cli_medians: dict[tuple[str, int], float] = {}
        rows, probes = whole_command(trees, args, workers, cli_medians)
        notes = [note for tree in trees for note in tree.notes]
    print()
    print(grid(rows))
    print("\nmedians; 'subprocess wall' rows are the command as typed, start-up included; "
          "the probe rows come from fresh processes (collection cold)."
          + ("\nratio = baseline time / current time (above 1: faster now)." if args.baseline else ""))
    for note in notes:
        print(note)
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("PYTHONDONTWRITEBYTECODE is set: every process above compiled the project's modules "
              "from source (about 0.15 s of its start-up on this machine, both columns).")

    # Per-scenario in-process times of the working tree (its first probe), for the protocol rows.
    local = probes[now.label][0]["per_case"]
    table_rows = [summarize_times("reference engine in-process, per scenario", local)] if local else []
    problems: dict[str, dict[str, str]] = {}
    protocol: dict[str, object] = {"engines": ()}
    serve = args.serve or serve_command()
    engines = [] if args.no_protocol else [("reference via serve", serve, False)]
    if args.validate and not args.no_protocol:
        engines.append(("reference via serve, validated", serve, True))
    for spec in args.engine:
        name, sep, command = spec.partition("=")
        engines.append((name, command, False) if sep else (spec, spec, False))
    for name, command, validate in engines:
        try:
            with ProtocolEngine(command, timeout=args.timeout, validate=validate) as eng:
                times, errors = time_cases(cases, protocol_runner(eng), args.repeat, name)
        except EngineError as exc:
            problems[name] = {"(start)": str(exc)}
            continue
        problems[name] = errors
        table_rows.append(summarize_times(f"{name}, per scenario", times, local))
        if not validate and name != "reference via serve" and times:
            shared = [times[k] / local[k] for k in times if k in local and local[k] > 0]
            protocol["engines"] = (*protocol["engines"], bench_record.EngineTime(  # type: ignore[misc]
                name, statistics.median(times.values()), statistics.median(shared) if shared else None))
        if name == "reference via serve":
            overhead = [times[k] - local[k] for k in times if k in local]
            protocol["serve"] = statistics.median(times.values()) if times else None
            protocol["overhead"] = statistics.median(overhead) if overhead else None
            table_rows.append(("protocol overhead, per scenario",
                               _ms(statistics.median(overhead) if overhead else math.nan),
                               _ms(percentile(overhead, 95)), _s(sum(overhead)), ""))
    if engines:
        print()
        print(table(table_rows))
        print("\nratio: per-scenario rows give the median over cases of (time / in-process time). "
              "p95 is nearest-rank over cases.")
    if local:
        slowest = sorted(local.items(), key=lambda item: -item[1])[:5]
        print("\nslowest scenarios in-process: " + ", ".join(
            f"{name} {_ms(t)}" for name, t in slowest))
    for name, errs in problems.items():
        if errs:
            print(f"\n{name}: {len(errs)} case(s) not timed:")
            for case, message in sorted(errs.items())[:10]:
                print(f"  {case}: {message.splitlines()[0][:160]}")
    print(f"\n{_load()} at the end")
    if record_start is not None:
        date, load_start, commit = record_start
        run = bench_record.BenchRun(
            date=date, load_start=load_start, load_end=bench_record.load_average(),
            command="python -m mtg_judge.tools.bench " + shlex.join(sys.argv[1:] if argv is None else argv),
            current=measured(now, commit, probes[now.label], cli_medians, workers, protocol),
            baseline=measured(trees[0], trees[0].label, probes[trees[0].label], cli_medians, workers)
            if args.baseline else None,
            notes=[f"Python {platform.python_version()}, {os.cpu_count()} CPUs"]
            + [f"{name}: {len(errs)} case(s) not timed" for name, errs in problems.items() if errs])
        bench_record.append_rows(Path(args.record), bench_record.format_rows(run))
        print(f"recorded {'2 rows' if args.baseline else '1 row'} in {args.record}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
