"""The 508.8 bridge (:class:`Bridge508`, a mixin of :class:`~.run.PhaseRun`): an opt-in
workaround of a known phase bug for differential fuzzing, off by default.

phase goes from an empty declaration of attackers straight to the end of combat step,
without the priority of the declare attackers step (docs/COMPLIANCE.md, phase bug 4: CR
508.2 gives players priority in that step; 508.8 skips only the declare blockers and combat
damage steps). With ``MTG_JUDGE_PHASE_BRIDGE_508_8=1`` the adapter takes the two passes of
that step itself: it accepts the empty declaration the script then gives (phase made it by
itself), reports each pass and the priority that follows, and reports that step and its
priority in the state meanwhile, so that a fuzzing campaign can look past that bug. The
fixtures see phase as it is.
"""

from __future__ import annotations

import os

from mtg_judge.tools.adapters.phase.core import RunCore

#: ``MTG_JUDGE_PHASE_BRIDGE_508_8=1``: when phase skips the declare attackers step's priority
#: after no attackers were declared (COMPLIANCE, phase bug 4: CR 508.2, 508.8), the adapter
#: takes the two passes of that step itself (reporting that step and its priority in the
#: state meanwhile), so that a differential fuzzing campaign can look past that known bug.
#: Off by default: the fixtures see phase as it is.
BRIDGE_508_8 = os.environ.get("MTG_JUDGE_PHASE_BRIDGE_508_8") == "1"


class Bridge508(RunCore):
    """The passes of the declare attackers step phase skipped (a mixin of
    :class:`~.run.PhaseRun`; the attributes it uses are :class:`~.core.RunCore`'s: ``bridge``, the seats still to pass
    in that step, active player first; ``bridge_declared``, whether its empty declaration of
    attackers has been given)."""

    def bridge_takes(self, kind: str | None, inp: dict) -> bool:
        """Whether the bridge answers input ``inp`` (of action ``kind``) itself: the empty
        declaration of attackers phase made by itself, or a pass of the step phase skipped
        (``priority_passed``, then ``priority_received`` for the next seat). Any other input
        but an ``activate`` (a mana ability activated meanwhile goes to phase; the step's
        passes still come) ends the bridge."""
        bridge = self.bridge
        if bridge and kind == "declare_attackers" and not inp.get("attackers") \
                and self.seat.get(inp.get("player")) == bridge[0] and len(bridge) == 2:
            self.bridge_declared = True
            return True  # the empty declaration phase made by itself; its step's passes come next
        if bridge and kind == "pass" and self.seat.get(inp.get("player")) == bridge[0]:
            seat = bridge.pop(0)  # a pass of the declare attackers step phase skipped (BRIDGE_508_8)
            self.events.append({"type": "priority_passed", "player": self.player(seat)})
            if bridge:
                self.events.append({"type": "priority_received", "player": self.player(bridge[0])})
            return True
        if kind != "activate":  # a mana ability activated meanwhile goes to phase; the step's passes still come
            self.bridge = []
        return False

    def bridge_after(self, kind: str | None) -> None:
        """After phase took an input of action ``kind``: with the bridge on, start it when
        phase has just skipped the declare attackers step's priority."""
        if BRIDGE_508_8 and self.skipped_declare_attackers_priority():
            active = self.state_dict()["state"]["active_player"]
            self.bridge = [active, 1 - active]
            self.bridge_declared = kind == "declare_attackers"  # else the declaration input is still to come

    def bridge_state(self, step: str, priority: str | None) -> tuple[str, str | None]:
        """The state's ``(step, priority)`` given phase's: inside the bridged step, the
        declare attackers step and the seat to pass (``None`` before its declaration)."""
        if self.bridge:  # inside the declare attackers step phase skipped
            step = "declare_attackers"
            priority = self.player(self.bridge[0]) if self.bridge_declared else None
        return step, priority

    def skipped_declare_attackers_priority(self) -> bool:
        """Did phase just go from an empty declaration of attackers to the end of combat
        step without giving priority in the declare attackers step (COMPLIANCE, phase bug 4)?"""
        new = self.events[self.input_mark:]
        for k, e in enumerate(new):
            if e.get("type") == "attackers_declared" and not e.get("attackers"):
                for f in new[k + 1:]:
                    if f.get("type") == "priority_received":
                        return False
                    if f.get("type") == "step_began" and f.get("step") == "end_of_combat":
                        return True
        return False