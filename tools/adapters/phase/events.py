"""phase's typed events as our event log (FORMAT §6; :class:`Events`, a mixin of
:class:`~.run.PhaseRun`).

Events (FORMAT §6). phase's typed events are translated one by one (see
:meth:`PhaseRun.translate`): ``ZoneChanged`` -> ``zone_changed`` (+ ``permanent_entered``),
``SpellCast`` -> ``spell_cast`` (targets from phase's ``BecomesTarget`` events),
``StackResolved`` -> ``spell_resolved``/``ability_resolved``, ``DamageDealt`` ->
``damage_dealt``, ``LifeChanged`` -> ``life_gained``/``life_lost``, ``CreatureDestroyed``
-> ``destroyed``, ``PhaseChanged`` -> ``step_began``, ``AttackersDeclared``,
``BlockersDeclared``, ``CardDrawn``, ``Discarded``, ``PermanentTapped``/``Untapped``,
``ManaAdded``, ``CounterAdded``, ``TokenCreated`` (``tapped``, and ``attacking`` read off
phase's combat state), ``SpellCountered``, ``Regenerated``, ``CardsRevealed`` ->
``card_revealed``, ``EffectResolved`` of kind ``Behold`` -> ``beheld`` for the card it
revealed, ``PlayerPerformedAction`` ``SearchedLibrary`` -> ``library_searched`` (found: the
next card of that player's library phase reveals or moves, or none when the search answer
is none), ``Milled`` (the ``cause: "mill"`` of its zone change),
``PlayerPerformedAction`` ``ShuffledLibrary`` -> ``library_shuffled``, ``SpellCopied`` ->
``spell_copied`` (the copy is ``copy#N``; its targets are those phase's stack holds for it,
after a ``choose_targets`` answering phase's ``CopyRetarget`` prompt with ``ChooseTarget``),
``Transformed`` -> ``transformed`` (``face`` read off phase's ``transformed`` flag; an
``enters transformed`` is phase's zone change with the front face's name then a
``Transformed``, reported as phase makes it), ``BecamePrepared`` -> ``became_prepared``
(``copy`` the ``prepared#N`` the adapter names, ``name`` phase's ``back_face``, ``cause``
``enters_prepared`` when the permanent entered in the same batch of events, else
``effect``), ``BecameUnprepared`` -> ``unprepared`` (``cause: "cast"`` inside the copy's
cast; otherwise ``effect``, followed by ``copy_ceased_to_exist`` ``after: "unprepared"``);
``copy_ceased_to_exist`` is also logged for a prepared copy leaving the stack and, ``after:
"left_battlefield"``, before the zone change of a prepared permanent leaving the battlefield
(phase has no copy object then: these are read off its flag). An Adventure moving stack ->
exile as it resolves has ``cause: "adventure"``. Meld (FORMAT §11.6, CR 701.42a): the
cards phase's meld effect exiles (its events before its ``EffectResolved`` of kind ``Meld``)
have ``cause: "meld"``; ``Melded`` (source, ``partner_id``) marks the source's move onto
the battlefield ``melded: true`` and stands for the partner card's move into the melded
permanent (phase moves it into the permanent's ``merged_components`` with no ``ZoneChanged``
of its own): its ``zone_changed`` exile -> battlefield, then ``melded``; each card leaving
the melded permanent is ``melded: true`` (phase moves the partner "from" no zone).
``Cycled`` -> ``card_cycled`` (the card's reference in the hand). An object phase gives an
empty name (the endure Spirit token, a copy of a face-down creature) is reported nameless,
``name: null``. ``PlayerLost``,
``GameOver``, ... Two events are read off phase's state, as phase records them without an
event: ``beheld`` for a behold cost (the spell's ``cost_paid_object`` on phase's stack,
logged before ``spell_cast``) and ``card_name_chosen`` (the ``CardName`` that phase's
``chosen_attributes`` holds once it has its ``NamedChoice`` answer). A triggered ability put on phase's stack is ``ability_triggered`` with
``ability`` and ``trigger`` from our card file's ability of the same rank (its trigger's
``event``), a keyword's name and event for a keyword trigger (mobilize: ``attacks``;
increment: ``spell_cast``; job select: ``enters_battlefield``; storm, from phase's
``provenance``: ``cast_self``), a Saga chapter's ``trigger: "chapter"`` with ``chapter`` (the
``saga_chapter`` of phase's trigger definition; ``ability`` the card file's chapter ability
listing it), or
``delayed: true`` for one with no printed trigger definition (``trigger`` from the event
phase says triggered it). A spell cast as a face has ``face`` in ``spell_cast`` and in the
state's stack entry; the ``zone_changed`` that takes it off the stack names the main face
(phase's record names the Omen that left). Object references follow FORMAT §1 (CR 400.7): phase keeps
one object id across zones, and the adapter counts that object's zone changes (``bolt``,
``bolt#2``, ...). Two things are the adapter's, and documented as such: ``game_started``
(the setup, restated) and ``priority_received`` / ``priority_passed`` (read off phase's
``waiting_for`` prompt after each action: phase reports no such event). phase emits
``StackResolved`` after the effects of the resolution; the adapter puts ``spell_resolved``
before them, where FORMAT §6 has it. phase does not say which state-based action it
performed: a creature that dies of lethal damage is a ``CreatureDestroyed`` in phase's log,
translated as ``destroyed``, never as an invented ``state_based_action`` event.
"""

from __future__ import annotations

from typing import Any

from mtg_judge.tools.adapters.phase.core import RunCore
from mtg_judge.tools.adapters.phase.rejections import Rejected
from mtg_judge.tools.adapters.phase.vocabulary import COUNTER_NAME, PHASE_COLOR, PHASE_TO_STEP, STEP_PHASE, ZONE_NAME


class Events(RunCore):
    """Translates phase's events (a mixin of :class:`~.run.PhaseRun`; its attributes are
    :class:`~.core.RunCore`'s)."""

    def translate(self, events: list, skip_passes: bool = False) -> None:
        """Append the translation of phase's ``events`` (one ``Game.apply`` result) to the log
        (FORMAT §6; see the module docstring). ``skip_passes``: the passes that begin the
        setup step (phase's ``PriorityPassed`` events are never reported)."""
        ref: str | None  # a prepared copy's reference (two branches below)
        out: list[dict] = []
        resolved_at = len(self.events)
        effect_start = 0  # where the events of the effect resolving now begin in ``out``
        for e in events or []:
            kind = e.get("type")
            d: Any = e.get("data") or {}
            if kind == "PriorityPassed":
                continue
            if kind == "ZoneChanged":
                oid = d["object_id"]
                if d.get("from") == "Exile" and d.get("to") == "Stack" \
                        and oid not in self.copies and oid not in self.alias:
                    src = (self.game.object(oid) or {}).get("prepared_copy_source")
                    if src in self.prepared:
                        # the copy of a prepared permanent's prepare spell, cast (§11.9)
                        self.copies[oid] = self.prepared[src]
                if oid in self.copies and self.copies[oid].startswith("prepared#") \
                        and d.get("from") == "Stack":
                    # a copy of a spell ceases to exist as it leaves the stack (CR 707.10a)
                    out.append({"type": "copy_ceased_to_exist", "object": self.copies[oid],
                                "card": self.copies[oid]})
                    continue
                old = self.ref(oid)
                record = d.get("record") or {}
                if d.get("from") == "Library" and d.get("to") != "Library":
                    self.note_found(out, oid)  # the card found, by its library reference
                if oid in self.alias:
                    self.count[oid] = self.count.get(oid, 1) + 1
                new = self.ref(oid)
                src, dst = ZONE_NAME.get(d.get("from"), str(d.get("from")).lower()), \
                    ZONE_NAME.get(d.get("to"), str(d.get("to")).lower())
                owner = record.get("owner")
                melded = oid in self.melded_with and src != "exile"
                if d.get("from") is None and oid in self.melded_with:
                    # the other card of a melded permanent as it leaves (CR 712.4, FORMAT
                    # §11.6): phase moves it out of the permanent's components, from no zone
                    src = "battlefield"
                if melded:
                    self.melded_with.pop(oid, None)
                if d.get("from") is None and not melded:  # a token coming into being: token_created says it
                    # phase may create a token with an empty name (CR 111.4 names it by its
                    # subtypes and "Token"): reported as phase made it, a token with no name
                    # (``name: null``)
                    if oid not in self.tokens:
                        self.tokens[oid] = f"token#{len(self.tokens) + 1}"
                    new = self.ref(oid)
                    if dst == "battlefield":
                        ctrl = record.get("controller", owner)
                        out.append({"type": "permanent_entered", "object": new,
                                    "card": self.card(oid), "name": record.get("name") or None,
                                    "controller": self.player(ctrl) if isinstance(ctrl, int)
                                    else None})
                    continue
                name = record.get("name") or None
                cause = None
                if src == "stack" and dst != "stack":
                    # phase's record names the object that left (the Omen spell); FORMAT §5.1
                    # names the card it becomes, the main face everywhere but the stack
                    if self.faces_cast.pop(oid, None) == "adventure" and dst == "exile":
                        cause = "adventure"  # an Adventure exiled as it resolves (§11.7)
                    name = self.face_main.get(name, name)
                if src == "battlefield" and oid in self.prepared:
                    # the prepared permanent leaves: its copy ceases to exist (§11.9: phase
                    # has no copy object before the cast, its flag goes with the permanent)
                    ref = self.prepared.pop(oid)
                    out.append({"type": "copy_ceased_to_exist", "object": ref, "card": ref,
                                "after": "left_battlefield"})
                # a face-down object (CR 708): phase's record says it was face down; it
                # stays so only onto the battlefield (FORMAT §10: name null), else it is
                # turned face up as it leaves (CR 708.10) and revealed (CR 708.9)
                down = bool(record.get("face_down"))
                now_down = bool((self.game.object(oid) or {}).get("face_down")) \
                    if dst in ("battlefield", "stack") else False
                if down or now_down:
                    name = None if now_down else (self.game.object(oid) or {}).get("name")
                out.append({"type": "zone_changed", "object": old, "new_object": new,
                            "card": self.card(oid), "name": name or None,
                            "owner": self.player(owner) if isinstance(owner, int) else None,
                            "from": src, "to": dst, **({"cause": cause} if cause else {}),
                            **({"face_down": True} if down or now_down else {}),
                            **({"melded": True} if melded else {})})
                if down and not now_down:
                    out.append({"type": "card_revealed", "player": out[-1]["owner"],
                                "object": new, "card": self.card(oid), "name": name})
                if dst == "battlefield":
                    ctrl = record.get("controller", owner)
                    out.append({"type": "permanent_entered", "object": new,
                                "card": self.card(oid),
                                "name": None if now_down else record.get("name") or None,
                                "controller": self.player(ctrl) if isinstance(ctrl, int)
                                else None})
            elif kind == "Transformed":
                # a transforming permanent turned over (FORMAT §11.6): the same object, the
                # name of the face now up
                oid = d.get("object_id")
                obj = self.game.object(oid) or {}
                out.append({"type": "transformed", "object": self.ref(oid), "card": self.card(oid),
                            "name": obj.get("name"),
                            "face": "back" if obj.get("transformed") else "front"})
            elif kind == "TurnedFaceUp":
                # CR 702.37e, 708.8: the same object, its real name now
                oid = d.get("object_id")
                out.append({"type": "turned_face_up", "object": self.ref(oid),
                            "card": self.card(oid),
                            "name": (self.game.object(oid) or {}).get("name")})
            elif kind == "BecamePrepared":
                oid = d.get("object_id")
                if oid not in self.prepared:
                    self.prepared_n += 1
                    self.prepared[oid] = f"prepared#{self.prepared_n}"
                obj = self.game.object(oid) or {}
                self.prepared_by[self.prepared[oid]] = obj.get("controller")
                entered = any(x["type"] == "permanent_entered" and x["card"] == self.card(oid)
                              for x in out)
                ctrl = obj.get("controller")
                out.append({"type": "became_prepared", "object": self.ref(oid),
                            "card": self.card(oid),
                            "player": self.player(ctrl) if isinstance(ctrl, int) else None,
                            "copy": self.prepared[oid],
                            "name": (obj.get("back_face") or {}).get("name"),
                            "cause": "enters_prepared" if entered else "effect"})
            elif kind == "BecameUnprepared":
                oid = d.get("object_id")
                ref = self.prepared.pop(oid, None)
                cast = self.casting is not None and self.casting.get("prepared") == oid
                out.append({"type": "unprepared", "object": self.ref(oid), "card": self.card(oid),
                            "cause": "cast" if cast else "effect"})
                if ref is not None and not cast:
                    out.append({"type": "copy_ceased_to_exist", "object": ref, "card": ref,
                                "after": "unprepared"})
            elif kind == "CardsRevealed":
                names = d.get("card_names") or []
                for oid in (d.get("card_ids") or [])[:1]:
                    self.note_found(out, oid)
                for j, oid in enumerate(d.get("card_ids") or []):
                    out.append({"type": "card_revealed",
                                "player": self.player(d.get("player_id", d.get("player"))),
                                "object": self.ref(oid), "card": self.card(oid),
                                "name": names[j] if j < len(names) else
                                (self.game.object(oid) or {}).get("name")})
            elif kind == "SpellCopied":
                oid, orig = d.get("object_id"), d.get("original_id")
                if oid not in self.copies:
                    self.copies[oid] = f"copy#{len(self.copies) + 1}"
                ctrl = d.get("controller")
                out.append({"type": "spell_copied", "object": self.copies[oid],
                            "card": self.copies[oid], "original": self.ref(orig),
                            "original_card": self.card(orig),
                            "controller": self.player(ctrl) if isinstance(ctrl, int) else None,
                            "targets": self.stack_targets(oid)})
            elif kind == "Cycled":
                # CR 702.29a: the card cycled, named by its reference in the hand (FORMAT §6
                # card_cycled; phase reports it after the discard that paid the cost)
                oid = d.get("object_id")
                alias = self.alias.get(oid)
                n = self.count.get(oid, 1) - 1
                hand_ref = self.ref(oid) if alias is None else (alias if n <= 1 else f"{alias}#{n}")
                pid = d.get("player_id")
                out.append({"type": "card_cycled",
                            "player": self.player(pid) if isinstance(pid, int) else None,
                            "object": hand_ref, "card": self.card(oid)})
            elif kind == "Melded":
                # CR 701.42a, FORMAT §11.6: phase puts the source card onto the battlefield
                # as the melded permanent (its ZoneChanged, already translated) and reports
                # the partner card it melded with it (``partner_id``: phase moves it into the
                # permanent, its ``merged_components``, with no ZoneChanged of its own): the
                # partner's move is that event's, then ``melded``
                oid, pid = d.get("object_id"), d.get("partner_id")
                at = next((j for j in range(len(out) - 1, -1, -1)
                           if out[j]["type"] == "zone_changed" and out[j]["card"] == self.card(oid)
                           and out[j]["from"] == "exile" and out[j]["to"] == "battlefield"), None)
                name = (self.game.object(oid) or {}).get("name")
                added = []
                if at is not None:
                    out[at]["melded"] = True
                    name = out[at]["name"]
                if isinstance(pid, int) and isinstance(oid, int):
                    self.melded_with[oid], self.melded_with[pid] = pid, oid
                if isinstance(pid, int):
                    partner_old = self.ref(pid)
                    if pid in self.alias:
                        self.count[pid] = self.count.get(pid, 1) + 1
                    owner = (self.game.object(pid) or {}).get("owner")
                    added.append({"type": "zone_changed", "object": partner_old,
                                  "new_object": self.ref(pid), "card": self.card(pid),
                                  "name": name,
                                  "owner": self.player(owner) if isinstance(owner, int) else None,
                                  "from": "exile", "to": "battlefield", "melded": True})
                added.append({"type": "melded", "object": self.ref(oid), "card": self.card(oid),
                              "cards": [self.card(oid)] + ([self.card(pid)] if isinstance(pid, int)
                                                           else []),
                              "name": name})
                out[(at + 1 if at is not None else len(out)):(at + 1 if at is not None
                                                                 else len(out))] = added
            elif kind == "EffectResolved" and d.get("kind") == "BecomeCopy" \
                    and d.get("source_id") in self.copy_choice:
                # "you may have ~ enter as a copy of" (CR 707.2, 614.1c): phase's copy effect
                # of the entering permanent, whose copied creature the input chose (phase's
                # CopyTargetChoice): entered_as_copy, before that permanent's zone change
                sid = d["source_id"]
                copied = self.copy_choice.pop(sid)
                at = next((j for j in range(len(out) - 1, -1, -1)
                           if out[j]["type"] == "zone_changed" and out[j]["card"] == self.card(sid)
                           and out[j]["to"] == "battlefield"), len(out))
                try:
                    copied_card = self.card(self.object_id(copied))
                except Rejected:  # not an object phase knows: the input's reference as given
                    copied_card = copied
                out.insert(at, {"type": "entered_as_copy", "object": self.ref(sid),
                                "card": self.card(sid), "copied": copied_card,
                                "name": (self.game.object(sid) or {}).get("name") or None})
            elif kind == "EffectResolved" and d.get("kind") == "Meld":
                # the cards phase's meld effect exiled (its events since the previous effect
                # resolved) were exiled by the meld (FORMAT §11.6 cause ``meld``)
                for x in out[effect_start:]:
                    if x["type"] == "zone_changed" and x["from"] == "battlefield" \
                            and x["to"] == "exile" and "cause" not in x:
                        x["cause"] = "meld"
            elif kind == "EffectResolved" and d.get("kind") == "Behold":
                # a behold effect (FORMAT §11.5): the card phase revealed for it is beheld
                sid = d.get("source_id")
                for x in [x for x in out if x["type"] == "card_revealed"]:
                    oid = self.object_id(x["object"])
                    out.append({"type": "beheld", "player": x["player"], "object": x["object"],
                                "card": x["card"], "name": x["name"],
                                "zone": ZONE_NAME.get((self.game.object(oid) or {}).get("zone"),
                                                      "hand"),
                                "spell": self.resolving_ref(sid)})
            elif kind == "PlayerPerformedAction" and d.get("action") == "SearchedLibrary":
                # phase says a search happened; the card it finds is the next card phase
                # moves out of that player's library (FORMAT §6 library_searched)
                self.searching = d.get("player_id")
            elif kind == "PlayerPerformedAction" and d.get("action") == "ShuffledLibrary":
                out.append({"type": "library_shuffled", "player": self.player(d["player_id"])})
            elif kind == "Milled":
                # phase reports the mill after the zone change it names
                oid = d.get("object_id")
                moved = next((x for x in reversed(out) if x["type"] == "zone_changed"
                              and x["card"] == self.card(oid) and x["from"] == "library"), None)
                if moved is not None:
                    moved["cause"] = "mill"
            elif kind == "LandPlayed":
                out.append({"type": "land_played", "player": self.player(d["player_id"]),
                            "object": self.ref(d["object_id"]), "card": self.card(d["object_id"])})
            elif kind == "BecomesTarget":
                self.targets.setdefault(d["source_id"], []).append(self.target_ref(d["target"]))
                self.cast_targets.setdefault(d["source_id"], []).append(
                    self.target_ref(d["target"]))
            elif kind == "XValueChosen":
                self.x_values[d.get("object_id")] = d.get("value")
            elif kind == "SpellCast":
                oid = d["object_id"]
                obj = self.game.object(oid) or {}
                ev = {"type": "spell_cast", "player": self.player(d["controller"]),
                      "object": self.ref(oid), "card": self.card(oid),
                      "name": obj.get("name") or None,
                      "targets": self.targets.pop(oid, []), "x": self.x_values.pop(oid, 0)}
                if self.casting is not None:
                    self.casting["event"] = ev
                out.append(ev)
            elif kind == "AbilityActivated":
                sid = d.get("source_id")
                if d.get("kind") == "Mana":
                    out.append({"type": "mana_ability_activated",
                                "player": self.player(d["player_id"]), "source": self.ref(sid),
                                "source_card": self.card(sid), "ability": self.our_index(
                                    sid, ("mana",), 0)})
                elif self.pending_activation is not None and \
                        "object" not in self.pending_activation:
                    out.append(self.pending_activation)
            elif kind == "ManaAdded":
                sid = d.get("source_id")
                if self.casting is not None:
                    letter = PHASE_COLOR.get(d.get("mana_type"), "C")
                    self.casting["added"][letter] = self.casting["added"].get(letter, 0) + 1
                letter = PHASE_COLOR.get(d.get("mana_type"), "C")
                last = out[-1] if out else None
                if last is not None and last["type"] == "mana_added" and \
                        last["source"] == self.ref(sid) and \
                        last["player"] == self.player(d["player_id"]):
                    # one mana ability adding several mana is one event (FORMAT §6)
                    last["mana"][letter] = last["mana"].get(letter, 0) + 1
                else:
                    out.append({"type": "mana_added", "player": self.player(d["player_id"]),
                                "mana": {letter: 1}, "source": self.ref(sid),
                                "card": self.card(sid)})
            elif kind == "PermanentTapped":
                out.append({"type": "tapped", "object": self.ref(d["object_id"]),
                            "card": self.card(d["object_id"])})
            elif kind == "PermanentUntapped":
                out.append({"type": "untapped", "object": self.ref(d["object_id"]),
                            "card": self.card(d["object_id"])})
            elif kind == "StackResolved":
                oid = d["object_id"]
                is_ability = oid in self.abilities
                ev = {"type": "ability_resolved" if is_ability else "spell_resolved",
                      "object": self.ref(oid), "card": self.card(oid)}
                self.last_resolved = self.ref(oid)
                if not is_ability:
                    # the zone change that ended the resolution already renumbered it
                    last_move = next((x for x in reversed(out) if x["type"] == "zone_changed"
                                      and x["card"] == self.card(oid)), None)
                    if last_move is not None:
                        ev["object"] = last_move["object"]
                first = next((j for j, x in enumerate(out) if x["type"] not in
                              ("priority_passed",)), len(out))
                out.insert(first, ev)
            elif kind == "DamageDealt":
                sid = d.get("source_id")
                tgt = d.get("target") or {}
                ev = {"type": "damage_dealt", "source": self.ref(sid),
                      "source_card": self.card(sid), "amount": d.get("amount"),
                      "combat": bool(d.get("is_combat"))}
                if "Player" in tgt:
                    ev["target"] = self.player(tgt["Player"])
                elif "Object" in tgt:
                    ev["target"] = self.ref(tgt["Object"])
                    ev["target_card"] = self.card(tgt["Object"])
                out.append(ev)
            elif kind == "DamagePrevented":
                tgt = d.get("target") or {}
                sid = d.get("source_id")
                out.append({"type": "damage_prevented", "source": self.ref(sid),
                            "source_card": self.card(sid), "target": self.target_ref(tgt),
                            "amount": d.get("amount")})
            elif kind == "LifeChanged":
                amount = d.get("amount", 0)
                out.append({"type": "life_gained" if amount > 0 else "life_lost",
                            "player": self.player(d["player_id"]), "amount": abs(amount),
                            "life": d.get("new_total")})
            elif kind == "CreatureDestroyed":
                oid = d["object_id"]
                if d.get("source_id") is None:
                    # phase's source-less destruction: its lethal-damage state-based action
                    # (no card of this suite has deathtouch, CR 704.5h)
                    self.before_move(out, oid, {"type": "state_based_action", "rule": "704.5g",
                                                "card": self.card(oid)})
                self.before_move(out, oid, {"type": "destroyed", "card": self.card(oid)})
            elif kind == "PermanentSacrificed":
                oid = d["object_id"]
                self.before_move(out, oid, {"type": "sacrificed", "card": self.card(oid)})
            elif kind == "Regenerated":
                out.append({"type": "regenerated", "object": self.ref(d["object_id"]),
                            "card": self.card(d["object_id"])})
            elif kind == "CardDrawn":
                oid = d["object_id"]
                out.append({"type": "card_drawn", "player": self.player(d["player_id"]),
                            "object": self.ref(oid), "card": self.card(oid)})
            elif kind == "Discarded":
                oid = d["object_id"]
                out.append({"type": "card_discarded", "player": self.player(d["player_id"]),
                            "object": self.ref(oid), "card": self.card(oid)})
            elif kind == "CounterAdded":
                oid = d["object_id"]
                out.append({"type": "counters_added", "object": self.ref(oid),
                            "card": self.card(oid),
                            "counter": COUNTER_NAME.get(d.get("counter_type"),
                                                        str(d.get("counter_type"))),
                            "count": d.get("count")})
                if oid in self.suspending and d.get("counter_type") == "time" \
                        and (self.game.object(oid) or {}).get("zone") == "Exile":
                    # phase's suspend ability resolved: the card is suspended (FORMAT §10)
                    seat, paid = self.suspending.pop(oid)
                    out.append({"type": "suspended", "player": self.player(seat),
                                "object": self.ref(oid), "card": self.card(oid),
                                "time": d.get("count"), "mana_paid": paid})
            elif kind == "CounterRemoved":
                oid = d["object_id"]
                out.append({"type": "counters_removed", "object": self.ref(oid),
                            "card": self.card(oid),
                            "counter": COUNTER_NAME.get(d.get("counter_type"),
                                                        str(d.get("counter_type"))),
                            "count": d.get("count")})
            elif kind == "PowerToughnessChanged":
                oid = d["object_id"]
                out.append({"type": "pt_changed", "object": self.ref(oid), "card": self.card(oid),
                            "power": d.get("power"), "toughness": d.get("toughness")})
            elif kind == "TokenCreated":
                oid = d["object_id"]
                if oid not in self.tokens:
                    self.tokens[oid] = f"token#{len(self.tokens) + 1}"
                obj = self.game.object(oid) or {}
                ctrl = obj.get("controller")
                ev = {"type": "token_created", "object": self.tokens[oid],
                      "card": self.tokens[oid], "name": d.get("name") or None,
                      "controller": self.player(ctrl) if isinstance(ctrl, int) else None}
                if obj.get("tapped"):
                    ev["tapped"] = True
                defender = self.attacking(oid)
                if defender is not None:
                    ev["attacking"] = defender
                out.append(ev)
            elif kind == "ControllerChanged":
                oid = d["object_id"]
                out.append({"type": "control_changed", "object": self.ref(oid),
                            "card": self.card(oid),
                            "controller": self.player(d["new_controller"])})
            elif kind == "SpellCountered":
                oid = d["object_id"]
                # phase's SpellCountered also counters an ability on the stack (Stifle)
                ev = {"type": "ability_countered" if oid in self.abilities else
                      "spell_countered", "object": self.ref(oid), "card": self.card(oid),
                      "reason": "countered"}
                out.append(ev)
            elif kind == "AttackersDeclared":
                attacks = d.get("attacks") or []
                attackers = []
                for oid, tgt in attacks:
                    attackers.append({"object": self.ref(oid), "card": self.card(oid),
                                      **self.attacked(tgt)})
                player = None
                if isinstance(d.get("defending_player"), int):
                    player = self.player(1 - d["defending_player"])
                out.append({"type": "attackers_declared", "player": player,
                            "attackers": attackers})
            elif kind == "BlockersDeclared":
                blocks = [{"blocker": self.ref(b), "blocker_card": self.card(b),
                           "attacker": self.ref(a), "attacker_card": self.card(a)}
                          for b, a in d.get("assignments") or []]
                out.append({"type": "blockers_declared", "blocks": blocks,
                            "player": self.player(self.actor)
                            if isinstance(self.actor, int) else None})
            elif kind == "PhaseChanged":
                step = PHASE_TO_STEP.get(d.get("phase"), str(d.get("phase")))
                if self.step is not None:
                    out.append({"type": "step_ended", "turn": self.step[0], "step": self.step[1]})
                self.step = (self.turn, step)
                out.append({"type": "step_began", "turn": self.turn,
                            "phase": STEP_PHASE.get(step, step), "step": step})
            elif kind == "TurnStarted":
                self.turn = d.get("turn_number", self.turn)
                out.append({"type": "turn_began", "turn": d.get("turn_number"),
                            "active_player": self.player(d["player_id"])})
            elif kind == "ManaPoolEmptied":
                out.append({"type": "mana_emptied", "player": self.player(d["player_id"]),
                            "mana": {PHASE_COLOR.get(d.get("color"), "C"): 1}})
            elif kind == "PlayerLost":
                seat = d["player_id"]
                P = self.game.player(seat) or {}
                ev = {"type": "player_lost", "player": self.player(seat)}
                if P.get("drew_from_empty_library"):
                    rule, ev["reason"] = "704.5b", "empty_library"
                elif isinstance(P.get("life"), int) and P["life"] <= 0:
                    rule, ev["reason"] = "704.5a", "life"
                else:
                    rule = None
                if rule:
                    out.append({"type": "state_based_action", "rule": rule,
                                "player": self.player(seat)})
                out.append(ev)
            elif kind == "GameOver":
                winner = d.get("winner")
                winners = [self.player(winner)] if isinstance(winner, int) else []
                out.append({"type": "game_ended", "winners": winners,
                            "losers": [p for p in self.players if p not in winners],
                            "draw": not winners})
            if kind in ("EffectResolved", "StackResolved"):
                effect_start = len(out)
        self.events.extend(out)
        del resolved_at

    def resolving_ref(self, sid: Any) -> str:
        """The spell or ability whose resolution an effect belongs to: the last one phase
        reported resolved (phase reports ``StackResolved`` before a decision inside it)."""
        return self.last_resolved or (self.ref(sid) if isinstance(sid, int) else "")

    def attacked(self, target: Any) -> dict:
        """An ``attackers_declared`` entry's ``defender`` (and ``planeswalker`` /
        ``planeswalker_card``, FORMAT §12.1) for phase's ``AttackTarget``: the player
        attacked, or the planeswalker and its controller, the defending player (CR 506.2)."""
        data = target.get("data") if isinstance(target, dict) else None
        if not isinstance(data, int):
            return {"defender": None}
        if target.get("type") == "Player":
            return {"defender": self.player(data)}
        ctrl = (self.game.object(data) or {}).get("controller")
        return {"defender": self.player(ctrl) if isinstance(ctrl, int) else None,
                "planeswalker": self.ref(data), "planeswalker_card": self.card(data)}

    def attacking(self, oid: int) -> str | None:
        """The player an attacking creature attacks, read off phase's combat state."""
        combat = (self.state_dict().get("state") or {}).get("combat") or {}
        for a in combat.get("attackers") or []:
            if isinstance(a, dict) and a.get("object_id") == oid:
                tgt = a.get("defending_player", a.get("target"))
                if isinstance(tgt, dict) and tgt.get("type") == "Player":
                    return self.player(tgt["data"])
                if isinstance(tgt, int):
                    return self.player(tgt)
        return None

    def note_found(self, out: list, oid: int | None) -> None:
        """``library_searched`` once phase, having said a player searches, reveals or moves a
        card of that player's library (the card found; ``None`` when nothing is)."""
        if self.searching is None:
            return
        owner = (self.game.object(oid) or {}).get("owner") if isinstance(oid, int) else None
        if oid is not None and owner != self.searching:
            return
        out.append({"type": "library_searched", "player": self.player(self.searching),
                    "found": self.ref(oid) if oid is not None else None})
        self.searching = None

    def before_move(self, out: list, oid: int, ev: dict) -> None:
        """phase reports a destruction or sacrifice after the zone change it causes; FORMAT §6
        has it before: put ``ev`` (with the object's battlefield reference) just before that
        ``zone_changed``."""
        moved = next((x for x in reversed(out) if x["type"] == "zone_changed"
                      and x["card"] == self.card(oid) and x["from"] == "battlefield"), None)
        if moved is None:
            out.append({**ev, "object": self.ref(oid)})
        else:
            out.insert(out.index(moved), {**ev, "object": moved["object"]})
