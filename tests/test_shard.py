"""`mtg-judge run --shard K/N` and `mtg-judge report --merge` (conformance/shard.py,
conformance/reports.py merge_reports, docs/PROTOCOL.md §8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from mtg_judge.conformance import reports
from mtg_judge.conformance.runner import collect
from mtg_judge.conformance.shard import assign, case_cost, parse_shard, select
from mtg_judge.tools.cli import main

#: A protocol engine with every kind of outcome: it declares modern and timespiral-2006
#: (classic-1999 cases are skipped), plays the trample fixtures with the reference engine
#: (they pass), answers a bare log to the others (they fail), and crashes on the stack
#: fixtures (errored, then restarted).
ENGINE = textwrap.dedent("""
    import json, sys
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "stop":
            break
        if msg["cmd"] == "start":
            reply = {"version": 1, "implementation": {"name": "toy", "version": "1.0",
                     "language": "python", "homepage": "", "capabilities": ["events", "state"],
                     "rulesets": ["modern", "timespiral-2006"]}}
        elif msg["scenario"]["id"].startswith("classic.stack."):
            sys.exit(3)
        elif "trample" in msg["scenario"]["id"]:
            from mtg_judge.engine import run_scenario
            result = run_scenario(msg["scenario"], msg["ruleset"], cards=msg["scenario"]["cards"])
            reply = {"seq": msg["seq"], "events": result["events"], "state": result["state"]}
        else:
            reply = {"seq": msg["seq"], "events": [{"type": "game_started", "turn": 1}],
                     "state": {"turn": 1}}
        print(json.dumps(reply), flush=True)
""")
SUBSET = "stack or trample or flying"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.mark.parametrize("text, expected", [("1/1", (1, 1)), ("3/3", (3, 3)),
                                            (" 2 / 5 ", (2, 5))])
def test_parse_shard(text, expected):
    assert parse_shard(text) == expected


@pytest.mark.parametrize("value, message", [("0/3", "between 1 and N=3"),
                                            ("4/3", "between 1 and N=3"),
                                            ("1/0", "at least 1"), ("x", "is not K/N"),
                                            ("1/3/4", "is not K/N"), ("-1/3", "is not K/N"),
                                            ("", "is not K/N"),
                                            ("1/1001", "at most 1000"),
                                            ("99999999999999999999/99999999999999999999",
                                             "at most 1000")])
def test_bad_shards_are_usage_errors(value, message):
    result = invoke("run", "--shard", value)
    assert result.exit_code == 2, result.output
    assert "--shard" in result.output and message in result.output
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        parse_shard(value)


def test_an_empty_shard_says_why():
    result = invoke("run", "-k", "last-in-first-out", "--shard", "4/5")
    assert result.exit_code == 2
    assert "shard 4/5 is empty: only 3 cases are selected for 5 shards" in result.output


def test_shards_cover_every_case_exactly_once_and_balance():
    cases = collect()
    names = [c.name for c in cases]
    assert len(names) == len(set(names)) > 700
    heaviest = max(case_cost(c) for c in cases)
    for n in range(1, 8):
        slices = [select(cases, k, n) for k in range(1, n + 1)]
        got = [case.name for part in slices for _, case in part]
        assert sorted(got) == sorted(names)  # every case exactly once
        for part in slices:  # run order and true positions inside each slice
            positions = [p for p, _ in part]
            assert positions == sorted(positions)
            assert all(cases[p] is case for p, case in part)
        loads = [sum(case_cost(c) for _, c in part) for part in slices]
        assert max(loads) - min(loads) <= heaviest  # greedy LPT bound
        counts = [len(part) for part in slices]
        assert max(counts) - min(counts) <= max(2, len(cases) // (10 * n))


def test_the_split_ignores_hash_seeds_and_input_identity():
    script = ("from mtg_judge.conformance.runner import collect\n"
              "from mtg_judge.conformance.shard import assign\n"
              "print(assign(collect(), 3))\n")
    outputs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}, check=True).stdout
               for seed in ("1", "12345")}
    assert len(outputs) == 1
    cases = collect()
    assert str(assign(cases, 3)) == outputs.pop().strip()
    # the split of a case does not depend on worker counts or the order cases arrive in
    shuffled = cases[::-1]
    by_name = dict(zip((c.name for c in shuffled), assign(shuffled, 3)))
    assert by_name == dict(zip((c.name for c in cases), assign(cases, 3)))


def _lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_merged_slices_equal_the_unsharded_report(tmp_path):
    engine_file = tmp_path / "engine.py"
    engine_file.write_text(ENGINE)
    engine = f"{sys.executable} {engine_file}"
    full = invoke("run", "--engine", engine, "-k", SUBSET, "--report-dir", tmp_path / "full")
    assert full.exit_code == 1, full.output
    whole = reports.read_report(tmp_path / "full" / "report.jsonl")
    assert {c["status"] for c in whole.cases} == {"passed", "failed", "errored", "skipped"}
    slices = []
    for k in (3, 1, 2):  # any order
        out = tmp_path / f"s{k}"
        result = invoke("run", "--engine", engine, "-k", SUBSET, "--shard", f"{k}/3",
                        "-n", 2 if k == 2 else 1, "--report-dir", out)
        assert result.exit_code in (0, 1), result.output
        part = reports.read_report(out / "report.jsonl")
        assert part.header["selection"]["shard"] == f"{k}/3"
        slices.append(out / "report.jsonl")
    parts = [reports.read_report(p) for p in slices]
    names = [c["name"] for p in parts for c in p.cases]
    assert sorted(names) == sorted(c["name"] for c in whole.cases)  # once each
    assert all(0 < len(p.cases) < len(whole.cases) for p in parts)

    merged = invoke("report", "--merge", *slices, "--jsonl", tmp_path / "merged.jsonl",
                    "--report-dir", tmp_path / "mdir")
    assert merged.exit_code == full.exit_code == 1, merged.output  # judged as the whole run
    total = next(line for line in merged.output.splitlines() if line.startswith("total"))
    assert total.split()[:5] == \
        ["total", *map(str, (whole.counts[s] for s in ("passed", "failed", "errored", "skipped")))]
    a, b = _lines(tmp_path / "full" / "report.jsonl"), _lines(tmp_path / "merged.jsonl")
    per_run = ("started", "fixtures", "engine")
    assert {k: v for k, v in a[0].items() if k not in per_run} == \
        {k: v for k, v in b[0].items() if k not in per_run}
    assert b[0]["started"] == min(p.header["started"] for p in parts)
    assert a[1:] == b[1:]  # every case record in run order, and the footer
    assert (tmp_path / "mdir" / "report.jsonl").read_text() == (tmp_path / "merged.jsonl").read_text()
    for name in ("junit.xml", "badge.json"):
        assert (tmp_path / "mdir" / name).read_text() == (tmp_path / "full" / name).read_text()


def _report(tmp_path, name, shard=None, cases=("a.b.c[modern]",), **header):
    head = {"kind": "header", "report_version": 1,
            "suite": {"name": "mtg-judge", "version": "0.1.0"},
            "implementation": {"name": "toy", "version": "1.0"}, "engine": "toy",
            "rulesets": ["modern"], "selection": {"rulesets": None, "keyword": None},
            "fixtures": "/f", "started": "2026-01-01T00:00:00Z", **header}
    if shard:
        head["selection"] = {**head["selection"], "shard": shard}
    lines = [head]
    for i, case in enumerate(cases):
        fid, ruleset = case[:-1].split("[")
        record = {"kind": "case", "id": fid, "ruleset": ruleset, "name": case,
                  "document": "a", "mechanic": "b", "status": "passed"}
        if shard:
            record["position"] = i
        lines.append(record)
    path = tmp_path / f"{name}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


@pytest.mark.parametrize("change, message", [
    ({"suite": {"name": "mtg-judge", "version": "0.2.0"}}, "a different suite version"),
    ({"implementation": {"name": "other", "version": "1.0"}}, "a different engine"),
    ({"selection": {"rulesets": ["modern"], "keyword": None}}, "a different selection"),
])
def test_merging_different_runs_is_refused(tmp_path, change, message):
    a = _report(tmp_path, "a", "1/2", ["x.y.z[modern]"])
    b = _report(tmp_path, "b", "2/2", ["x.y.w[modern]"], **change)
    result = invoke("report", "--merge", a, b)
    assert result.exit_code == 2, result.output
    assert str(b) in result.output and message in result.output


def test_merge_refuses_missing_repeated_and_overlapping_slices(tmp_path):
    one = _report(tmp_path, "one", "1/3", ["x.y.a[modern]"])
    two = _report(tmp_path, "two", "2/3", ["x.y.b[modern]"])
    three = _report(tmp_path, "three", "3/3", ["x.y.a[modern]"])
    again = _report(tmp_path, "again", "1/3", ["x.y.c[modern]"])
    plain = _report(tmp_path, "plain", None, ["x.y.d[modern]"])
    other_n = _report(tmp_path, "other", "2/4", ["x.y.e[modern]"])
    for files, message in [((one, two), "slice 3/3 missing"),
                           ((one, two, again), "given twice"),
                           ((one, two, three), "x.y.a[modern] is also in"),
                           ((one, plain), "not a slice"),
                           ((one, other_n), "slices of different runs")]:
        result = invoke("report", "--merge", *files)
        assert result.exit_code == 2, (files, result.output)
        assert message in result.output, result.output
    # slices run on different case sets: positions collide or leave a gap
    for name, positions in (("collide", (0, 0, 1)), ("gap", (0, 1, 3))):
        paths = []
        for k, position in enumerate(positions, 1):
            path = _report(tmp_path, f"{name}{k}", f"{k}/3", [f"x.y.{name}{k}[modern]"])
            lines = path.read_text().splitlines()
            case = json.loads(lines[1])
            path.write_text(lines[0] + "\n" + json.dumps({**case, "position": position}) + "\n")
            paths.append(path)
        result = invoke("report", "--merge", *paths)
        assert result.exit_code == 2 and "overlap or leave gaps" in result.output, result.output
    usage = invoke("report", one, two)
    assert usage.exit_code == 2 and "--merge" in usage.output
    # unsharded reports with distinct cases join in the given order
    other = _report(tmp_path, "other2", None, ["x.y.f[modern]"])
    joined = reports.merge_reports([(str(p), reports.read_report(p)) for p in (other, plain)])
    assert [c["name"] for c in joined.cases] == ["x.y.f[modern]", "x.y.d[modern]"]


def test_sharded_selection_is_the_same_with_any_worker_count(tmp_path, monkeypatch):
    names = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        result = invoke("run", "-k", "combat and modern", "--shard", "2/4", "-n", workers,
                        "--report-dir", out)
        assert result.exit_code == 0, result.output
        names.append([c["name"] for c in reports.read_report(out / "report.jsonl").cases])
    assert names[0] == names[1] and names[0]
    expected = [c.name for _, c in select(collect(keyword="combat and modern"), 2, 4)]
    assert names[0] == expected
