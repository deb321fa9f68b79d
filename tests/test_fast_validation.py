"""The two-stage schema check of conformance/loader.py: ``jsonschema_rs`` says yes or no,
the ``jsonschema`` library words the errors of a no. The fast stage is trusted for a *yes*
only, so it must never accept what ``jsonschema`` refuses. Checked here on every bad-input
file of the repository and on deterministic mutations of real fixtures and cards (a field
removed, a field added, a value of the wrong type or out of its enum), and on the few
Python values where the two libraries are known to differ."""

from __future__ import annotations

import copy
import json
import random

import pytest

from mtg_judge.conformance import loader


def _slow_errors(data, schema_name):
    return loader._errors(data, schema_name, "<c>")


def _fast_says_valid(data, schema_name):
    try:
        return loader._fast_validator(schema_name).is_valid(data)
    except Exception:  # noqa: BLE001 - the loader falls back to jsonschema then
        return False


def _agree(data, schema_name):
    slow = _slow_errors(data, schema_name)
    if _fast_says_valid(data, schema_name):
        assert slow == [], (f"jsonschema_rs accepts what jsonschema refuses under {schema_name}: "
                            f"{slow[0]}\n{json.dumps(data)[:500]}")
    # and the loader's answer is jsonschema's, whatever the fast stage said
    assert [str(e) for e in loader.validate(data, schema_name, "<c>")] == [str(e) for e in slow]


def _mutations(data, rng, count):
    """``count`` deterministic mutations of a JSON document."""
    paths = []

    def walk(node, path):
        if isinstance(node, dict):
            for key, value in node.items():
                paths.append(path + [key])
                walk(value, path + [key])
        elif isinstance(node, list):
            for i, value in enumerate(node):
                paths.append(path + [i])
                walk(value, path + [i])

    walk(data, [])
    odd_values = [None, "x", -1, 1.5, True, [], {}, "UPPER", {"unknown_key": 1}, [1, "a"]]
    for _ in range(count):
        out = copy.deepcopy(data)
        path = rng.choice(paths)
        parent = out
        for part in path[:-1]:
            parent = parent[part]
        kind = rng.randrange(3)
        if kind == 0 and isinstance(parent, dict):
            del parent[path[-1]]
        elif kind == 1 and isinstance(parent, dict):
            parent["not_a_field"] = 1
        else:
            parent[path[-1]] = rng.choice(odd_values)
        yield out


def test_bad_input_files_get_the_same_verdict_and_words():
    bad = loader.Path(__file__).parent / "bad_input"
    checked = 0
    for path in sorted(bad.rglob("*.json*")):
        try:
            data = loader.load_json(path)
        except loader.FixtureError:
            continue
        schema = "card" if "cards" in path.parts else "untestable" if "untestable" in path.name \
            else "scenario"
        _agree(data, schema)
        checked += 1
    assert checked >= 20


@pytest.mark.parametrize("schema_name, files", [
    ("scenario", lambda: list(loader.iter_fixture_paths())),
    ("card", lambda: sorted(loader.CARDS_DIR.glob("*.json"))),
])
def test_mutated_files_get_the_same_verdict(schema_name, files):
    rng = random.Random(10)
    paths = files()
    for path in rng.sample(paths, 8):
        for mutated in _mutations(loader.load_json(path), rng, 6):
            _agree(mutated, schema_name)


def test_python_values_where_the_libraries_differ():
    card = loader.load_json(loader.CARDS_DIR / "grizzly-bears.json")
    assert loader.validate(card, "card", "<c>") == []
    # a tuple is an array to jsonschema_rs, not to jsonschema: the loader asks jsonschema
    tupled = {**card, "types": tuple(card["types"])}
    assert [str(e) for e in loader.validate(tupled, "card", "<c>")] == \
        [str(e) for e in _slow_errors(tupled, "card")] != []
    # a key that is not a string: jsonschema_rs raises, the loader asks jsonschema
    _agree({**card, 1: 2}, "card")
    # a final newline matches `$` in Python's re, not in jsonschema_rs: the loader asks
    # jsonschema, which has the last word
    _agree({**card, "mana_cost": card["mana_cost"] + "\n"}, "card")
    # NaN is a number to jsonschema, not to jsonschema_rs
    _agree({**card, "power": float("nan")}, "card")
