"""Casting spells and activating abilities on phase (the ``cast`` and ``activate`` inputs,
FORMAT §3.2, §10-11; :class:`Casting`, a mixin of :class:`~.run.PhaseRun`): answering the
prompts of a cast (targets, modes, X, faces, casting variants, behold, harmonize) and the
mana payment (``pay_with``, the pool's ``mana``), then the synthesised ``spell_cast`` /
``ability_activated`` event with the mana paid.

Tarkir: Dragonstorm casts (FORMAT §11): ``face: "omen"`` (or ``"adventure"``) answers
phase's ``CastOffer`` of kind ``Adventure`` with ``ChooseAdventureFace {creature: false}``
(a cast without ``face`` with ``creature: true``); a ``face`` on a card phase offers no face
for is rejected with ``invalid_choice``, read off that missing prompt. ``alternative:
"harmonize"`` is a ``CastSpell`` of the card in its owner's graveyard: phase casts it with its
``Harmonize`` casting variant (read off the pending cast) and asks ``HarmonizeTapChoice``,
answered ``HarmonizeTap`` with ``harmonize_tap`` (or none). phase's ``CastSpell`` names no
variant, so a harmonize cast from another zone, and a cast without ``alternative`` that phase
makes a harmonize cast, are skipped. ``behold`` answers phase's ``OptionalCostChoice`` whose
cost holds a Behold (``DecideOptionalCost {pay: true}``; without ``behold``, ``pay: false``,
which for "behold or pay {1}" adds the {1}) and its ``PayCost`` Behold prompt
(``SelectCards`` with the beheld card or permanent); a mandatory behold the input does not
give is ``cannot_pay``, a ``behold`` on a card phase asks none for ``invalid_alternative``.
``alternative: "flashback"`` is the same graveyard ``CastSpell``, phase's ``Flashback``
casting variant (read off its stack entry: the ``ManaPayment`` prompt does not repeat it);
a graveyard cast without ``alternative`` that phase can only make a flashback cast is
skipped. A ``cast`` of ``prepared#N`` (FORMAT §11.9) is ``CastPreparedCopy`` of the prepared
permanent linked to that copy (``unknown_object`` when none is), answered like any cast;
the copy object phase makes carries the copy's reference.
``kicker`` answers phase's ``OptionalCostChoice`` of type ``Kicker`` (it asks each kicker
cost in turn, CR 702.33; an index listed twice or never asked is ``invalid_choice``; no
prompt at all is ``invalid_alternative`` for a card without kicker, else skipped: phase asks
none it judges unpayable and does not say so); ``buyback`` its ``Optional`` cost of a card
with buyback (CR 702.27a); ``spell_cast`` gets ``kicked`` / ``buyback``. ``alternative:
"morph"`` answers ``AlternativeCastChoice`` of keyword ``FaceDown`` (CR 702.37c; phase picks
the ``FaceDown`` variant itself when it is the only cast it can pay for): ``spell_cast`` has
``face_down`` and a null ``name``. A ``cast`` answering a may-cast decision (PROTOCOL §10.2)
is ``CastSpellAsMadness`` at a madness ``CastOffer`` (CR 702.35a) or accepting suspend's
"you may cast it" ``OptionalEffectChoice`` (CR 702.62a), whatever ``alternative`` it gives.
``suspend`` activates phase's suspend ability from the hand (phase models the special action
as an ability that uses the stack, CR 116.2f says it does not: left as phase does it);
``turn_face_up`` is ``TurnFaceUp`` after tapping ``pay_with``. ``alternative:
"without_paying"`` outside a may-cast is phase's ``CastSpell`` of a card phase gives a free
casting permission (``ExileWithAltCost`` of cost zero in the object's
``casting_permissions``: Spelljack's exiled spell, CR 118.9); the permission phase's pending
cast names (``casting_permission_index``) must be free for it and not free for a cast
without it (else skipped: ``CastSpell`` names no permission); a card with no free permission
is ``invalid_alternative``. An ``alternative`` naming a permanent (Fist of Suns' granted
cost, CR 118.9) goes to phase when phase gives that permanent its
``CastWithAlternativeCost`` static: phase-python 0.103.0's ``CastSpell`` then asks no choice
of that cost, which is ``invalid_alternative`` (phase's behaviour, reported; a card with no
mana cost phase refuses outright). ``alternative: "madness"`` outside phase's madness offer
is asked of phase (``CastSpellAsMadness``), whose refusal is ``invalid_alternative``. The
input's ``mana`` must be exactly what phase took for its total cost (``invalid_payment``
otherwise: phase determines the cost). ``activate`` with ``ability: "cycling"`` /
``"landcycling"`` is the hand ability phase synthesises for that keyword. Any other ``cast``
field is not translated: the case is skipped, never cast as if the field were absent.
"""

from __future__ import annotations

import json
from typing import Any

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.binding import PHASE_VERSION, action
from mtg_judge.tools.adapters.phase.core import RunCore
from mtg_judge.tools.adapters.phase.rejections import Rejected
from mtg_judge.tools.adapters.phase.stack import described
from mtg_judge.tools.adapters.phase.vocabulary import LETTER_PHASE_COLOR, PHASE_COLOR, ZONE_NAME


class Casting(RunCore):
    """Casts and activations with their payment (a mixin of :class:`~.run.PhaseRun`)."""

    #: The ``cast`` input fields this adapter gives to phase (FORMAT §3.2). Any other field
    #: (an alternative or additional cost, a face to cast, FORMAT §10–11) is not translated:
    #: the case is skipped rather than cast as if the field were absent.
    CAST_FIELDS = frozenset({"action", "player", "card", "targets", "modes", "x", "pay_with",
                             "mana", "face", "behold", "harmonize_tap", "kicker", "buyback"})

    #: the ``alternative`` values translated (FORMAT §11.3): phase casts a harmonize card from
    #: its graveyard with its Harmonize casting variant
    ALTERNATIVES = frozenset({"harmonize", "flashback", "morph"})

    #: phase's ``AlternativeCastChoice`` keyword -> our ``alternative`` (FORMAT §10)
    ALTERNATIVE_KEYWORD: dict[Any, str] = {"FaceDown": "morph"}

    #: phase's casting variant (read off its pending cast) for each translated alternative
    VARIANT: dict[Any, str] = {"harmonize": "Harmonize", "flashback": "Flashback"}

    def do_cast(self, inp: dict) -> None:
        """``cast`` (FORMAT §3.2): phase's ``CastSpell`` with manual payment, its prompts answered
        from the input (:meth:`answer_casting`), then the ``spell_cast`` event completed (mana
        paid, modes, ``face``, ``alternative``, a behold cost's ``beheld``). A ``prepared#N``
        card is :meth:`cast_prepared`. Raises :class:`Skip` for a field not translated and
        :class:`Rejected`."""
        if self.offered_cast() is not None \
                and inp.get("alternative") in (None, "without_paying", "madness"):
            # a cast answering a may_cast decision: its cast is the one offered (PROTOCOL §10.2)
            self.cast_offered(self.seat_of(inp), self.object_id(inp["card"]), inp)
            return
        alt = inp.get("alternative")
        if alt == "madness":
            # no madness offer now (CR 702.35a: a madness cast is made as its trigger
            # resolves): phase is asked all the same, and says why it refuses
            oid = self.object_id(inp["card"])
            self.expect_prompt(("Priority",), None, "cast")
            self.apply(self.seat_of(inp), action("CastSpellAsMadness", {
                "object_id": oid, "card_id": oid, "payment_mode": {"type": "Manual"}}))
            self.cancel(self.seat_of(inp))
            raise Skip("phase accepted a madness cast outside its madness offer")
        granted = alt in self.alias.values() or alt == "without_paying"
        extra = sorted(k for k in inp if k not in self.CAST_FIELDS
                       and not (k == "alternative" and (alt in self.ALTERNATIVES or granted)))
        if isinstance(alt, str) and alt in self.alias.values():
            self.check_granted_cost(alt)
        if extra:
            raise Skip(f"cast field(s) {', '.join(f'{k}={inp[k]!r}' if k == 'alternative' else k for k in extra)} are not translated for phase")
        seat = self.seat_of(inp)
        if str(inp["card"]).startswith("prepared#"):
            self.cast_prepared(seat, inp)
            return
        oid = self.object_id(inp["card"])
        self.expect_prompt(("Priority",), None, "cast")
        zone = (self.game.object(oid) or {}).get("zone")
        alt = inp.get("alternative")
        if alt in self.VARIANT and zone != "Graveyard":
            # phase's CastSpell names no casting variant: from another zone it would cast the
            # card some other way
            raise Skip(f"a {alt} cast from {zone}: phase's CastSpell names no casting variant, "
                       f"and casts {alt} only from the graveyard (phase-python {PHASE_VERSION})")
        free = self.free_permissions(oid)
        if alt == "without_paying" and not free:
            raise Rejected("invalid_alternative", f"phase gives {inp['card']} no permission to "
                                                  "be cast without paying its mana cost (its "
                                                  "casting_permissions hold none)")
        self.cast_targets = {}
        self.casting = {"pool": self.pool(seat), "added": {}, "modes": None,
                        "free": free}
        try:
            self.apply(seat, action("CastSpell", {"object_id": oid, "card_id": oid,
                                                  "targets": [],
                                                  "payment_mode": {"type": "Manual"}}))
            self.answer_casting(seat, oid, inp)
            ev = self.casting.get("event")
            if ev is not None:
                self.finish_cast_event(seat, inp, ev)
                if free and not self.casting.get("permission_checked") and \
                        bool(ev["mana_paid"]) == (alt == "without_paying"):
                    # phase asked nothing that names the permission it used (no pending cast
                    # seen): what it took is the only evidence, and it contradicts the input
                    raise Skip("phase cast the card from a zone it may be cast from without "
                               "paying, asking nothing that names the permission it used, and "
                               f"took {ev['mana_paid'] or 'no mana'}: the input's cast cannot "
                               "be told from phase's")
                if self.casting.get("face"):
                    ev["face"] = self.casting["face"]
                for alt_name, variant in self.VARIANT.items():
                    if self.casting.get("variant") == variant:
                        ev["alternative"] = alt_name
                if self.casting.get("alternative"):
                    ev["alternative"] = self.casting["alternative"]
                if alt == "without_paying":
                    ev["alternative"] = "without_paying"
                if self.casting.get("alternative") == "morph":
                    ev["face_down"], ev["name"] = True, None  # FORMAT §10
                if self.casting.get("beheld"):
                    self.note_beheld(seat, oid, ev)
                if self.casting.get("kicked"):
                    ev["kicked"] = list(self.casting["kicked"])
                if self.casting.get("buyback"):
                    ev["buyback"] = True
        finally:
            self.casting = None

    def check_granted_cost(self, alias: str) -> None:
        """An ``alternative`` naming a permanent that grants an alternative cost (Fist of
        Suns, FORMAT §10; CR 118.9): phase parses such a static as
        ``CastWithAlternativeCost``, but its ``CastSpell`` offers no choice of it in
        phase-python 0.103.0 (no ``AlternativeCastChoice``, no action names it). When the
        permanent has that static, the cast goes to phase, and phase offering no choice of
        that cost is ``invalid_alternative`` (:meth:`_answer_casting`); a permanent phase
        gives no such static is skipped: phase did not parse the grant."""
        oid = self.object_id(alias)
        statics = (self.game.object(oid) or {}).get("static_definitions") or []
        if not any("CastWithAlternativeCost" in (st.get("mode") or {}) for st in statics
                   if isinstance(st.get("mode"), dict)):
            raise Skip(f"alternative {alias!r}: phase gives that permanent no "
                       f"CastWithAlternativeCost static (phase-python {PHASE_VERSION})")

    def free_permissions(self, oid: int) -> list[int]:
        """The indexes of the casting permissions phase gives object ``oid`` that cast it
        without paying its mana cost (Spelljack's "you may play it without paying its mana
        cost", CR 118.9: phase's ``ExileWithAltCost`` permission with a cost of zero)."""
        perms = (self.game.object(oid) or {}).get("casting_permissions") or []
        out = []
        for i, perm in enumerate(perms):
            cost = perm.get("cost") or {}
            if perm.get("type") == "ExileWithAltCost" and (
                    cost.get("type") == "NoCost" or (cost.get("type") == "Cost"
                                                     and not cost.get("shards")
                                                     and not cost.get("generic"))):
                out.append(i)
        return out

    def check_permission(self, seat: int, inp: dict, data: dict) -> None:
        """The casting permission phase casts the card with (``casting_permission_index`` of
        its pending cast) checked against the input: ``without_paying`` needs one of the free
        permissions (:meth:`free_permissions`), a cast without it one of the others. phase's
        ``CastSpell`` names no permission, so a mismatch is skipped."""
        if self.casting is None or inp.get("action") != "cast" or "free" not in self.casting:
            return
        index = (data.get("pending_cast") or {}).get("casting_permission_index")
        if not isinstance(index, int) or self.casting.get("permission_checked"):
            return
        self.casting["permission_checked"] = True
        free = index in self.casting["free"]
        if free != (inp.get("alternative") == "without_paying"):
            self.cancel(seat)
            raise Skip(f"phase casts the card with its casting permission #{index} "
                       f"({'without' if free else 'paying'} its mana cost); its CastSpell "
                       "names no permission, so the input's cast cannot be asked of it")

    def cast_offered(self, seat: int, oid: int, inp: dict) -> None:
        """A ``cast`` answering a ``may_cast`` decision (FORMAT §10: suspend's last time counter
        removed; PROTOCOL §10.2): phase asks "you may cast it" as an ``OptionalEffectChoice``
        of the resolving trigger; the cast is accepting it (``DecideOptionalEffect {accept:
        true}``), then phase's prompts of the cast. The cast is the one the trigger offers
        (without paying its mana cost for suspend), whatever ``alternative`` the input gives:
        ``spell_cast`` says ``without_paying`` when phase took no mana for it. A card the
        trigger does not offer (another card, or none) is ``wrong_decision``."""
        wf = self.expect_prompt(("OptionalEffectChoice", "CastOffer"), seat, "cast")
        offer = self.offered_cast()
        source = (wf.get("data") or {}).get("source_id") if offer == "suspend" else \
            ((wf.get("data") or {}).get("kind") or {}).get("object_id")
        if isinstance(source, int) and source != oid:
            raise Rejected("wrong_decision", f"phase offers to cast {self.ref(source)}, the "
                                             f"input casts {inp['card']}")
        self.cast_targets = {}
        self.casting = {"pool": self.pool(seat), "added": {}, "modes": None}
        try:
            if offer == "madness":
                self.apply(seat, action("CastSpellAsMadness", {
                    "object_id": oid, "card_id": oid, "payment_mode": {"type": "Manual"}}))
            else:
                self.apply(seat, action("DecideOptionalEffect", {"accept": True}))
            self.answer_casting(seat, oid, inp)
            ev = self.casting.get("event")
            if ev is None:
                raise Skip("phase cast nothing when its offer to cast the card was accepted")
            self.finish_cast_event(seat, inp, ev)
            if offer == "madness":
                ev["alternative"] = "madness"
            elif not ev.get("mana_paid"):
                ev["alternative"] = "without_paying"
        finally:
            self.casting = None

    def offered_cast(self) -> str | None:
        """The may_cast decision phase asks now (PROTOCOL §10.2): ``"suspend"`` (the
        ``OptionalEffectChoice`` of suspend's last-counter trigger, CR 702.62a),
        ``"madness"`` (a ``CastOffer`` of kind ``Madness``, CR 702.35a), else ``None``."""
        wf = self.waiting()
        data: Any = wf.get("data") if isinstance(wf.get("data"), dict) else {}
        if wf.get("type") == "CastOffer" and (data.get("kind") or {}).get("type") == "Madness":
            return "madness"
        if wf.get("type") == "OptionalEffectChoice":
            found = described(data.get("description"))
            if found is not None and found[1] == "last_time_counter_removed":
                return "suspend"
        return None

    def cast_prepared(self, seat: int, inp: dict) -> None:
        """Cast the copy of a prepared permanent's prepare spell (FORMAT §11.9): phase's
        ``CastPreparedCopy`` of the permanent the copy is linked to; phase makes the copy
        object as it casts it, which then carries the copy's reference."""
        src = next((o for o, ref in self.prepared.items() if ref == inp["card"]), None)
        if src is None:
            raise Rejected("unknown_object", f"no object named {inp['card']!r} (phase has no "
                                             "prepared permanent linked to it)")
        if inp.get("alternative") is not None or inp.get("face") is not None:
            raise Skip("an alternative or face for a prepared copy's cast: phase's "
                       f"CastPreparedCopy takes none (phase-python {PHASE_VERSION})")
        self.expect_prompt(("Priority",), None, "cast")
        self.cast_targets = {}
        self.casting = {"pool": self.pool(seat), "added": {}, "modes": None,
                        "prepared": src}
        try:
            self.apply(seat, action("CastPreparedCopy", {"source": src}))
            copy_id = next((o for o, ref in self.copies.items() if ref == inp["card"]), None)
            if copy_id is None:
                # phase made the copy object, still on its way to the stack (targets, cost)
                objs = self.state_dict()["state"]["objects"]
                copy_id = next((int(k) for k, o in objs.items()
                                if o.get("prepared_copy_source") == src
                                and int(k) not in self.copies), None)
                if copy_id is not None:
                    self.copies[copy_id] = inp["card"]
            if copy_id is None:
                raise Skip("phase made no copy object for the prepared cast")
            self.answer_casting(seat, copy_id, inp)
            ev = self.casting.get("event")
            if ev is not None:
                self.finish_cast_event(seat, inp, ev)
        finally:
            self.casting = None

    def note_beheld(self, seat: int, oid: int, cast: dict) -> None:
        """``beheld`` for a behold cost (FORMAT §11.5), before ``spell_cast``: the object phase
        records as the cost's paid object (``cost_paid_object`` of the spell on its stack)."""
        for entry in self.game.stack() or []:
            if entry.get("id") != oid:
                continue
            ability = ((entry.get("kind") or {}).get("data") or {}).get("ability") or {}
            paid = ability.get("cost_paid_object") or {}
            bid = paid.get("object_id")
            if not isinstance(bid, int):
                return
            obj: Any = self.game.object(bid) or {}
            ev = {"type": "beheld", "player": self.player(seat), "object": self.ref(bid),
                  "card": self.card(bid), "name": (paid.get("lki") or {}).get("name")
                  or obj.get("name"), "zone": ZONE_NAME.get(obj.get("zone"), "hand"),
                  "spell": cast["object"]}
            self.events.insert(self.events.index(cast), ev)
            return

    def do_activate(self, inp: dict) -> None:
        """``activate``: phase's ``ActivateAbility`` of the same rank among the card's activated
        abilities as the input's ``ability`` in our card file, its prompts answered, then the
        ``ability_activated`` event (targets, X, mana paid). Raises :class:`Skip` (a token's
        ability, counts that differ) and :class:`Rejected` (``no_such_ability``, ...)."""
        seat = self.seat_of(inp)
        oid = self.object_id(inp["source"])
        alias = self.alias.get(oid)
        if oid in self.tokens:
            # a token has no card file whose abilities could be matched with phase's
            raise Skip(f"activating an ability of a token ({self.tokens[oid]}) is not "
                       "translated for phase")
        card_name = self.game.object(oid)["name"] if oid is not None else None
        ours = [a for a in self.card_data(card_name).get("abilities", [])]
        index = inp.get("ability", 0)
        if index in self.HAND_KEYWORDS:
            self.activate_ability(seat, oid, inp, index, self.hand_keyword_ability(oid, index))
            return
        if not isinstance(index, int):
            raise Skip(f"ability {index!r} (not an index into the card's abilities) is not "
                       "translated for phase")
        if not 0 <= index < len(ours):
            raise Rejected("no_such_ability", f"{alias} has no ability {index}")
        kinds = [a.get("kind") for a in ours]
        if kinds[index] not in ("activated", "mana"):
            raise Rejected("no_such_ability", f"ability {index} of {alias} is {kinds[index]}")
        k = sum(1 for kd in kinds[:index] if kd in ("activated", "mana"))
        obj = self.game.object(oid)
        theirs = [j for j, a in enumerate(obj.get("abilities") or [])
                  if a.get("kind") == "Activated"]
        if len(theirs) != sum(1 for kd in kinds if kd in ("activated", "mana")):
            raise Skip(f"{card_name}: phase parsed {len(theirs)} activated abilities, the "
                       f"card file lists {sum(1 for kd in kinds if kd in ('activated', 'mana'))}")
        self.activate_ability(seat, oid, inp, index, theirs[k])

    #: the keyword abilities an ``activate`` names by keyword (FORMAT §3.2: activated from the
    #: hand, CR 702.29) -> the effect of the ability phase synthesises for it
    HAND_KEYWORDS: dict[Any, str] = {"cycling": "Draw", "landcycling": "SearchLibrary"}

    def hand_keyword_ability(self, oid: int, keyword: str) -> int:
        """The index among phase's abilities of object ``oid`` of the ability phase makes for
        its ``keyword`` (``cycling``, ``landcycling``: an ``Activated`` ability of activation
        zone ``Hand`` whose effect is ``Draw`` / ``SearchLibrary``). Raises
        :class:`Rejected` (``no_such_ability``) when our card file has no such keyword,
        :class:`Skip` when phase's abilities do not have exactly one."""
        if not self.has_keyword(oid, keyword):
            raise Rejected("no_such_ability", f"{self.ref(oid)} has no {keyword}")
        found = [j for j, a in enumerate((self.game.object(oid) or {}).get("abilities") or [])
                 if a.get("kind") == "Activated" and a.get("activation_zone") == "Hand"
                 and (a.get("effect") or {}).get("type") == self.HAND_KEYWORDS[keyword]]
        if len(found) != 1:
            raise Skip(f"{keyword}: phase has {len(found)} hand abilities that could be it")
        return found[0]

    def activate_ability(self, seat: int, oid: int, inp: dict, index: Any, phase_index: int) -> None:
        """``ActivateAbility`` of phase's ability ``phase_index`` of object ``oid`` (our
        ``ability`` ``index``), its prompts answered, then ``ability_activated``."""
        self.expect_prompt(("Priority",), None, "activate")
        self.cast_targets = {}
        self.pending_activation = {"type": "ability_activated", "player": self.player(seat),
                                   "source": self.ref(oid), "source_card": self.card(oid),
                                   "ability": index}
        self.pending_stack = None
        self.casting = {"pool": self.pool(seat), "added": {}, "modes": None}
        try:
            self.apply(seat, action("ActivateAbility", {"source_id": oid,
                                                        "ability_index": phase_index}))
            # a mana ability of any colour (Birds of Paradise): the input's color (FORMAT §3.2)
            self.answer_mana_color(seat, oid, inp.get("color"))
            self.answer_casting(seat, oid, inp)
            ev = self.pending_activation
            if self.pending_stack is not None:
                ev["targets"] = self.stack_targets(self.pending_stack)
            ev.setdefault("targets", [])
            ev["x"] = inp.get("x", 0) if self.casting.get("x_chosen") else 0
            self.record_payment(seat, inp, ev)
        finally:
            self.casting = None
            self.pending_activation = None

    def do_suspend(self, inp: dict) -> None:
        """``suspend`` (FORMAT §10, CR 702.62a, 116.2f): phase models suspend's special action
        as an activated ability of the card in hand (its synthesized ``activation_zone:
        Hand`` ability whose effect puts the time counters), so the input is that
        ``ActivateAbility``, paid from ``pay_with`` like any cost. Reported as phase does it:
        ``special_action`` (the input phase accepted), the payment, the card's move to exile
        (``cause: "suspend"``: phase pays it as the ability's exile cost), and, when phase
        puts the time counters on the exiled card, ``suspended`` after its
        ``counters_added``. phase puts that ability on the stack (players then get priority
        and it must resolve), where CR 116.2f says a special action does not use the stack:
        that difference is phase's, left as it is. Raises :class:`Rejected`
        (``no_such_ability`` for a card phase gave no suspend ability) and :class:`Skip`."""
        seat = self.seat_of(inp)
        oid = self.object_id(inp["card"])
        obj = self.game.object(oid) or {}
        index = next((j for j, a in enumerate(obj.get("abilities") or [])
                      if a.get("kind") == "Activated" and a.get("activation_zone") == "Hand"
                      and (a.get("effect") or {}).get("type") == "PutCounter"
                      and (a.get("effect") or {}).get("counter_type") == "time"), None)
        if index is None:
            raise Rejected("no_such_ability", f"phase gives {inp['card']} no suspend ability")
        self.expect_prompt(("Priority",), None, "suspend")
        mark = len(self.events)
        self.events.append({"type": "special_action", "player": self.player(seat),
                            "action": "suspend", "object": self.ref(oid),
                            "card": self.card(oid)})
        self.cast_targets = {}
        self.pending_activation = {"type": "ability_activated", "player": self.player(seat),
                                   "source": self.ref(oid), "source_card": self.card(oid),
                                   "ability": "suspend"}
        self.pending_stack = None
        self.casting = {"pool": self.pool(seat), "added": {}, "modes": None}
        try:
            self.apply(seat, action("ActivateAbility", {"source_id": oid,
                                                        "ability_index": index}))
            self.answer_casting(seat, oid, {**inp, "action": "suspend"})
            ev = self.pending_activation
            ev.setdefault("targets", [])
            ev["x"] = 0
            self.record_payment(seat, inp, ev)
            self.suspending[oid] = (seat, dict(ev["mana_paid"]))
        finally:
            self.casting = None
            self.pending_activation = None
        for e in self.events[mark:]:
            if e["type"] == "zone_changed" and e["card"] == self.card(oid) \
                    and e["from"] == "hand" and e["to"] == "exile":
                e["cause"] = "suspend"

    def do_turn_face_up(self, inp: dict) -> None:
        """``turn_face_up`` (FORMAT §10, CR 702.37e, 116.2b): the special action, phase's
        ``TurnFaceUp``, which pays the morph cost itself: the input's ``pay_with`` sources
        are tapped for mana first (their mana abilities, at priority), then phase pays from
        the pool; a source phase tapped besides them is ``cannot_pay`` (the input's payment
        could not pay). ``special_action`` is reported first, phase's ``TurnedFaceUp`` as
        ``turned_face_up``. Raises :class:`Rejected`."""
        seat = self.seat_of(inp)
        oid = self.object_id(inp["card"])
        self.expect_prompt(("Priority",), None, "turn_face_up")
        self.events.append({"type": "special_action", "player": self.player(seat),
                            "action": "turn_face_up", "object": self.ref(oid),
                            "card": self.card(oid)})
        for src in inp.get("pay_with") or []:
            if isinstance(src, dict):
                sid, color = self.object_id(src["source"]), src.get("color")
            else:
                sid, color = self.object_id(src), None
            self.apply(seat, self.mana_selection(sid, color))
        if inp.get("mana"):
            raise Skip("turn_face_up with 'mana': phase's TurnFaceUp pays from the pool "
                       f"itself, with no say in which mana (phase-python {PHASE_VERSION})")
        self.apply(seat, action("TurnFaceUp", {"object_id": oid, "x": 0}))
        named = {self.ref(self.object_id(src["source"] if isinstance(src, dict) else src))
                 for src in inp.get("pay_with") or []}
        extra = sorted({e["source"] for e in self.events[self.input_mark:]
                        if e["type"] == "mana_ability_activated" and e["source"] not in named})
        if extra:
            raise Rejected("cannot_pay", f"the morph cost needs more mana than the input's "
                                         f"payment: phase also tapped {extra}")

    def record_payment(self, seat: int, inp: dict, ev: dict) -> None:
        """Put the mana ``seat`` paid into the synthesised event ``ev`` (``mana_paid``) and
        check it against what the input said to pay with (:meth:`check_mana_paid`)."""
        ev["mana_paid"] = self.mana_paid(seat)
        self.check_mana_paid(inp, ev["mana_paid"])

    def finish_cast_event(self, seat: int, inp: dict, ev: dict) -> None:
        """Complete a synthesised ``spell_cast`` event: the mana paid (checked) and the modes
        chosen while casting."""
        self.record_payment(seat, inp, ev)
        ev["modes"] = self.casting["modes"] or []

    def mana_paid(self, seat: int) -> dict[str, int]:
        """What phase took from the pool for the cost: pool before + mana made - pool after."""
        paid = dict(self.casting["pool"])
        for color, n in self.casting["added"].items():
            paid[color] = paid.get(color, 0) + n
        for color, n in self.pool(seat).items():
            paid[color] = paid.get(color, 0) - n
        return {c: n for c, n in sorted(paid.items()) if n > 0}

    def pool(self, seat: int) -> dict[str, int]:
        """Player ``seat``'s mana pool in phase, as ``{color letter: amount}``."""
        pool: dict[str, int] = {}
        for unit in ((self.game.player(seat) or {}).get("mana_pool") or {}).get("mana", []):
            letter = PHASE_COLOR.get(unit.get("color"), "C")
            pool[letter] = pool.get(letter, 0) + 1
        return pool

    def pay_from(self, seat: int, oid: int, color: str | None) -> None:
        """Tap mana source ``oid`` during phase's ``ManaPayment`` for ``color`` (a letter, or
        ``None`` for the one color it makes). A land is phase's ``TapLandForMana``
        (:meth:`mana_selection`); a nonland source (a creature with a mana ability, a
        Sliver's granted one) is the ``ActivateAbility`` phase lists for it then, its
        ``ChooseManaColor`` prompt answered with ``color``. Raises :class:`Rejected`,
        :class:`Skip` (several colors, none named)."""
        obj: Any = self.game.object(oid) or {}
        if "Land" not in ((obj.get("card_types") or {}).get("core_types") or []):
            offered = [a for a in self.game.actions() if a.kind == "ActivateAbility"
                       and (a.data or {}).get("source_id") == oid]
            if len(offered) == 1:
                self.apply(seat, offered[0])
                self.answer_mana_color(seat, oid, color)
                return
        self.apply(seat, self.mana_selection(oid, color))

    def answer_mana_color(self, seat: int, oid: int, color: str | None) -> None:
        """Answer phase's ``ChooseManaColor`` prompt, if it asks one after a mana ability of
        object ``oid`` was activated, with ``color`` (a letter; ``None``: the one option it
        offers). Raises :class:`Skip` (a choice that is not one colour, or several colours and
        none named; the activation is cancelled)."""
        wf = self.waiting()
        if wf.get("type") != "ChooseManaColor":
            return
        choice = (wf.get("data") or {}).get("choice") or {}
        options = (choice.get("data") or {}).get("options") or []
        want = LETTER_PHASE_COLOR.get(color) if color else (options[0] if len(options) == 1 else None)
        if choice.get("type") != "SingleColor" or want is None:
            self.cancel(seat)
            raise Skip(f"{self.ref(oid)}: phase asks for a mana choice "
                       f"{choice.get('type')} the input does not answer")
        self.apply(seat, action("ChooseManaColor", {
            "choice": {"type": "SingleColor", "data": want}, "count": 1}))

    def mana_selection(self, oid: int, color: str | None) -> Any:
        """The ``TapLandForMana`` action for mana source ``oid`` (its first mana ability), making
        ``color`` (a letter) or the one color it makes. Raises :class:`Rejected` for an unknown
        object and :class:`Skip` when it makes several colors and ``color`` is ``None``."""
        obj = self.game.object(oid)
        if obj is None:
            raise Rejected("unknown_object", f"no object {oid}")
        pips = obj.get("available_mana_pips") or []
        colors = []
        for pip in pips:
            if pip.get("type") == "Color":
                colors.append(pip.get("data"))
        if color:
            mana = LETTER_PHASE_COLOR.get(color)
        elif len(set(colors)) == 1:
            mana = colors[0]
        elif not colors:
            mana = "Colorless"
        else:
            raise Skip(f"{self.ref(oid)} makes one of several colors and the input names none")
        index = obj.get("mana_ability_index", 0) or 0
        return action("TapLandForMana", {"object_id": oid, "selection": {
            "source": {"object_id": oid, "incarnation": obj.get("incarnation", 0) or 0},
            "ability_index": index, "mana_type": mana, "restrictions": [],
            "penalty": "None", "taps_for_mana": []}})

    def answer_casting(self, seat: int, oid: int, inp: dict) -> None:
        """Answer phase's prompts for the cast or activation of ``oid`` from input ``inp``
        (:meth:`_answer_casting`); raises :class:`Rejected` (``cannot_pay``) when phase had to
        tap a mana source the input's payment does not name."""
        self._answer_casting(seat, oid, inp)
        # phase pays what the input's payment does not cover by tapping other sources (at the
        # end of a manual payment, or at once for an ability): the input's payment (pay_with,
        # then the pool, FORMAT §3.2) could not pay the cost
        named = {self.ref(self.object_id(src["source"] if isinstance(src, dict) else src))
                 for src in inp.get("pay_with") or []}
        if inp.get("action") == "activate":
            named.add(self.ref(oid))  # a mana ability's own source
        extra = sorted({e["source"] for e in self.events[self.input_mark:]
                        if e["type"] == "mana_ability_activated" and e["source"] not in named})
        if extra:
            raise Rejected("cannot_pay", f"the cost needs more mana than the input's payment: "
                                         f"phase also tapped {extra}")

    def _answer_casting(self, seat: int, oid: int, inp: dict) -> None:
        targets = list(inp.get("targets") or [])
        chosen = []
        pay = list(inp.get("pay_with") or [])
        paid = False
        face = inp.get("face")
        offered = False
        behold = inp.get("behold")
        behold_offered = False
        kicker_asked, buyback_asked = 0, False
        for _ in range(64):
            wf = self.waiting()
            kind = wf.get("type")
            data: Any = wf.get("data") if isinstance(wf.get("data"), dict) else {}
            variant = ((data.get("pending_cast") or {}).get("casting_variant")
                       or self.stack_variant(oid))
            if variant == "FaceDown" and self.casting is not None:
                # phase casts the card face down by itself when that is the only cast it can
                # pay for (no AlternativeCastChoice then): the input must ask for it
                if inp.get("alternative") != "morph":
                    self.cancel(seat)
                    raise Skip("phase casts the card face down by itself (the only cast it "
                               "can pay for); a face-up cast cannot be asked of it")
                self.casting["alternative"] = "morph"
            elif variant and self.casting is not None and inp.get("action") == "cast":
                self.casting["variant"] = variant
                wanted = self.VARIANT.get(inp.get("alternative"))
                if variant in self.VARIANT.values() and variant != wanted:
                    # phase casts this card from the graveyard only with this variant, which
                    # the input does not ask for; phase's CastSpell cannot ask otherwise
                    self.cancel(seat)
                    raise Skip(f"phase's CastSpell names no casting variant: from the graveyard "
                               f"it casts the card with {variant}, and has no way to ask for "
                               f"a cast without it (phase-python {PHASE_VERSION})")
                if wanted and variant != wanted:
                    self.cancel(seat)
                    raise Skip(f"phase casts the card with its {variant} variant, the input "
                               f"asks for {inp.get('alternative')}")
            self.check_permission(seat, inp, data)
            if kind == "AlternativeCastChoice":
                # phase asks whether to cast the card for an alternative cost; its
                # ``keyword`` says which: ``FaceDown`` is morph's face-down cast (CR 702.37c)
                alt = ((data.get("keyword") or {}).get("type"))
                wanted_alt = self.ALTERNATIVE_KEYWORD.get(alt)
                if wanted_alt is None:
                    self.cancel(seat)
                    raise Skip(f"phase offers an alternative cast {alt!r} the adapter does "
                               "not translate")
                take_alt = inp.get("alternative") == wanted_alt
                self.apply(seat, action("ChooseAlternativeCast", {
                    "choice": {"type": "Alternative" if take_alt else "Normal"}}))
                if take_alt and self.casting is not None:
                    self.casting["alternative"] = wanted_alt
                continue
            if inp.get("alternative") in self.alias.values() and kind in \
                    ("ManaPayment", "Priority") and self.casting is not None:
                # phase has the permanent's CastWithAlternativeCost static
                # (:meth:`check_granted_cost`) but asked no choice of that cost
                self.cancel(seat)
                raise Rejected("invalid_alternative", f"phase offers no choice of the "
                                                      f"alternative cost "
                                                      f"{inp.get('alternative')} grants")
            if inp.get("alternative") in self.ALTERNATIVE_KEYWORD.values() and kind in \
                    ("ManaPayment", "Priority") and self.casting is not None \
                    and self.casting.get("alternative") != inp.get("alternative"):
                self.cancel(seat)
                raise Rejected("invalid_alternative", f"phase offers no {inp.get('alternative')} "
                                                      "cast for this card")
            if kind == "HarmonizeTapChoice":
                if inp.get("alternative") != "harmonize":
                    self.cancel(seat)
                    raise Skip(f"phase asks for a harmonize tap in a {variant} cast")
                tap = inp.get("harmonize_tap")
                self.apply(seat, action("HarmonizeTap", {
                    "creature_id": self.object_id(tap) if tap is not None else None}))
                continue
            if kind == "OptionalCostChoice" and (data.get("cost") or {}).get("type") == "Kicker":
                # CR 702.33: phase asks each kicker cost of the card in turn (its
                # ``additional_cost_flow`` lists them): paid when the input's ``kicker``
                # lists its index
                paying = kicker_asked in (inp.get("kicker") or [])
                self.apply(seat, action("DecideOptionalCost", {"pay": paying}))
                if paying and self.casting is not None:
                    self.casting.setdefault("kicked", []).append(kicker_asked)
                kicker_asked += 1
                continue
            if kind == "OptionalCostChoice" and (data.get("cost") or {}).get("type") \
                    == "Optional" and self.has_keyword(oid, "buyback"):
                # CR 702.27a: buyback is the card's one optional additional cost
                paying = bool(inp.get("buyback"))
                self.apply(seat, action("DecideOptionalCost", {"pay": paying}))
                buyback_asked = True
                if paying and self.casting is not None:
                    self.casting["buyback"] = True
                continue
            if kind in ("ManaPayment", "Priority"):
                self.check_optional_costs(seat, oid, inp, kicker_asked, buyback_asked)
            if kind == "OptionalCostChoice" and '"Behold"' in json.dumps(data.get("cost")):
                # "[you may] behold a Dragon [or pay {1}]": paying the optional cost is
                # beholding (for "or pay", declining it adds the other cost)
                behold_offered = True
                self.apply(seat, action("DecideOptionalCost", {"pay": behold is not None}))
                continue
            if kind == "PayCost" and (data.get("kind") or {}).get("type") == "Discard":
                # a discard cost ("Discard a card: ...", CR 118.3, 602.2b): the input's discard
                cards = list(inp.get("discard") or [])
                if len(cards) != data.get("count", 1):
                    self.cancel(seat)
                    raise Rejected("cannot_pay", f"discard {data.get('count', 1)} card(s): name them "
                                                 "in 'discard'")
                ids = [self.object_id(c) for c in cards]
                if any(i not in (data.get("choices") or []) for i in ids):
                    self.cancel(seat)
                    raise Rejected("not_in_hand", f"phase offers none of {cards} to discard")
                self.apply(seat, action("SelectCards", {"cards": ids}))
                continue
            if kind == "PayCost" and (data.get("kind") or {}).get("type") == "Behold":
                behold_offered = True
                if behold is None:
                    self.cancel(seat)
                    raise Rejected("cannot_pay", "phase asks for a card or permanent to behold, "
                                                 "the input names none")
                self.apply(seat, action("SelectCards", {"cards": [self.object_id(behold)]}))
                if self.casting is not None:
                    self.casting["beheld"] = True
                continue
            if behold is not None and not behold_offered and kind in ("ManaPayment", "Priority"):
                self.cancel(seat)
                raise Rejected("invalid_alternative", "phase asks for no behold for this card")
            if kind == "CastOffer" and (wf["data"].get("kind") or {}).get("type") == "Adventure":
                # phase asks which face of an adventure (or Omen) card is cast
                offered = True
                if face not in (None, "omen", "adventure"):
                    self.cancel(seat)
                    raise Rejected("invalid_choice", f"phase offers no {face!r} face")
                self.apply(seat, action("ChooseAdventureFace", {"creature": face is None}))
                if face is not None and self.casting is not None:
                    self.casting["face"] = face
                    self.faces_cast[oid] = face
                continue
            if face is not None and not offered:
                # the card has no face to cast: phase went on to cast its main face
                self.cancel(seat)
                raise Rejected("invalid_choice", f"phase offers no {face!r} face for this card")
            if kind == "TargetSelection":
                if not targets:
                    raise Rejected("missing_targets", "phase asks for a target the input "
                                                      "does not give")
                t = self.target_of(targets.pop(0))
                chosen.append(t)
                self.apply(seat, action("ChooseTarget", {"target": t}))
            elif kind == "ModeChoice":
                modes = inp.get("modes")
                if modes is None:
                    raise Rejected("invalid_mode", "phase asks for a mode")
                self.apply(seat, action("SelectModes", {"indices": list(modes)}))
                if self.casting is not None:
                    self.casting["modes"] = list(modes)
            elif kind == "ChooseXValue":
                if "x" not in inp:
                    raise Rejected("invalid_x", "phase asks for X")
                self.apply(seat, action("ChooseX", {"value": inp["x"]}))
                if self.casting is not None:
                    self.casting["x_chosen"] = True
            elif kind == "ManaPayment":
                if paid:
                    self.cancel(seat)
                    raise Rejected("cannot_pay", "the mana paid does not cover the cost")
                for src in pay:
                    if isinstance(src, dict):
                        sid, color = self.object_id(src["source"]), src.get("color")
                    else:
                        sid, color = self.object_id(src), None
                    self.pay_from(seat, sid, color)
                if inp.get("mana"):
                    self.pin_pool_mana(seat, inp["mana"])
                paid = True
                self.apply(seat, action("PassPriority"))
            else:
                break
        if targets:
            # phase picks a lone legal target itself (no prompt): compare with its choice
            engine = [t for ts in self.cast_targets.values() for t in ts]
            if not engine and self.pending_stack is not None:
                engine = self.stack_targets(self.pending_stack)
            named = [self.ref(self.object_id(t)) if t not in self.seat else t
                      for t in inp.get("targets") or []]
            if engine != named:
                raise Rejected("invalid_target", f"phase chose the targets {engine}, the input "
                                                 f"names {named}")

    def check_optional_costs(self, seat: int, oid: int, inp: dict, kicker_asked: int,
                             buyback_asked: bool) -> None:
        """Once phase is past the announcement of a cast (CR 601.2b), check that it asked for
        every kicker cost (by index) and the buyback the input pays. phase asks each kicker
        cost once, yes or no: an index listed twice, or one past the costs it asked, is
        ``invalid_choice``. When phase asked none, a card file without the keyword is
        ``invalid_alternative``; with it, phase may have left out a cost it judged
        unpayable, which the adapter cannot tell from its prompts: :class:`Skip`."""
        kicker = list(inp.get("kicker") or [])
        for keyword, wanted, asked in (("kicker", bool(kicker), kicker_asked > 0),
                                       ("buyback", bool(inp.get("buyback")), buyback_asked)):
            if wanted and not asked:
                self.cancel(seat)
                if not self.has_keyword(oid, keyword):
                    raise Rejected("invalid_alternative", f"the card has no {keyword}, and "
                                                          f"phase asks for none")
                raise Skip(f"phase did not ask for the {keyword} cost the input pays, and "
                           "says no reason (an unpayable cost, or none parsed; phase-python "
                           f"{PHASE_VERSION})")
        if kicker and (len(set(kicker)) != len(kicker) or max(kicker) >= kicker_asked):
            self.cancel(seat)
            raise Rejected("invalid_choice", f"kicker {kicker}: phase asks each of its "
                                             f"{kicker_asked} kicker cost(s) once")

    def has_keyword(self, oid: int, keyword: str) -> bool:
        """Whether our card file of object ``oid`` lists ``keyword`` (FORMAT §5)."""
        card = self.card_data((self.game.object(oid) or {}).get("name"))
        return any((kw if isinstance(kw, str) else kw.get("keyword")) == keyword
                   for kw in card.get("keywords", []))

    def stack_variant(self, oid: int) -> str | None:
        """The casting variant of the spell ``oid`` on phase's stack (``Flashback``,
        ``Harmonize``, ...): phase's ``ManaPayment`` prompt does not repeat it."""
        for entry in self.game.stack() or []:
            if entry.get("id") == oid and (entry.get("kind") or {}).get("type") == "Spell":
                variant = ((entry.get("kind") or {}).get("data") or {}).get("casting_variant")
                return variant if variant and variant != "Normal" else None
        return None

    def pin_pool_mana(self, seat: int, mana: dict) -> None:
        """The input's ``mana`` (FORMAT §3.2: exactly which pool mana pays): phase's
        ``SpendPoolMana`` commits those units of its pool to the cost first."""
        units = list(((self.game.player(seat) or {}).get("mana_pool") or {}).get("mana", []))
        for letter, n in sorted(mana.items()):
            color = LETTER_PHASE_COLOR.get(letter)
            for _ in range(int(n)):
                unit = next((u for u in units if u.get("color") == color), None)
                if unit is None:
                    self.cancel(seat)
                    raise Skip(f"mana {mana}: phase's pool has no more {letter} to spend")
                units.remove(unit)
                self.apply(seat, action("SpendPoolMana", {"pip_id": unit["pip_id"]}))

    def check_mana_paid(self, inp: dict, paid: dict) -> None:
        """The input's ``mana`` (FORMAT §3.2: exactly which pool mana pays) against what phase
        took: phase commits the named units first (:meth:`pin_pool_mana`), then takes what
        its total cost needs (CR 601.2f-h: phase determines the cost), tapping or spending
        more itself, or leaving pinned units in the pool. Without ``pay_with``, mana that is
        not exactly what phase took does not pay phase's cost: ``invalid_payment`` (FORMAT
        §8, "the named mana doesn't pay it"; the input is undone). With ``pay_with`` as
        well, any difference is skipped (the adapter cannot tell the sources' mana from the
        pool's)."""
        want = {c: n for c, n in (inp.get("mana") or {}).items() if n}
        if not want or paid == dict(sorted(want.items())):
            return
        if inp.get("pay_with"):
            raise Skip(f"phase paid {paid} where the input's mana is {want} (and pay_with)")
        raise Rejected("invalid_payment", f"the input's mana {want} does not pay phase's total "
                                          f"cost: phase took {paid}")

    def cancel(self, seat: int) -> None:
        """Cancel the cast phase is in the middle of (``CancelCast``; a refusal is ignored)."""
        try:
            self.act(seat, action("CancelCast"))
        except ValueError:
            pass
