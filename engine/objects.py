"""Game objects: players, cards and tokens in zones, and objects on the stack (CR 109, 400.7)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import CardDefinition
from .mana import ManaCost, ManaPool

# CR 708.2a: a face-down spell or permanent is a 2/2 creature with no text, no name, no
# subtypes and no mana cost (mana value 0), and colorless.
FACE_DOWN = CardDefinition(name="", mana_cost=ManaCost(present=False), types=("Creature",), power=2, toughness=2)


@dataclass
class Player:
    """A player (CR 102): ``id``, life total, zones owned by the player, mana pool."""

    id: str
    life: int = 20
    library: list[GameObject] = field(default_factory=list)
    hand: list[GameObject] = field(default_factory=list)
    graveyard: list[GameObject] = field(default_factory=list)
    exile: list[GameObject] = field(default_factory=list)
    pool: ManaPool = field(default_factory=ManaPool)
    lost: bool = False
    drew_from_empty: bool = False  # CR 704.5b, checked at the next state-based action check
    lands_played: int = 0
    upkeeps: int = 0  # upkeep steps of this player's turns begun so far (echo, CR 702.30a)
    life_gained_this_turn: int = 0  # CR 119.3; infusion (engine/bookkeeping.py)

    def zone(self, name: str) -> list[GameObject]:
        """The player's zone of that name (``library``, ``hand``, ``graveyard``, ``exile``)."""
        cards: list[GameObject] = getattr(self, name)
        return cards


@dataclass
class GameObject:
    """A card or token in a zone; a new one each time it changes zones (CR 400.7).

    ``ref`` is the reference used in the log (``bolt``, ``bolt#2``, ``token#1``);
    ``card`` is the stable alias of the card (or the token's own ref).
    Battlefield status (CR 110.5): ``tapped``, ``damage`` (marked this turn),
    ``counters`` ({kind: n}), ``attached_to`` (ref), ``summoning_sick`` (CR 302.6),
    ``regen_shields`` (CR 701.19).
    """

    ref: str
    card: str
    definition: CardDefinition
    owner: str
    zone: str
    controller: str | None = None
    timestamp: int = 0
    tapped: bool = False
    damage: int = 0
    counters: dict[str, Any] = field(default_factory=dict)
    attached_to: str | None = None
    summoning_sick: bool = False
    regen_shields: int = 0
    attacked_this_turn: bool = False
    dealt_deathtouch_damage: bool = False
    face_down: bool = False
    kicked: tuple[int, ...] = ()
    upkeep_mark: int = -1
    haste_from_suspend: str | None = None
    exile_on_leaving_stack: bool = False
    exile_rule: str | None = None  # the rule that exiles it as it leaves the stack (default 702.34a)
    may_cast_free_by: str | None = None
    chosen_name: str | None = None
    is_copy: bool = False
    paradigm_copy: bool = False  # a copy made by paradigm (engine/paradigm.py; not a prepared copy, engine/prepare.py)
    cast_face: str | None = None  # a spell cast as a face, e.g. "omen" (engine/faces.py)
    adventure_by: str | None = None  # exiled on an adventure: who may cast it (engine/adventure.py)
    card_definition: CardDefinition | None = None  # then: the whole card (``definition`` is the face)
    mana_spent: dict[str, Any] | None = None  # mana spent to cast it, CR 601.2h (engine/bookkeeping.py)
    cast_from: str | None = None  # the zone it was cast from (CR 601.2a), kept by the permanent it became (CR 608.3)
    melded_with: tuple[str, CardDefinition] | None = None  # a melded permanent: (alias, card) of its other card (engine/transform.py)
    prepared: bool = False  # the prepared designation (engine/prepare.py)
    prepared_copy: str | None = None  # a prepared permanent: its prepare spell's copy in exile
    prepared_for: str | None = None  # that copy: the permanent it is linked to
    phased_out_under: str | None = None  # phased out: the player it phases in for (engine/phasing.py)
    phased_out_indirectly: bool = False  # phased out with the permanent it is attached to (CR 702.26g)
    #: under a copy effect until end of turn: the (definition, card_definition) it had before
    #: (engine/copy_effects.py; put back in the cleanup step, CR 514.2)
    copy_effect_saved: tuple[CardDefinition, CardDefinition | None] | None = None
    #: the game's layer system (engine/layers/system.py), which knows this object's
    #: characteristics after continuous effects (CR 613); None for an object outside a game
    layers: Any = field(default=None, repr=False, compare=False)

    @property
    def chars(self) -> CardDefinition:
        """The characteristics the game sees: the card's, or a face-down 2/2's (CR 708.2)."""
        return FACE_DOWN if self.face_down else self.definition

    @property
    def name(self) -> str | None:
        """The object's name; ``None`` face down or nameless (a copy of a face-down
        permanent, CR 707.2, 708.2a)."""
        return None if self.face_down or not self.definition.name else self.definition.name

    @property
    def is_token(self) -> bool:
        return self.definition.is_token

    def copy(self) -> "GameObject":
        """A copy of the object as it is now, e.g. its last known information (CR 113.7a,
        603.10): its own ``counters``; the card data is shared (it is immutable)."""
        new = GameObject.__new__(GameObject)
        new.__dict__.update(self.__dict__)
        new.counters = dict(self.counters)
        return new


@dataclass
class StackItem:
    """A spell or ability on the stack (CR 405).

    ``kind`` is ``spell`` or ``ability``; for a spell ``obj`` is the card object on the
    stack; for an ability ``source`` is the ref of its source and ``source_lki`` the source
    as it last existed (CR 113.7a). ``ability`` is the ability's data (for a spell: the
    spell ability built from the card), ``targets`` the chosen targets as refs or player
    ids (one list per target spec), ``x`` the value of X, ``modes`` the chosen modes.
    """

    ref: str
    kind: str
    controller: str
    ability: Any
    obj: GameObject | None = None
    source: str | None = None
    source_card: str | None = None
    source_lki: GameObject | None = None
    ability_index: int | None = None
    targets: list[str | None] = field(default_factory=list)
    x: int = 0
    modes: list[int] = field(default_factory=list)
    trigger_event: dict[str, Any] | None = None
    cast: bool = True
    cast_in_main_phase: bool = False
    kicked: tuple[int, ...] = ()
    buyback: bool = False
    alternative: str | None = None
    spell_lki: Any = None  # storm: the spell as it last existed
    beheld: Any = None  # behold: what was beheld as it was cast (engine/endure_behold.py)

    @property
    def card(self) -> str:
        return self.obj.card if self.obj is not None else self.ref

    def copy(self) -> "StackItem":
        """A copy of the spell or ability as it is now (storm copies a spell as it last
        existed, CR 702.40a): its objects copied (:meth:`GameObject.copy`), its own target
        and mode lists and trigger information; the ability data is shared (never changed)."""
        new = StackItem.__new__(StackItem)
        new.__dict__.update(self.__dict__)
        new.obj = self.obj.copy() if self.obj is not None else None
        new.source_lki = self.source_lki.copy() if self.source_lki is not None else None
        new.targets = list(self.targets)
        new.modes = list(self.modes)
        new.trigger_event = dict(self.trigger_event) if self.trigger_event is not None else None
        return new


@dataclass
class ContinuousEffect:
    """A continuous effect from a resolved spell or ability (CR 611.2), with its timestamp.

    ``affected`` is the set of object refs it applies to, locked in as it began (CR 611.2c);
    ``kind`` names what it does, and so its layer (engine/layers/apply.py ``LAYER_OF``):
    ``gain_card_types`` / ``lose_card_types`` (``types``: card types), ``all_creature_types``,
    ``no_creature_types``, ``set_creature_type`` (``creature_type``: the one chosen; layer 4),
    ``add_creature_types`` (``subtypes``: creature types it has in addition; layer 4),
    ``set_colors`` (``colors``; layer 5), ``grant_keywords`` (``keywords``; layer 6),
    ``set_pt`` (7b), ``modify_pt`` (7c, ``power``/``toughness``), or ``no_combat_damage``
    (no layer), or ``control`` (``player`` controls the one object; ``previous``: who
    controlled it as the effect began; no layer here, engine/effects.py ``restore_control``).
    ``until`` is ``end_of_turn`` (ends in the cleanup step, CR 514.2), ``end_of_combat``
    (ends as the end of combat step ends, CR 511.3; engine/combat_effects.py) or
    ``end_of_game`` (no duration stated, CR 611.2a): :func:`effect_duration`. Kind
    ``must_attack``: a requirement to attack (CR 508.1d, no layer).
    """

    kind: str
    affected: list[str]
    timestamp: int
    power: int = 0
    toughness: int = 0
    keywords: tuple[str, ...] = ()
    until: str = "end_of_turn"
    types: tuple[str, ...] = ()  # card types (CR 205.2a), never subtypes
    creature_type: str = ""  # set_creature_type: the creature type chosen (CR 205.3m)
    subtypes: tuple[str, ...] = ()  # add_creature_types: creature types gained (CR 205.1b)
    colors: tuple[str, ...] = ()
    player: str = ""
    previous: str = ""

    def __post_init__(self) -> None:
        """One field, one meaning: ``types`` holds card types, ``creature_type`` the creature
        type a ``set_creature_type`` effect chose. Raises ValueError for a
        ``set_creature_type`` effect with ``types`` or without ``creature_type``."""
        if self.kind == "set_creature_type" and (self.types or not self.creature_type):
            raise ValueError("a set_creature_type effect names its creature type in creature_type, not types")


def effect_duration(eff: Any) -> str:
    """How long the continuous effect an effect dict creates lasts: its ``duration``
    (``end_of_turn``, CR 514.2; ``end_of_combat``, CR 511.3), or ``end_of_game`` when it states none (CR 611.2a: "If no
    duration is stated, it lasts until the end of the game"; card.schema.json ``duration``:
    "absent: indefinitely")."""
    return str(eff.get("duration") or "end_of_game")


@dataclass
class Shield:
    """A prevention shield (CR 615): prevents the next ``amount`` damage (None = all) that
    would be dealt to ``to`` (object ref or player id) this turn, optionally only from the
    object ``source``."""

    to: str
    amount: int | None
    source: str | None = None
