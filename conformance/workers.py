"""``-n/--workers N``: one name and one meaning in every command (issue 25, item 4).

``N`` is the number of cases (games, mutants) run at the same time: worker processes of the
reference engine, or engine processes with ``--engine``. A value above :func:`max_workers`
(4 × the cores) or above the number of tasks gains nothing and can start a thousand engine
processes: it is lowered, with a warning on stderr (:func:`cap_workers`).
"""

from __future__ import annotations

import os
from typing import Any, Callable

import click

#: The most workers per core :func:`cap_workers` allows.
PER_CORE = 4


def max_workers() -> int:
    """The largest useful ``-n``: :data:`PER_CORE` × the cores (``os.cpu_count()``, 1 if
    unknown)."""
    return PER_CORE * (os.cpu_count() or 1)


def cap_workers(requested: int, tasks: int | None = None, what: str = "cases",
                warn: Callable[[str], Any] | None = None) -> int:
    """``requested`` lowered to at most :func:`max_workers` and ``tasks`` (the number of
    cases, games, mutants; at least 1). When it is lowered, ``warn`` (default: a line on
    stderr) gets ``warning: -n 100000 lowered to 8 (at most 4 × 2 cores and the 1071
    cases)``. Returns the number of workers to use."""
    limit = max_workers()
    cap = min(limit, max(1, tasks)) if tasks is not None else limit
    if requested <= cap:
        return requested
    cores = os.cpu_count() or 1
    why = f"at most {PER_CORE} × {cores} {'core' if cores == 1 else 'cores'}"
    if tasks is not None:
        why += f" and the {tasks} {what}"
    message = f"warning: -n {requested} lowered to {cap} ({why})"
    (warn or (lambda text: click.echo(text, err=True)))(message)
    return cap


def workers_option(default: int | None, default_text: str, what: str = "cases",
                   engine: bool = False) -> Callable:
    """The click option ``-n/--workers N`` of a command (``workers`` in its parameters):
    ``N`` at least 1; ``default`` (None: the command decides, ``default_text`` says how);
    ``engine``: the command can run an engine command (``--engine``), one process per
    worker, and the help says so."""
    processes = "worker processes; with an engine command, engine processes" if engine else "worker processes"
    return click.option(
        "-n", "--workers", "workers", type=click.IntRange(min=1), default=default,
        show_default=default_text if default is None else True,
        help=f"How many {what} run at the same time ({processes}). Lowered, with a warning, "
             f"to at most {PER_CORE} x the cores and the number of {what}.")
