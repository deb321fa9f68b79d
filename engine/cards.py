"""Card definitions: immutable, shared by every game (docs/FORMAT.md §5).

A card file is data: Oracle fields plus a declarative ability definition. The engine
interprets that data; nothing here knows a particular card.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from importlib.resources import files
from pathlib import Path
from typing import Any

from .effect_params import check_card
from .errors import ScenarioError
from .mana import ManaCost

CARD_TYPES = ("Artifact", "Creature", "Enchantment", "Instant", "Land", "Sorcery",
              "Planeswalker", "Battle", "Kindred")
PERMANENT_TYPES = {"Artifact", "Creature", "Enchantment", "Land", "Planeswalker", "Battle"}


class FrozenDict(dict[str, Any]):
    """A read-only dict: card data is shared by every game and never copied."""

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("card data is read-only")

    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]

    def __deepcopy__(self, memo: dict[int, Any]) -> "FrozenDict":
        return self

    def __copy__(self) -> "FrozenDict":
        return self


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return FrozenDict({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class CardDefinition:
    """One card's characteristics as printed (Oracle), plus its abilities as data.

    ``keywords`` is a tuple of normalized keyword dicts ``{"keyword": "flying"}``,
    ``{"keyword": "landwalk", "land_type": "Forest"}``…; ``abilities`` a tuple of ability
    dicts (read-only mappings); ``spell`` the spell ability of an instant or sorcery.
    ``layout`` is the card's layout (FORMAT §5.1) and ``faces`` its other faces, each a
    CardDefinition whose ``face`` says its role (``adventure``, ``omen``, ``prepare``,
    ``back``); the definition itself is the main face (``face`` None). ``meld`` is
    ``{"pair": name, "result": name}`` for a meld card (CR 712.4).
    """

    name: str
    mana_cost: ManaCost
    types: tuple[str, ...]
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    oracle_text: str = ""
    power: int | None = None
    toughness: int | None = None
    colors: tuple[str, ...] = ()
    keywords: tuple[dict[str, Any], ...] = ()
    abilities: tuple[dict[str, Any], ...] = ()
    spell: Any = None
    enchant: Any = None
    is_token: bool = False
    layout: str = "normal"
    faces: tuple[CardDefinition, ...] = ()
    meld: Any = None
    face: str | None = None
    raw: Any = field(default=None, compare=False, repr=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> "CardDefinition":  # immutable: share it
        return self

    @cached_property
    def static_abilities(self) -> tuple[dict[str, Any], ...]:
        """The card's static abilities (``"kind": "static"``), computed once (the definition
        is immutable): most cards have none, and the layers look at every permanent's."""
        return tuple(ab for ab in self.abilities if ab.get("kind") == "static")

    def get_face(self, role: str) -> "CardDefinition | None":
        """The face with that role (``"adventure"``, ``"omen"``, ``"prepare"``, ``"back"``),
        or None: FORMAT §5.1. The main face is the definition itself (``face`` None)."""
        for f in self.faces:
            if f.face == role:
                return f
        return None

    @property
    def is_permanent_card(self) -> bool:
        """CR 110.4a: artifact, creature, enchantment, land, planeswalker or battle."""
        return any(t in PERMANENT_TYPES for t in self.types)

    @staticmethod
    def from_dict(data: dict[str, Any], source: str = "card") -> "CardDefinition":
        """Build a definition from a card file's JSON object.

        Raises ScenarioError naming ``source`` and the field when a field is malformed, or
        when an effect carries a key no handler reads (``effect_params.check_card``).
        """
        check_card(data, source)
        try:
            cost = ManaCost.parse(data.get("mana_cost")) if "mana_cost" in data else ManaCost.parse(None)
        except ValueError as exc:
            raise ScenarioError(f"{source}: $.mana_cost", str(exc)) from None
        colors = tuple(data["colors"]) if "colors" in data else tuple(cost.colors())
        keywords = tuple(_freeze(normalize_keyword(k)) for k in data.get("keywords", ()))
        return CardDefinition(
            name=data["name"],
            mana_cost=cost,
            types=tuple(data.get("types", ())),
            subtypes=tuple(data.get("subtypes", ())),
            supertypes=tuple(data.get("supertypes", ())),
            oracle_text=data.get("oracle_text", ""),
            power=data.get("power"),
            toughness=data.get("toughness"),
            colors=colors,
            keywords=keywords,
            abilities=_freeze(list(data.get("abilities", ()))),
            spell=_freeze(data.get("spell")),
            enchant=_freeze(data.get("enchant")),
            is_token=bool(data.get("is_token", False)),
            layout=data.get("layout", "normal"),
            faces=tuple(CardDefinition.from_dict(f, source=f"{source}: $.faces[{i}]")
                        for i, f in enumerate(data.get("faces", ()))),
            meld=_freeze(data.get("meld")),
            face=data.get("face"),
            raw=_freeze(data),
        )

    @staticmethod
    def token(spec: dict[str, Any], adds_token: bool = True) -> "CardDefinition":
        """A token's definition from a ``create_token`` effect's ``token`` spec (CR 111.3);
        its name is the spec's ``name``, else :func:`token_name` (CR 111.4; ``adds_token``:
        the ruleset's ``token_name_adds_token``)."""
        data = dict(spec)
        data["name"] = token_name(spec, adds_token)
        data.setdefault("mana_cost", None)
        data["is_token"] = True
        data.setdefault("types", ["Creature"])
        data["colors"] = list(spec.get("colors", ()))
        d = CardDefinition.from_dict(data, source=f"token {data['name']}")
        return d


def token_name(spec: Any, adds_token: bool = True) -> str:
    """The name of a token with characteristics ``spec`` (CR 111.4): the ``name`` the effect
    gives it ("create Boo, a legendary 1/1 red Hamster creature token"), else its subtypes
    (its card types if it has none) in order, plus the word "Token" when ``adds_token``
    (current CR 111.4: a "1/1 white Spirit creature token" is named "Spirit Token"; the
    older rules named it "Spirit")."""
    if spec.get("name"):
        return str(spec["name"])
    words = " ".join(spec.get("subtypes") or spec.get("types") or ())
    return f"{words} Token" if adds_token else words


def describe(data: Any) -> str:
    """A canonical one-line text of card data for messages (sorted keys: a message must not
    depend on the order keys came in)."""
    return json.dumps(data, sort_keys=True, default=dict)


def normalize_keyword(k: Any) -> dict[str, Any]:
    """``"flying"`` → ``{"keyword": "flying"}``; an object is returned as a plain dict."""
    if isinstance(k, str):
        return {"keyword": k}
    return dict(k)


def load_card_db(cards: str | Path | dict[str, Any] | None = None) -> dict[str, CardDefinition]:
    """Load card definitions.

    ``cards`` is a folder of card files (default: the project's ``fixtures/cards``), or a
    dict ``{name: card dict}`` (as sent in a protocol ``run`` message).
    Returns ``{name: CardDefinition}``. Raises ScenarioError for a malformed card.
    """
    if isinstance(cards, dict):
        return {name: CardDefinition.from_dict(d, source=f"cards[{name!r}]") for name, d in cards.items()}
    folder = Path(cards) if cards is not None else Path(str(files("mtg_judge.fixtures"))) / "cards"
    db: dict[str, CardDefinition] = {}
    for path in sorted(folder.glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ScenarioError(str(path), f"invalid JSON: {exc}") from None
        d = CardDefinition.from_dict(data, source=str(path))
        db[d.name] = d
    return db
