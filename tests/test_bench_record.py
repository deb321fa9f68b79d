"""``python -m mtg_judge.tools.bench --record`` (tools/bench_record.py): the rows it writes to
docs/BENCHMARKS.md and how it writes them, without running the benchmark (the measured
results are built by hand)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from mtg_judge.tools import bench, bench_record
from mtg_judge.tools.bench_record import BenchRun, EngineTime, Measured

ROOT = Path(__file__).resolve().parents[1]
HEADER = "| " + " | ".join(bench_record.COLUMNS) + " |"
DELIMITER = "|" + "---|" * len(bench_record.COLUMNS)
DOC = "\n".join(["# Benchmarks", "", "## Runs", "", "intro", "", HEADER, DELIMITER,
                 "| " + " | ".join(["old"] * len(bench_record.COLUMNS)) + " |", "",
                 "prose below the table", ""])

NOW = Measured(commit="abc1234+dirty", cases=1040, run_default=2.0, run_serial=2.5, default_workers=2,
               scenario_median=0.001, scenario_p95=0.004, collection_cold=0.5, runner_import=0.1,
               suite_serial=4.0, suite_parallel=2.5, workers=2, serve_per_scenario=0.003,
               protocol_overhead=0.002, engines=(EngineTime("phase", 0.04, 19.0),))
BEFORE = Measured(commit="495eeeb", cases=890, run_default=3.0, run_serial=5.0, default_workers=2,
                  scenario_median=0.002, scenario_p95=0.004, collection_cold=0.25, runner_import=0.1,
                  suite_serial=2.0, suite_parallel=None, workers=None)


def cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split(" | ")]


def test_a_row_has_one_cell_per_column_in_order():
    run = BenchRun(date="2026-12-01 20:00", load_start=0.7, load_end=1.25,
                   command="python -m mtg_judge.tools.bench --record", current=NOW,
                   notes=["Python 3.12.3, 2 CPUs"])
    [row] = bench_record.format_rows(run)
    assert cells(row) == [
        "2026-12-01 20:00", "`abc1234+dirty`", "0.70 → 1.25", "1040", "2.00 s (2 workers)", "2.50 s",
        "1.00 ms", "4.00 ms", "0.50 s", "0.10 s", "4.00 s", "2.50 s (`-n 2`)", "3.00 ms", "2.00 ms",
        "phase 40.00 ms (19.00x the reference)",
        "`python -m mtg_judge.tools.bench --record`; Python 3.12.3, 2 CPUs"]


def test_a_baseline_gives_its_row_first_and_ratios_in_the_current_row():
    run = BenchRun(date="2026-12-01 20:00", load_start=None, load_end=0.5, command="bench --baseline 495eeeb",
                   current=NOW, baseline=BEFORE)
    base, now = bench_record.format_rows(run)
    assert cells(base)[:4] == ["2026-12-01 20:00", "`495eeeb` (baseline)", "- → 0.50", "890"]
    assert cells(base)[11] == "-"  # no parallel run measured
    assert cells(base)[15] == "the baseline of the next row, measured in the same run"
    assert cells(now)[4] == "2.00 s (1.50x) (2 workers)"  # 3.0 / 2.0
    assert cells(now)[5] == "2.50 s (2.00x)"
    assert cells(now)[6] == "1.00 ms (2.00x)"
    assert cells(now)[8] == "0.50 s (0.50x)"  # slower now
    assert cells(now)[11] == "2.50 s (`-n 2`)"  # nothing to compare with
    assert cells(now)[12] == "3.00 ms"
    assert cells(now)[15] == "`bench --baseline 495eeeb`"


def test_unmeasured_figures_and_pipes():
    run = BenchRun(date="d", load_start=None, load_end=None, command="bench -k 'a | b'",
                   current=Measured(commit="c"))
    [row] = bench_record.format_rows(run)
    assert "bench -k 'a \\| b'" in row
    assert bench_record._split(row)[2:15] == ["- → -", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", "-"]


def test_rows_go_after_the_last_row_of_the_table():
    new = bench_record.insert_rows(DOC, ["| " + " | ".join(["new"] * len(bench_record.COLUMNS)) + " |"])
    lines = new.split("\n")
    assert lines[8].startswith("| old") and lines[9].startswith("| new") and lines[10] == ""
    assert lines[11] == "prose below the table"
    assert bench_record.insert_rows(DOC, []) == DOC


@pytest.mark.parametrize("text, message", [
    (DOC.replace("## Runs", "## Other"), "no heading"),
    (DOC.replace("| date (UTC) |", "| when |"), "does not have the columns"),
])
def test_a_document_without_the_table_is_refused(text, message):
    with pytest.raises(ValueError, match=message):
        bench_record.insert_rows(text, [])


def test_a_row_of_the_wrong_width_is_refused():
    with pytest.raises(ValueError, match="cells"):
        bench_record.insert_rows(DOC, ["| a | b |"])


def test_append_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "BENCHMARKS.md"
    path.write_text(DOC, encoding="utf-8")
    run = BenchRun(date="d", load_start=1.0, load_end=1.0, command="bench", current=NOW)
    bench_record.append_rows(path, bench_record.format_rows(run))
    assert path.read_text(encoding="utf-8").count("`abc1234+dirty`") == 1
    written = path.read_text(encoding="utf-8")

    def fail(src, dst):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(OSError, match="disk full"):
        bench_record.append_rows(path, bench_record.format_rows(run))
    assert path.read_text(encoding="utf-8") == written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["BENCHMARKS.md"]  # no temporary file left


def test_the_project_table_takes_rows_and_every_row_has_every_column():
    text = (ROOT / "docs" / "BENCHMARKS.md").read_text(encoding="utf-8")
    bench_record.insert_rows(text, [])
    lines = text.split("\n")
    start = lines.index(HEADER)
    assert lines[start + 1] == DELIMITER
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    assert rows, "docs/BENCHMARKS.md: no run in the table"
    for row in rows:
        assert len(bench_record._split(row)) == len(bench_record.COLUMNS), row


def test_commit_label(tmp_path):
    def git(*args):
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True)

    assert bench_record.commit_label(tmp_path) == "unknown"
    git("init", "-q")
    (tmp_path / "a.txt").write_text("a")
    git("add", "a.txt")
    git("-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "a")
    head = subprocess.run(["git", "-C", str(tmp_path), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert bench_record.commit_label(tmp_path) == head
    (tmp_path / "a.txt").write_text("b")
    assert bench_record.commit_label(tmp_path) == head + "+dirty"
    git("checkout", "-q", "a.txt")
    (tmp_path / "new.json").write_text("{}")  # untracked files are measured too
    assert bench_record.commit_label(tmp_path) == head + "+dirty"


def test_measured_reads_the_probes_and_commands():
    tree = bench.Tree("now (abc1234)", ["mtg-judge"], ROOT, {}, "mtg_judge.")
    probes = [{"import": 0.2, "collect": 0.6, "cases": 3, "per_case": {"a": 0.001, "b": 0.003, "c": 0.002},
               "suite": {"1": 4.0, "2": 2.5}},
              {"import": 0.1, "collect": 0.4, "cases": 3, "per_case": {}, "suite": {}},
              {"import": 0.3, "collect": 0.5, "cases": 3, "per_case": {}, "suite": {}}]
    cli = {(tree.label, 0): 2.5, (tree.label, 1): 2.0, ("other", 1): 9.0}
    m = bench.measured(tree, "abc1234", probes, cli, 2, {"serve": 0.004, "overhead": 0.002, "engines": ()})
    assert (m.commit, m.cases, m.run_serial, m.run_default) == ("abc1234", 3, 2.5, 2.0)
    assert (m.runner_import, m.collection_cold) == (0.2, 0.5)  # medians over the three probes
    assert (m.scenario_median, m.scenario_p95) == (0.002, 0.003)
    assert (m.suite_serial, m.suite_parallel, m.workers) == (4.0, 2.5, 2)
    assert (m.serve_per_scenario, m.protocol_overhead) == (0.004, 0.002)
    serial = bench.measured(tree, "abc1234", probes, cli, 1)
    assert (serial.suite_parallel, serial.workers, serial.serve_per_scenario) == (None, None, None)


def test_record_refuses_a_file_without_the_table_before_measuring(tmp_path, capsys, monkeypatch):
    path = tmp_path / "notes.md"
    path.write_text("# nothing here\n", encoding="utf-8")
    monkeypatch.setattr(bench, "load_cases", lambda keyword: pytest.fail("the benchmark started"))
    assert bench.main(["--record", str(path)]) == 2
    assert "no heading" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "# nothing here\n"
