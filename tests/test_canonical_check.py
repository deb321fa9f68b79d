"""runner._is_canonical, the fast yes/no of canonical JSON (issue 21), against
canonical._check, the check that words the error (DESIGN §5: no floats, string keys only)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mtg_judge.conformance.canonical import _check
from mtg_judge.conformance.runner import _is_canonical


class Text(str):
    pass


class Number(int):
    pass


class Items(list):
    pass


class Pairs(dict):
    pass


def _verdict(value) -> bool:
    try:
        _check(value)
    except TypeError:
        return False
    return True


LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=2),
                   st.floats(allow_nan=False, max_value=2, min_value=-2),
                   st.builds(Text, st.text(max_size=2)), st.builds(Number, st.integers(0, 3)),
                   st.just(object()), st.just(b"x"))
KEYS = st.one_of(st.text(max_size=2), st.integers(0, 2), st.builds(Text, st.text(max_size=1)))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.lists(inner, max_size=3).map(Items),
    st.dictionaries(KEYS, inner, max_size=3), st.dictionaries(KEYS, inner, max_size=3).map(Pairs)),
    max_leaves=10)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(VALUES)
def test_is_canonical_says_what_check_says(value):
    assert _is_canonical(value) is _verdict(value)


def test_a_float_or_object_deep_inside_is_found():
    log = {"events": [{"type": "x", "n": 1, "l": [1, "a", None, True]}] * 50, "state": {}}
    assert _is_canonical(log)
    log["events"] = log["events"] + [{"type": "y", "deep": [{"a": (1, 2.5)}]}]
    assert not _is_canonical(log)
    assert not _is_canonical({"events": [{1: "non-string key"}]})
    assert not _is_canonical([Items([Pairs({"a": object()})])])
    assert _is_canonical([Items([Pairs({Text("a"): Number(1)})])])
