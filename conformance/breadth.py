"""Breadth: how many of the cards the project is asked to play are fully expressible as data
the reference engine executes (issue 23 item 4; ``mtg-judge coverage --cards``).

The *named cards* are the cards the seed documents name (``conformance/named_cards.json``,
regenerated from the glossary by ``python -m mtg_judge.tools.named_cards``) and every card of
the self-play and fuzz decks (``fixtures/decks/*.txt``). A named card is:

- ``expressed``: its card file exists and lists nothing in ``unexpressed`` (FORMAT §5: the
  parts of the Oracle text the file leaves out or approximates), nor does the card it melds
  into (a meld pair's back face, CR 712.4, is part of each card of the pair);
- ``unexpressed``: its file lists something (an approximation counts as missing);
- ``absent``: no card file has its name.

Plainly named test cards ("Test ...", written where no real card fits) are counted apart:
the figure is over real cards.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from mtg_judge.conformance.resources import CARDS_DIR, DECKS_DIR, package_path

#: The cards the seed documents name (``{"version", "source", "cards": [{"name", "italian",
#: "documents"}]}``).
NAMED_CARDS_PATH = package_path("mtg_judge.conformance") / "named_cards.json"

#: The share of real named cards that must be fully expressible (issue 23's "done when").
BREADTH_BAR = 0.95


@dataclass(frozen=True)
class NamedCard:
    """One named card: ``name`` (English Oracle name, a file's ``name``), ``sources`` (sorted:
    document ids of ``rulings.json`` and ``deck:<deck file stem>``), ``status`` (``expressed``,
    ``unexpressed`` or ``absent``), ``missing`` (the ``unexpressed`` entries, those of its meld
    result prefixed with that card's name), ``test_card`` (a plainly named test card)."""

    name: str
    sources: tuple[str, ...]
    status: str
    missing: tuple[str, ...] = ()
    test_card: bool = False


@dataclass
class Breadth:
    """The breadth figure: ``cards`` (every named card, sorted by name); ``expressed`` and
    ``real`` count the real (non-test) cards; ``rate`` is expressed / real (0.0 for none)."""

    cards: list[NamedCard] = field(default_factory=list)

    @property
    def real(self) -> list[NamedCard]:
        return [c for c in self.cards if not c.test_card]

    @property
    def expressed(self) -> int:
        return sum(c.status == "expressed" for c in self.real)

    @property
    def rate(self) -> float:
        return self.expressed / len(self.real) if self.real else 0.0


def load_named(path: Path = NAMED_CARDS_PATH) -> dict[str, list[str]]:
    """``{card name: [document ids]}`` of ``named_cards.json``. Raises ValueError naming the
    file and what is wrong for a malformed one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return {c["name"]: list(c["documents"]) for c in data["cards"]}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"{path}: expected {{\"cards\": [{{\"name\", \"documents\"}}]}} "
                         f"({type(exc).__name__}: {exc})") from None


def deck_cards(decks_dir: Path = DECKS_DIR) -> dict[str, list[str]]:
    """``{card name: [deck file stems]}`` of every ``*.txt`` deck list (``<count> <name>``
    lines, ``#`` comments), read as text: a name no card file has is kept (it is absent)."""
    named: dict[str, list[str]] = {}
    for path in sorted(Path(decks_dir).glob("*.txt")):
        for raw in path.read_text(encoding="utf-8").splitlines():
            m = re.fullmatch(r"\d+\s+(.+)", raw.strip())
            if m and not raw.strip().startswith("#"):
                named.setdefault(m.group(1).strip(), []).append(path.stem)
    return named


def card_files(cards_dir: Path = CARDS_DIR) -> dict[str, dict]:
    """``{name: card file dict}`` of every ``*.json`` of ``cards_dir``. Raises ValueError
    naming a file that is not JSON."""
    files: dict[str, dict] = {}
    for path in sorted(Path(cards_dir).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise ValueError(f"{path}: not JSON: {exc}") from None
        files[data["name"]] = data
    return files


def measure(cards_dir: Path = CARDS_DIR, decks_dir: Path = DECKS_DIR,
            named_path: Path = NAMED_CARDS_PATH) -> Breadth:
    """The :class:`Breadth` of the named cards of ``named_path`` and the decks of
    ``decks_dir``, judged by the card files of ``cards_dir``. Raises ValueError for a
    malformed named-cards file or card file."""
    sources: dict[str, set[str]] = {}
    for name, docs in load_named(named_path).items():
        sources.setdefault(name, set()).update(docs)
    for name, decks in deck_cards(decks_dir).items():
        sources.setdefault(name, set()).update(f"deck:{d}" for d in decks)
    files = card_files(cards_dir)
    cards = []
    for name in sorted(sources):
        test_card = name.startswith("Test ")
        data = files.get(name)
        if data is None:
            cards.append(NamedCard(name, tuple(sorted(sources[name])), "absent", test_card=test_card))
            continue
        missing = list(data.get("unexpressed") or [])
        result = (data.get("meld") or {}).get("result")
        if result in files:
            missing += [f"{result}: {m}" for m in files[result].get("unexpressed") or []]
        cards.append(NamedCard(name, tuple(sorted(sources[name])),
                               "unexpressed" if missing else "expressed", tuple(missing), test_card))
    return Breadth(cards)


def format_breadth(breadth: Breadth, missing: bool = True) -> str:
    """The text report: a table per source (the documents, the decks: named real cards,
    expressed, unexpressed, absent), the figure against :data:`BREADTH_BAR`, then with
    ``missing`` every real card not fully expressed with what it lacks."""
    groups: dict[str, list[NamedCard]] = {}
    for card in breadth.real:
        for group in sorted({"decks" if s.startswith("deck:") else s for s in card.sources}):
            groups.setdefault(group, []).append(card)
    head = ("named by", "cards", "expressed", "unexpressed", "absent")
    rows = [(g, *(str(n) for n in (len(cs), *(sum(c.status == s for c in cs)
                                              for s in ("expressed", "unexpressed", "absent")))))
            for g, cs in sorted(groups.items(), key=lambda kv: (kv[0] == "decks", kv[0]))]
    real = breadth.real
    rows.append(("all (each card once)", str(len(real)), str(breadth.expressed),
                 str(sum(c.status == "unexpressed" for c in real)),
                 str(sum(c.status == "absent" for c in real))))
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(5)]
    fmt = lambda r: "  ".join(r[0].ljust(widths[0]) if i == 0 else r[i].rjust(widths[i])  # noqa: E731
                              for i in range(5)).rstrip()
    lines = [fmt(head), "-" * len(fmt(head)), *(fmt(r) for r in rows[:-1]), "-" * len(fmt(head)), fmt(rows[-1])]
    tests = len(breadth.cards) - len(real)
    lines.append(f"breadth: {breadth.expressed}/{len(real)} named real cards fully expressible "
                 f"({breadth.rate:.1%}; the bar is {BREADTH_BAR:.0%}); {tests} test cards not counted")
    if missing:
        for card in real:
            if card.status == "absent":
                lines.append(f"  absent       {card.name} ({', '.join(card.sources)}): no card file")
            elif card.status == "unexpressed":
                lines.append(f"  unexpressed  {card.name} ({', '.join(card.sources)}):")
                lines += [f"      - {m}" for m in card.missing]
    return "\n".join(lines)


def breadth_json(breadth: Breadth) -> dict:
    """``{"expressed", "real", "rate", "bar", "cards": [{"name", "sources", "status",
    "missing", "test_card"}]}``."""
    return {"expressed": breadth.expressed, "real": len(breadth.real), "rate": round(breadth.rate, 4),
            "bar": BREADTH_BAR,
            "cards": [{"name": c.name, "sources": list(c.sources), "status": c.status,
                       "missing": list(c.missing), "test_card": c.test_card} for c in breadth.cards]}


__all__ = ["BREADTH_BAR", "NAMED_CARDS_PATH", "Breadth", "NamedCard", "breadth_json", "card_files",
           "deck_cards", "format_breadth", "load_named", "measure"]
