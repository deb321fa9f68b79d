"""Exit codes and output that scale (issue 25, item 4): `-n/--workers` has one name and
meaning and is capped with a warning, skipped cases are summarised by reason, and shell
syntax in `--engine` is warned about (it is not run by a shell, PROTOCOL §4)."""

from __future__ import annotations

import os
import sys

import pytest
from click.testing import CliRunner
from test_harness_faults import BASIC, FAKE_ENGINE, write_tree

from mtg_judge.conformance import workers
from mtg_judge.conformance.protocol import shell_syntax_warning
from mtg_judge.tools.cli import main


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def tree(tmp_path):
    return write_tree(tmp_path / "fixtures", BASIC)


@pytest.fixture
def engine(tmp_path):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE, encoding="utf-8")
    return lambda mode: f"{sys.executable} {script} {mode}"


def test_cap_workers_lowers_to_four_per_core_and_the_tasks():
    cores = os.cpu_count() or 1
    said: list[str] = []
    assert workers.cap_workers(100000, 1071, warn=said.append) == min(4 * cores, 1071)
    assert said == [f"warning: -n 100000 lowered to {min(4 * cores, 1071)} (at most 4 × "
                    f"{cores} {'core' if cores == 1 else 'cores'} and the 1071 cases)"]
    said.clear()
    assert workers.cap_workers(3, 2, warn=said.append) == 2 and len(said) == 1
    said.clear()
    assert workers.cap_workers(1, 1071, warn=said.append) == 1 and said == []


def test_run_caps_n_with_a_warning(tree):
    result = invoke("run", "--fixtures", tree, "-n", 100000)
    cases = len(BASIC)
    assert result.exit_code == 0, result.output
    assert f"warning: -n 100000 lowered to {min(4 * (os.cpu_count() or 1), cases)}" \
        in result.stderr
    assert invoke("run", "--fixtures", tree, "--workers", 1).exit_code == 0


@pytest.mark.parametrize("command", [["run"], ["mutants"], ["selfplay"], ["fuzz"],
                                     ["snapshots", "update"]])
def test_every_n_is_n_slash_workers(command):
    """One name and meaning (issue 25: `-n` was `--workers` in some commands, no long form
    in others)."""
    text = invoke(*command, "--help").output
    assert "-n, --workers INTEGER RANGE" in text
    assert "How many" in text and "at the same time" in text


def test_skipped_cases_are_counted_by_reason(tree, engine):
    result = invoke("run", "--fixtures", tree, "--engine", engine("skip-all"))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    at = lines.index(f"skipped ({len(BASIC)}; --list-skipped lists them):")
    assert lines[at + 1].split(None, 1) == [str(len(BASIC)), "nothing is implemented\x07"]
    assert not any(line.startswith(("  classic.", "  timespiral.")) for line in lines)
    listed = invoke("run", "--fixtures", tree, "--engine", engine("skip-all"), "--list-skipped")
    assert sum(line.startswith(("  classic.", "  timespiral."))
               for line in listed.output.splitlines()) == len(BASIC)


@pytest.mark.parametrize("command, token", [
    ("python e.py | tee log", "|"), ("python e.py>log", ">"), ("python e.py < in", "<"),
    ("a; b", ";"), ("a & b", "&"), ("a && b", "&&"), ("echo $(pwd)", "$("), ("a `b`", "`"),
])
def test_shell_syntax_is_named(command, token):
    assert f"contains the shell syntax {token!r}" in shell_syntax_warning(command)


@pytest.mark.parametrize("command", ["python e.py --x=1", "python 'a|b'", "./engine --protocol"])
def test_no_warning_without_shell_syntax(command):
    assert shell_syntax_warning(command) is None


def test_run_and_show_warn_about_shell_syntax(tree, engine):
    command = engine("skip-all") + " | tee log"
    result = invoke("run", "--fixtures", tree, "--engine", command)
    assert "warning: the engine command" in result.stderr and "'|'" in result.stderr
    shown = invoke("show", "classic.game.a-first", "--fixtures", tree, "--engine", command)
    assert "contains the shell syntax '|'" in shown.stderr
