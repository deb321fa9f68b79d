"""The abilities phase puts on its stack (FORMAT §1 ``ability#n``, §6; :class:`Stack`, a
mixin of :class:`~.run.PhaseRun`): each is named, an activated one completes its input's
``ability_activated``, a triggered one is reported as ``ability_triggered`` (its ``ability``
and ``trigger`` matched with our card file's: a printed triggered ability by rank, a
keyword's trigger, a Saga chapter, a delayed trigger) and ``ability_put_on_stack``; the
targets phase's stack holds for a spell or ability.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.core import RunCore
from mtg_judge.tools.adapters.phase.vocabulary import (
    DELAYED_BY_KEYWORD,
    DELAYED_TRIGGER_EVENT,
    DESCRIBED_TRIGGER,
    KEYWORD_TRIGGER,
    SYNTHETIC_TRIGGER,
)


def described(description: Any) -> tuple[str, str] | None:
    """``(ability, trigger)`` of a trigger phase synthesizes for a keyword, read off the rule
    its description starts with (:data:`~.vocabulary.DESCRIBED_TRIGGER`); else ``None``."""
    for pattern, found in DESCRIBED_TRIGGER:
        if isinstance(description, str) and re.match(pattern, description):
            return found
    return None


class Stack(RunCore):
    """Names and matches what phase puts on its stack (a mixin of :class:`~.run.PhaseRun`;
    its attributes are :class:`~.core.RunCore`'s)."""

    def sync_stack(self) -> None:
        """Name the abilities phase put on its stack (FORMAT §1 ``ability#n``): an activated
        ability completes the ``ability_activated`` event of the input; a triggered one is
        reported as ``ability_triggered`` and ``ability_put_on_stack`` (phase's own stack
        entry, with the source and targets it holds)."""
        for entry in self.game.stack() or []:
            sid = entry.get("id")
            kind = (entry.get("kind") or {}).get("type")
            if sid in self.stack_seen or kind not in ("TriggeredAbility", "ActivatedAbility"):
                self.stack_seen.add(sid)
                continue
            self.stack_seen.add(sid)
            if sid not in self.abilities:
                self.ability_count += 1
                self.abilities[sid] = f"ability#{self.ability_count}"
            ref = self.abilities[sid]
            src = entry.get("source_id")
            # the source as it was when the ability was put on the stack (it may move later)
            self.ability_sources[sid] = self.ref(src) if isinstance(src, int) else None
            ctrl = self.player(entry["controller"]) if isinstance(entry.get("controller"), int) \
                else None
            targets = [self.target_ref(t) for t in
                       ((entry["kind"].get("data") or {}).get("ability") or {}).get("targets", [])]
            if kind == "ActivatedAbility":
                pending = self.pending_activation
                if pending is not None and "object" not in pending:
                    pending.update(object=ref, card=ref, targets=targets)
                    self.pending_stack = sid
                else:
                    self.events.append({"type": "ability_activated", "player": ctrl,
                                        "object": ref, "card": ref, "source": self.ref(src),
                                        "source_card": self.card(src), "targets": targets})
            else:
                kdata: Any = entry["kind"].get("data") or {}
                ability = kdata.get("ability") or {}
                ev: dict[str, Any] = {"type": "ability_triggered", "controller": ctrl, "object": ref,
                      "card": ref, "source": self.ref(src), "source_card": self.card(src)}
                provenance = (kdata.get("provenance") or {}).get("type")
                if provenance in SYNTHETIC_TRIGGER:
                    # a trigger phase makes for a keyword (storm)
                    ev["ability"], ev["trigger"] = SYNTHETIC_TRIGGER[provenance]
                elif ability.get("trigger_definition_ref") is None and provenance is None:
                    # no printed trigger definition behind it: a delayed triggered ability
                    # (CR 603.7), named by the event phase says triggered it
                    ev["delayed"] = True
                    ev["ability"] = self.delayed_key(src)
                    ev["trigger"] = DELAYED_TRIGGER_EVENT.get(
                        (kdata.get("trigger_event") or {}).get("type"))
                elif ability.get("trigger_definition_ref") is None:
                    raise Skip(f"phase's {provenance} trigger is not translated")
                elif (synthesized := described(ability.get("description"))) is not None:
                    # a trigger phase synthesizes for a keyword (suspend's two)
                    ev["ability"], ev["trigger"] = synthesized
                else:
                    occurrence = ((ability["trigger_definition_ref"].get("occurrence")
                                   or {}).get("data") or {})
                    k = occurrence.get("printed_index", 0) if isinstance(occurrence, dict) else 0
                    chapter = self.saga_chapter(src, k or 0)
                    if chapter is not None:
                        # a Saga's chapter ability (FORMAT §11.8 Sagas): phase's trigger
                        # definition says its chapter; ours is the chapter ability listing it
                        ev["ability"], ev["trigger"], ev["chapter"] = chapter
                    else:
                        ev["ability"], ev["trigger"] = self.our_trigger(
                            src, k or 0, ability.get("description"))
                self.events.append(ev)
                self.events.append({"type": "ability_put_on_stack", "controller": ctrl,
                                    "object": ref, "card": ref, "source": self.ref(src),
                                    "targets": targets})

    def stack_targets(self, sid: int) -> list[str]:
        """Our references of the targets phase's stack holds for entry ``sid`` (those of its
        sub-abilities too), in order, without repeats; ``[]`` when it is not on the stack."""
        for entry in self.game.stack() or []:
            if entry.get("id") == sid:
                ability = ((entry.get("kind") or {}).get("data") or {}).get("ability") or {}
                targets: list[str] = []
                while isinstance(ability, dict):  # a target of a later sentence (Stomp's "deals
                    for t in ability.get("targets", []):  # 2 damage to any target") is in a sub_ability
                        ref = self.target_ref(t)
                        if ref not in targets:
                            targets.append(ref)
                    ability = ability.get("sub_ability")
                return targets
        return []

    def our_index(self, oid: int, kinds: tuple[str, ...], k: int) -> int:
        """The index in our card file's ``abilities`` of the card's k-th ability of ``kinds``
        (phase numbers its abilities its own way; the k-th of a kind is the same ability)."""
        obj = self.game.object(oid) or {}
        ours = self.card_data(obj.get("name")).get("abilities", [])
        found = [i for i, a in enumerate(ours) if a.get("kind") in kinds]
        return found[k] if k < len(found) else k

    def delayed_key(self, oid: int) -> Any:
        """``ability`` of a delayed triggered ability (FORMAT §11.4): the keyword of its
        source that creates delayed triggers (mobilize), ``delayed`` for an instant or sorcery
        source, the index of the one printed ability of a permanent's card file that creates
        delayed triggers (Flickerwisp's). phase's stack entry does not say which ability
        created it: any other source (several abilities that could) is skipped."""
        obj = self.game.object(oid) or {}
        card = self.card_data(obj.get("name"))
        kws = [kw if isinstance(kw, str) else kw.get("keyword") for kw in card.get("keywords", [])]
        found = [k for k in kws if k in DELAYED_BY_KEYWORD]
        # the printed abilities that create a delayed trigger (create_delayed_trigger, or
        # exile_and_return_later's return, FORMAT §11.4, §13.3)
        printed = [a for a in card.get("abilities", []) if "delayed" in json.dumps(a)
                   or "exile_and_return_later" in json.dumps(a)]
        if len(found) == 1 and not printed:
            return found[0]
        if {"Instant", "Sorcery"} & set(card.get("types", [])) and not found:
            return "delayed"
        if len(printed) == 1 and not found:
            return card["abilities"].index(printed[0])
        raise Skip(f"a delayed trigger of {obj.get('name')}: phase does not say which ability "
                   "created it")

    def saga_chapter(self, oid: int, k: int) -> tuple[int, str, int] | None:
        """``(ability, "chapter", chapter)`` when phase's k-th trigger definition of the
        object is a Saga chapter (its ``saga_chapter``), else ``None``."""
        obj = self.game.object(oid) or {}
        defs = obj.get("trigger_definitions") or []
        if not 0 <= k < len(defs):
            return None
        d = defs[k].get("definition", defs[k]) if isinstance(defs[k], dict) else {}
        n = d.get("saga_chapter") if isinstance(d, dict) else None
        if not isinstance(n, int):
            return None
        ours = self.card_data(obj.get("name")).get("abilities", [])
        index = next((i for i, a in enumerate(ours) if a.get("kind") == "chapter"
                      and n in (a.get("chapters") or [])), None)
        if index is None:
            raise Skip(f"{obj.get('name')}: phase's chapter {n} trigger has no chapter ability "
                       "in the card file")
        return index, "chapter", n

    def our_trigger(self, oid: int, k: int, description: Any) -> tuple[Any, Any]:
        """``ability`` and ``trigger`` (FORMAT §6) of the k-th triggered ability phase
        parsed on an object: a keyword's trigger (phase describes it as "Mobilize — ...")
        is named by the keyword; a printed one by its index in our card file and the
        ``event`` of that ability's trigger."""
        obj = self.game.object(oid) or {}
        card = self.card_data(obj.get("name"))
        names = [kw if isinstance(kw, str) else kw.get("keyword")
                 for kw in card.get("keywords", [])]
        names = [n for n in names if isinstance(n, str) and n in KEYWORD_TRIGGER]
        printed = [a for a in card.get("abilities", []) if a.get("kind") == "triggered"]
        for name in names:
            if str(description or "").lower().startswith(name.replace("_", " ")) or (len(names) == 1 and not printed):
                # phase's description names the keyword ("Mobilize — ..."), or it is the
                # card's only triggered ability (increment: phase shows its reminder text)
                return name, KEYWORD_TRIGGER[name]
        index = self.our_index(oid, ("triggered",), k)
        ours = card.get("abilities", [])
        event = None
        if index < len(ours) and ours[index].get("kind") == "triggered":
            event = (ours[index].get("trigger") or {}).get("event")
        return index, event
