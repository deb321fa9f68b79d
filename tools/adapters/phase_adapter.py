"""Protocol v1 adapter for phase.rs (PyPI ``phase-python``): the command and import name
that users, docs and tools use. The adapter itself is the package
:mod:`mtg_judge.tools.adapters.phase` (one module per part of the translation: cards, setup,
inputs, casting, stack, events, state, the 508.8 bridge, protocol); this module re-exports
its public API.

Run it as ``python -m mtg_judge.tools.adapters.phase_adapter``; check it with
``mtg-judge run --engine "python -m mtg_judge.tools.adapters.phase_adapter"``.
"""

from __future__ import annotations

import sys

from mtg_judge.tools.adapters.phase import (
    BRIDGE_508_8,
    CAPABILITIES,
    NAME,
    PHASE_LAYOUTS,
    REJECTIONS,
    REJECTIONS_BY_INPUT,
    RULESETS,
    PhaseRun,
    Rejected,
    ScriptError,
    Skip,
    action,
    build_engine,
    build_entries,
    build_face,
    classify,
    implementation,
    keyword_name,
    main,
    mtgjson_card,
    mtgjson_faces,
    phase,
    play,
)

__all__ = [
    "BRIDGE_508_8", "CAPABILITIES", "NAME", "PHASE_LAYOUTS", "REJECTIONS", "REJECTIONS_BY_INPUT", "RULESETS",
    "PhaseRun", "Rejected", "ScriptError", "Skip", "action", "build_engine", "build_entries", "build_face",
    "classify", "implementation", "keyword_name", "main", "mtgjson_card", "mtgjson_faces", "phase", "play",
]

if __name__ == "__main__":
    sys.exit(main())
