"""Benchmarks of the reference engine and the protocol (DESIGN §13). A script, not a test.

    python -m mtg_judge.tools.bench [-r 5] [-n 2] [-k EXPR] [--engine NAME=COMMAND ...]

Measures, on every case of the suite (fixture × ruleset):

* reference-engine time per scenario, in-process: each case run ``-r`` times, the case's
  time is the median of its runs; the table gives the median and p95 over cases;
* whole-suite wall time (run and check every case) serially and with ``-n`` worker
  processes (``mtg_judge.conformance.runner.run_suite``), and the speed-up;
* protocol round-trip time per scenario through ``mtg-judge serve`` and its overhead over
  in-process (per case: protocol median minus in-process median);
* with ``--validate``, the same with every protocol message checked against the schemas;
* the same per-scenario protocol time for any other engine given with ``--engine``
  (e.g. a third-party adapter), side by side with the reference engine.

Nothing is asserted: the numbers are printed, with ratios that mean something across
machines. Times are wall-clock (``time.perf_counter``).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Sequence

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python tools/bench.py` from a source checkout
    sys.path.insert(0, str(ROOT))

from mtg_judge.conformance.protocol import EngineError, ProtocolEngine  # noqa: E402


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
        result = engine.run(scenario, ruleset)
        if result.get("skipped"):
            raise RuntimeError(f"skipped: {result.get('message')}")
        return result

    return run


def suite_wall_time(cases, workers: int, runs: int) -> float:
    """Median wall time (seconds) of ``run_suite(cases, workers)`` over ``runs`` runs."""
    from mtg_judge.conformance.runner import run_suite

    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        run_suite(cases, workers=workers)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


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


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print the table. Returns 0 (1 if there is nothing to run)."""
    parser = argparse.ArgumentParser(prog="python -m mtg_judge.tools.bench", description=__doc__.split(
        "\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-r", "--repeat", type=int, default=5,
                        help="timed runs per case (default 5)")
    parser.add_argument("-n", "--workers", default="2",
                        help="worker processes for the parallel suite run, or 'auto' "
                             "(default 2)")
    parser.add_argument("--suite-runs", type=int, default=3,
                        help="whole-suite runs per setting; the median is shown (default 3)")
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
    args = parser.parse_args(argv)
    workers = (os.cpu_count() or 1) if args.workers == "auto" else int(args.workers)
    repeat = max(1, args.repeat)

    cases = load_cases(args.keyword)
    if not cases:
        print("no cases to run", file=sys.stderr)
        return 1
    from mtg_judge.engine import run_scenario

    def in_process(scenario: dict, ruleset: str) -> object:
        return run_scenario(scenario, ruleset, cards=scenario.get("cards"))

    print(f"mtg-judge benchmark: {len(cases)} cases (fixture x ruleset), {repeat} timed runs "
          f"per case; Python {platform.python_version()} on {platform.machine()}, "
          f"{os.cpu_count()} CPUs")
    local, errors = time_cases(cases, in_process, repeat, "in-process")
    rows = [summarize_times("reference engine in-process, per scenario", local)]
    problems = {"in-process": errors}

    serial = suite_wall_time(cases, 1, args.suite_runs)
    parallel = suite_wall_time(cases, workers, args.suite_runs)
    rows.append(("suite wall time, serial", "", "", _s(serial), _ratio(1.0)))
    rows.append((f"suite wall time, -n {workers}", "", "", _s(parallel),
                 _ratio(serial / parallel) + " speed-up"))

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
                times, errors = time_cases(cases, protocol_runner(eng), repeat, name)
        except EngineError as exc:
            problems[name] = {"(start)": str(exc)}
            continue
        problems[name] = errors
        rows.append(summarize_times(f"{name}, per scenario", times, local))
        if name == "reference via serve":
            overhead = [times[k] - local[k] for k in times if k in local]
            rows.append(("protocol overhead, per scenario",
                         _ms(statistics.median(overhead) if overhead else math.nan),
                         _ms(percentile(overhead, 95)), _s(sum(overhead)), ""))

    print()
    print(table(rows))
    print("\nratio: per-scenario rows give the median over cases of (time / in-process time);"
          "\nsuite rows give serial time / time. p95 is nearest-rank over cases.")
    if local:
        slowest = sorted(local.items(), key=lambda item: -item[1])[:5]
        print("\nslowest scenarios in-process: " + ", ".join(
            f"{name} {_ms(t)}" for name, t in slowest))
    for name, errs in problems.items():
        if errs:
            print(f"\n{name}: {len(errs)} case(s) not timed:")
            for case, message in sorted(errs.items())[:10]:
                print(f"  {case}: {message.splitlines()[0][:160]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
