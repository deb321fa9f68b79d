"""Protocol v1 adapter for phase.rs, through its Python bindings (PyPI ``phase-python``).

Run it as ``python -m mtg_judge.tools.adapters.phase_adapter`` (or ``python -m
mtg_judge.tools.adapters.phase``); check it with
``mtg-judge run --engine "python -m mtg_judge.tools.adapters.phase_adapter"``.

What the phase API offers, and how the adapter uses it
------------------------------------------------------
``phase`` (import name of ``phase-python``) exposes ``build_oracle_face(mtgjson, oracle_id)``
(a card built by phase's own Oracle-text parser from an MTGJSON ``AtomicCard`` dict),
``Engine.from_json(card_data)`` (a card database), ``Engine.new_game(decks, seed,
first_player)``, ``Game.state()`` / ``Engine.load_game(state)`` (export and load the full
persisted game state), ``Game.actions()`` (the legal actions of the player expected to act),
``Game.apply(seat, action)`` (an ``ActionResult`` with phase's typed ``events`` and the next
``waiting_for`` prompt) and ``GameAction.from_dict`` (any action in phase's tagged serde
shape). Everything in this package is built on those calls only.

One module per part of the translation, each documenting its part:

- :mod:`.binding`: the ``phase`` import and :func:`action`;
- :mod:`.vocabulary`: phase's names for our colors, steps, zones, counters and keywords;
- :mod:`.cards`: our card files as phase cards (FORMAT §5) and cached engines;
- :mod:`.rejections`: refused inputs and their codes (FORMAT §8);
- :mod:`.run`: :class:`PhaseRun`, one scenario: references, prompts, the whole run;
- :mod:`.setup`: the setup as a phase game (FORMAT §3.1);
- :mod:`.inputs` and :mod:`.casting`: the script's inputs (FORMAT §3.2);
- :mod:`.stack`: the abilities phase puts on its stack;
- :mod:`.events`: phase's events as our log (FORMAT §6);
- :mod:`.state`: phase's state as ours (FORMAT §4);
- :mod:`.bridge`: the opt-in 508.8 bridge for fuzzing (``MTG_JUDGE_PHASE_BRIDGE_508_8``);
- :mod:`.protocol`: the handshake, :func:`play` and :func:`main`.

Coverage and cost (measured December 2, 2026, phase-python 0.103.0)
-------------------------------------------------------------------
Of the suite's 570 ``modern`` cases, ``mtg-judge run --engine ... -n 2 --validate-protocol``
plays 519 (91.1%: 319 passed, 200 failed, 0 errored; 51 skipped, each naming what phase
lacks or what the adapter cannot ask of it), measured December 2, 2026; just before this
round, 467 (81.9%: 294 passed, 173 failed, 103 skipped); before issue 24's work, 373 of 565
(66.0%, 81 errored). Translated in this round: meld cards (phase's meld layout, ``Melded``,
``MeldPairChoice``), ``without_paying`` through phase's free casting permissions, a
permanent's granted alternative cost (phase parses it and never offers it:
``invalid_alternative``), Clone's optional copy replacement (and its
``entered_as_copy``), a returned Aura's ``ReturnAsAuraTarget``, cycling and landcycling by keyword, madness outside its offer, the
input's pool mana against phase's cost, a nonland mana source (``ActivateAbility`` and
``ChooseManaColor``), the delayed trigger of a card's one ability that makes one, tokens
phase leaves nameless (``name: null``). The skips left (groups): random outcomes (7: phase
has no action to fix one), setup fields (8: start_of_game and deck_rules phase has no way
to take, transformed not translated), Oracle text phase marks unimplemented (8), a graveyard
or hand cast without flashback or harmonize (5: ``CastSpell`` names no casting variant),
refusals phase gives no reason for (7), multiplayer (2), ``order_triggers`` before phase's
triggers have references (2), and single cases. The adapter's CPU per scenario did not grow:
on the 467 cases both versions play, 45.3 ms before, 46.4 ms after (median, the two run side
by side on a shared machine).

CPU per scenario (``time.process_time`` around :func:`play`, caches warm, on a machine
shared by many processes, so absolute figures are inflated): reading phase's state was the
adapter's main cost, not phase's game engine. A cProfile of all 565 cases before the change
counted 4,399 ``Game.state()`` exports (one before every input, to undo a rejected one) and
34,421 ``waiting_for`` reads; after it, 1,431 and 11,584: a rejected input now reloads
the last state and replays phase's journal of actions (:meth:`.core.RunCore.replay`), and a
position's state and prompt are read once. The profile after: phase's engine (``apply``,
``new_game``, ``actions``) 28% of the CPU, reading and loading phase's state 55% (the setup
must export and load a state; every checkpoint and the final state are exports), the
adapter's own Python 18%. The two versions run side by side on every third modern case (189,
same load): 19.47 s of CPU before, 12.53 s after (median 86.3 ms -> 55.6 ms per scenario,
-36%); with phase's engine about 3.5 s of either, the adapter's part went from about 16 s
to 9 s (-44%: not quite halved).

The names below are the adapter's public API (``mtg_judge.tools.adapters.phase_adapter``
re-exports them for the users, docs and tools that use that name).
"""

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.binding import action, phase
from mtg_judge.tools.adapters.phase.bridge import BRIDGE_508_8
from mtg_judge.tools.adapters.phase.cards import (
                                                  PHASE_LAYOUTS,
                                                  build_engine,
                                                  build_entries,
                                                  build_face,
                                                  mtgjson_card,
                                                  mtgjson_faces,
)
from mtg_judge.tools.adapters.phase.protocol import CAPABILITIES, NAME, RULESETS, implementation, main, play
from mtg_judge.tools.adapters.phase.rejections import REJECTIONS, REJECTIONS_BY_INPUT, Rejected, ScriptError, classify
from mtg_judge.tools.adapters.phase.run import PhaseRun
from mtg_judge.tools.adapters.phase.vocabulary import keyword_name

__all__ = [
    "BRIDGE_508_8", "CAPABILITIES", "NAME", "PHASE_LAYOUTS", "REJECTIONS", "REJECTIONS_BY_INPUT", "RULESETS",
    "PhaseRun", "Rejected", "ScriptError", "Skip", "action", "build_engine", "build_entries", "build_face",
    "classify", "implementation", "keyword_name", "main", "mtgjson_card", "mtgjson_faces", "phase", "play",
]
