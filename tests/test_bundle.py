"""`mtg-judge export` and `run --bundle` (conformance/bundle.py, docs/PROTOCOL.md §7).

The bundle's cases are checked against the fixture and card files read here directly (not
through the harness), its bytes against a second export, and the whole suite is played from
a bundle through the protocol by processes that are forbidden to open the repository's
fixtures (a Python audit hook).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
import zipfile
from importlib import metadata
from pathlib import Path

from click.testing import CliRunner

from mtg_judge.conformance import bundle
from mtg_judge.conformance.reports import build_report, read_report
from mtg_judge.conformance.resources import CARDS_DIR, FIXTURES_DIR, SCHEMA_DIR
from mtg_judge.conformance.runner import collect, run_suite
from mtg_judge.tools.cli import main

#: Cases of fixtures with expect_by_ruleset and "$exile" (what resolution changes).
SUBSET = "combat-damage-on-the-stack or removed-from-the-game or last-in-first-out"


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def cards_by_name() -> dict[str, dict]:
    out = {}
    for path in CARDS_DIR.glob("*.json"):
        card = json.loads(path.read_text(encoding="utf-8"))
        out[card["name"]] = card
    return out


def test_export_resolves_every_case_for_its_ruleset(tmp_path):
    out = tmp_path / "bundle"
    result = invoke("export", out, "-k", SUBSET)
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["bundle_version"] == 1 and manifest["protocol_version"] == 1
    assert manifest["suite"] == {"name": "mtg-judge", "version": metadata.version("mtg-judge")}
    assert manifest["selection"] == {"rulesets": None, "keyword": SUBSET}
    cards = cards_by_name()
    seen = []
    for entry in manifest["cases"]:
        fixture = json.loads((FIXTURES_DIR / entry["source"]).read_text(encoding="utf-8"))
        ruleset = entry["ruleset"]
        assert entry["id"] == f"{fixture['id']}[{ruleset}]" and entry["fixture"] == fixture["id"]
        assert entry["document"], entry["mechanic"] == entry["source"].split("/")[:2]
        case = json.loads((out / entry["file"]).read_text(encoding="utf-8"))
        assert entry["file"] == f"cases/{fixture['id']}/{ruleset}.json"
        scenario = case["scenario"]
        assert case["ruleset"] == ruleset and case["id"] == entry["id"]
        # the fixture as stored, minus expect_by_ruleset, plus its cards
        assert "expect_by_ruleset" not in scenario
        for key in ("id", "setup", "script", "rulesets", "title"):
            assert scenario[key] == fixture[key]
        expect = (fixture.get("expect_by_ruleset") or {}).get(ruleset, fixture["expect"])
        exile = "exile" if ruleset == "modern" else "removed_from_game"
        assert scenario["expect"] == json.loads(json.dumps(expect).replace('"$exile"', f'"{exile}"'))
        used = {e["card"] for p in fixture["setup"]["players"]
                for zone in ("library", "hand", "graveyard", "exile", "battlefield")
                for e in p.get(zone, [])}
        assert scenario["cards"] == {name: cards[name] for name in used}
        assert [c["name"] for c in case["checks"]][-1] == "script"
        seen.append(entry["id"])
    # the resolution really happened: a 2006 expectation and a "$exile" were replaced
    stack = json.loads((out / "cases/classic.combat.combat-damage-on-the-stack/"
                        "timespiral-2006.json").read_text(encoding="utf-8"))
    assert "combat_damage_put_on_stack" in json.dumps(stack["scenario"]["expect"])
    removed = json.loads((out / "cases/classic.zones.removed-from-the-game/classic-1999.json")
                         .read_text(encoding="utf-8"))["scenario"]["expect"]
    assert "$exile" not in json.dumps(removed) and "removed_from_game" in json.dumps(removed)
    # the case list is the harness's, in run order
    assert seen == [c.name for c in collect(keyword=SUBSET)]
    assert manifest["counts"] == {"cases": len(seen), "fixtures": len({s.split("[")[0] for s in seen})}
    assert manifest["rulesets"] == sorted({e["ruleset"] for e in manifest["cases"]})
    # sha256 of every file but the manifest, and every schema byte for byte
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert set(manifest["files"]) == files - {"manifest.json"}
    for name, digest in manifest["files"].items():
        assert hashlib.sha256((out / name).read_bytes()).hexdigest() == digest
    for schema in SCHEMA_DIR.glob("*.schema.json"):
        assert (out / "schema" / schema.name).read_bytes() == schema.read_bytes()


def test_export_is_byte_for_byte_deterministic(tmp_path):
    for name in ("a", "b"):
        assert invoke("export", tmp_path / name, "-k", "stack").exit_code == 0
        assert invoke("export", tmp_path / f"{name}.zip", "-k", "stack").exit_code == 0
    a = {p.relative_to(tmp_path / "a"): p.read_bytes() for p in (tmp_path / "a").rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "b"): p.read_bytes() for p in (tmp_path / "b").rglob("*") if p.is_file()}
    assert a == b and len(a) > 10
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "a.zip") as archive:
        infos = archive.infolist()
        assert [i.filename for i in infos] == sorted(i.filename for i in infos)
        assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
        # the zip holds exactly the folder's files
        assert {Path(i.filename): archive.read(i) for i in infos} == a


def test_export_filters_and_refusals(tmp_path):
    out = tmp_path / "modern"
    assert invoke("export", out, "--ruleset", "modern", "-k", "stack").exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["rulesets"] == ["modern"] and manifest["cases"]
    assert all(c["ruleset"] == "modern" and "stack" in c["id"] for c in manifest["cases"])
    # a non-empty folder is refused, --force replaces a bundle exported there
    again = invoke("export", out, "-k", "combat")
    assert again.exit_code == 1 and "is not empty" in again.output
    assert invoke("export", out, "-k", "trample", "--force").exit_code == 0
    replaced = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert all("trample" in c["id"] for c in replaced["cases"])
    assert not (out / manifest["cases"][0]["file"]).exists()
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    refused = invoke("export", other, "--force")
    assert refused.exit_code == 1 and "holds no mtg-judge bundle" in refused.output
    assert (other / "notes.txt").read_text() == "mine"
    # --force never deletes a project because it has a manifest.json of its own
    webapp = tmp_path / "webapp"
    (webapp / "src").mkdir(parents=True)
    (webapp / "manifest.json").write_text('{"name": "my web app"}')
    (webapp / "src" / "app.js").write_text("let x = 1;")
    refused = invoke("export", webapp, "-k", "trample", "--force")
    assert refused.exit_code == 1 and "holds no mtg-judge bundle" in refused.output
    assert (webapp / "src" / "app.js").read_text() == "let x = 1;"
    # nor a file of someone else's beside a bundle exported there (a vendored bundle)
    (out / ".git").mkdir()
    (out / ".git" / "HEAD").write_text("ref: refs/heads/main")
    refused = invoke("export", out, "-k", "stack", "--force")
    assert refused.exit_code == 1 and "holds .git/HEAD" in refused.output
    assert (out / ".git" / "HEAD").is_file()
    assert json.loads((out / "manifest.json").read_text(encoding="utf-8")) == replaced
    # usage errors
    assert invoke("export", tmp_path / "x", "--format", "tar").exit_code == 2
    assert invoke("export", tmp_path / "x", "-k", "a and (").exit_code == 2
    none = invoke("export", tmp_path / "y", "-k", "no-such-case")
    assert none.exit_code == 2 and "no cases selected" in none.output


def test_export_refuses_a_fixture_with_an_unknown_card(tmp_path):
    root = tmp_path / "fixtures"
    (root / "cards").mkdir(parents=True)
    fixture = {"id": "classic.game.ghost", "title": "t", "rulings": ["classic.game.01"],
               "rulesets": ["modern"],
               "setup": {"players": [{"id": "alice", "hand": [{"alias": "g", "card": "Ghost Card"}]},
                                     {"id": "bob"}]},
               "script": [], "expect": {"events": [{"type": "game_started"}]}}
    (root / "classic" / "game").mkdir(parents=True)
    (root / "classic" / "game" / "ghost.json").write_text(json.dumps(fixture))
    result = invoke("export", tmp_path / "out", "--fixtures", root)
    assert result.exit_code == 1
    assert "ghost.json" in result.output and "Ghost Card" in result.output
    assert not (tmp_path / "out").exists()


def test_a_damaged_or_foreign_bundle_is_named(tmp_path):
    out = tmp_path / "b"
    assert invoke("export", out, "-k", "last-in-first-out").exit_code == 0
    case = next((out / "cases").rglob("*.json"))
    case.write_text(case.read_text(encoding="utf-8").replace("alice", "alicia"), encoding="utf-8")
    result = invoke("run", "--bundle", out)
    assert result.exit_code == 2
    assert str(case.relative_to(out)) in result.output and "sha256 differs" in result.output
    # a fixtures folder is not a bundle
    result = invoke("run", "--bundle", FIXTURES_DIR)
    assert result.exit_code == 2 and "no manifest.json" in result.output
    # a newer bundle_version
    newer = tmp_path / "newer"
    assert invoke("export", newer, "-k", "last-in-first-out").exit_code == 0
    manifest = json.loads((newer / "manifest.json").read_text(encoding="utf-8"))
    (newer / "manifest.json").write_text(json.dumps({**manifest, "bundle_version": 99}))
    result = invoke("run", "--bundle", newer)
    assert result.exit_code == 2 and "bundle_version 99" in result.output
    # a missing file
    missing = tmp_path / "missing"
    assert invoke("export", missing, "-k", "last-in-first-out").exit_code == 0
    (missing / "schema" / "card.schema.json").unlink()
    result = invoke("run", "--bundle", missing)
    assert result.exit_code == 2 and "card.schema.json: missing" in result.output
    # a case dropped from the manifest's list, its file and sha256 left
    dropped = tmp_path / "dropped"
    assert invoke("export", dropped, "-k", "last-in-first-out").exit_code == 0
    manifest = json.loads((dropped / "manifest.json").read_text(encoding="utf-8"))
    (dropped / "manifest.json").write_text(json.dumps({**manifest, "cases": manifest["cases"][1:]}))
    result = invoke("run", "--bundle", dropped)
    assert result.exit_code == 2 and "counts.cases is 3 but 'cases' lists 2" in result.output
    manifest["counts"]["cases"] = 2
    (dropped / "manifest.json").write_text(json.dumps({**manifest, "cases": manifest["cases"][1:]}))
    result = invoke("run", "--bundle", dropped)
    assert result.exit_code == 2 and manifest["cases"][0]["file"] in result.output
    assert "a case file the manifest's 'cases' does not list" in result.output
    # --bundle and --fixtures together
    result = invoke("run", "--bundle", out, "--fixtures", FIXTURES_DIR)
    assert result.exit_code == 2 and "give one" in result.output


def test_run_bundle_selects_like_run(tmp_path):
    out = tmp_path / "b.zip"
    assert invoke("export", out, "-k", "stack").exit_code == 0
    cases = bundle.bundle_cases(out, rulesets=["classic-1999"], keyword="last")
    assert [c.name for c in cases] == [c.name for c in collect(rulesets=["classic-1999"],
                                                                keyword="stack and last")]
    assert all(not c.path.is_absolute() and c.path.parts[0] == "classic" for c in cases)
    result = invoke("run", "--bundle", out, "--ruleset", "classic-1999", "-k", "last", "-n", 1)
    assert result.exit_code == 0, result.output
    total = next(line for line in result.output.splitlines() if line.startswith("total"))
    assert total.split()[1:5] == [str(len(cases)), "0", "0", "0"]  # passed, failed, ...
    assert "export" in invoke("--help").output
    assert "--bundle" in invoke("run", "--help").output
    assert "Usage:" in invoke("export", "--help").output


GUARD = textwrap.dedent("""
    # mtg-judge, forbidden to open anything under the repository's fixtures folder
    import os, sys
    from mtg_judge.conformance.resources import FIXTURES_DIR
    ROOTS = {str(FIXTURES_DIR) + os.sep, str(FIXTURES_DIR.resolve()) + os.sep}
    LOG = os.open(os.environ["GUARD_LOG"], os.O_WRONLY | os.O_APPEND | os.O_CREAT)

    def hook(event, args):
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.path.abspath(os.fsdecode(args[0]))
            if any(path.startswith(root) for root in ROOTS) and not path.endswith((".py", ".pyc")):
                os.write(LOG, (path + "\\n").encode())
                raise PermissionError(f"the bundle run opened {path}")

    sys.addaudithook(hook)
    from mtg_judge.tools.cli import main
    sys.argv[0] = "mtg-judge"
    main()
""")


def test_the_whole_suite_plays_from_a_bundle_without_the_fixtures(tmp_path):
    """Every case, exported to a zip and played through protocol v1 ('mtg-judge serve') by
    processes that cannot open the repository's fixtures, gives the normal run's results."""
    zipped = tmp_path / "suite.zip"
    assert invoke("export", zipped).exit_code == 0
    guard = tmp_path / "guard.py"
    guard.write_text(GUARD)
    log = tmp_path / "opened.log"
    env = {**os.environ, "GUARD_LOG": str(log)}
    # the guard works: a run from the fixtures folder is caught opening them
    caught = subprocess.run([sys.executable, str(guard), "run", "-k", "last-in-first-out"],
                            cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert caught.returncode == 1 and "the bundle run opened" in caught.stdout + caught.stderr
    assert str(FIXTURES_DIR / "classic" / "stack" / "last-in-first-out.json") in log.read_text()
    log.unlink()
    engine = f"{sys.executable} {guard} serve"
    proc = subprocess.run([sys.executable, str(guard), "run", "--bundle", str(zipped),
                           "--engine", engine, "-n", "2", "--report-dir", str(tmp_path / "r")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert not log.exists() or log.read_text() == ""  # the guard saw no fixture file opened
    played = read_report(tmp_path / "r" / "report.jsonl")
    # the normal run: the fixtures folder, in-process
    cases = collect()
    normal = build_report(run_suite(cases, workers=2), {}, fixtures_root=FIXTURES_DIR)
    assert len(played.cases) == len(normal.cases) == len(cases) > 700
    assert played.cases == normal.cases  # names, order, paths, statuses, checks, messages
    assert played.counts["passed"] == len(cases)
    assert played.header["implementation"]["name"] == "mtg-judge-reference"


def test_a_bundle_given_as_fixtures_points_to_bundle(tmp_path):
    out = tmp_path / "b"
    assert invoke("export", out, "-k", "last-in-first-out").exit_code == 0
    for command in (["run"], ["validate"], ["coverage"]):
        result = invoke(*command, "--fixtures", out)
        assert result.exit_code == 2, result.output
        assert "is a bundle written by 'mtg-judge export'" in result.output
        assert "--bundle PATH" in result.output
