"""``mtg-judge fuzz`` (conformance/fuzz.py): differential fuzzing through protocol v1.

The control run (the reference engine against itself through ``mtg-judge serve``) must
find nothing; an engine broken on purpose (a mutation of conformance/mutants.py applied
inside ``serve``, or a ``serve`` that misreports a life total) must be caught, the
divergence shrunk and written as a fixture draft that validates but for what only a
ruling can give (rulings, expectation).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mtg_judge.conformance import fuzz
from mtg_judge.conformance.loader import validate
from mtg_judge.conformance.protocol import STATE_PARTS

ROOT = Path(__file__).resolve().parent.parent
SERVE = f"{sys.executable} -m mtg_judge.tools.cli serve"

MUTATED_SERVE = """\
import sys
from mtg_judge.conformance.mutants import applied
from mtg_judge.conformance.protocol import serve
with applied(sys.argv[1]):
    sys.exit(serve())
"""

# ``serve`` with bob's life reported one lower from turn 3 on (in the final state and at checkpoints)
LYING_SERVE = """\
import sys
from mtg_judge.conformance.protocol import serve
from mtg_judge.engine import run_scenario

def lie(state):
    if state["turn"] >= 3:
        state["players"]["bob"]["life"] -= 1

def run(scenario, ruleset, cards=None):
    result = run_scenario(scenario, ruleset, cards=cards)
    lie(result["state"])
    for cp in result["checkpoints"]:
        lie(cp["state"])
    return result

sys.exit(serve(run=run))
"""


def _cli(*args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mtg_judge.tools.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def _draft_problems(draft: dict) -> list[str]:
    """Schema errors of a draft other than those of what the author must still write."""
    return [str(e) for e in validate(draft, "scenario", "<draft>")
            if not any(f"$.{key}" in str(e) for key in ("rulings", "expect"))]


def test_a_rejection_divergence_is_found_shrunk_and_drafted(tmp_path):
    """A ``serve`` under the mutation ``unlimited-lands-per-turn`` accepts the second land
    drop that self-play's hostile inputs try: a ``rejection`` divergence, shrunk to a short
    script, written as a draft with both logs beside it; exit 1."""
    engine = tmp_path / "mutated.py"
    engine.write_text(MUTATED_SERVE)
    out = tmp_path / "drafts"
    proc = _cli("fuzz", "--engine", f"{sys.executable} {engine} unlimited-lands-per-turn", "--games", "4",
                "--turn-cap", "6", "--json", "--out", str(out))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["divergences"] >= 1 and figures["distinct"] >= 1 and figures["shrunk"] == figures["distinct"]
    sig = figures["by_signature"][0]
    assert sig["signature"] == "rejection:play_land:rejected/accepted"
    drafts = sorted(out.glob("*.json"))
    main = [p for p in drafts if not p.name.endswith((".reference.json", ".engine.json"))]
    assert [p.name for p in main] == [sig["draft"] + ".json"]
    draft = json.loads(main[0].read_text())
    assert _draft_problems(draft) == []
    assert draft["rulesets"] == ["modern"] and draft["setup"]["start_of_game"] is True
    assert len(draft["script"]) == sig["shrunk_inputs"] < 40  # from a game of over a hundred inputs
    assert "unlimited" not in draft["notes"] and "rejection:play_land" in draft["notes"]
    for side in ("reference", "engine"):
        log = json.loads((out / f"{sig['draft']}.{side}.json").read_text())
        assert log["events"] and log["state"]
    # the shrunk script still shows it: the reference rejects a play_land the engine accepts
    ref = json.loads((out / f"{sig['draft']}.reference.json").read_text())
    assert any(e["type"] == "action_rejected" and draft["script"][e["at"]]["action"] == "play_land"
               for e in ref["events"] if e["type"] == "action_rejected")


def test_a_state_divergence_is_found_at_a_checkpoint_and_shrunk(tmp_path):
    """A ``serve`` that reports bob's life one lower from turn 3: a ``state`` divergence
    (``state:players.life``), found at the first checkpoint of turn 3, shrunk; the draft
    has a checkpoint where the states differ."""
    engine = tmp_path / "lying.py"
    engine.write_text(LYING_SERVE)
    out = tmp_path / "drafts"
    proc = _cli("fuzz", "--engine", f"{sys.executable} {engine}", "--games", "2", "--turn-cap", "4", "-n", "2",
                "--out", str(out))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "state:players.life: 2 game(s)" in proc.stdout
    assert "distinct          1" in proc.stdout and "shrunk            1" in proc.stdout
    [path] = [p for p in out.glob("*.json") if not p.name.endswith((".reference.json", ".engine.json"))]
    draft = json.loads(path.read_text())
    assert _draft_problems(draft) == []
    import re
    m = re.search(r"players\.bob\.life: reference (\d+), engine (\d+)", draft["notes"])
    assert m and int(m.group(2)) == int(m.group(1)) - 1, draft["notes"]
    assert draft["expect"].get("checkpoints") or True  # a checkpoint unless it is the final state


def test_same_arguments_same_bytes_whatever_the_workers():
    """Seeded and bounded: the JSON figures of a run are the same bytes with 1 and 2 workers."""
    args = ("fuzz", "--engine", SERVE, "--games", "3", "--turn-cap", "3", "--seed", "5", "--json")
    one, two = _cli(*args), _cli(*args, "-n", "2")
    assert one.returncode == 0, one.stdout + one.stderr
    assert one.stdout == two.stdout
    figures = json.loads(one.stdout)
    assert figures["games"] == 3 and figures["divergences"] == 0 and figures["inputs"] > 30
    assert figures["state_parts"] == list(STATE_PARTS)  # both declare every part


def test_usage_errors_exit_2(tmp_path):
    assert _cli("fuzz").returncode == 2  # --engine is required
    proc = _cli("fuzz", "--engine", f"{sys.executable} {tmp_path / 'missing.py'}", "--games", "1")
    assert proc.returncode == 2 and "cannot run the engine" in proc.stderr
    proc = _cli("fuzz", "--engine", SERVE, "--ruleset", "pioneer")
    assert proc.returncode == 2


def test_declared_parts_default_known_and_unknown():
    assert fuzz.declared_parts({"name": "old"}) == (list(fuzz.DEFAULT_PARTS), [])
    parts, warnings = fuzz.declared_parts({"state_parts": ["life", "zones", "telepathy"]})
    assert parts == ["life", "zones"] and "telepathy" in warnings[0]
    assert fuzz.declared_parts({"state_parts": "life"})[0] == list(fuzz.DEFAULT_PARTS)


def test_compare_prefers_the_earliest_divergence():
    script = [{"action": "pass", "player": "alice"}, {"action": "play_land", "player": "alice", "card": "f"}]
    names = {"f": "Forest"}
    state = {"turn": 1, "players": {"alice": {"life": 20, "hand": ["f"]}}, "battlefield": {}, "stack": []}
    other_state = {**state, "players": {"alice": {"life": 19, "hand": ["f"]}}}
    ref = {"events": [], "state": state, "checkpoints": [{"after": 0, "state": state}]}
    eng = {"events": [{"type": "action_rejected", "at": 1, "code": "sorcery_timing"}], "state": other_state,
           "checkpoints": [{"after": 0, "state": other_state}]}
    div = fuzz.compare(script, names, ref, eng, list(STATE_PARTS), events=True)
    assert (div.kind, div.signature, div.at) == ("state", "state:players.life", 0)
    eng["checkpoints"] = [{"after": 0, "state": state}]
    div = fuzz.compare(script, names, ref, eng, list(STATE_PARTS), events=True)
    assert (div.kind, div.signature, div.at) == ("rejection", "rejection:play_land:accepted/rejected:sorcery_timing", 1)
    assert fuzz.compare(script, names, ref, eng, list(STATE_PARTS), events=False).kind == "state"


@pytest.mark.slow
def test_control_run_the_reference_engine_through_serve_never_diverges():
    """The control run: 200 games (turn cap 8) of the reference engine against itself
    through ``mtg-judge serve``: no divergence, and the counts show it compared something.
    About 50 s on 2 idle cores (docs/TESTING.md, "Differential fuzzing")."""
    workers = "2" if (os.cpu_count() or 1) >= 2 else "1"
    start = time.perf_counter()
    proc = _cli("fuzz", "--engine", SERVE, "--games", "200", "-n", workers, "--json", timeout=1200)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    figures = json.loads(proc.stdout)
    assert figures["games"] == figures["played"] == 200
    assert figures["divergences"] == figures["distinct"] == figures["shrunk"] == 0
    assert figures["inputs"] > 100 * 200 and figures["checkpoints_compared"] > 10 * 200
    assert figures["reference_failures"] == 0 and figures["events_compared"] is True
    print(f"control run: {time.perf_counter() - start:.1f} s, {figures['inputs']} inputs")


def test_changeling_is_compared_as_every_creature_type():
    """PROTOCOL §11.1, CR 702.73a: a changeling's creature types are compared as one entry
    whichever list of CR 205.3m the engine holds; its other subtypes, and a changeling that
    reports no creature type (it lost them all), are compared as they are."""
    from mtg_judge.engine.creature_types import creature_types

    def subtypes(sub, kw):
        state = {"battlefield": {"x": {"name": "X", "subtypes": sub, "keywords": kw}}}
        return fuzz.comparable_state(state, {}, ["characteristics"])["battlefield"]["X"][0]["subtypes"]

    every = fuzz.EVERY_CREATURE_TYPE
    assert subtypes(sorted(creature_types()), ["changeling"]) == [every]
    assert subtypes(["Elf", "Shapeshifter"], ["changeling"]) == [every]
    assert subtypes(sorted(creature_types()), []) == [every]  # "gains all creature types"
    assert subtypes(["Elf", "Shapeshifter"], []) == ["Elf", "Shapeshifter"]
    assert subtypes([], ["changeling"]) == []
    assert subtypes(["Equipment"], ["changeling"]) == ["Equipment"]


# ``serve`` that lies by seed, so that a small campaign has two signatures whose first games
# fall in different shards: seed % 3 == 1 reports bob's life one lower from turn 3 on
# (``state:players.life``), seed % 3 == 2 alice's lands played one higher in the final state
# (``state:players.lands_played``), seed % 3 == 0 plays true.
SEED_LYING_SERVE = """\
import sys
from mtg_judge.conformance.protocol import serve
from mtg_judge.engine import run_scenario

def run(scenario, ruleset, cards=None):
    result = run_scenario(scenario, ruleset, cards=cards)
    kind = scenario["setup"]["seed"] % 3
    states = [result["state"]] + [cp["state"] for cp in result["checkpoints"]]
    for state in states:
        if kind == 1 and state["turn"] >= 3:
            state["players"]["bob"]["life"] -= 1
    if kind == 2:
        result["state"]["players"]["alice"]["lands_played"] = result["state"]["players"]["alice"].get("lands_played", 0) + 1
    return result

sys.exit(serve(run=run))
"""


def _drafts(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.glob("*.json"))}


def test_shard_games_split_every_game_once():
    """``--shard K/N``: game i goes to shard (i mod N) + 1; the N shards are a partition."""
    for games, n in ((1, 1), (7, 3), (10, 4), (3, 5)):
        shards = [fuzz.shard_games(games, k, n) for k in range(1, n + 1)]
        assert sorted(i for s in shards for i in s) == list(range(games))
        assert max(map(len, shards)) - min(map(len, shards)) <= 1
    assert fuzz.shard_games(7, 3, 3) == [2, 5]
    with pytest.raises(ValueError):
        fuzz.shard_games(7, 4, 3)


def test_shards_merged_give_the_unsharded_campaign(tmp_path):
    """Issue 24 item 5: a campaign of 7 games against an engine that lies by seed (two
    signatures), run whole and as 3 shards (``--shard K/3 --save``), merged in any order
    (``--merge``): the same JSON figures byte for byte, the same signature table, the same
    drafts (each signature shrunk from its first game, which is in shard 2 for one of them
    and shard 3 for the other); exit 1 (divergences) both ways. Then the shards played
    without shrinking (``--shrink-tests 0``), merged with ``--engine`` to shrink: the same
    again."""
    engine = tmp_path / "lying.py"
    engine.write_text(SEED_LYING_SERVE)
    command = f"{sys.executable} {engine}"
    common = ("--engine", command, "--games", "7", "--turn-cap", "4", "--shrink-tests", "8", "--seed", "0")
    whole = _cli("fuzz", *common, "--json", "--out", str(tmp_path / "whole"))
    assert whole.returncode == 1, whole.stdout + whole.stderr
    figures = json.loads(whole.stdout)
    assert [(g["signature"], g["games"], g["first_game"]) for g in figures["by_signature"]] == [
        ("state:players.lands_played", 2, 2), ("state:players.life", 2, 1)]  # seeds 2, 5 and 1, 4 (turn 3 reached)
    files = []
    for k in (1, 2, 3):
        save = tmp_path / f"shard-{k}.json"
        proc = _cli("fuzz", *common, "--shard", f"{k}/3", "--save", str(save), "--json")
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        shard = json.loads(proc.stdout)
        assert shard["shard"] == f"{k}/3" and shard["campaign_games"] == 7
        assert shard["games"] == len(fuzz.shard_games(7, k, 3))
        files.append(str(save))
    merged = _cli("fuzz", "--merge", files[2], files[0], files[1], "--json", "--out", str(tmp_path / "merged"))
    assert merged.returncode == 1, merged.stdout + merged.stderr
    assert merged.stdout == whole.stdout
    assert _drafts(tmp_path / "merged") == _drafts(tmp_path / "whole") != {}
    table = _cli("fuzz", "--merge", *files)
    assert table.returncode == 1 and _cli("fuzz", *common).stdout == table.stdout  # the text table too

    unshrunk = []
    for k in (1, 2, 3):
        save = tmp_path / f"raw-{k}.json"
        args = [a if a != "8" else "0" for a in common]  # --shrink-tests 0
        proc = _cli("fuzz", *args, "--shard", f"{k}/3", "--save", str(save))
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        unshrunk.append(str(save))
    shrunk = _cli("fuzz", "--merge", *unshrunk, "--engine", command, "--shrink-tests", "8", "--json",
                  "--out", str(tmp_path / "late"))
    assert shrunk.returncode == 1, shrunk.stdout + shrunk.stderr
    assert shrunk.stdout == whole.stdout
    assert _drafts(tmp_path / "late") == _drafts(tmp_path / "whole")


def test_merge_refuses_what_is_not_one_whole_campaign(tmp_path):
    """A merge needs the N shards of one campaign, each once and complete; anything else is
    a usage error (exit 2) naming the file, and nothing is printed as figures."""
    base = ("--engine", SERVE, "--games", "3", "--turn-cap", "2", "--shrink-tests", "0")
    paths = {}
    for name, extra in (("s1", ("--shard", "1/2")), ("s2", ("--shard", "2/2")),
                        ("other", ("--shard", "2/2", "--seed", "9")), ("whole", ())):
        paths[name] = tmp_path / f"{name}.json"
        proc = _cli("fuzz", *base, *extra, "--save", str(paths[name]))
        assert proc.returncode == 0, proc.stdout + proc.stderr
    ok = _cli("fuzz", "--merge", str(paths["s1"]), str(paths["s2"]), "--json")
    assert ok.returncode == 0 and json.loads(ok.stdout)["games"] == 3
    assert "shard" not in json.loads(ok.stdout)
    assert _cli("fuzz", "--merge", str(paths["whole"]), "--json").stdout == ok.stdout
    broken = tmp_path / "broken.json"
    record = json.loads(paths["s2"].read_text())
    record["outcomes"] = record["outcomes"][:0]
    broken.write_text(json.dumps(record))
    not_json = tmp_path / "not.json"
    not_json.write_text("{")
    for files, message in (([paths["s1"]], "shard(s) 2/2 missing"),
                           ([paths["s1"], paths["s1"]], "again"),
                           ([paths["s1"], paths["other"]], "seed 9 (not 0)"),
                           ([paths["s1"], broken], "an incomplete shard"),
                           ([paths["s1"], paths["whole"]], "a whole campaign"),
                           ([paths["s1"], not_json], "not a fuzz record")):
        proc = _cli("fuzz", "--merge", *map(str, files))
        assert proc.returncode == 2 and message in proc.stderr, (message, proc.stderr)
        assert proc.stdout == ""
    part = _cli("fuzz", "--merge", "--partial", str(paths["s2"]), "--json")  # a campaign cut short
    assert part.returncode == 0, part.stderr
    assert json.loads(part.stdout)["partial"] == {"shards": [2], "of": 2}
    assert json.loads(part.stdout)["games"] == 1 and json.loads(part.stdout)["campaign_games"] == 3
    assert "partial           1 of 2 shards merged" in _cli("fuzz", "--merge", "--partial", str(paths["s2"])).stdout
    proc = _cli("fuzz", "--merge", str(paths["s1"]), str(paths["s2"]), "--games", "5")
    assert proc.returncode == 2 and "--games" in proc.stderr
    assert _cli("fuzz", *base, "--shard", "3/2").returncode == 2
    assert _cli("fuzz", "--merge").returncode == 2


def test_the_phase_campaign_document_matches_its_shard_files():
    """docs/fuzz/phase-campaign.md's figures and signature table are those of the shard
    files committed beside it (``--merge`` of them: no engine is run; all 20 shards, so no
    ``--partial``), so the document can't drift from what was played."""
    import re

    folder = ROOT / "docs" / "fuzz" / "phase-campaign"
    files = sorted(folder.glob("shard-*.json"))
    assert files
    report = fuzz.merge_reports([fuzz.read_record(p) for p in files], [str(p) for p in files])
    figures = report.figures()
    text = (ROOT / "docs" / "fuzz" / "phase-campaign.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \| (\d+) \| (\d+) \|", text, re.M)
    assert [(sig, int(games), int(seed)) for sig, games, seed in rows] == [
        (g["signature"], g["games"], g["first_seed"]) for g in figures["by_signature"]]
    for key in ("games", "played", "inputs", "checkpoints_compared", "divergences", "distinct"):
        assert f"| {key} | {figures[key]:,} |" in text, key


def test_a_campaign_that_plays_no_game_exits_1(tmp_path):
    """An engine that skips every game (here: every run request) compared nothing: the
    campaign exits 1 saying so, as ``run`` exits 1 when no case passed (a new user's
    finding: phase's adapter skipping 3 of 3 games gave exit 0)."""
    from test_plugin import SKIP_ALL_ENGINE

    engine = tmp_path / "lazy.py"
    engine.write_text(SKIP_ALL_ENGINE)
    proc = _cli("fuzz", "--engine", f"{sys.executable} {engine}", "--games", "2", "--turn-cap", "2",
                "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    figures = json.loads(proc.stdout)
    assert figures["games"] == 2 and figures["played"] == 0 and figures["skipped"] == 2
    assert "none of the 2 games was played" in proc.stderr
