"""Our card files (FORMAT §5) as phase cards, and phase engines whose card database holds a
scenario's cards (cached per process).

Cards (FORMAT §5). Each card of ``scenario["cards"]`` is turned into the MTGJSON shape
(``name``, ``manaCost``, ``manaValue``, ``colors``, ``type``/``types``/``subtypes``/
``supertypes``, ``text`` = our ``oracle_text``, ``power``/``toughness``, and ``keywords``:
the card's keyword names as MTGJSON spells them, which phase needs to read a bare keyword
line such as "Flying") and given to ``build_oracle_face``. A card with faces (FORMAT §5.1)
is two card-database entries with ``layout`` and ``face_index``, as phase's generator
(``phase/gen.py``) makes them (an Omen is filed as ``adventure``), built by
``build_oracle_face_multi`` with one oracle id shared by both faces (a fixed UUID made from
the card's name): phase joins the faces of a card by that id, and without it the card has no
back face to cast. A ``meld`` card is filed as phase's generator files MTGJSON's meld
cards: the card and its melded face (the ``meld_result`` card the scenario brings), layout
``meld``, face indexes 0 and 1 (:func:`build_meld`). Our machine-readable
``abilities`` are ignored: phase plays what its parser makes of the Oracle text. A card
whose text phase parses (even partly) as ``Unimplemented`` is not guessed at: every scenario
that uses it is skipped, naming the card and the text.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable
from typing import Any, cast

from mtg_judge.tools.adapters.common import Skip
from mtg_judge.tools.adapters.phase.binding import PHASE_VERSION, phase
from mtg_judge.tools.adapters.phase.vocabulary import COLOR_LETTER


def _mana_symbols(cost: str | None) -> list[str]:
    return re.findall(r"\{([^}]*)\}", cost or "")


#: Our layouts (FORMAT §5.1) as phase's card database spells them: phase's own generator
#: (``phase/gen.py``) files an Omen card under ``adventure`` (MTGJSON calls it
#: ``reversible_card``), and a two-faced card as two entries with ``layout`` and ``face_index``.
PHASE_LAYOUTS = {"adventure": "adventure", "omen": "adventure", "prepare": "prepare",
                 "transform": "transform"}


def mtgjson_card(card: dict) -> dict:
    """Our card file (FORMAT §5) in the MTGJSON ``AtomicCard`` shape that
    ``phase.build_oracle_face`` reads: the main face of a card with faces (each other face
    goes through :func:`mtgjson_faces`). Raises :class:`Skip` for what has no MTGJSON form
    here (a meld card: phase's generator files meld pairs by MTGJSON's three-face groups)."""
    if card.get("layout", "normal") not in ("normal", *PHASE_LAYOUTS) or "face" in card:
        if "face" not in card:
            raise Skip(f"{card['name']}: layout {card.get('layout')!r} is not translated")
    if "colors" in card:
        colors = [COLOR_LETTER.get(c, c) for c in card["colors"]]
    else:
        found = {part for sym in _mana_symbols(card.get("mana_cost")) for part in sym.split("/")}
        colors = [c for c in "WUBRG" if c in found]
    mana_value = 0
    for sym in _mana_symbols(card.get("mana_cost")):
        # CR 202.3f: a hybrid symbol counts its largest component ({2/W} is 2)
        mana_value += max(int(p) if p.isdigit() else (0 if p == "X" else 1) for p in sym.split("/"))
    keywords = []
    for kw in card.get("keywords", []):
        if isinstance(kw, str):
            keywords.append(kw.replace("_", " ").capitalize())
        elif kw.get("keyword") == "landwalk":
            keywords.append(f"{kw['land_type']}walk")
        elif kw.get("keyword") == "protection":
            keywords.append("Protection")
        elif isinstance(kw.get("keyword"), str):
            # MTGJSON lists a keyword with a cost or a number by its name alone ("Suspend",
            # "Kicker"); the Oracle text holds the rest ("Suspend 5—{B}")
            keywords.append(kw["keyword"].replace("_", " ").capitalize())
        else:
            raise Skip(f"{card['name']}: keyword {kw} has no MTGJSON name here")
    if card.get("enchant") is not None or "Aura" in card.get("subtypes", []):
        keywords.append("Enchant")  # as MTGJSON lists it for every Aura
    out = {"name": card["name"], "manaCost": card.get("mana_cost") or None,
           "manaValue": mana_value, "colors": colors, "colorIdentity": colors,
           "type": card["type_line"], "types": list(card["types"]),
           "subtypes": list(card.get("subtypes", ())), "supertypes": list(card.get("supertypes", ())),
           "text": card.get("oracle_text", ""), "keywords": keywords, "layout": "normal",
           "identifiers": {}}
    if "power" in card:
        out["power"], out["toughness"] = str(card["power"]), str(card["toughness"])
    return out


def _unimplemented(face: Any) -> list[str]:
    """The descriptions of the parts of a built face that phase marks ``Unimplemented``."""
    found = []
    if isinstance(face, dict):
        if face.get("type") == "Unimplemented":
            found.append(str(face.get("description") or face.get("name")))
        for value in face.values():
            found += _unimplemented(value)
    elif isinstance(face, list):
        for value in face:
            found += _unimplemented(value)
    return found


def card_key(card: dict) -> str:
    """The cache key of a card file's contents: its ``repr`` (a card read from the same JSON
    text has the same key order, so the same key; two different cards never share one),
    cheaper than ``json.dumps(..., sort_keys=True)``, which each scenario paid for each of
    its cards."""
    return repr(card)


_FACES: dict[str, Any] = {}

_ENGINES: dict[tuple, Any] = {}


def mtgjson_faces(card: dict) -> list[dict]:
    """Every face of a card with faces (FORMAT §5.1), main face first, each in the MTGJSON
    shape with the ``side`` and ``layout`` phase's generator expects."""
    layout = card.get("layout", "normal")
    out = []
    for side, face in zip("ab", [card, *card.get("faces", ())]):
        entry = mtgjson_card(face)
        entry["layout"], entry["side"] = PHASE_LAYOUTS[layout], side
        if side == "b":
            entry["faceName"] = face["name"]
        out.append(entry)
    return out


def build_entries(card: dict) -> dict:
    """phase card-database entries (``{lowercase face name: CardFace}``) for one of our
    cards: one entry for a normal card; for a card with faces, one per face with ``layout``
    and ``face_index``, as phase's generator makes them. Raises :class:`Skip`."""
    if card.get("layout", "normal") == "normal":
        return {card["name"].lower(): build_face(card)}
    layout = PHASE_LAYOUTS.get(card["layout"], card["layout"])  # an unknown one: mtgjson_faces' Skip
    return _built_faces("multi:" + card_key(card), card["name"], lambda: mtgjson_faces(card),
                        lambda i, f: f["name"], layout)


def _built_faces(key: str, name: str, faces: Callable[[], list[dict]],
                 entry_name: Callable[[int, dict], str], layout: str) -> dict:
    """The card-database entries of the faces ``faces()`` of the card ``name``, built with
    one oracle id (phase joins the faces of one card by it: a fixed id made from the name
    stands in for Scryfall's), each under ``entry_name(index, face).lower()`` with
    ``layout`` and ``face_index``; cached in ``_FACES`` under ``key``. Raises :class:`Skip`
    (a face phase refuses or does not implement)."""
    if key not in _FACES:
        try:
            oracle_id = str(uuid.uuid5(uuid.NAMESPACE_URL, "mtg-judge:" + name))
            built = [phase.build_oracle_face_multi(f, oracle_id) for f in faces()]
        except Skip as exc:
            _FACES[key] = exc
        except Exception as exc:  # noqa: BLE001 - phase refuses the card
            _FACES[key] = Skip(f"phase cannot build {name}: {exc}")
        else:
            missing = [m for f in built for m in _unimplemented(f)]
            _FACES[key] = (Skip(f"phase does not implement part of {name}'s Oracle "
                                f"text (phase-python {PHASE_VERSION}): {'; '.join(missing)}")
                           if missing else
                           {entry_name(i, f).lower(): dict(f, layout=layout, face_index=i)
                            for i, f in enumerate(built)})
    entries = _FACES[key]
    if isinstance(entries, Skip):
        raise entries
    return cast(dict, entries)


def build_face(card: dict) -> dict:
    """phase's ``CardFace`` for one of our cards (cached by the card's JSON)."""
    key = card_key(card)
    if key not in _FACES:
        try:
            face = phase.build_oracle_face(mtgjson_card(card), None)
        except Skip:
            raise
        except Exception as exc:  # noqa: BLE001 - phase refuses the card
            _FACES[key] = Skip(f"phase cannot build {card['name']}: {exc}")
        else:
            missing = _unimplemented(face)
            _FACES[key] = (Skip(f"phase does not implement part of {card['name']}'s Oracle "
                                f"text (phase-python {PHASE_VERSION}): {'; '.join(missing)}")
                           if missing else face)
    face = _FACES[key]
    if isinstance(face, Skip):
        raise face
    return cast(dict, face)


def build_meld(card: dict, result: dict | None) -> dict:
    """phase card-database entries for a meld card (FORMAT §5.1, CR 712.4): as phase's
    generator files MTGJSON's meld cards, the card (``face_index`` 0) and its melded face,
    the ``meld_result`` card the scenario brings with it (``face_index`` 1), both of layout
    ``meld`` and built with one oracle id. phase's meld effect (its parser's ``Meld``,
    "exile them, then meld them into N") names the result by name. Raises :class:`Skip`
    (no result card, a part phase does not implement)."""
    if result is None:
        raise Skip(f"{card['name']}: its meld result {((card.get('meld') or {}).get('result'))!r} "
                   "is not among the scenario's cards")
    def faces() -> list[dict]:
        front = dict(mtgjson_card(dict(card, layout="normal")), layout="meld", side="a")
        back = dict(mtgjson_card(dict(result, layout="normal")), layout="meld", side="b",
                    faceName=result["name"])
        return [front, back]

    # phase finds a back face by its front's oracle id (the one other face filed under it);
    # the database ignores its entries' keys, so the melded face is entered once per card of
    # the pair, each time with that card's oracle id
    return _built_faces("meld:" + card_key(card) + card_key(result), card["name"], faces,
                        lambda i, f: f["name"] if i == 0 else f"{f['name']} (melded from {card['name']})",
                        "meld")


def build_engine(cards: dict[str, dict]) -> Any:
    """A phase ``Engine`` whose card database holds exactly ``cards`` (cached). A meld card
    brings its melded face (:func:`build_meld`); a ``meld_result`` card is entered only
    that way."""
    key = tuple(sorted((name, card_key(card)) for name, card in cards.items()))
    if key not in _ENGINES:
        faces: dict[str, Any] = {}
        for card in cards.values():
            if card.get("layout") == "meld_result":
                continue
            if card.get("layout") == "meld":
                result = cards.get(str((card.get("meld") or {}).get("result")))
                entries = build_meld(card, result)
                faces.update(entries)
                if result is not None:
                    # phase's meld effect finds the melded face by its name: it is also
                    # filed under that name, with an oracle id of its own (as Scryfall gives
                    # the melded card one)
                    back = next(v for v in entries.values() if v.get("face_index") == 1)
                    faces[result["name"].lower()] = dict(back, scryfall_oracle_id=str(
                        uuid.uuid5(uuid.NAMESPACE_URL, "mtg-judge:" + result["name"])))
                continue
            faces.update(build_entries(card))
        _ENGINES[key] = phase.Engine.from_json(json.dumps(faces))
        if len(_ENGINES) > 64:
            _ENGINES.pop(next(iter(_ENGINES)))
    return _ENGINES[key]
