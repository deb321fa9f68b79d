"""pytest plugin of mtg-judge (entry point ``pytest11``): inert unless ``--mtg-engine`` is given."""

from __future__ import annotations


def pytest_addoption(parser):
    group = parser.getgroup("mtg-judge")
    group.addoption("--mtg-engine", metavar="COMMAND", default=None,
                    help="Run the mtg-judge suite against this engine (protocol v1).")
