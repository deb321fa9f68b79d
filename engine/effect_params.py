"""What each effect reads: the parameters of every one-shot effect ``type``, declared once
(issue 26 item 2, like fireplace's ``Hit: TARGET = ActionArg(); AMOUNT = IntArg()``).

:data:`PARAMETERS` maps an effect type to ``{key: Param}``; a :class:`Param` has a
:class:`Kind` (what the value is: a reference, an amount, a duration, effects…) and says
whether the key is required. Three things come from it:

- the handlers read their parameters through it: ``effects.run`` hands each handler an
  :class:`EffectParameters` view of its effect, which raises :class:`UndeclaredParameter`
  when the handler reads a key its type does not declare;
- card loading refuses a key no handler reads (:func:`check_card`, called by
  ``CardDefinition.from_dict``: ``ScenarioError`` naming the file, the JSON path and the key),
  and ``validate``'s lint reports the same (conformance/card_semantics.py);
- tests/test_effect_params.py proves that ``schema/card.schema.json``'s ``effect_*``
  definitions agree with it key by key, kind by kind and required by required, both ways.

Effects the engine writes itself (keyword abilities: ``cast_exiled``, ``storm_copies``,
``counter_unless_pays``, ``paradigm_copy``) are declared too, with ``internal=True``: the
card schema does not offer them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Mapping

from .errors import ScenarioError


@dataclass(frozen=True)
class Kind:
    """What a parameter's value is. ``schema`` holds the signatures of the card schema's
    property definitions this kind stands for (``ref:amount`` for ``{"$ref":
    "#/$defs/amount"}``, ``type:boolean``, ``enum``, ``const``…; see
    :func:`schema_signature`); ``effects``: the value is a list of effects (checked
    recursively at load)."""

    name: str
    schema: frozenset[str]
    effects: bool = False


def _kind(name: str, *schema: str, effects: bool = False) -> Kind:
    return Kind(name, frozenset(schema), effects)


REFERENCE = _kind("reference", "ref:reference")  # docs/FORMAT.md §5: "self", {"target": 0}…
AMOUNT = _kind("amount", "ref:amount")  # an int, "X", "damage_dealt", a bookkeeping or game amount
SIGNED_AMOUNT = _kind("signed_amount", "ref:signed_amount")
OPTIONAL_AMOUNT = _kind("amount_or_null", "anyOf:ref:amount|type:null")  # null: all (prevent_damage)
DURATION = _kind("duration", "ref:duration", "const")  # CR 611.2a: absent = until the end of the game
FLAG = _kind("flag", "type:boolean")
INTEGER = _kind("integer", "type:integer")
TEXT = _kind("text", "type:string")
WORD = _kind("word", "enum", "const")  # one of a fixed list of words
FILTER = _kind("filter", "ref:filter")
EFFECTS = _kind("effects", "ref:effects", effects=True)
TRIGGER = _kind("trigger", "ref:trigger")
TARGETS = _kind("targets", "ref:targets")
TOKEN = _kind("token", "ref:token")
COST = _kind("cost", "ref:cost")
MANA_COST = _kind("mana_cost", "ref:mana_cost")
CONDITION = _kind("condition", "ref:condition")
KEYWORDS = _kind("keywords", "ref:keywords")
MANA = _kind("mana", "anyOf:ref:mana_produced")
LIST = _kind("list", "type:array")
OBJECT = _kind("object", "type:object")


@dataclass(frozen=True)
class Param:
    """One declared parameter: its kind and whether the effect must give it."""

    kind: Kind
    required: bool = True


def schema_signature(prop: Mapping[str, Any]) -> str:
    """The shape of a card-schema property definition, as :attr:`Kind.schema` names it:
    ``ref:<def>`` for a ``$ref`` (its last segment), ``const``, ``enum``,
    ``anyOf:<sorted signatures of the alternatives>``, else ``type:<type>``. Raises KeyError
    for a definition with none of these."""
    if "$ref" in prop:
        return "ref:" + str(prop["$ref"]).rsplit("/", 1)[-1]
    if "const" in prop:
        return "const"
    if "enum" in prop:
        return "enum"
    if "anyOf" in prop:
        return "anyOf:" + "|".join(sorted({schema_signature(a) for a in prop["anyOf"]}))
    return "type:" + str(prop["type"])


def Optional(kind: Kind) -> Param:  # noqa: N802 (reads like fireplace's declarations)
    """An optional parameter of ``kind``."""
    return Param(kind, required=False)


def _declare(table: Mapping[str, Mapping[str, Kind | Param]]) -> dict[str, dict[str, Param]]:
    return {t: {k: v if isinstance(v, Param) else Param(v) for k, v in params.items()}
            for t, params in table.items()}


#: ``{effect type: {key: Param}}``: every key each effect's handler reads (``type`` aside).
PARAMETERS: dict[str, dict[str, Param]] = _declare({
    "deal_damage": {"amount": AMOUNT, "to": REFERENCE, "from": Optional(REFERENCE)},
    "destroy": {"what": REFERENCE, "cant_be_regenerated": Optional(FLAG)},
    "exile": {"what": REFERENCE},
    "return_to_hand": {"what": REFERENCE},
    "sacrifice": {"what": REFERENCE},
    "tap": {"what": REFERENCE},
    "untap": {"what": REFERENCE},
    "counter": {"what": REFERENCE, "exile_instead": Optional(FLAG), "may_cast_free": Optional(FLAG)},
    "regenerate": {"what": REFERENCE},
    "draw": {"player": REFERENCE, "count": AMOUNT},
    "discard": {"player": REFERENCE, "count": AMOUNT, "random": Optional(FLAG)},
    "mill": {"player": REFERENCE, "count": AMOUNT},
    "gain_life": {"player": REFERENCE, "amount": AMOUNT},
    "lose_life": {"player": REFERENCE, "amount": AMOUNT},
    "modify_pt": {"what": REFERENCE, "power": SIGNED_AMOUNT, "toughness": SIGNED_AMOUNT, "duration": Optional(DURATION)},
    "grant_keywords": {"what": REFERENCE, "keywords": KEYWORDS, "duration": Optional(DURATION)},
    "prevent_damage": {"to": REFERENCE, "amount": OPTIONAL_AMOUNT},
    "prevent_damage_from_chosen_source": {"to": REFERENCE, "source_filter": FILTER},
    "add_mana": {"mana": MANA, "player": Optional(REFERENCE)},
    "create_token": {"token": TOKEN, "count": AMOUNT, "tapped": Optional(FLAG), "attacking": Optional(FLAG)},
    "add_counters": {"what": REFERENCE, "counter": TEXT, "count": AMOUNT},
    "remove_counters": {"what": REFERENCE, "counter": TEXT, "count": AMOUNT},
    "additional_combat_phase": {},
    "gain_control": {"what": REFERENCE, "duration": Optional(DURATION)},
    "exchange_control": {"what": LIST},
    "shuffle_library": {"player": REFERENCE},
    "pay_optional": {"cost": COST, "effects": EFFECTS},
    "conditional": {"condition": CONDITION, "then": EFFECTS, "else": Optional(EFFECTS)},
    "copy_spell": {"what": REFERENCE, "new_targets": Optional(FLAG)},
    "search_library": {"player": Optional(REFERENCE), "filter": FILTER, "to": Optional(WORD), "reveal": Optional(FLAG), "tapped": Optional(FLAG)},
    "pay_or_sacrifice": {"cost": MANA_COST, "reason": Optional(TEXT)},
    "turn_face_down": {"what": REFERENCE},
    "turn_face_up": {"what": REFERENCE},
    "gain_all_creature_types": {"what": REFERENCE, "duration": Optional(DURATION)},
    "lose_all_creature_types": {"what": REFERENCE, "duration": Optional(DURATION)},
    "grant_keyword_choice": {"what": REFERENCE, "options": LIST, "duration": Optional(DURATION)},
    "modify_pt_choice": {"what": REFERENCE, "options": LIST, "duration": Optional(DURATION)},
    "set_colors_choice": {"what": REFERENCE, "duration": Optional(DURATION)},
    "set_creature_type_choice": {"what": REFERENCE, "duration": Optional(DURATION)},
    "create_delayed_trigger": {"trigger": TRIGGER, "targets": Optional(TARGETS), "effects": EFFECTS},
    "endure": {"what": REFERENCE, "n": AMOUNT},
    "remove_all_counters": {"what": REFERENCE},
    "attach": {"what": Optional(REFERENCE), "to": REFERENCE},
    "gain_card_types": {"what": REFERENCE, "types": LIST, "duration": Optional(DURATION)},
    "add_creature_types": {"what": REFERENCE, "subtypes": LIST, "duration": Optional(DURATION)},
    "become_creature": {"what": REFERENCE, "power": INTEGER, "toughness": INTEGER, "duration": DURATION},
    "behold": {"filter": FILTER, "optional": Optional(FLAG), "then": EFFECTS},
    "become_prepared": {"what": REFERENCE},
    "unprepare": {"what": REFERENCE},
    "lose_card_types": {"what": REFERENCE, "types": LIST, "duration": Optional(DURATION)},
    "put_into_graveyard": {"what": REFERENCE},
    "transform": {"what": REFERENCE},
    "put_onto_battlefield_transformed": {"what": REFERENCE},
    "meld": {"what": Optional(REFERENCE), "with": OBJECT},
    "create_token_copy": {"what": REFERENCE, "except": Optional(OBJECT)},
    "become_copy": {"what": REFERENCE, "nonlegendary": Optional(FLAG)},
    "exile_and_return": {"what": REFERENCE, "under": Optional(WORD), "transformed": Optional(FLAG)},
    "extra_turn": {"player": Optional(REFERENCE)},
    "additional_phase": {"phase": WORD, "then_main": Optional(FLAG)},
    "additional_step": {"step": WORD},
    "end_the_turn": {},
    "return_to_battlefield": {"what": REFERENCE, "under": Optional(WORD), "tapped": Optional(FLAG)},
    "exile_and_return_later": {"what": REFERENCE, "at": Optional(TRIGGER), "under": Optional(WORD)},
    "win_game": {"player": REFERENCE},
    "lose_game": {"player": REFERENCE},
    "proliferate": {},
    "assign_no_combat_damage": {"what": REFERENCE, "duration": Optional(DURATION)},
    "attacks_if_able": {"what": REFERENCE, "duration": Optional(DURATION)},
    "phase_out": {"what": REFERENCE},
    "create_token_copy_of_card": {"what": REFERENCE},
    "put_on_library": {"what": REFERENCE, "position": Optional(WORD)},
    "damage_cant_be_prevented": {"duration": DURATION},  # CR 615.12 (engine/unpreventable.py)
    "surveil": {"player": REFERENCE, "count": AMOUNT},  # CR 701.25 (engine/surveil.py)
    "return_from_graveyard_to_hand": {"filter": FILTER},  # no target (engine/graveyard_return.py)
    # written by the engine itself (keyword abilities), not by card files
    "cast_exiled": {"alternative": WORD},  # suspend, madness (engine/keywords.py)
    "storm_copies": {},  # CR 702.40a
    "counter_unless_pays": {"cost": COST, "reason": Optional(TEXT)},  # ward (engine/ward.py)
    "paradigm_copy": {},  # engine/paradigm.py
})

#: The effect types only the engine writes (not offered by the card schema).
INTERNAL: frozenset[str] = frozenset({"cast_exiled", "storm_copies", "counter_unless_pays", "paradigm_copy"})


class UndeclaredParameter(Exception):
    """A handler read a key its effect type does not declare in :data:`PARAMETERS` (an
    engine defect, never a card's: the declaration is out of date)."""


class EffectParameters(dict[str, Any]):
    """An effect as its handler sees it: the effect's keys, readable only if declared for its
    type (``type`` always is). ``eff[k]``, ``eff.get(k)`` and ``k in eff`` of an undeclared
    ``k`` raise :class:`UndeclaredParameter`. Built by :func:`declared`."""

    __slots__ = ("declared",)

    def __init__(self, eff: Mapping[str, Any], declared: Mapping[str, Param]) -> None:
        super().__init__(eff)
        self.declared = declared

    def _check(self, key: Any) -> None:
        if key != "type" and key not in self.declared:
            raise UndeclaredParameter(f"the handler of effect {self.get('type')!r} reads {key!r}, which "
                                      f"engine/effect_params.py does not declare for it")

    def __getitem__(self, key: str) -> Any:
        self._check(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self._check(key)
        return super().get(key, default)

    def __contains__(self, key: object) -> bool:
        self._check(key)
        return super().__contains__(key)

    def __reduce__(self) -> Any:  # deepcopy and pickle (rollback) keep the view
        return (EffectParameters, (dict(self), self.declared))


def declared(eff: Mapping[str, Any]) -> EffectParameters:
    """``eff`` as its handler may read it (:class:`EffectParameters`). Raises ValueError for
    an effect type with no declaration."""
    params = PARAMETERS.get(eff["type"])
    if params is None:
        raise ValueError(f"unknown effect type {eff['type']!r}")
    return EffectParameters(eff, params)


def _path(parts: list[Any]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def unread_keys(card: Mapping[str, Any]) -> Iterator[tuple[list[Any], str]]:
    """Every key of a one-shot effect in ``card`` (a card file's JSON object, faces, tokens
    and nested effects included) that no handler reads, as ``(JSON path parts, message)``;
    an effect of an undeclared type is reported at its ``type``. The effects are the lists
    under ``effects`` keys (abilities, spells, modes, kicker effects, chapters) and, inside
    an effect, its parameters of kind :data:`EFFECTS` (``then``, ``else``, ``effects``)."""
    yield from _walk(card, [])


def _walk(node: Any, path: list[Any]) -> Iterator[tuple[list[Any], str]]:
    if isinstance(node, Mapping):
        for k, v in node.items():
            if k == "effects" and isinstance(v, (list, tuple)):
                for i, eff in enumerate(v):
                    yield from _effect(eff, path + [k, i])
            else:
                yield from _walk(v, path + [k])
    elif isinstance(node, (list, tuple)):
        for i, v in enumerate(node):
            yield from _walk(v, path + [i])


def _effect(eff: Any, path: list[Any]) -> Iterator[tuple[list[Any], str]]:
    if not isinstance(eff, Mapping):
        return
    params = PARAMETERS.get(eff.get("type"))  # type: ignore[arg-type]
    if params is None:
        yield path + ["type"], f"no handler for effect type {eff.get('type')!r}"
        return
    for key, value in eff.items():
        if key == "type":
            continue
        param = params.get(key)
        if param is None:
            yield path + [key], (f"effect {eff['type']!r} has no parameter {key!r}: no handler reads it "
                                 f"(its parameters: {', '.join(sorted(params)) or 'none'}; "
                                 "engine/effect_params.py)")
        elif param.kind.effects and isinstance(value, (list, tuple)):
            for i, inner in enumerate(value):
                yield from _effect(inner, path + [key, i])
        else:
            yield from _walk(value, path + [key])


def check_card(card: Mapping[str, Any], source: str) -> None:
    """Refuse a card whose effects carry a key no handler reads. Raises ScenarioError
    ``"<source>: <JSON path>: <message>"`` for the first such key."""
    for parts, message in unread_keys(card):
        raise ScenarioError(f"{source}: {_path(parts)}", message)
