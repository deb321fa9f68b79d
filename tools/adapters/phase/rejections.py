"""Refused inputs (FORMAT §8): :class:`Rejected` (an input phase refused, or one that does not
fit phase's prompt, with our rejection code), :class:`ScriptError` (a script phase cannot go
on with), and :func:`classify`, phase's refusal messages read into our codes.

An input phase refuses (``Game.apply`` raises) becomes an ``action_rejected`` event whose
``code`` comes from phase's message through :data:`REJECTIONS`, a table of phase messages
whose reason is explicit. A refusal whose message the table does not classify ends the run:
the case is skipped with phase's message (the adapter never picks a code on phase's
behalf). An input given when phase waits for another kind of decision (say, a ``pass``
while phase asks for attackers) is rejected with ``wrong_decision``; a ``pass`` or cast
by a player who does not have priority, with ``not_your_priority``: those two are read off
phase's own ``waiting_for`` prompt.
"""

from __future__ import annotations

import re

#: phase's refusal messages whose reason is explicit -> our rejection code (FORMAT §8).
#: Searched in order, case-insensitively, in the text of the ValueError ``Game.apply`` raises.
REJECTIONS: list[tuple[str, str]] = [
    (r"^Not your priority", "not_your_priority"),
    (r"Sorcery-speed spells can only be cast (by the active player|when the stack is empty)",
     "sorcery_timing"),
    (r"Cannot cast ObjectId\(\d+\) from \w+ . not a castable zone", "not_in_hand"),
    (r"Object is not in the correct zone \(expected Battlefield\)", "not_on_battlefield"),
    (r"Damage assignment total \d+ != expected \d+", "invalid_damage_assignment"),
    (r"Trample: blocker ObjectId\(\d+\) must receive at least \d+ lethal damage",
     "invalid_damage_assignment"),
    (r"Must choose between \d+ and \d+ modes", "invalid_mode"),
    (r"Mode index \d+ is unavailable", "invalid_mode"),
    (r"X=\d+ exceeds the maximum legal value", "invalid_x"),
    (r"is blocking \d+ attackers but can only block \d+", "invalid_block"),
    (r"Must discard exactly \d+ card", "invalid_choice"),
    (r"Already played maximum lands this turn", "land_already_played"),
    (r"Can only play lands (during main phases|while the stack is empty)", "sorcery_timing"),
    (r"Sorcery-speed spells can only be cast during main phases", "sorcery_timing"),
    (r"Cannot activate tap ability: permanent is tapped", "already_tapped"),
    (r"Cannot pay mana cost", "cannot_pay"),
    (r"Creature has summoning sickness", "summoning_sick"),
    (r"No legal targets available", "invalid_target"),
    (r"Card not found in hand, graveyard, exile, or library", "not_in_hand"),
    (r"Illegal target selected", "invalid_target"),
    (r"Target \w+\(ObjectId\(\d+\)\) not a legal alternative for copy slot", "invalid_target"),
    (r"ObjectId\(\d+\) cannot block ObjectId\(\d+\)", "cannot_block"),
    (r"ObjectId\(\d+\) has Defender", "cannot_attack"),
    (r"ObjectId\(\d+\) has summoning sickness", "summoning_sick"),
    (r"it has no mana cost \(CR 118\.6\)", "cannot_pay"),
    (r"Activation restriction not satisfied: AsSorcery", "sorcery_timing"),
    # suspend's ability (phase: "if you could begin to cast this card", CR 702.62a)
    (r"Activation restriction not satisfied: MatchesCardCastTiming", "sorcery_timing"),
    (r"can't attack (Player|Planeswalker|Battle)\(", "cannot_attack"),
    # an ability that works only from the graveyard (renew), asked of the card elsewhere
    (r"Object is not in the correct zone \(expected Graveyard\)", "no_such_ability"),
    (r"Selected object not eligible to behold", "invalid_payment"),
    (r"Selected card not in search results", "invalid_choice"),
    (r"ChooseOneOf branch index \d+ out of range", "invalid_choice"),
    (r"A static ability prevents you from casting this spell", "cant_cast"),
    (r"CastPreparedCopy: source not controlled by acting player", "not_controller"),
    (r"Card is not in a castable zone", "not_in_hand"),
    (r"You don't control this (permanent|card)", "not_controller"),
    (r"Object is not on the battlefield", "not_on_battlefield"),
    (r"Activation restriction not satisfied: DuringYourTurn", "not_your_turn"),
    (r"can block only creatures matching the block restriction", "cannot_block"),
    (r"Cannot pay activation cost", "cannot_pay"),
    (r"Mana unit cannot pay any part of this cost", "invalid_payment"),
    (r"Must choose at least \d+ modes, got 0", "invalid_mode"),
    # CR 305.9: a land card (its main face a land) is played, never cast
    (r"Lands are played, not cast", "is_a_land"),
    # a madness cast (CR 702.35a) asked of phase outside its madness CastOffer
    (r"Cannot perform CastSpellAsMadness .* while waiting for Priority", "invalid_alternative"),
    # what a returned Aura enchants (CR 303.4f), answered with an object phase does not offer
    (r"ReturnAsAuraTarget: invalid or missing legal target", "invalid_choice"),
    # ChooseMeldPair of a permanent phase's MeldPairChoice does not offer (CR 701.42a)
    (r"meld selection is not one of the offered pairs", "invalid_choice"),
]

#: messages whose code depends on the input they refuse: ``{message: {input action: code}}``
#: (a tapped creature can neither attack nor block; "Wrong player" means another player has
#: priority, or phase is waiting for another player's decision).
REJECTIONS_BY_INPUT: list[tuple[str, dict[str, str]]] = [
    (r"ObjectId\(\d+\) is tapped", {"declare_attackers": "cannot_attack",
                                     "declare_blockers": "cannot_block"}),
]


class Rejected(Exception):
    """An input phase refused (or that does not fit phase's current prompt)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ScriptError(Exception):
    """A script the adapter cannot go on with (``code``: ``unanswered_decision``,
    ``advance_not_reached``): reported as a ``script_error`` event, ending the script."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def classify(message: str, kind: str | None = None, prompt: str | None = None) -> str | None:
    """Our rejection code for phase's refusal ``message`` of an input of ``kind`` while phase
    waits for ``prompt``; ``None`` when the message does not say why in our terms."""
    for pattern, code in REJECTIONS:
        if re.search(pattern, message, re.IGNORECASE):
            return code
    for pattern, codes in REJECTIONS_BY_INPUT:
        if re.search(pattern, message, re.IGNORECASE) and kind in codes:
            return codes[kind]
    if re.search(r"^(Invalid action: )?Wrong player", message):
        return "not_your_priority" if prompt == "Priority" else "wrong_decision"
    return None
