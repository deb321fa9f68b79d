"""Zones and zone changes: moving an object makes a new object (CR 400.7), with the
replacement effects that apply to the move (CR 614), "as this enters" choices (CR 614.12) and
enters/leaves-the-battlefield triggers with last-known information (CR 603.6, 603.10)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import faces, planeswalkers, prepare, sagas, transform
from .errors import IllegalAction
from .objects import GameObject

if TYPE_CHECKING:
    from .game import Game


class Zones:
    """Zones and moves between them (a mixin of :class:`~.game.Game`)."""

    def zone_list(self: Game, obj: GameObject) -> list[GameObject]:
        """The list that holds ``obj``: the battlefield, or its owner's zone (an object on
        the stack is held by its StackItem: an empty list)."""
        if obj.zone == "battlefield":
            return self.battlefield
        if obj.zone == "stack":
            return []
        return self.players[obj.owner].zone(obj.zone)

    def _in_hand(self: Game, player: str, ref: Any) -> GameObject:
        if not isinstance(ref, str):
            raise IllegalAction("unknown_object", "name the card by its alias")
        obj = self.find(ref)
        if obj is None:
            raise IllegalAction("unknown_object", f"no object {ref!r}")
        if obj.zone != "hand" or obj.owner != player:
            raise IllegalAction("not_in_hand", f"{ref} is not in {player}'s hand")
        return obj

    def move(self: Game, obj: GameObject, to: str, *, position: str = "top", controller: str | None = None,
             cause: str | None = None, face_down: bool = False, init: dict[str, Any] | None = None) -> GameObject:
        """Move ``obj`` to zone ``to`` (``hand``, ``library``, ``graveyard``, ``exile``,
        ``battlefield``, ``stack``); return the new object (CR 400.7).

        Applies replacement effects on the move (CR 614: e.g. "put on top of its owner's
        library instead"), logs ``zone_changed`` (and ``permanent_entered``), and records
        leaves/enters-the-battlefield triggers with last-known information (CR 603.10).
        Tokens leaving the battlefield cease to exist at the next state-based action check
        (CR 704.5d).
        """
        frm = obj.zone
        if frm == "stack" and obj.exile_on_leaving_stack and to != "exile":
            # CR 702.34a: a flashback spell is exiled instead of going anywhere else (and a
            # harmonized one, CR 702.180a: ``exile_rule``)
            self.log("replacement_applied", object=obj.ref, card=obj.card, rule=obj.exile_rule or "702.34a",
                     instead="exile")
            to = "exile"
        if frm == "battlefield" and to == "graveyard":
            for ab in obj.chars.abilities:
                if (ab.get("kind") == "replacement" and ab.get("event") == "put_into_graveyard_from_battlefield"
                        and ab.get("affected", "self") == "self"):
                    inst = ab["instead"]
                    to = {"library_top": "library", "library_bottom": "library"}.get(inst["to"], inst["to"])
                    position = "bottom" if inst["to"] == "library_bottom" else "top"
                    self.log("replacement_applied", object=obj.ref, card=obj.card, rule="614.1a",
                             instead=inst["to"])
        # leave the old zone
        if frm == "battlefield":
            prepare.leaves_battlefield(self, obj)  # its prepared copy ceases to exist (strixhaven.prepare.04)
            self.battlefield.remove(obj)
            if self.combat is not None:
                self.combat.remove(obj.ref)
        elif frm != "stack":
            self.zone_list(obj).remove(obj)
        del self.objects[obj.ref]
        if frm not in ("hand", "library"):  # CR 608.2h: what it was as it left a public zone
            self.last_known[obj.ref] = obj.copy()
        if obj.is_token or obj.is_copy:  # a copy of a card keeps its reference (engine/paradigm.py)
            new_ref = obj.ref
        else:
            self.incarnation[obj.card] += 1
            new_ref = f"{obj.card}#{self.incarnation[obj.card]}"
        # ``init``: what the new object remembers (kicked …), fields of GameObject (TypeError otherwise)
        fields: dict[str, Any] = {"definition": faces.card_of(obj), "is_copy": obj.is_copy, **(init or {})}
        new = GameObject(ref=new_ref, card=obj.card, owner=obj.owner, zone=to, timestamp=self.new_timestamp(),
                         face_down=face_down and to in ("stack", "battlefield"), layers=self.layers, **fields)
        if to == "battlefield":
            new.controller = controller or obj.controller or obj.owner
            new.summoning_sick = True
            new.upkeep_mark = self.players[new.controller].upkeeps
            self.battlefield.append(new)
        elif to == "library" and position == "bottom":
            self.players[obj.owner].library.append(new)
        elif to == "library":
            self.players[obj.owner].library.insert(0, new)
        elif to == "stack":
            new.controller = controller or obj.owner
        else:
            self.players[obj.owner].zone(to).append(new)
        self.objects[new.ref] = new
        if not obj.is_token:
            self.by_card[obj.card] = new
        if to == "battlefield":
            transform.enter_as_copy(self, new)  # "you may have this enter as a copy" (FORMAT §11.6)
        self.log("zone_changed", object=obj.ref, new_object=new.ref, card=obj.card, name=new.name,
                 owner=obj.owner, **{"from": self.zone_name(frm), "to": self.zone_name(to)},
                 **({"cause": cause} if cause else {}), **({"face_down": True} if obj.face_down or new.face_down else {}),
                 **({"melded": True} if obj.melded_with is not None else {}))
        if frm == "battlefield" and obj.melded_with is not None:
            transform.partner_leaves(self, obj, to, position, cause)  # both cards go (finalfantasy.meld.01)
        if obj.face_down and to not in ("battlefield", "stack"):
            # CR 708.9: a face-down permanent or spell leaving is revealed
            self.log("card_revealed", player=obj.owner, object=new.ref, card=new.card, name=new.name)
        if to == "battlefield" and (new.definition.raw or {}).get("enters_tapped") and not new.face_down:
            new.tapped = True  # CR 614.1c: "This land enters tapped" (FORMAT §11.7)
        if to == "battlefield":
            self.log("permanent_entered", object=new.ref, card=new.card, name=new.name, controller=new.controller)
            self.as_enters(new)
            sagas.enters(self, new)  # CR 714.3a: a Saga enters with a lore counter
            planeswalkers.enters(self, new)  # CR 306.5b: with its loyalty counters
            prepare.enters(self, new)  # "enters prepared" (strixhaven.prepare.09)
            self.fire_triggers({"event": "enters_battlefield", "object": new})
        if frm == "battlefield":
            event = {"event": "leaves_battlefield", "object": obj, "to": to}
            self.fire_triggers(event, lki=[obj])
        return new

    def as_enters(self: Game, obj: GameObject) -> None:
        """CR 614.12: "As this enters, choose a card name" (Meddling Mage): the controller
        chooses a card name as it enters, of a card with none of the types in the spec's
        ``not_types`` (default ``["Land"]``: "a nonland card name"; Council of the Absolute's
        "a noncreature, nonland card name" is ``["Creature", "Land"]``). An Omen's (or other
        castable face's) name is judged by that face's characteristics alone (CR 201.4f;
        ruling tarkir.omen.13: Charring Bite is a noncreature card name, Twinmaw Stormbrood is
        not). Raises IllegalAction ``invalid_choice`` for any other answer."""
        spec = (obj.definition.raw or {}).get("as_enters") if not obj.face_down else None
        if not spec or spec.get("choose") != "card_name":
            return
        excluded = tuple(spec.get("not_types", ("Land",)))

        def name(inp: dict[str, Any]) -> str:
            choice = inp.get("choice")
            d = self.cards.get(choice) if isinstance(choice, str) else None
            d = d or faces.card_with_face_named(self.cards, choice)  # an Omen's name, tarkir.omen.13
            if d is None or any(t in d.types for t in excluded) or not isinstance(choice, str):
                raise IllegalAction("invalid_choice", "name a " + ", ".join("non" + t.lower() for t in excluded) + " card")
            return choice

        assert obj.controller is not None  # a permanent has a controller (CR 108.4)
        obj.chosen_name = self.decide("choose", obj.controller, "choose", name, reason="card_name")
        self.log("card_name_chosen", object=obj.ref, card=obj.card, name=obj.chosen_name)
