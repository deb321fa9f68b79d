"""Choices for the legal-action generator (:mod:`.legal`) and their checks: the order of
simultaneous triggers (CR 603.3b), a discard (CR 514.1, 701.9), and the ``choose`` answers
while a spell or ability resolves or a permanent enters, by the decision's reason ("you
may" CR 603.5, echo CR 702.30a, a card name CR 614.12, the legend rule CR 704.5j, a source
of damage CR 615, a search CR 701.19, proliferate CR 701.34a, a keyword, colors, a
creature type, a power/toughness change).
"""

from __future__ import annotations

import itertools
from typing import Any, Iterable

from . import characteristics as ch
from . import faces, proliferate, surveil
from .errors import IllegalAction
from .legal_common import CHOICE_LIMIT, Candidate, distinct, graveyard_exile_choices, resolving_item, spread
from .legal_mana import plan_payment
from .mana import COLOR_NAMES, ManaCost
from .targets import filter_with_x


def trigger_order_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 603.3b: the player orders their simultaneous triggers (every order is legal)."""
    refs = list(decision.get("options", ()))
    perms = list(itertools.permutations(refs)) if len(refs) <= 4 else \
        [tuple(refs), tuple(reversed(refs))] + [tuple(refs[i:] + refs[:i]) for i in range(1, len(refs))]
    return [Candidate({"action": "order_triggers", "player": decision["player"], "order": list(p)}, "order", "choice")
            for p in spread(perms, CHOICE_LIMIT)]


def discard_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """CR 514.1 (cleanup) / 701.9: discard ``count`` cards of the player's choice."""
    player, n = decision["player"], decision.get("count", 1)
    hand = [o.ref for o in game.players[player].hand]
    combos = spread(list(itertools.combinations(hand, n)), CHOICE_LIMIT) if len(hand) >= n else []
    return [Candidate({"action": "discard", "player": player, "cards": list(c)}, "discard", "choice") for c in combos]


def _find_effect(effects: Iterable[dict[str, Any]] | None, type_: str) -> dict[str, Any] | None:
    """The first effect of type ``type_`` in ``effects`` or nested in their ``then``,
    ``else`` or ``effects``; None if there is none."""
    for eff in effects or ():
        if eff.get("type") == type_:
            return eff
        for key in ("then", "else", "effects"):
            found = _find_effect(eff.get(key, ()), type_)
            if found is not None:
                return found
    return None


def _keyword_name(opt: Any) -> list[str]:
    """The answers naming keyword option ``opt`` of a keyword choice (two land types for
    landwalk, two colors for protection, ``name:n`` for a keyword with a number)."""
    kw = {"keyword": opt} if isinstance(opt, str) else dict(opt)
    name = kw["keyword"]
    if name == "landwalk":
        return ["landwalk:Island", "landwalk:Forest"]
    if name == "protection":
        return [f"protection:{c}" for c in ("white", "red")]
    if "n" in kw:
        return [f"{name}:{kw['n']}"]
    return [name]


def choose_candidates(game: Any, decision: dict[str, Any]) -> list[Candidate]:
    """Choices while a spell or ability resolves, or as a permanent enters, by the
    decision's ``reason``: yes/no ("you may", CR 603.5; madness's exile under the 2006
    rules; echo, CR 702.30a), a card name (CR 614.12), the legendary permanent to keep
    (CR 704.5j), a source of damage (CR 615), a card found by a search (CR 701.19, or
    none, 701.19b), a keyword, colors, a creature type, a power/toughness change."""
    player = decision["player"]
    reason = decision.get("reason")

    def c(choice: Any, **extra: Any) -> Candidate:
        return Candidate({"action": "choose", "player": player, "choice": choice, **extra}, f"choose:{reason}", "choice")

    if reason == proliferate.REASON:  # all, none, or one of them (CR 701.34a)
        opts = list(decision.get("options") or ())
        return [c(opts), c([])] + [c([o]) for o in opts[:CHOICE_LIMIT]]
    if reason == surveil.REASON:  # any number of the cards looked at (CR 701.25a)
        opts = list(decision.get("options") or ())
        subsets = [list(s) for k in range(len(opts) + 1) for s in itertools.combinations(opts, k)] \
            if len(opts) <= 6 else [[]] + [[o] for o in opts] + [opts]
        return [c(s if s else "none") for s in spread(subsets, CHOICE_LIMIT)]
    if reason == surveil.ORDER_REASON:  # the rest back on top in any order
        opts = list(decision.get("options") or ())
        orders = list(itertools.permutations(opts)) if len(opts) <= 4 else \
            [tuple(opts), tuple(reversed(opts))] + [tuple(opts[i:] + opts[:i]) for i in range(1, len(opts))]
        return [c(list(p)) for p in spread(orders, CHOICE_LIMIT)]
    if decision.get("options"):
        return [c(o) for o in decision["options"]]
    if reason == "card_name":
        excluded = _excluded_name_types(game)  # a card's name, or a castable face's (tarkir.omen.13)
        named: dict[str, Any] = dict(game.cards)
        for card in game.cards.values():
            for face in card.faces:
                name = face.name
                if name not in named and faces.card_with_face_named(game.cards, name) is face:
                    named[name] = face
        return [c(name) for name in sorted(named) if not any(t in named[name].types for t in excluded)]
    if reason in ("optional", "madness"):
        return [c("yes"), c("no")]
    item = resolving_item(game)
    effects = item.ability.get("effects", ()) if item is not None else ()
    if reason in ("echo", "pay_or_sacrifice"):
        eff = _find_effect(effects, "pay_or_sacrifice")
        out = [c("no")]
        if eff is not None:
            pay = plan_payment(game, player, ManaCost.parse(eff["cost"]))
            if pay is not None:
                out.insert(0, c("yes", **({"pay_with": pay} if pay else {})))
        return out
    if reason == "pay_optional":
        eff = _find_effect(effects, "pay_optional")
        out = [c("no")]
        if eff is not None:
            parts = dict(eff.get("cost", {}))
            cost = ManaCost.parse(parts.get("mana", ""))
            exiles: list[Any] = [None]
            if parts.get("exile_from_graveyard"):  # the cards named in the answer's exile
                exiles = graveyard_exile_choices(game, player, parts["exile_from_graveyard"])
            try:
                game.players[player].pool.copy().pay(cost)
                out[0:0] = [c("yes", **({"exile": e} if e is not None else {})) for e in exiles]
            except IllegalAction:
                pass
        return out
    if reason == "search":
        eff = _find_effect(effects, "search_library")
        flt: Any = filter_with_x(dict((eff or {}).get("filter") or {}), item.x if item is not None else 0)
        found = distinct(o for o in game.players[player].library if ch.matches(game, o, flt, player))
        return [c(o.ref) for o in found] + [c("none")]
    if reason == "source_of_damage":
        eff = _find_effect(effects, "prevent_damage_from_chosen_source")
        flt = (eff or {}).get("source_filter")
        out = [c(it.ref) for it in game.stack if it.obj is not None and ch.matches(game, it, flt, player)]
        out += [c(o.ref) for o in game.battlefield if ch.matches(game, o, flt, player)]
        if not out:  # any object of the game the engine can find (a card in a hand, a library …)
            out = [c(o.ref) for o in distinct(sorted(game.objects.values(), key=lambda o: o.ref))
                   if ch.matches(game, o, flt, player)][:CHOICE_LIMIT]
        return out
    if reason == "keyword_choice":
        eff = _find_effect(effects, "grant_keyword_choice")
        return [c(name) for opt in (eff or {}).get("options", ()) for name in _keyword_name(opt)]
    if reason == "pt_choice":
        eff = _find_effect(effects, "modify_pt_choice")
        return [c(list(o)) for o in (eff or {}).get("options", ())]
    if reason == "colors":
        return [c([name]) for name in COLOR_NAMES.values()] + [c(["white", "blue"])]
    if reason == "creature_type":
        return [c(t) for t in ("Elf", "Goblin", "Sliver", "Wizard")]
    return [c("yes"), c("no")]


def _excluded_name_types(game: Any) -> tuple[str, ...]:
    """The card types a card name chosen as a permanent enters may not have (CR 614.12): the
    ``not_types`` of the entering permanent's ``as_enters`` spec (the last
    ``permanent_entered`` event), ``("Land",)`` by default ("a nonland card name")."""
    ev = next((e for e in reversed(game.events) if e["type"] == "permanent_entered"), None)
    obj = game.objects.get(ev["object"]) if ev is not None else None
    spec = dict((obj.definition.raw or {}).get("as_enters") or {}) if obj is not None else {}
    return tuple(spec.get("not_types", ("Land",)))


