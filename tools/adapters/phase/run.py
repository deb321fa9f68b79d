"""One scenario played on phase (:class:`PhaseRun`), composed of one mixin per part of the
translation (:mod:`.setup`, :mod:`.inputs`, :mod:`.casting`, :mod:`.stack`, :mod:`.events`,
:mod:`.state`, :mod:`.bridge`) over :class:`~.core.RunCore` (the bookkeeping, references and
prompts). This module owns the whole run: the script input by input (a rejected input
changes nothing, FORMAT §3.2: :meth:`PhaseRun.save` / :meth:`PhaseRun.restore`),
checkpoints and their legality probes (run on a copy of the game), and the final state.
"""

from __future__ import annotations

import copy
from typing import Any

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.bridge import Bridge508
from mtg_judge.tools.adapters.phase.casting import Casting
from mtg_judge.tools.adapters.phase.events import Events
from mtg_judge.tools.adapters.phase.inputs import Inputs
from mtg_judge.tools.adapters.phase.rejections import Rejected, ScriptError
from mtg_judge.tools.adapters.phase.setup import Setup
from mtg_judge.tools.adapters.phase.stack import Stack
from mtg_judge.tools.adapters.phase.state import State


class PhaseRun(Setup, Inputs, Casting, Stack, Events, State, Bridge508):
    """One scenario played on phase: setup, script, event and state translation.
    ``PhaseRun(scenario, ruleset).run()`` is ``{"events", "state", "checkpoints"}``
    (PROTOCOL §10); raises :class:`~mtg_judge.tools.adapters.common.Skip` for what phase
    cannot be given."""

    #: journal length past which :meth:`save` takes a new base state (bounds the replays)
    REBASE = 48

    def save(self) -> tuple:
        """What :meth:`restore` needs to undo a rejected input: the length of phase's action
        journal (:meth:`~.core.RunCore.replay`) and the bookkeeping an input changes."""
        if len(self.journal) > self.REBASE:
            self.load(self.state_dict())
        return (len(self.journal), len(self.events), dict(self.count), dict(self.tokens),
                dict(self.abilities), set(self.stack_seen), self.ability_count, self.step,
                self.turn, copy.deepcopy(self.targets), dict(self.x_values),
                dict(self.faces_cast), self.searching, self.last_resolved, dict(self.copies),
                dict(self.prepared), self.prepared_n, dict(self.prepared_by),
                dict(self.suspending), dict(self.melded_with))

    def restore(self, saved: tuple) -> None:
        """Undo back to :meth:`save`'s ``saved`` (a rejected input changes nothing, FORMAT §3.2)."""
        actions, n, self.count, self.tokens, self.abilities, self.stack_seen, \
            self.ability_count, self.step, self.turn, self.targets, self.x_values, \
            self.faces_cast, self.searching, self.last_resolved, self.copies, \
            self.prepared, self.prepared_n, self.prepared_by, self.suspending, \
            self.melded_with = saved
        self.replay(actions)
        del self.events[n:]
        self.pending_activation = None

    def copy(self) -> "PhaseRun":
        """An independent copy of this run (its own phase game, loaded from the state), with an
        empty event log: for legality probes."""
        other = copy.copy(self)
        other.load(self.state_dict())
        other.events = []
        other.alias, other.count = dict(self.alias), dict(self.count)
        other.tokens, other.abilities = dict(self.tokens), dict(self.abilities)
        other.targets = copy.deepcopy(self.targets)
        other.cast_targets = copy.deepcopy(self.cast_targets)
        other.stack_seen = set(self.stack_seen)
        other.faces_cast = dict(self.faces_cast)
        other.copies = dict(self.copies)
        other.prepared, other.prepared_by = dict(self.prepared), dict(self.prepared_by)
        other.ability_sources = dict(self.ability_sources)
        other.x_values = dict(self.x_values)
        other.suspending = dict(self.suspending)
        other.melded_with = dict(self.melded_with)
        other.copy_choice = dict(self.copy_choice)
        return other

    def probe(self, act: dict) -> dict:
        """Whether phase accepts input ``act`` now (``{"action", "legal", "code"}``, a
        checkpoint's probe), tried on a copy of the game. Raises :class:`Skip` for a refusal
        the adapter cannot classify."""
        trial = self.copy()
        trial.probing = True  # only whether phase accepts the input counts, not its events
        try:
            trial.run_input(-1, act)
        except Rejected as exc:
            if not exc.code:
                raise Skip(f"probe {act}: phase refuses it with a reason the adapter cannot "
                           f"classify: {exc}") from None
            return {"action": act, "legal": False, "code": exc.code}
        except ScriptError:
            return {"action": act, "legal": False, "code": None}
        return {"action": act, "legal": True, "code": None}

    def run(self) -> dict:
        """Set up, give every script input, read the checkpoints and the final state:
        ``{"events", "state", "checkpoints"}`` (PROTOCOL §10). Raises :class:`Skip`."""
        self.build()
        script = self.scenario.get("script", [])
        wanted: dict[Any, list[dict[str, Any]]] = {}
        for cp in self.scenario.get("expect", {}).get("checkpoints", []) or []:
            wanted.setdefault(cp.get("after"), []).append(cp)
        checkpoints = []
        for i, inp in enumerate(script):
            if self.waiting().get("type") == "GameOver":
                self.events.append({"type": "action_rejected", "at": i,
                                    "player": inp.get("player"), "action": inp.get("action"),
                                    "code": "game_over", "message": "the game is over"})
            else:
                saved = self.save()
                try:
                    self.run_input(i, inp)
                except Rejected as exc:
                    self.restore(saved)  # a rejected input changes nothing (FORMAT §3.2)
                    if not exc.code:
                        raise Skip(f"input #{i} ({inp.get('action')}): phase refuses it with a "
                                   f"reason the adapter cannot classify: {exc}") from None
                    self.events.append({"type": "action_rejected", "at": i,
                                        "player": inp.get("player"),
                                        "action": inp.get("action"), "code": exc.code,
                                        "message": str(exc)})
                except ScriptError as exc:
                    self.events.append({"type": "script_error", "at": i, "code": exc.code,
                                        "message": str(exc)})
                    break
            for cp in wanted.get(i, []):
                probes = [self.probe(a) for a in cp.get("legal", [])]
                probes += [self.probe(item["action"]) for item in cp.get("illegal", [])]
                checkpoints.append({"after": i, "state": self.read_state(), "probes": probes})
        return {"events": self.events, "state": self.read_state(), "checkpoints": checkpoints}
