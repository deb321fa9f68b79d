"""The script's inputs (FORMAT §3.2) as phase actions (:class:`Inputs`, a mixin of
:class:`~.run.PhaseRun`): the dispatch of each input to its ``do_<action>`` method and every
input but ``cast`` and ``activate`` (:mod:`.casting`).

Script (FORMAT §3.2). Each input becomes phase actions, answering phase's prompts with the
fixture's choices: ``cast`` is ``CastSpell`` with manual payment, then ``ChooseTarget`` per
target (in order), ``SelectModes``, ``ChooseX``, and at the ``ManaPayment`` prompt one
``TapLandForMana`` per ``pay_with`` permanent (its first mana ability; ``color`` for
any-color sources) and, for the input's ``mana``, one ``SpendPoolMana`` per named mana (the
pool units phase commits to the cost first) before finishing the payment from the pool (a
payment phase then makes with other mana than the named is skipped); ``activate`` is
``ActivateAbility`` (the k-th activated ability of the card in our list is phase's k-th
activated ability; if the counts differ the case is skipped); ``pass`` and ``resolve`` are
``PassPriority``; ``advance`` passes priority, declares no attackers and no blockers, until
phase begins the step; ``declare_attackers`` / ``declare_blockers`` / ``assign_damage`` /
``discard`` / ``order_triggers`` / ``choose_targets`` answer the matching prompt.
``choose`` answers: ``yes``/``no`` an ``OptionalEffectChoice`` (``DecideOptionalEffect
{accept}``); an alias answers a "you may behold" ``OptionalEffectChoice`` (accept, then the
behold prompt, or phase's own lone choice compared with the card it revealed; a permanent
phase beholds by itself without saying which is skipped); ``counters``/``token`` endure's
``ChooseOneOfBranch`` (the branch whose effect is ``PutCounter``/``Token``; another answer
is given to phase as a branch it does not have, so phase refuses it); an alias (or
``none``) a ``SearchChoice`` (``SelectCards``); a card name a ``NamedChoice``
(``ChooseOption``); a source a ``DamageSourceChoice``; an alias the legend rule's
``ChooseLegend`` (the one kept; the others' moves get ``state_based_action`` 704.5j);
``yes``/``no`` an ``UnlessPayment`` (echo, ward, "unless pays": ``pay_with`` tapped first,
then ``PayUnlessCost``, ``cost_paid`` with the mana it took, ``cannot_pay`` when phase tapped
a source the input does not name); ``no`` a madness ``CastOffer`` or suspend's "you may
cast it" (``cast_declined``). A ``choose`` while phase gives a player priority is
``wrong_decision`` (phase asks nothing then). ``declare_attackers`` entries
``{"attacker", "target"}`` are phase's ``AttackTarget`` ``Player`` / ``Planeswalker``
(CR 508.1b). ``order_triggers`` is phase's ``OrderTriggers`` (indices into its list of
waiting triggers, first put first, CR 603.3b): by source alias, or by trigger references
when the triggers are all alike (phase's waiting triggers have no reference yet); when
phase put alike triggers on the stack without asking, an input naming that order is
accepted as given.

Inputs phase cannot receive are skipped, never approximated: ``random`` (phase's RNG
cannot be fixed), ``choose`` with a choice the prompt does not offer by name, an
``order_triggers`` by references of different triggers, an ability of a token (no card file
to match its abilities with phase's).
"""

from __future__ import annotations

from typing import Any

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.binding import PHASE_VERSION, action
from mtg_judge.tools.adapters.phase.core import RunCore
from mtg_judge.tools.adapters.phase.rejections import Rejected, ScriptError
from mtg_judge.tools.adapters.phase.stack import described
from mtg_judge.tools.adapters.phase.vocabulary import STEP_TO_PHASE


class Inputs(RunCore):
    """One script input at a time, answering phase's prompts (a mixin of
    :class:`~.run.PhaseRun`; its attributes are :class:`~.core.RunCore`'s)."""

    def run_input(self, i: int, inp: dict) -> None:
        """Give input number ``i`` of the script to phase: its ``do_<action>`` method, unless the
        508.8 bridge answers it (:mod:`.bridge`). Raises :class:`Skip` for an action phase
        cannot be given, :class:`Rejected` and :class:`ScriptError`."""
        kind = inp.get("action")
        self.input_kind = kind
        self.previous_mark = self.input_mark
        self.input_mark = len(self.events)
        handler = getattr(self, f"do_{kind}", None)
        if handler is None:
            raise Skip(f"input #{i} ({kind}) cannot be given to phase")
        if self.bridge_takes(kind, inp):  # the 508.8 bridge (off by default, .bridge)
            return
        handler(inp)
        self.bridge_after(kind)

    def seat_of(self, inp: dict) -> int:
        """phase's seat of the input's ``player``; :class:`Rejected` (``unknown_object``) when
        there is no such player."""
        who = inp.get("player")
        if who not in self.seat:
            raise Rejected("unknown_object", f"no player {who!r}")
        return self.seat[who]

    def do_pass(self, inp: dict) -> None:
        """``pass``: phase's ``PassPriority``, when phase waits for priority."""
        seat = self.seat_of(inp)
        self.expect_prompt(("Priority",), None, "pass")
        self.apply(seat, action("PassPriority"))

    def do_resolve(self, inp: dict) -> None:
        """``resolve``: both players pass in turn, starting with the one phase gives priority;
        stops early when phase gives priority again or the game ends, and raises
        :class:`ScriptError` (``unanswered_decision``) when phase asks for something else."""
        first = self.expect_prompt(("Priority",), None, "resolve")
        seats = [first["data"]["player"]]
        seats.append(1 - seats[0])
        for seat in seats:
            wf = self.waiting()
            if wf.get("type") != "Priority" or wf["data"]["player"] != seat:
                if wf.get("type") in ("Priority", "GameOver"):
                    return
                raise ScriptError("unanswered_decision",
                                  f"resolve: phase asks for {wf.get('type')}")
            self.apply(seat, action("PassPriority"))

    def do_advance(self, inp: dict) -> None:
        """``advance``: pass priority, declare no attackers and no blockers until phase begins the
        step ``to`` (of turn ``turn`` if given). Raises :class:`ScriptError`
        (``advance_not_reached``, ``unanswered_decision``) and :class:`Skip` for a step phase
        has no name for."""
        to = inp["to"]
        want_turn = inp.get("turn")
        target = STEP_TO_PHASE.get(to)
        if target is None:
            raise Skip(f"advance to {to!r}")
        started = len(self.events)
        for _ in range(400):
            wf = self.waiting()
            kind = wf.get("type")
            began = [e for e in self.events[started:] if e["type"] == "step_began"
                     and e["step"] == to and (want_turn is None or e["turn"] == want_turn)]
            if began:
                return
            if kind == "GameOver":
                raise ScriptError("advance_not_reached", f"the game ended before {to}")
            seat: Any = self.waiting_player()
            if kind == "Priority":
                self.apply(seat, action("PassPriority"))
            elif kind == "DeclareAttackers":
                self.apply(seat, action("DeclareAttackers", {"attacks": [], "bands": []}))
            elif kind == "DeclareBlockers":
                self.apply(seat, action("DeclareBlockers", {"assignments": []}))
            else:
                raise ScriptError("unanswered_decision",
                                  f"advance to {to}: phase asks for {kind}")
        raise ScriptError("advance_not_reached", f"{to} not reached")

    def do_play_land(self, inp: dict) -> None:
        """``play_land``: phase's ``PlayLand`` of the card."""
        seat = self.seat_of(inp)
        oid = self.object_id(inp["card"])
        self.expect_prompt(("Priority",), None, "play_land")
        self.apply(seat, action("PlayLand", {"object_id": oid, "card_id": oid}))

    def declared_by_phase(self, event_type: str, player: str) -> bool:
        """Did phase make this declaration by itself, empty, while the previous input was
        processed? (phase declares no attackers, or no blockers, without asking when no
        creature can attack or block.)"""
        return any(e.get("type") == event_type and e.get("player") == player
                   and not e.get("attackers") and not e.get("blocks")
                   for e in self.events[self.previous_mark:self.input_mark])

    def do_declare_attackers(self, inp: dict) -> None:
        """``declare_attackers``: phase's ``DeclareAttackers``, each attacker attacking the other
        player; nothing when the input declares none and phase already declared none by itself."""
        seat = self.seat_of(inp)
        if not inp.get("attackers") and self.waiting().get("type") != "DeclareAttackers" \
                and self.declared_by_phase("attackers_declared", self.player(seat)):
            return  # the same answer phase gave by itself: no attackers
        self.expect_prompt(("DeclareAttackers",), seat, "declare_attackers")
        attacks = [self.attack(seat, a) for a in inp.get("attackers", [])]
        self.apply(seat, action("DeclareAttackers", {"attacks": attacks, "bands": []}))

    def attack(self, seat: int, entry: Any) -> list:
        """phase's ``[attacker id, AttackTarget]`` for one ``declare_attackers`` entry (FORMAT
        §3.2, §12.1): an alias attacks the other player; ``{"attacker", "target"}`` attacks
        the player or the planeswalker ``target`` names (CR 508.1b). phase's ``AttackTarget``
        is ``Player(seat)`` or ``Planeswalker(object id)``; phase itself refuses a target it
        cannot be attacked with. Raises :class:`Rejected` (``unknown_object``)."""
        if not isinstance(entry, dict):
            return [self.object_id(entry), {"type": "Player", "data": 1 - seat}]
        target = entry.get("target")
        if target is None or target in self.seat:
            who = self.seat[target] if target is not None else 1 - seat
            return [self.object_id(entry["attacker"]), {"type": "Player", "data": who}]
        return [self.object_id(entry["attacker"]),
                {"type": "Planeswalker", "data": self.object_id(target)}]

    def do_declare_blockers(self, inp: dict) -> None:
        """``declare_blockers``: phase's ``DeclareBlockers`` with the input's blocker-attacker
        pairs; nothing when the input declares none and phase already declared none by itself."""
        seat = self.seat_of(inp)
        if not inp.get("blocks") and self.waiting().get("type") != "DeclareBlockers" \
                and self.declared_by_phase("blockers_declared", self.player(seat)):
            return  # the same answer phase gave by itself: no blockers
        self.expect_prompt(("DeclareBlockers",), seat, "declare_blockers")
        pairs = [[self.object_id(b["blocker"]), self.object_id(b["attacker"])]
                 for b in inp.get("blocks", [])]
        self.apply(seat, action("DeclareBlockers", {"assignments": pairs}))

    def do_assign_damage(self, inp: dict) -> None:
        """``assign_damage``: phase's ``AssignCombatDamage`` for the attacker phase asks about
        (damage to the player as trample damage); :class:`Rejected` (``wrong_decision``) when
        phase asks about another attacker."""
        seat = self.seat_of(inp)
        wf = self.expect_prompt(("AssignCombatDamage",), seat, "assign_damage")
        data = wf["data"]
        if data.get("attacker_id") != self.object_id(inp["attacker"]):
            raise Rejected("wrong_decision", "phase asks about another attacker")
        assignments, to_player = [], 0
        for who, n in inp.get("assignment", {}).items():
            if who in self.seat:
                to_player += n
            else:
                assignments.append([self.object_id(who), n])
        self.apply(seat, action("AssignCombatDamage", {
            "assignments": assignments, "controller_damage": 0, "mode": "Normal",
            "trample_damage": to_player}))

    def do_discard(self, inp: dict) -> None:
        """``discard``: phase's ``SelectCards`` at a discard prompt."""
        seat = self.seat_of(inp)
        self.expect_prompt(("DiscardToHandSize", "DiscardChoice"), seat, "discard")
        self.apply(seat, action("SelectCards",
                                {"cards": [self.object_id(c) for c in inp.get("cards", [])]}))

    def do_random(self, inp: dict) -> None:
        """``random``: always :class:`Skip` (phase's random outcomes cannot be fixed)."""
        raise Skip("phase has no action that fixes a random outcome (a shuffle, a random "
                   "discard): it draws them from its own seeded generator (phase-python "
                   f"{PHASE_VERSION})")

    def do_choose(self, inp: dict) -> None:
        """``choose``: the answer to phase's current choice prompt (see the module docstring for
        each prompt). Raises :class:`Skip` for a prompt not translated and :class:`Rejected`."""
        seat = self.seat_of(inp)
        wf = self.waiting()
        kind = wf.get("type")
        data: Any = wf.get("data") if isinstance(wf.get("data"), dict) else {}
        choice: Any = inp.get("choice")
        if kind == "OptionalEffectChoice" and choice in ("yes", "no"):
            self.apply(seat, action("DecideOptionalEffect", {"accept": choice == "yes"}))
            offer = described(data.get("description"))
            if choice == "no" and offer is not None and offer[1] == "last_time_counter_removed":
                # a may_cast declined (PROTOCOL §10.2): suspend's "you may play it" (phase
                # logs nothing for the answer)
                offered = data.get("source_id")
                self.events.insert(self.input_mark, {
                    "type": "cast_declined", "player": self.player(seat),
                    "card": self.card(offered) if isinstance(offered, int) else None,
                    "reason": "suspend"})
            return
        if kind == "OptionalEffectChoice" and "behold" in str(data.get("description")).lower() \
                and isinstance(choice, str):
            # "you may behold a Dragon" (FORMAT §11.5): the answer names what is beheld.
            # phase asks yes/no, then which card or permanent (or picks a lone one itself)
            self.expect_prompt(("OptionalEffectChoice",), seat, "choose")
            self.apply(seat, action("DecideOptionalEffect", {"accept": True}))
            wf = self.waiting()
            if wf.get("type") in ("BeholdChoice", "PayCost"):
                self.apply(seat, action("SelectCards", {"cards": [self.object_id(choice)]}))
                return
            beheld = [e["object"] for e in self.events[self.input_mark:]
                      if e["type"] == "card_revealed"]
            if not beheld:
                # phase beheld a permanent by itself (a lone choice) and does not say which
                raise Skip("phase beheld a permanent of its own choosing without saying which: "
                           f"the input's {choice!r} cannot be checked")
            if beheld != [self.ref(self.object_id(choice))]:
                raise Rejected("invalid_choice", f"phase beheld {beheld or 'nothing'} itself "
                                                 f"(its only choice), the input names {choice}")
            return
        if kind == "CastOffer" and (data.get("kind") or {}).get("type") == "Madness" \
                and choice == "no":
            # a madness may_cast declined (PROTOCOL §10.2, CR 702.35a)
            madness_card = (data.get("kind") or {}).get("object_id")
            self.apply(seat, action("DecideOptionalEffect", {"accept": False}))
            self.events.insert(self.input_mark, {
                "type": "cast_declined", "player": self.player(seat),
                "card": self.card(madness_card) if isinstance(madness_card, int) else None,
                "reason": "madness"})
            return
        if kind == "ChooseLegend" and isinstance(choice, str):
            # the legend rule (CR 704.5j): the permanent kept
            keep = self.object_id(choice)
            mark = len(self.events)
            self.apply(seat, action("ChooseLegend", {"keep": keep}))
            # the others go to the graveyard by that state-based action (phase's prompt is
            # the legend rule's; its log does not name the rule)
            name = (self.game.object(keep) or {}).get("name")
            for k in range(len(self.events) - 1, mark - 1, -1):
                e = self.events[k]
                if e["type"] == "zone_changed" and e["from"] == "battlefield" \
                        and e.get("name") == name and e["card"] != self.card(keep):
                    e["cause"] = "state_based_action"
                    self.events.insert(k, {"type": "state_based_action", "rule": "704.5j",
                                           "object": e["object"], "card": e["card"]})
            return
        if kind == "UnlessPayment" and choice in ("yes", "no"):
            # echo's upkeep payment (CR 702.30a), ward's or another "unless pays" cost: the
            # input's pay_with sources are tapped for mana first, then phase's PayUnlessCost
            before = self.pool(seat)
            added: dict[str, int] = {}
            named = set()
            if choice == "yes":
                for payer in inp.get("pay_with") or []:
                    sid = self.object_id(payer["source"] if isinstance(payer, dict) else payer)
                    named.add(self.ref(sid))
                    mark = len(self.events)
                    self.apply(seat, self.mana_selection(
                        sid, payer.get("color") if isinstance(payer, dict) else None))
                    for e in self.events[mark:]:
                        if e["type"] == "mana_added":
                            for c, n in e["mana"].items():
                                added[c] = added.get(c, 0) + n
            mark = len(self.events)
            self.apply(seat, action("PayUnlessCost", {"pay": choice == "yes"}))
            if choice != "yes":
                return
            extra = sorted({e["source"] for e in self.events[mark:]
                            if e["type"] == "mana_ability_activated"
                            and e["source"] not in named})
            if extra:
                # phase paid with sources the input does not name: the input's payment
                # (pay_with, then the pool) could not pay (FORMAT §3.2)
                raise Rejected("cannot_pay", f"the cost needs more mana than the input's "
                                             f"payment: phase also tapped {extra}")
            after = self.pool(seat)  # paid: pool before + mana made - pool after
            paid = {c: before.get(c, 0) + added.get(c, 0) - after.get(c, 0)
                    for c in {*before, *added, *after}}
            self.events.insert(mark, {"type": "cost_paid", "player": self.player(seat),
                                      "object": self.last_resolved,
                                      "mana": {c: n for c, n in sorted(paid.items()) if n > 0}})
            return
        if kind == "ChooseOneOfBranch":
            # endure (FORMAT §11.5): phase's two branches, a token or +1/+1 counters; an
            # answer that is neither is given to phase as a branch it does not have
            effects = [((b.get("effect") or {}).get("type")) for b in data.get("branches", [])]
            want = {"token": "Token", "counters": "PutCounter"}.get(choice)
            index = effects.index(want) if want in effects else len(effects)
            self.apply(seat, action("ChooseBranch", {"index": index}))
            return
        if kind == "SearchChoice":
            nothing = choice in (None, "none", "no")
            self.apply(seat, action("SelectCards", {"cards": [] if nothing
                                                    else [self.object_id(choice)]}))
            if nothing:
                out: list = []
                self.note_found(out, None)
                self.events[self.input_mark:self.input_mark] = out
            return
        if kind == "NamedChoice" and isinstance(choice, str):
            self.apply(seat, action("ChooseOption", {"choice": choice}))
            # phase logs no event for the choice; it records it on the object
            src: Any = ((((data.get("source") or {}).get("prompt") or {}).get("identity") or {})
                   .get("reference") or {}).get("object_id")
            chosen = [a.get("value") for a in ((self.game.object(src) or {})
                                               .get("chosen_attributes") or [])
                      if isinstance(src, int) and a.get("type") == "CardName"]
            if chosen:
                self.events.insert(self.input_mark, {"type": "card_name_chosen",
                                                     "object": self.ref(src),
                                                     "card": self.card(src),
                                                     "name": chosen[-1]})
            return
        if kind == "ReplacementChoice" and (data.get("kind") or {}).get("type") == \
                "OptionalBranch" and isinstance(choice, str):
            # "you may have ~ enter as a copy of any creature" (Clone, CR 707.2, 614.1c;
            # PROTOCOL §10 reason ``copy``): phase asks first whether the optional
            # replacement applies (its other candidate is "Decline"), then which creature
            # is copied (``CopyTargetChoice``)
            names = [c.get("description") for c in data.get("candidates") or []]
            decline = names.index("Decline") if "Decline" in names else None
            if decline is None or len(names) != 2:
                raise Skip(f"choose {choice!r}: phase's optional replacement offers "
                           f"{names}, not one replacement and Decline")
            self.apply(seat, action("ChooseReplacement", {
                "index": decline if choice == "no" else 1 - decline}))
            wf = self.waiting()
            if choice != "no" and wf.get("type") == "CopyTargetChoice":
                self.copy_choice[(wf.get("data") or {}).get("source_id")] = choice
                self.apply(seat, action("ChooseTarget", {
                    "target": {"Object": self.object_id(choice)}}))
            return
        if kind in ("CopyTargetChoice", "ReturnAsAuraTarget") and isinstance(choice, str):
            if kind == "CopyTargetChoice":
                self.copy_choice[data.get("source_id")] = choice
            # the creature a Clone copies; what an Aura returned to the battlefield enchants
            # (CR 303.4f: chosen as it enters, not targeted)
            self.apply(seat, action("ChooseTarget", {"target": self.target_of(choice)}))
            return
        if kind == "MeldPairChoice" and isinstance(choice, str):
            # a meld effect with two or more permanents of the partner's name (CR 701.42a;
            # PROTOCOL §10 reason ``meld_partner``): phase's ChooseMeldPair of the partner
            # the input names, with the source phase's choices give
            sources = {c.get("source_id") for c in data.get("choices") or []}
            if len(sources) != 1:
                raise Skip(f"choose {choice!r}: phase's meld choices have {len(sources)} sources")
            self.apply(seat, action("ChooseMeldPair", {"source_id": sources.pop(),
                                                       "partner_id": self.object_id(choice)}))
            return
        if kind == "DamageSourceChoice":
            self.apply(seat, action("ChooseDamageSource", {"source": self.object_id(choice)}))
            return
        if kind == "Priority":
            # phase gives a player priority, and no choice is asked (FORMAT §8: an input of
            # another kind than the decision asked for)
            raise Rejected("wrong_decision", f"choose {choice!r}: phase is waiting for "
                                             "priority")
        raise Skip(f"choose {choice!r}: phase asks for {kind}")

    def do_choose_targets(self, inp: dict) -> None:
        """``choose_targets``: ``ChooseTarget`` per target at phase's target prompt (a triggered
        ability's or a copy's); when phase put the trigger on the stack with its only legal
        targets, the input must name those (else :class:`Rejected` ``invalid_target``)."""
        seat = self.seat_of(inp)
        wanted = [t if t in self.seat else self.ref(self.object_id(t))
                  for t in inp.get("targets", [])]
        if self.waiting().get("type") == "Priority":
            # phase puts a trigger with a lone legal choice of targets on the stack itself,
            # without a prompt: the input agrees with it or names a target phase did not allow
            top = next(iter(reversed(self.game.stack() or [])), None)
            if top is not None and top.get("id") in self.abilities and \
                    ((top.get("kind") or {}).get("type") == "TriggeredAbility"):
                chosen = self.stack_targets(top["id"])
                if chosen == wanted:
                    return
                raise Rejected("invalid_target", f"phase put the trigger on the stack with the "
                                                 f"only legal targets {chosen}")
        wf = self.expect_prompt(("TriggerTargetSelection", "TargetSelection", "CopyRetarget"),
                                seat, "choose_targets")
        for t in inp.get("targets", []):
            self.apply(seat, action("ChooseTarget", {"target": self.target_of(t)}))
        if wf.get("type") == "CopyRetarget":
            # a copy's targets (FORMAT §10 copy_targets): its spell_copied event gets the
            # targets phase's stack now holds for it
            cid: Any = (wf.get("data") or {}).get("copy_id")
            for ev in reversed(self.events):
                if ev["type"] == "spell_copied" and ev["object"] == self.ref(cid):
                    ev["targets"] = self.stack_targets(cid)
                    break

    def do_order_triggers(self, inp: dict) -> None:
        """``order_triggers`` (FORMAT §3.2, CR 603.3b): phase's ``OrderTriggers`` prompt lists
        the player's waiting triggers (``source_id``, ``description``); its ``order`` is
        indices into that list, the first put on the stack first, as ours. An entry naming a
        source alias is that source's trigger. phase's waiting triggers have no reference
        yet, so ``ability#N`` entries can be matched only when the triggers are all alike
        (the same source and text: any order is the same); otherwise :class:`Skip`. Raises
        :class:`Rejected` (``wrong_decision``, ``invalid_choice``)."""
        seat = self.seat_of(inp)
        wf = self.waiting()
        if wf.get("type") != "OrderTriggers":
            # phase put the triggers on the stack without asking (alike triggers): the
            # input agrees with the order phase chose, or cannot be given to phase
            put = [e for e in self.events[self.previous_mark:self.input_mark]
                   if e["type"] == "ability_put_on_stack"]
            refs = [e["object"] for e in put]
            sources = [e.get("source") for e in put]
            order = list(inp.get("order") or [])
            if order and (order == refs or order == sources[:len(order)] and
                          len(order) == len(put)):
                return
            raise Skip(f"order_triggers: phase asks for {wf.get('type')} (it put the "
                       f"triggers {refs} on the stack itself)")
        wf = self.expect_prompt(("OrderTriggers",), seat, "order_triggers")
        listed = list((wf.get("data") or {}).get("triggers") or [])
        order = list(inp.get("order") or [])
        if len(order) != len(listed):
            raise Rejected("invalid_choice", f"order_triggers: {len(order)} entries for phase's "
                                             f"{len(listed)} triggers")
        alike = len({(t.get("source_id"), t.get("description")) for t in listed}) == 1
        indices: list[int] = []
        for ref in order:
            if isinstance(ref, str) and ref.startswith("ability#"):
                if not alike:
                    raise Skip("order_triggers by trigger references: phase's OrderTriggers "
                               "prompt gives its waiting triggers no reference (they have no "
                               f"stack object yet), and they differ (phase-python {PHASE_VERSION})")
                indices.append(len(indices))
                continue
            sid = self.object_id(ref)
            found = [k for k, t in enumerate(listed) if t.get("source_id") == sid
                     and k not in indices]
            if not found:
                raise Rejected("invalid_choice", f"order_triggers: {ref} has no waiting trigger")
            if len(found) > 1 and len({listed[k].get("description") for k in found}) > 1:
                raise Skip(f"order_triggers: {ref} has several different waiting triggers")
            indices.append(found[0])
        self.apply(seat, action("OrderTriggers", {"order": indices}))
