"""The adapter's protocol v1 side (DESIGN §9): the implementation it declares in the
handshake, :func:`play` (one scenario under one ruleset) and :func:`main` (the protocol loop
of :mod:`mtg_judge.tools.adapters.common` on stdin/stdout).

Rulesets: ``modern`` only (phase implements current rules: no mana burn, no damage on the
stack).
"""

from __future__ import annotations

from mtg_judge.engine.rulesets import DEFAULT_RULESET
from mtg_judge.tools.adapters.common import Skip, package_info, serve
from mtg_judge.tools.adapters.phase.binding import phase
from mtg_judge.tools.adapters.phase.run import PhaseRun

NAME = "phase.rs (phase-python)"
RULESETS = [DEFAULT_RULESET]  # the modern rules only
CAPABILITIES = ["events", "state", "checkpoints"]


def implementation() -> dict:
    """The handshake's ``implementation`` (PROTOCOL §2): name, phase-python's version and
    homepage, ``"rust"``, :data:`RULESETS`, :data:`CAPABILITIES`. Raises ``RuntimeError``
    when phase-python is not installed (the protocol loop answers it as an error)."""
    if phase is None:
        raise RuntimeError("phase-python is not installed (pip install phase-python)")
    ver, homepage = package_info("phase-python")
    return {"name": NAME, "version": ver, "language": "rust", "homepage": homepage,
            "rulesets": list(RULESETS), "capabilities": list(CAPABILITIES)}


def play(scenario: dict, ruleset: str) -> dict:
    """``{"events", "state", "checkpoints"}`` of protocol ``scenario`` played on phase under
    ``ruleset``. Raises :class:`~mtg_judge.tools.adapters.common.Skip` for a ruleset other
    than ``modern`` and for what phase cannot be given."""
    if ruleset not in RULESETS:
        raise Skip(f"ruleset {ruleset} is not implemented by phase")
    return PhaseRun(scenario, ruleset).run()


def main() -> int:
    """Serve protocol v1 on stdin/stdout until ``stop`` or end of input; the exit status."""
    return serve(implementation, play)
