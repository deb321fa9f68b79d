"""``mtg-judge validate``: schema checks plus the cross-file checks a schema cannot make.

:func:`lint` checks a fixtures folder (``fixtures/``: ``cards/``, ``untestable.json`` and
``<document>/<mechanic>/<name>.json``) and returns every problem as a
:class:`~mtg_judge.conformance.loader.FixtureError` naming the file (relative to the folder's parent,
e.g. ``fixtures/classic/stack/lifo.json``), the JSON path and what was expected.
"""

from __future__ import annotations

import difflib
import json
import re
from pathlib import Path
from typing import Any

from mtg_judge.conformance.card_semantics import card_problems
from mtg_judge.conformance.loader import (
    FIXTURES_DIR,
    UNTESTABLE_FILE,
    FixtureError,
    _validate,
    duplicate_id_error,
    file_label,
    iter_audit_paths,
    iter_fixture_paths,
    json_path,
    load_json,
    load_rulings,
)

#: Bases of the references of objects created during play (FORMAT §1): ``token#1``…
CREATED_KINDS = ("token", "ability", "copy", "prepared")  # prepared#n: FORMAT §11.9

#: What the values under these keys of script inputs, event patterns and state patterns
#: name: a ``player`` id, an ``object`` (alias or reference), or ``either``.
REF_KEYS = {
    "player": "player", "players": "player", "controller": "player", "owner": "player",
    "active_player": "player", "priority": "player", "winners": "player", "losers": "player",
    "object": "object", "new_object": "object", "card": "object", "source": "object",
    "source_card": "object", "target_card": "object", "attacker": "object",
    "attacker_card": "object", "blocker": "object", "blocker_card": "object",
    "attached_to": "object", "attackers": "object", "pay_with": "object", "order": "object",
    "harmonize_tap": "object", "behold": "object",
    "cards": "object", "library": "object", "hand": "object", "graveyard": "object",
    "exile": "object", "outcome": "object", "result": "object",
    "target": "either", "targets": "either", "defender": "either", "choice": "either",
}
#: Objects keyed by references: the keys of ``players`` name players, and so on.
KEYED = {"players": "player", "battlefield": "object", "assignment": "either"}
#: Words that may stand where a reference is expected under these keys.
WORDS = {"outcome": frozenset({"heads", "tails"}), "result": frozenset({"heads", "tails"}),
         "choice": frozenset({"yes", "no", "none", "white", "blue", "black", "red", "green",
                              "counters", "token"})}  # endure's answers (FORMAT §11.5)
#: Free-text answers to a ``choose`` (a card name, a creature type, ``rampage:1``, ``+2/-2``)
#: are not references: anything that can't be an alias.
_ALIAS_LIKE = re.compile(r"^[a-z][a-z0-9_]*(#[0-9]+)?$")
#: Event fields whose content is not references (a trigger definition: "object": "self").
OPAQUE = {"trigger"}


def lint(root: str | Path = FIXTURES_DIR, rulings: dict | None = None) -> list[FixtureError]:
    """Check every file of the fixtures folder ``root``; return the problems found.

    ``rulings`` is the catalog (``mtg_judge.conformance.loader.load_rulings()`` when None). Checks:

    - every card file, fixture and ``untestable.json`` against its schema (invalid JSON
      included); the checks below run on the fixtures that pass it;
    - in a schema-valid card file, the shapes the engine would silently ignore
      (:mod:`mtg_judge.conformance.card_semantics`: abilities and permanent keywords of an
      instant or sorcery, targets an effect cannot act on);
    - card names defined by two card files, card files not named after their card's slug;
    - a fixture's place (``<document>/<mechanic>/<name>.json`` with a document of the
      catalog), its id starting with ``<document>.``, ids used by two fixtures;
    - ruling ids that the catalog lacks (in fixtures and in ``untestable.json``), and
      rulings listed twice in ``untestable.json``;
    - in setup: unknown card names, player ids or aliases used twice, the reserved aliases
      ``token``/``ability``/``copy``, ``active_player``/``controller``/``attached_to`` naming
      nothing;
    - in the script and ``expect``: references to an alias or player the setup does not
      define (``alias#n`` needs ``alias``; ``token#n``, ``ability#n``, ``copy#n`` are
      always fine; ``alias#1`` is written ``alias``), except in inputs that the fixture
      expects to be rejected with ``unknown_object``; and ``at``/``after`` indexes past
      the end of the script;
    - an expected rejection or an ``illegal`` probe without its rejection ``code``;
    - (the citation audits: :func:`lint_audits`).

    Returns the problems ordered by file (cards, untestable list, fixtures in path order),
    then by position in the file; a single problem if ``root`` is not a folder. Never
    raises for bad content (a malformed catalog raises FixtureError).
    """
    root = Path(root)
    if not root.is_dir():
        return [FixtureError(root, "$", "no such folder: expected a fixtures folder", "a fixtures folder")]
    label = _labeller(root)
    catalog = load_rulings() if rulings is None else rulings
    known_rulings = {r["id"] for r in catalog["rulings"]}
    problems: list[FixtureError] = []

    card_data: dict[str, dict] = {}
    card_names = _lint_cards(root / "cards", label, problems, card_data)

    untestable = root / UNTESTABLE_FILE
    if untestable.exists():
        _lint_untestable(untestable, label(untestable), known_rulings, problems)

    ids: dict[str, str] = {}
    citations: dict[str, tuple[str, list[str]]] = {}  # fixture id -> (file, its rulings)
    broken: set[str] = set()  # the ids of fixture files that failed to load
    for path in iter_fixture_paths(root):
        file = label(path)
        fixture = _load(path, "scenario", file, problems)
        if fixture is None:
            broken.update(claimed_ids(path, root))
            continue
        _lint_place(path, root, file, fixture, set(catalog["documents"]), problems)
        fixture_id = fixture["id"]
        if fixture_id in ids:
            problems.append(duplicate_id_error(file, fixture_id, ids[fixture_id]))
        else:
            ids[fixture_id] = file
            citations[fixture_id] = (file, list(fixture["rulings"]))
        for i, ruling in enumerate(fixture["rulings"]):
            if ruling not in known_rulings:
                problems.append(_unknown(file, f"$.rulings[{i}]", "ruling id", ruling, known_rulings,
                                         "a ruling id of conformance/rulings.json"))
        problems += _FixtureChecker(file, fixture, card_names, label(root / "cards")).check()
        problems += lint_absent_sources(file, fixture, card_data)
    problems += lint_audits(root, catalog, citations, label, broken)
    return problems


def claimed_ids(path: Path, root: Path | None = None) -> set[str]:
    """The fixture ids a fixture file that cannot be loaded (invalid JSON, a schema error)
    most likely has: the string value of its first ``"id"`` key, read from the text even
    when it does not parse, and ``<document>.<mechanic>.<file name>`` from its place under
    ``root``. Used so that one broken file gives one error, not others about the fixture
    it holds (issue 25): an audit naming that id, ``mtg-judge show ID``. ``set()`` when the
    file cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    found = set(re.findall(r'"id"\s*:\s*"([^"\\]+)"', text)[:1])
    if root is not None:
        try:
            parts = path.relative_to(root).with_suffix("").parts
        except ValueError:
            parts = ()
        if len(parts) == 3:
            found.add(".".join(parts))
    return found


def lint_audits(root: Path, catalog: dict, citations: dict[str, tuple[str, list[str]]],
                label, broken: set[str] | frozenset[str] = frozenset()) -> list[FixtureError]:
    """The citation audits ``root/audit/*.json`` (DESIGN §15.1) against the catalog and the
    fixtures; ``citations`` is ``{fixture id: (file label, its ruling ids)}``.

    Checks each audit file against ``schema/audit.schema.json``, then: its ``document`` is
    a document of the catalog; each unit id is a unit of that document, audited once over
    all the files; each ``checked_by`` fixture exists and cites the unit. And the other
    way: a fixture that cites an audited unit must be named in that unit's ``checked_by``
    (a citation whose fixture checks no claim of the unit is removed), the problem reported
    at the fixture's ``$.rulings[i]``. A ``checked_by`` naming one of the ``broken`` ids
    (fixture files that did not load, :func:`claimed_ids`) is not reported: that file's own
    error is the cause. Returns the problems (audit files first, in path order; then the
    fixtures).
    """
    problems: list[FixtureError] = []
    doc_of = {r["id"]: r["id"].split(".")[0] for r in catalog["rulings"]}
    audited: dict[str, tuple[str, set[str]]] = {}  # unit -> (audit file, fixtures in checked_by)
    for path in iter_audit_paths(root):
        file = label(path)
        data = _load(path, "audit", file, problems)
        if data is None:
            continue
        document = data["document"]
        if document not in catalog["documents"]:
            problems.append(_unknown(file, "$.document", "document", document,
                                     set(catalog["documents"]), "a document of conformance/rulings.json"))
            continue
        for u, unit in enumerate(data["units"]):
            rid, where = unit["id"], f"$.units[{u}]"
            if rid not in doc_of or doc_of[rid] != document:
                known = {r for r, d in doc_of.items() if d == document}
                problems.append(_unknown(file, f"{where}.id", f"{document} ruling id", rid, known,
                                         f"a ruling id of the document {document!r}"))
                continue
            if rid in audited:
                problems.append(FixtureError(file, f"{where}.id", f"unit {rid!r} is audited twice: "
                                             f"{audited[rid][0]} audits it too", "each unit audited once"))
                continue
            checkers: set[str] = set()
            for c, claim in enumerate(unit["claims"]):
                for k, check in enumerate(claim["checked_by"]):
                    fid, at = check["fixture"], f"{where}.claims[{c}].checked_by[{k}].fixture"
                    checkers.add(fid)
                    if fid not in citations and fid in broken:
                        continue  # the fixture's file is broken: its own error says why
                    if fid not in citations:
                        problems.append(_unknown(file, at, "fixture", fid, set(citations),
                                                 "the id of a fixture citing the unit"))
                    elif rid not in citations[fid][1]:
                        problems.append(FixtureError(file, at, f"fixture {fid!r} does not cite {rid!r}: "
                                                     "a claim is checked only by fixtures citing its unit",
                                                     f"a fixture whose rulings list {rid!r}"))
            audited[rid] = (file, checkers)
    for fid in sorted(citations, key=lambda f: citations[f][0]):
        file, rulings = citations[fid]
        for i, rid in enumerate(rulings):
            if rid in audited and fid not in audited[rid][1]:
                problems.append(FixtureError(file, f"$.rulings[{i}]", f"cites {rid!r} but the audit "
                                             f"{audited[rid][0]} names it in no claim's checked_by: "
                                             "remove the citation, or name the claim it checks",
                                             "a ruling the fixture checks (DESIGN §15.1)"))
    return problems


def _is_operator(value: dict) -> bool:
    """A pattern operator object: every key starts with ``$`` (FORMAT §3.3)."""
    return bool(value) and all(key.startswith("$") for key in value)


def _labeller(root: Path):
    """Name files relative to the folder holding ``root`` (``fixtures/cards/x.json``;
    :func:`mtg_judge.conformance.loader.file_label`)."""

    def label(path: Path) -> str:
        return file_label(path, root)

    return label


def _load(path: Path, schema_name: str, file: str, problems: list[FixtureError]) -> Any:
    """The file's data if it is valid JSON matching the schema, else None (problems noted)."""
    try:
        data = load_json(path)
    except FixtureError as exc:
        problems.append(FixtureError(file, exc.path, exc.message, exc.expected))
        return None
    errors = _validate(data, schema_name, file, from_json=True)
    problems += errors
    return None if errors else data


def _unknown(file: str, path: str, what: str, value: str, known: set[str], expected: str) -> FixtureError:
    """An "unknown <what>" problem, with the closest known names as suggestions."""
    close = difflib.get_close_matches(value, sorted(known), n=3)
    hint = f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""
    return FixtureError(file, path, f"unknown {what} {value!r}: expected {expected}{hint}", expected)


def _lint_cards(cards_dir: Path, label, problems: list[FixtureError],
                card_data: dict[str, dict] | None = None) -> set[str]:
    """Check the card files; return every card name they define (valid or not). Each
    schema-valid card's data is put in ``card_data`` by name, when given."""
    names: dict[str, str] = {}
    for path in sorted(cards_dir.glob("*.json")):
        file = label(path)
        try:
            data = load_json(path)
        except FixtureError as exc:
            problems.append(FixtureError(file, exc.path, exc.message, exc.expected))
            continue
        errors = _validate(data, "card", file, from_json=True)
        problems += errors or card_problems(data, file)  # shapes the engine would ignore (issue 14)
        if card_data is not None and not errors and isinstance(data, dict) and isinstance(data.get("name"), str):
            card_data.setdefault(data["name"], data)
        name = data.get("name") if isinstance(data, dict) else None
        if not isinstance(name, str):
            continue
        if name in names:
            problems.append(FixtureError(file, "$.name", f"duplicate card name {name!r}: "
                                         f"{names[name]} defines it too", "a name no other card file defines"))
            continue
        names[name] = file
        if path.stem != card_slug(name):
            problems.append(FixtureError(file, "$.name", f"card {name!r} belongs in {card_slug(name)}.json "
                                         "(fixtures/cards/README.md)", f"the file name {card_slug(name)}.json"))
    return set(names)


def card_slug(name: str) -> str:
    """The file stem of a card: lowercase, each run of non-alphanumerics one ``-``
    (``Circle of Protection: Red`` → ``circle-of-protection-red``)."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _lint_untestable(path: Path, file: str, known_rulings: set[str], problems: list[FixtureError]) -> None:
    entries = _load(path, "untestable", file, problems)
    seen: set[str] = set()
    for i, entry in enumerate(entries or []):
        ruling = entry["id"]
        if ruling not in known_rulings:
            problems.append(_unknown(file, f"$[{i}].id", "ruling id", ruling, known_rulings,
                                     "a ruling id of conformance/rulings.json"))
        elif ruling in seen:
            problems.append(FixtureError(file, f"$[{i}].id", f"ruling {ruling!r} is listed twice",
                                         "each ruling once"))
        seen.add(ruling)


def _lint_place(path: Path, root: Path, file: str, fixture: dict, documents: set[str],
                problems: list[FixtureError]) -> None:
    """The fixture lives at ``<document>/<mechanic>/<name>.json`` and its id starts with
    ``<document>.`` (DESIGN §4)."""
    parts = path.relative_to(root).parts
    if len(parts) != 3:
        problems.append(FixtureError(file, "$", "a fixture belongs at "
                                     "fixtures/<document>/<mechanic>/<name>.json",
                                     "fixtures/<document>/<mechanic>/<name>.json"))
    document = parts[0] if len(parts) > 1 else None
    if document is None:
        return
    if document not in documents:
        problems.append(_unknown(file, "$", "document folder", document, documents,
                                 "a document of conformance/rulings.json"))
    if not fixture["id"].startswith(document + "."):
        problems.append(FixtureError(file, "$.id", f"fixture id {fixture['id']!r} does not start "
                                     f"with its document folder: expected '{document}.…'",
                                     f"an id starting with '{document}.'"))


class _FixtureChecker:
    """The reference checks of one schema-valid fixture (see :func:`lint`).

    ``_FixtureChecker(file, fixture, card_names, cards_label).check()`` returns the problems;
    ``cards_label`` names the card folder in messages.
    """

    def __init__(self, file: str, fixture: dict, card_names: set[str], cards_label: str) -> None:
        self.file = file
        self.fixture = fixture
        self.card_names = card_names
        self.cards_label = cards_label
        self.players: set[str] = set()
        self.aliases: set[str] = set()
        self.problems: list[FixtureError] = []

    def problem(self, parts: list, message: str, expected: str) -> None:
        self.problems.append(FixtureError(self.file, json_path(parts), message, expected))

    def check(self) -> list[FixtureError]:
        self.check_setup()
        script = self.fixture["script"]
        expect = self.fixture["expect"]
        may_be_unknown = self.unknown_object_inputs()
        for i, step in enumerate(script):
            if i not in may_be_unknown:
                self.check_refs(step, ["script", i])
        for key in ("events", "absent"):
            for i, pattern in enumerate(expect.get(key, [])):
                self.check_refs(pattern, ["expect", key, i])
        if "state" in expect:
            self.check_refs(expect["state"], ["expect", "state"])
        for i, point in enumerate(expect.get("checkpoints", [])):
            where = ["expect", "checkpoints", i]
            self.check_index(point["after"], where + ["after"])
            if "state" in point:
                self.check_refs(point["state"], where + ["state"])
            for k, action in enumerate(point.get("legal", [])):
                self.check_refs(action, where + ["legal", k])
            for k, probe in enumerate(point.get("illegal", [])):
                if probe.get("code") != "unknown_object":
                    self.check_refs(probe["action"], where + ["illegal", k, "action"])
        for i, rejection in enumerate(expect.get("rejections", [])):
            self.check_index(rejection["at"], ["expect", "rejections", i, "at"])
        self.check_codes()
        return self.problems

    def check_codes(self) -> None:
        """An expected rejection and an ``illegal`` probe name their rejection code (FORMAT
        §8): without one, a probe rejected for another reason (no mana to pay, no priority)
        passes and proves nothing of the rule it is about."""
        expectations = [(["expect"], self.fixture["expect"])]
        expectations += [(["expect_by_ruleset", name], exp)
                         for name, exp in self.fixture.get("expect_by_ruleset", {}).items()]
        for where, exp in expectations:
            for i, rejection in enumerate(exp.get("rejections", [])):
                if "code" not in rejection:
                    self.problem(where + ["rejections", i], "an expected rejection without a code: "
                                 "name the code the rule gives (FORMAT §8)", "a rejection with a code")
            for c, point in enumerate(exp.get("checkpoints", [])):
                for k, probe in enumerate(point.get("illegal", [])):
                    if "code" not in probe:
                        self.problem(where + ["checkpoints", c, "illegal", k], "an illegal probe "
                                     "without a code: name the code the rule gives, so that a probe "
                                     "refused for another reason fails (FORMAT §8)", "a probe with a code")

    def unknown_object_inputs(self) -> set[int]:
        """Script indexes the fixture expects to be rejected as ``unknown_object``: their
        unknown references are the point of the test."""
        return {r["at"] for r in self.fixture["expect"].get("rejections", [])
                if r.get("code") == "unknown_object"}

    def check_setup(self) -> None:
        setup = self.fixture["setup"]
        first_seen: dict[str, list] = {}
        for p, player in enumerate(setup["players"]):
            self.define(player["id"], ["setup", "players", p, "id"], first_seen, "player id")
            self.players.add(player["id"])
        for p, player in enumerate(setup["players"]):
            for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
                for i, entry in enumerate(player.get(zone, [])):
                    where = ["setup", "players", p, zone, i]
                    if self.define(entry["alias"], where + ["alias"], first_seen, "alias"):
                        self.aliases.add(entry["alias"])
                    if entry["card"] not in self.card_names:
                        self.problems.append(_unknown(self.file, json_path(where + ["card"]), "card",
                                                      entry["card"], self.card_names,
                                                      f"a card name defined in {self.cards_label}/"))
        if "active_player" in setup:
            self.check_ref(setup["active_player"], "player", ["setup", "active_player"])
        for p, player in enumerate(setup["players"]):
            for i, entry in enumerate(player.get("battlefield", [])):
                where = ["setup", "players", p, "battlefield", i]
                if "controller" in entry:
                    self.check_ref(entry["controller"], "player", where + ["controller"])
                if entry.get("attached_to") is not None:
                    self.check_ref(entry["attached_to"], "object", where + ["attached_to"])

    def define(self, name: str, where: list, first_seen: dict[str, list], what: str) -> bool:
        """Note a player id or alias; False (and a problem) if it is taken or reserved."""
        if name in first_seen:
            self.problem(where, f"duplicate {what} {name!r}: {json_path(first_seen[name])} "
                         "already names a player or card", "an alias or player id unique in the fixture")
            return False
        if what == "alias" and name in CREATED_KINDS:
            self.problem(where, f"alias {name!r} is reserved for {name}#n references (FORMAT §1)",
                         f"an alias other than {', '.join(CREATED_KINDS)}")
            return False
        first_seen[name] = where
        return True

    def check_index(self, index: int, where: list) -> None:
        size = len(self.fixture["script"])
        if index >= size:
            self.problem(where, f"script index {index} is past the end of the script "
                         f"({size} input(s))", f"an index below {size}")

    def check_refs(self, value: Any, where: list, kind: str | None = None,
                   words: frozenset[str] = frozenset()) -> None:
        """Check every reference inside a script input or a pattern.

        ``kind`` is what the strings at this position name (see ``REF_KEYS``; None:
        nothing); ``words`` are the literal words also allowed there (``yes``, ``heads``…).
        """
        if isinstance(value, str):
            free_text = where and where[-1] == "choice" and not _ALIAS_LIKE.match(value)
            if kind is not None and value not in words and not free_text:
                self.check_ref(value, kind, where)
        elif isinstance(value, list):
            for i, item in enumerate(value):
                self.check_refs(item, where + [i], kind, words)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key.startswith("$"):  # an operator: its list holds the same kind of values
                    self.check_refs(item, where + [key], kind, words)
                elif key in KEYED and isinstance(item, dict) and not _is_operator(item):
                    for name, sub in item.items():
                        self.check_ref(name, KEYED[key], where + [key, name])
                        self.check_refs(sub, where + [key, name])
                elif key not in OPAQUE:
                    self.check_refs(item, where + [key], REF_KEYS.get(key), WORDS.get(key, frozenset()))

    def check_ref(self, ref: str, kind: str, where: list) -> None:
        """One reference: a player id, or an alias / ``alias#n`` / ``token#n`` …"""
        base, _, number = ref.partition("#")
        if kind in ("player", "either") and not number and ref in self.players:
            return
        if kind == "player":
            self.problems.append(_unknown(self.file, json_path(where), "player", ref, self.players,
                                          "a player id of setup.players"))
        elif base in CREATED_KINDS and number:
            return
        elif base in self.aliases:
            if number == "1":
                self.problem(where, f"{ref!r}: the setup object of {base!r} is written {base!r} "
                             "(FORMAT §1)", f"{base!r}")
        else:
            names = self.aliases | (self.players if kind == "either" else set())
            expected = ("an alias or player id of the setup" if kind == "either" else "an alias of the setup") \
                + ", alias#n, token#n, ability#n or copy#n"
            if kind == "object" and ref in self.players:
                self.problem(where, f"{ref!r} is a player: expected an object reference", expected)
            else:
                self.problems.append(_unknown(self.file, json_path(where), "alias", ref, names, expected))


# ---------------------------------------------------------------- absent patterns need a source
#: Keywords whose rules make triggered abilities (CR 702): a card with one can trigger.
TRIGGERING_KEYWORDS = frozenset({"echo", "flanking", "madness", "mobilize", "rampage", "storm",
                                  "suspend", "ward", "increment", "job_select", "paradigm"})
#: Card-text markers (in the card file's JSON) of a card that can be the source of an event
#: of these types; an ``absent`` pattern of such a type needs a card with one in the setup.
_EFFECT_MARKERS: dict[str, tuple[str, ...]] = {
    "token_created": ("token",),
    "life_gained": ("gain_life", "lifelink"),
    "counters_added": ("add_counters", "proliferate", "double_counters", "suspend", "endure",
                       "increment", "loyalty", "chapters", "as_enters"),
    "damage_prevented": ("prevent",),
    "prevention_shield_created": ("prevent",),
    "replacement_applied": ("replacement", "instead"),
    "spell_copied": ("copy", "storm"),
    "transformed": ("transform", "meld"),
    "control_changed": ("control",),
    "turned_face_up": ("morph", "turn_face_up"),
    "beheld": ("behold",),
    "regenerated": ("regenerate",),
}
_ABILITY_EVENTS = ("ability_put_on_stack", "ability_resolved", "ability_countered", "ability_removed")


def _can_trigger(card: dict) -> bool:
    """A card with a triggered ability (printed, a Saga chapter, a delayed one it creates,
    or a keyword whose rules trigger)."""
    text = json.dumps(card)
    if '"triggered"' in text or '"chapters"' in text or "delayed_trigger" in text or "return_later" in text:
        return True
    keywords = set()
    for face in [card, *card.get("faces", [])]:
        for k in face.get("keywords", []):
            keywords.add(k if isinstance(k, str) else k.get("keyword"))
    return bool(keywords & TRIGGERING_KEYWORDS)


def _can_source(event_type: str, card: dict) -> bool:
    """Can ``card`` be the source of an event of ``event_type`` (see :func:`lint_absent_sources`)?

    A static ability counts for the triggered and stack events (an engine that wrongly
    treats it as a triggered ability would log them), a mana ability for the activation and
    stack events (one that wrongly uses the stack would)."""
    text = json.dumps(card)
    static = '"static"' in text
    mana = '"mana"' in text or "Land" in card.get("types", [])
    activated = '"activated"' in text or "cycling" in text
    if event_type == "ability_triggered":
        return _can_trigger(card) or static
    if event_type in _ABILITY_EVENTS:
        return _can_trigger(card) or static or activated or mana
    if event_type == "ability_activated":
        return activated or mana
    return any(marker in text for marker in _EFFECT_MARKERS[event_type])


def _grants_abilities(card: dict) -> bool:
    """A card that gives other objects abilities (so they may trigger or be activated)."""
    text = json.dumps(card)
    return "grant_abilities" in text or ("grant_keyword" in text and
                                         any(f'"{k}"' in text for k in TRIGGERING_KEYWORDS))


def lint_absent_sources(file: str, fixture: dict, card_data: dict[str, dict]) -> list[FixtureError]:
    """An ``absent`` pattern checks something only if the event could happen: a pattern of a
    type that cards make (``ability_triggered`` and the other ability events, tokens, life
    gain, counters, prevention, replacement, copies, transformation, control change, morph,
    behold, regeneration) needs a card in the setup (any zone, any player) that can make
    such an event (a static ability counts for the triggered and stack events, a mana
    ability for the activation and stack events: an engine getting their rules wrong logs
    them); a pattern naming its source (``source_card``/``source``) needs that card to be
    one, or a card in the setup that grants abilities. Events the rules make themselves (zone changes, steps,
    damage, draws, state-based actions…) always have a source. The expectation's
    ``absent_note`` (why the patterns hold without such a source) silences the check.

    A heuristic over the card files' data (``card_data``: card name → card file data).
    Returns the problems (FixtureError at the pattern's JSON path)."""
    aliases: dict[str, str] = {}
    for player in fixture["setup"]["players"]:
        for zone in ("library", "hand", "graveyard", "exile", "battlefield"):
            for entry in player.get(zone, []):
                aliases[entry["alias"]] = entry["card"]
    cards = [card_data[name] for name in sorted(set(aliases.values())) if name in card_data]
    problems: list[FixtureError] = []
    expectations = [(["expect"], fixture["expect"])]
    expectations += [(["expect_by_ruleset", name], exp)
                     for name, exp in fixture.get("expect_by_ruleset", {}).items()]
    for where, exp in expectations:
        if exp.get("absent_note"):
            continue
        for i, pattern in enumerate(exp.get("absent", [])):
            kind = pattern.get("type")
            if kind not in _EFFECT_MARKERS and kind not in _ABILITY_EVENTS and \
                    kind not in ("ability_triggered", "ability_activated"):
                continue
            named = None
            for key in ("source_card", "source"):
                ref = pattern.get(key)
                if isinstance(ref, str) and ref.partition("#")[0] in aliases:
                    named = ref.partition("#")[0]
                    break
            if named is not None:
                card = card_data.get(aliases[named])
                if card is None or _can_source(kind, card) or any(_grants_abilities(c) for c in cards):
                    continue
                why = f"{named!r} ({aliases[named]}) can't make a {kind!r} event"
            elif any(_can_source(kind, card) for card in cards):
                continue
            else:
                why = f"no card in the setup can make a {kind!r} event"
            problems.append(FixtureError(file, json_path(where + ["absent", i]),
                                         f"absent pattern checks nothing: {why}; give the setup a card "
                                         "that could, or say why in the expectation's absent_note",
                                         "an absent pattern whose event has a source in the setup"))
    return problems
