"""The cards the seed documents name, as data: ``conformance/named_cards.json`` regenerated
from the glossary's table "Card names in the seeds" (``../shared/GLOSSARY.md``: Italian name,
English Oracle name) and the seeds themselves (which documents use each Italian name).

The breadth figure (``mtg-judge coverage --cards``, :mod:`mtg_judge.conformance.breadth`,
issue 23 item 4) reads this file, so that it works from a wheel, where the seeds are not.

    python -m mtg_judge.tools.named_cards [--shared DIR] [--check]

``--shared``: the folder holding ``GLOSSARY.md``, ``seeds/`` and ``rulings.json`` (default:
``../shared`` beside the checkout). ``--check`` writes nothing and exits 1 when the file is out
of date. Exit 2 when the glossary or the seeds can't be read or the table is not found.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click

from mtg_judge.conformance.breadth import NAMED_CARDS_PATH
from mtg_judge.tools.generated_doc import write_or_check

#: The glossary's heading over the table of card names.
TABLE_HEADING = "## Card names in the seeds"


def english_name(cell: str) -> str:
    """The English Oracle name of a glossary cell: its first face (``A // B`` -> ``A``),
    without a parenthesised gloss (``Enfeeblement (−2/−2 aura)`` -> ``Enfeeblement``); a
    cell that describes a card by example ("a 1999 ... healer, e.g. Samite Healer") gives the
    example."""
    example = re.search(r"\be\.g\.\s*(.+)$", cell)
    name = example.group(1) if example else cell
    name = re.sub(r"\s*\([^)]*\)", "", name).split(" // ")[0]
    return name.strip()


def glossary_rows(text: str) -> list[tuple[str, str]]:
    """``[(italian, english cell)]`` of the glossary's card-name table, in its order.
    Raises ValueError when the table is missing or empty."""
    if TABLE_HEADING not in text:
        raise ValueError(f"no {TABLE_HEADING!r} table")
    section = text.split(TABLE_HEADING, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or not line.lstrip().startswith("|") or set(cells[0]) <= {"-", " "}:
            continue
        if cells[0].lower() == "italian":
            continue
        rows.append((cells[0], cells[1]))
    if not rows:
        raise ValueError(f"the {TABLE_HEADING!r} table has no rows")
    return rows


def build(shared: Path) -> dict:
    """``{"version": 1, "source": ..., "cards": [{"name", "italian", "documents"}]}``:
    each glossary row with the documents (ids of ``rulings.json``) whose seed text holds the
    Italian name (each face of ``A // B`` searched alone; case-insensitive), sorted by name."""
    glossary = (shared / "GLOSSARY.md").read_text(encoding="utf-8")
    catalog = json.loads((shared / "rulings.json").read_text(encoding="utf-8"))
    texts = {doc: (shared / "seeds" / meta["file"]).read_text(encoding="utf-8").lower()
             for doc, meta in catalog["documents"].items()}
    cards: list[dict] = []
    for italian, cell in glossary_rows(glossary):
        faces = [f.strip().lower() for f in italian.split("//")]
        docs = sorted(doc for doc, text in texts.items() if any(f and f in text for f in faces))
        cards.append({"name": english_name(cell), "italian": italian, "documents": docs})
    cards.sort(key=lambda c: str(c["name"]))
    return {"version": 1,
            "source": "GLOSSARY.md, 'Card names in the seeds' (python -m mtg_judge.tools.named_cards)",
            "cards": cards}


@click.command()
@click.option("--shared", type=click.Path(file_okay=False, path_type=Path),
              default=Path(__file__).resolve().parents[2] / "shared", show_default="../shared",
              help="The folder with GLOSSARY.md, seeds/ and rulings.json.")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 if the file is out of date.")
def main(shared: Path, check: bool) -> None:
    """Regenerate conformance/named_cards.json from the glossary and the seeds."""
    try:
        data = build(shared)
    except (OSError, ValueError, KeyError) as exc:
        click.echo(f"error: {shared}: {exc}", err=True)
        sys.exit(2)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    sys.exit(write_or_check(NAMED_CARDS_PATH, text, check, "mtg_judge.tools.named_cards"))


if __name__ == "__main__":
    main()
