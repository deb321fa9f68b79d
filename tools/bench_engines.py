"""Benchmark of the reference engine, phase.rs and python-mtg side by side (DESIGN §12, §13).

    python -m mtg_judge.tools.bench_engines [-r 3] [-k EXPR] [--selfplay-seconds 20] [--no-selfplay]

A script, not a test: it prints tables, asserts nothing.

1. **Per-scenario time, same scenarios.** Every ``modern`` case of the suite is run in-process
   by the reference engine (``engine.run_scenario``) and by each adapter's ``play`` function
   (``mtg_judge.tools.adapters.phase_adapter``, ``mtg_judge.tools.adapters.pymtg_adapter``): one untimed warm-up
   run, then ``-r`` timed runs; a case's time is the median of its runs. The table shows, for
   each engine, the cases it ran (not skipped, no error), the median and p95 over them, and
   the median over the *shared* cases of (engine time / reference time). Adapter time
   includes the adapter's own work (building cards from Oracle text, setting the position up,
   translating events): it is what a conformance run costs, not the bare engine.
2. **Random self-play, actions per second.** Each engine plays games in which every decision
   is a uniformly random legal action, with a seeded ``random.Random``, for a fixed time
   budget per engine: the reference engine through ``mtg_judge.engine.game`` (see below), phase.rs
   through ``Game.actions()`` / ``Game.apply`` (two 40-card decks of the suite's cards built
   with ``build_oracle_face``), python-mtg through ``mtg.Game.legal_moves`` / ``push`` (its
   bundled demo decks). An action is one applied legal action (priority passes included).

The reference engine has no legal-action enumeration API (it replays scripted inputs), so its
self-play row says so instead of inventing a number.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

from mtg_judge.engine.rulesets import DEFAULT_RULESET

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def ms(seconds: float) -> str:
    return "-" if math.isnan(seconds) else f"{seconds * 1000:.2f} ms"


def table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = lambda r: "  ".join(r[i].ljust(widths[i]) if i == 0 else r[i].rjust(widths[i])  # noqa
                              for i in range(len(head)))
    return "\n".join([fmt(head), "-" * (sum(widths) + 2 * (len(head) - 1)), *map(fmt, rows)])


def time_cases(cases, run: Callable[[dict, str], object], repeat: int, label: str):
    """Median seconds per case; cases that skip or fail are counted, not timed."""
    from mtg_judge.tools.adapters.common import Skip

    times, skipped, errors = {}, 0, 0
    for n, case in enumerate(cases, 1):
        try:
            run(case.scenario, case.ruleset)
            samples = []
            for _ in range(repeat):
                start = time.perf_counter()
                run(case.scenario, case.ruleset)
                samples.append(time.perf_counter() - start)
        except Skip:
            skipped += 1
            continue
        except Exception:  # noqa: BLE001 - counted
            errors += 1
            continue
        times[case.name] = statistics.median(samples)
        if sys.stderr.isatty():
            sys.stderr.write(f"\r\033[K{label}: {n}/{len(cases)}")
    if sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
    return times, skipped, errors


def engines() -> list[tuple[str, Callable | None, str]]:
    """(name, play function or None, why it is missing)."""
    from mtg_judge.engine import run_scenario

    out: list[tuple[str, Callable | None, str]] = [("reference (in-process)",
            lambda sc, rs: run_scenario(sc, rs, cards=sc.get("cards")), "")]
    try:
        from mtg_judge.tools.adapters import phase_adapter
        if phase_adapter.phase is None:
            raise ImportError("phase-python is not installed")
        out.append(("phase.rs (adapter)", phase_adapter.play, ""))
    except ImportError as exc:
        out.append(("phase.rs (adapter)", None, str(exc)))
    try:
        import mtg  # noqa: F401

        from mtg_judge.tools.adapters import pymtg_adapter
        out.append(("python-mtg (adapter)", pymtg_adapter.play, ""))
    except ImportError as exc:
        out.append(("python-mtg (adapter)", None, str(exc)))
    return out


# --------------------------------------------------------------------------------------------
# random self-play


def selfplay_phase(budget: float, seed: int = 1) -> tuple[int, int, float]:
    """Random legal actions on phase.rs for ``budget`` seconds: (actions, games, seconds)."""
    import json

    import phase

    from mtg_judge.conformance.loader import CARDS_DIR
    from mtg_judge.tools.adapters.common import Skip
    from mtg_judge.tools.adapters.phase_adapter import build_face

    faces = {}
    for path in sorted(CARDS_DIR.glob("*.json")):
        card = json.loads(path.read_text(encoding="utf-8"))
        try:
            faces[card["name"]] = build_face(card)
        except (Skip, Exception):  # noqa: BLE001 - cards phase cannot build stay out
            continue
    engine = phase.Engine.from_json(json.dumps({n.lower(): f for n, f in faces.items()}))
    lands = [n for n in ("Forest", "Mountain", "Island", "Plains", "Swamp") if n in faces]
    spells = sorted(n for n in faces if n not in lands)
    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        decks = [[rng.choice(spells) for _ in range(24)] + [rng.choice(lands) for _ in range(16)]
                 for _ in range(2)]
        game = engine.new_game(player=decks[0], opponent=decks[1], seed=rng.randrange(2 ** 32),
                               first_player=0)
        games += 1
        for _ in range(3000):
            wf = game.waiting_for() or {}
            if wf.get("type") == "GameOver" or time.perf_counter() - start >= budget:
                break
            legal = game.actions()
            if not legal:
                break
            if wf.get("type") == "MulliganDecision":
                seat = wf["data"]["pending"][0]["player"]
            else:
                data = wf.get("data")
                seat = data.get("player") if isinstance(data, dict) and "player" in data \
                    else game.priority_player()
            try:
                game.apply(seat, rng.choice(legal))
            except ValueError:
                continue  # an offered action phase then refuses: not counted
            actions += 1
    return actions, games, time.perf_counter() - start


def selfplay_reference(budget: float, seed: int = 1) -> tuple[int, int, float]:
    """Random self-play on the reference engine (``mtg_judge.conformance.selfplay``: legal actions by
    dry runs, invariants checked after every action and a byte-for-byte replay of each
    game, so this is a lower bound of the bare engine's speed), modern rules, for about
    ``budget`` seconds. Returns (actions, games, seconds)."""
    from mtg_judge.conformance import selfplay as sp
    decks = sp.load_decks()
    settings = sp.Settings(hostile_rate=0.0, resume_every=10 ** 9)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        pair = (decks[games % len(decks)], decks[(games + 1) % len(decks)])
        result = sp.play_game(games, seed + games, pair, DEFAULT_RULESET, settings, shrink=False)
        actions += result.stats.inputs
        games += 1
    return actions, games, time.perf_counter() - start


def selfplay_pymtg(budget: float, seed: int = 1) -> tuple[int, int, float]:
    """Random legal moves on python-mtg (its demo decks) for ``budget`` seconds."""
    import contextlib
    import io

    import mtg

    rng = random.Random(seed)
    actions = games = 0
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        while time.perf_counter() - start < budget:
            game = mtg.Game(seed=rng.randrange(2 ** 31))
            games += 1
            for _ in range(3000):
                if game.is_game_over() or time.perf_counter() - start >= budget:
                    break
                moves = game.legal_moves
                if not moves:
                    break
                game.push(rng.choice(moves), checked=False)
                actions += 1
    return actions, games, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mtg_judge.tools.bench_engines",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("-r", "--repeat", type=int, default=3, help="timed runs per case")
    parser.add_argument("-k", "--keyword", help="only cases matching this -k expression")
    parser.add_argument("--selfplay-seconds", type=float, default=20.0,
                        help="time budget of random self-play per engine (default 20)")
    parser.add_argument("--no-selfplay", action="store_true")
    args = parser.parse_args(argv)

    import os
    import platform

    from mtg_judge.conformance.runner import collect

    cases = [c for c in collect(keyword=args.keyword, rulesets=[DEFAULT_RULESET]) if not c.problem]
    print(f"engines benchmark: {len(cases)} {DEFAULT_RULESET} cases, {args.repeat} timed runs per case; "
          f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs")
    results: dict[str, Any] = {}
    for name, play, missing in engines():
        if play is None:
            results[name] = None
            print(f"{name}: not installed ({missing})")
            continue
        results[name] = time_cases(cases, play, max(1, args.repeat), name)
    base = results["reference (in-process)"][0]
    rows: list[tuple[str, ...]] = []
    for name, res in results.items():
        if res is None:
            rows.append((name, "-", "-", "-", "-", "not installed"))
            continue
        times, skipped, errors = res
        values = list(times.values())
        shared = [times[k] / base[k] for k in times if k in base and base[k] > 0]
        rows.append((name, str(len(times)), f"{skipped}/{errors}",
                     ms(statistics.median(values) if values else math.nan),
                     ms(percentile(values, 95)),
                     "-" if not shared else f"{statistics.median(shared):.2f}x"))
    print()
    print(table(("per scenario", "cases timed", "skipped/errors", "median", "p95",
                 "ratio vs reference"), rows))
    print("\nratio: median over the cases both ran of (engine time / reference time).")

    if args.no_selfplay:
        return 0
    rows = []
    for name, fn in (("reference (invariants checked, each game replayed)", selfplay_reference),
                     ("phase.rs", selfplay_phase), ("python-mtg", selfplay_pymtg)):
        try:
            n, games, spent = fn(args.selfplay_seconds)
        except ImportError as exc:
            rows.append((name, "-", "-", "-", f"not installed ({exc})"))
            continue
        rows.append((name, str(n), str(games), f"{n / spent:.0f}", f"{spent:.1f} s"))
    print()
    print(table(("random self-play", "actions", "games", "actions/s", "time"), rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
