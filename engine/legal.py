"""Legal actions: the inputs that answer a pending decision and are legal now.

The game asks its input source ``next(game, decision)`` whenever a player must decide
(``Game.ask``); ``decision`` is ``{"kind", "player", **info}`` (kinds: ``priority``,
``declare_attackers``, ``declare_blockers``, ``assign_damage``, ``order_triggers``,
``choose_targets``, ``discard``, ``choose``, ``may_cast``, ``mulligan``). This module answers
the question a random player, a fuzzer or a user interface asks at that moment: *what may I
answer?*

- :func:`legal_actions` returns the inputs (script input dicts, docs/FORMAT.md §3.2) that are
  legal now. For priority (CR 117.1) it offers ``pass`` and candidate ``play_land``,
  ``cast`` (from the hand; flashback from the graveyard, CR 702.34a; a card exiled by
  Spelljack), ``activate`` (activated and mana abilities of permanents, cycling from the
  hand, CR 602, 605, 702.29), ``suspend`` and ``turn_face_up`` (special actions, CR 116.2)
  inputs, each with its targets enumerated from the legal candidates (players,
  permanents, spells and abilities on the stack, CR 115) and its payment named by
  ``pay_with`` (a simple deterministic choice among untapped mana sources, CR 601.2g–h).
  Every candidate is kept only if the engine accepts it on a dry run (:func:`accepts`).
  Declarations get a reasonable set (no attack, each single attacker, all attackers, CR
  508.1; no block, every blocker on something, a few random legal blocks, CR 509.1); choices
  get their options.
- :func:`candidate_actions` is the same enumeration without the dry runs, grouped
  (``Candidate.group``), for drivers that verify lazily: pick one, check it with
  :func:`accepts`, pick again if it was refused.
- :func:`accepts` tells whether the engine would accept an input now, without changing
  the game: ``(True, None)`` or ``(False, code)`` with the rejection code
  (docs/FORMAT.md §8). It is the engine's own answer, like python-chess's ``is_legal``: the
  function the game applies to the question it waits on (``Game.asking``,
  ``Game.answer_pending``), run on a dry run (``Game.dry_run``: the game, restored
  afterwards). This module only lists candidates; it re-implements no check.

Everything is deterministic: the same game state and decision give the same list (no
global ``random``; the few random block declarations come from a SplitMix64 seeded with the
game's seed and the length of its log).

Cheap filters run before any dry run: timing (CR 307.1, 305.1, 702.8 flash), split
second (CR 702.61a), whether the total cost (CR 601.2f) can be covered by the pool plus the
untapped mana sources, whether every target has a legal candidate.

One module per kind of decision, all below this one: :mod:`.legal_priority` (priority
actions), :mod:`.legal_casting` (casts, and ``may_cast``), :mod:`.legal_combat`
(declarations and damage assignment), :mod:`.legal_targets` (targets, and
``choose_targets``), :mod:`.legal_choices` (trigger order, discard, ``choose``),
:mod:`.legal_start` (mulligans); :mod:`.legal_mana` plans payments and
:mod:`.legal_common` holds :class:`Candidate`, the limits and the dry run. This module owns
the public API and the table of decision kinds; it re-exports the helpers callers use
(:func:`plan_payment`, :func:`available_mana`, :func:`mana_sources`, :func:`target_choices`,
:func:`pending_target_item`, :func:`resolving_item`, :func:`spell_parts` ...).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from .inputs import shape_problem
from .legal_casting import may_cast_candidates, spell_parts
from .legal_choices import choose_candidates, discard_candidates, trigger_order_candidates
from .legal_combat import attack_candidates, block_candidates, damage_assignment_candidates
from .legal_common import (
    BLOCK_SAMPLES,
    CHOICE_LIMIT,
    TARGET_LIMIT,
    Candidate,
    NeedsInput,
    accepted_on_dry_run,
    resolving_item,
)
from .legal_mana import available_mana, mana_sources, plan_payment
from .legal_priority import priority_candidates
from .legal_start import mulligan_candidates
from .legal_targets import pending_target_item, target_candidates, target_choices, target_pool

#: This module's API, with the helpers of the modules below it that were public here before
#: the split and that callers use (self-play, the fuzzer, tests).
__all__ = [
    "BLOCK_SAMPLES", "CHOICE_LIMIT", "DECISION_ACTIONS", "TARGET_LIMIT", "Candidate", "NeedsInput", "accepts",
    "available_mana", "candidate_actions", "iter_groups", "legal_actions", "mana_sources", "pending_target_item",
    "plan_payment", "resolving_item", "spell_parts", "target_choices", "target_pool",
]


#: The documented decision kinds (``Game.ask``) and the input ``action`` each accepts.
DECISION_ACTIONS: dict[str, tuple[str, ...]] = {
    "priority": ("pass", "cast", "activate", "play_land", "suspend", "turn_face_up"),
    "declare_attackers": ("declare_attackers",),
    "declare_blockers": ("declare_blockers",),
    "assign_damage": ("assign_damage",),
    "order_triggers": ("order_triggers",),
    "choose_targets": ("choose_targets",),
    "discard": ("discard",),
    "choose": ("choose",),
    "may_cast": ("cast", "choose"),
    "mulligan": ("keep", "mulligan"),
}


def legal_actions(game: Any, decision: dict[str, Any], *, verify: bool = True) -> list[dict[str, Any]]:
    """The inputs that answer ``decision`` (``{"kind", "player", **info}`` as passed to the
    input source) and are legal now, as script input dicts (docs/FORMAT.md §3.2).

    With ``verify`` (the default) each candidate is checked with :func:`accepts` (the
    engine's answer, on a dry run; ``decision`` must then be the pending question); without it the cheap enumeration of :func:`candidate_actions` is
    returned as is. Never changes ``game``. Raises ValueError for an unknown decision kind.
    """
    out = []
    for cand in candidate_actions(game, decision):
        if not verify or accepts(game, decision, cand.input)[0]:
            out.append(cand.input)
    return out


def candidate_actions(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """The candidate answers to ``decision``, pre-filtered by cheap checks but not dry-run
    (see the module docstring). Deterministic; never changes ``game``."""
    if game.over:
        return []
    kind: Any = decision.get("kind")  # JSON data: an unknown kind is refused below
    fn = _ENUMERATORS.get(kind)
    if fn is None:
        raise ValueError(f"unknown decision kind {kind!r}")
    return fn(game, decision)


def accepts(game: Any, decision: dict[str, Any], inp: dict[str, Any]) -> tuple[bool, str | None]:
    """Would the engine accept ``inp`` as the answer to ``decision`` now? Returns
    ``(True, None)`` or ``(False, code)`` (a rejection code, docs/FORMAT.md §8).

    ``decision`` must be the question the game is waiting on (``Game.asking``, as the input
    source was passed it). The answer is checked by the engine's own function for that
    question (``Game.answer_pending``) on a dry run (``Game.dry_run``: the game is restored
    afterwards), like python-chess's ``is_legal``: there is no second copy of the rules
    here. An answer that gets past every check and asks a further question is accepted.
    A ``priority`` decision may also be judged on a game that asks nothing now (one built
    but not playing), with the engine's priority answer (``Game.answer_priority``).
    Never changes ``game``. Raises ValueError if ``decision`` is another, not pending, question;
    an exception other than IllegalAction from the engine propagates (the engine crashed
    on this input)."""
    if shape_problem(inp) is not None:  # ``Game.ask`` refuses it before the rules see it
        return False, "bad_input"
    if game.over:
        return False, "game_over"
    question = game.asking
    if question is not None and question.decision == decision:
        return accepted_on_dry_run(game, lambda g: g.answer_pending(inp))
    if decision.get("kind") == "priority":  # a game between actions (built, not playing): CR 117.1
        player = decision.get("player")
        return accepted_on_dry_run(game, lambda g: g.answer_priority(player, inp))
    raise ValueError(f"{decision!r} is not the decision the game is waiting on")


_ENUMERATORS: dict[str, Callable[[Any, dict[str, Any]], list[Candidate]]] = {
    "priority": priority_candidates,
    "declare_attackers": attack_candidates,
    "declare_blockers": block_candidates,
    "assign_damage": damage_assignment_candidates,
    "order_triggers": trigger_order_candidates,
    "choose_targets": target_candidates,
    "discard": discard_candidates,
    "choose": choose_candidates,
    "may_cast": may_cast_candidates,
    "mulligan": mulligan_candidates,
}


def iter_groups(cands: list[Candidate]) -> Iterator[tuple[str, list[Candidate]]]:
    """The candidates grouped by ``group``, in first-seen order."""
    groups: dict[str, list[Candidate]] = {}
    for c in cands:
        groups.setdefault(c.group, []).append(c)
    yield from groups.items()
