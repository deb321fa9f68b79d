"""conformance/mutations.json and its loader (conformance/mutations.py): the list of mutations
is data, checked as it is loaded; a bad record is refused with the file, the record and the
field named."""

import copy
import json

import pytest

from mtg_judge.conformance import mutation_code, mutations
from mtg_judge.conformance.mutations import MUTATIONS_FILE, MutationListError, load, parse, resolve
from mtg_judge.conformance.patching import MutationError


def data():
    return json.loads(MUTATIONS_FILE.read_text(encoding="utf-8"))


def record(doc, name):
    return next(r for r in doc["mutations"] if r["name"] == name)


def refused(doc, *fragments):
    with pytest.raises(MutationListError) as info:
        parse(doc, MUTATIONS_FILE)
    message = str(info.value)
    assert str(MUTATIONS_FILE) in message
    for fragment in fragments:
        assert fragment in message, message
    return message


def test_the_file_holds_every_kind_and_loads_in_file_order():
    doc = data()
    names = [r["name"] for r in doc["mutations"]]
    assert list(mutations.MUTATIONS) == names
    kinds = {r["kind"] for r in doc["mutations"]}
    assert kinds == {"rewrite", "returns", "code"}
    legend = mutations.MUTATIONS["legend-rule-off"]
    assert legend.rule == "704.5j" and legend.summary.startswith("Two legendary permanents")


def test_every_code_record_has_its_function_and_every_function_its_record():
    code = [r["name"] for r in data()["mutations"] if r["kind"] == "code"]
    functions = sorted(n for n, v in vars(mutation_code).items()
                       if not n.startswith("_") and callable(v) and v.__module__ == mutation_code.__name__)
    assert sorted(n.replace("-", "_") for n in code) == functions


def test_a_missing_field_names_the_file_the_record_and_the_field():
    doc = data()
    del record(doc, "haste-ignored")["rule"]
    index = [r["name"] for r in doc["mutations"]].index("haste-ignored")
    refused(doc, f"mutations[{index}] ('haste-ignored')", "rule must be a non-empty string")


@pytest.mark.parametrize("change, fragment", [
    (lambda r: r.update(kind="patch"), "kind must be one of rewrite, returns, code"),
    (lambda r: r.update(rule="CR 702"), "rule must be a Comprehensive Rules number"),
    (lambda r: r.update(name="Haste_Ignored"), "name must be lowercase words joined by hyphens"),
    (lambda r: r.update(doc="no period"), "first paragraph must be a sentence ending in a period"),
    (lambda r: r.update(returns=True), "unknown field(s) returns"),
    (lambda r: r["rewrites"][0].update(function="combat.can_attack"), "rewrites[0].function must be"),
    (lambda r: r["rewrites"][0]["edits"][0].update(count=0), "rewrites[0].edits[0].count must be a positive"),
    (lambda r: r["rewrites"][0]["edits"][0].update(old=""), "rewrites[0].edits[0].old must be a non-empty"),
    (lambda r: r["rewrites"][0]["edits"][0].update(olde="x"), "unknown field(s) olde"),
    (lambda r: r["rewrites"][1].update(edits=[]), "rewrites[1].edits must be a non-empty list"),
])
def test_malformed_rewrite_records_are_refused(change, fragment):
    doc = data()
    change(record(doc, "haste-ignored"))
    refused(doc, "haste-ignored" if "name" not in fragment else "Haste_Ignored", fragment)


def test_duplicates_a_returns_record_without_value_and_code_without_function_are_refused():
    doc = data()
    doc["mutations"].append(copy.deepcopy(record(doc, "legend-rule-off")))
    refused(doc, "mutation 'legend-rule-off' listed twice")

    doc = data()
    del record(doc, "sorcery-timing-not-enforced")["returns"]
    refused(doc, "'sorcery-timing-not-enforced'", "a 'returns' record has no returns")

    doc = data()
    record(doc, "flanking-never-triggers")["name"] = "flanking-never-triggers-at-all"
    refused(doc, "needs the function flanking_never_triggers_at_all()")

    doc = data()
    doc["mutations"] = [r for r in doc["mutations"] if r["name"] != "echo-never-triggers"]
    refused(doc, "defines echo_never_triggers but no 'code' record")


def test_invalid_json_names_the_file_and_line(tmp_path):
    bad = tmp_path / "mutations.json"
    bad.write_text('{"mutations": [\n  {"name": }\n]}\n', encoding="utf-8")
    with pytest.raises(MutationListError, match=r"mutations.json: line 2 column \d+: invalid JSON"):
        load(bad)
    bad.write_text('[]', encoding="utf-8")
    with pytest.raises(MutationListError, match="expected an object with a list 'mutations'"):
        load(bad)


def test_targets_resolve_to_engine_functions_and_gone_ones_break_the_mutation():
    from mtg_judge.engine import combat
    from mtg_judge.engine.game import Game
    assert resolve("game:Game._sba_once") == (Game, "_sba_once")
    assert resolve("combat:can_block") == (combat, "can_block")
    with pytest.raises(MutationError, match="no engine module mtg_judge.engine.no_such_module"):
        resolve("no_such_module:f")
    with pytest.raises(MutationError, match="has no NoSuchClass"):
        resolve("game:NoSuchClass.f")


def test_a_returns_mutation_keeps_the_signature_and_returns_a_fresh_value():
    """``returns``: the replacement takes the original's arguments (a wrong call still
    raises TypeError) and a list value is a new list on each call."""
    from mtg_judge.engine import planeswalkers
    with mutations.applied("planeswalker-survives-zero-loyalty"):
        first = planeswalkers.zero_loyalty(None)
        assert first == [] and planeswalkers.zero_loyalty(None) is not first
        with pytest.raises(TypeError):
            planeswalkers.zero_loyalty(None, "extra")
