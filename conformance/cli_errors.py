"""The command-line errors shared by the commands (tools/cli.py, self-play's and fuzzing's
commands): one exit code per kind of trouble (README, "Exit codes").

- 1: the job ran and found failures (a case failed, a fixture does not load, a divergence);
  or its output could not be written.
- 2: the job could not start: bad usage (click's :class:`click.UsageError`), or an input the
  command cannot use (:class:`BadInput`).
- 130: a run stopped by Ctrl-C or SIGTERM.
"""

from __future__ import annotations

import click

#: The exit code of a run stopped by Ctrl-C or SIGTERM (128 + SIGINT, the shell's convention).
INTERRUPTED_EXIT = 130


class BadInput(click.ClickException):
    """An input the command cannot use, named in the message with what was expected: a deck
    file's bad line, a damaged bundle, a malformed report, a selection of no case, an empty
    shard. Printed as ``Error: <message>`` without the usage text (it is not a wrong option),
    exit code 2 like bad usage."""

    exit_code = 2


__all__ = ["INTERRUPTED_EXIT", "BadInput"]
