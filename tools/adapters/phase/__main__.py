"""``python -m mtg_judge.tools.adapters.phase``: serve protocol v1 for phase.rs on
stdin/stdout (the same as ``python -m mtg_judge.tools.adapters.phase_adapter``)."""

import sys

from mtg_judge.tools.adapters.phase.protocol import main

sys.exit(main())
