"""What the checker page says about where verl's source comes from and what the cache holds, shown by running the
checker: which release it reads when none is named, what makes it fetch a covered release's whole source, that the
cache can be deleted at any point, and the rule families the page names."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from helpers import findings_for

from verl_cookbook import verl_source
from verl_cookbook.cli import main
from verl_cookbook.facts import load_facts
from verl_cookbook.releases import default_release
from verl_cookbook.verl_source import CACHE_ENV, VerlSourceError, VerlTree, resolve_source

REPO = Path(__file__).resolve().parent.parent


def test_with_no_verl_installed_the_release_read_is_the_default_of_releases_yaml(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(verl_source, "installed_tree", lambda required=False: None)
    declared = re.search(r"^default: *\"?([\d.]+)", (REPO / "verl_cookbook/data/releases.yaml").read_text(), re.M)
    assert declared and default_release() == declared.group(1)
    assert resolve_source().tree.label == declared.group(1)


def test_the_sites_own_check_reads_the_pinned_release_even_where_verl_is_installed(
    verl_copy: VerlTree, tmp_path, monkeypatch, capsys
) -> None:
    monkeypatch.setattr(verl_source, "installed_tree", lambda required=False: verl_copy)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "p.md").write_text("# P\n\nNothing to check.\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["check"]) == 0  # the site: every page under docs/
    err = capsys.readouterr().err
    assert "reading the installed verl" not in err and err.rstrip().splitlines()[-1].startswith(
        f"verl {default_release()}:"
    )
    assert main(["check", "docs/p.md"]) == 0  # a path given: the installed verl is read
    assert "reading the installed verl" in capsys.readouterr().err


BASE = "verl/checkpoint_engine/base.py"
PY_IMPORTS_VERL = '# P\n\n``` { .python check="python" }\nfrom verl.checkpoint_engine.base import X\n```\n'
NEEDS_THE_WHOLE_RELEASE = {
    "contains": f'# P\n\nIt is a class.<!-- check: contains file="{BASE}" match="class Che" -->\n',
    "raises": f'# P\n\nIt raises.<!-- check: raises file="{BASE}" error="ValueError" match="x" -->\n',
    "symbol": '# P\n\nIt exists.<!-- check: symbol name="verl.checkpoint_engine.base.CheckpointEngine" -->\n',
    "python importing verl": PY_IMPORTS_VERL,
}
READ_FROM_WHAT_SHIPS = {
    "config block": '# P\n\n``` { .yaml check="config" }\ntrainer:\n  total_epochs: 2\n```\n',
    "citation alone": "# P\n\nThe registry (`verl/checkpoint_engine/base.py:40`).\n",
    "python without verl": '# P\n\n``` { .python check="python" }\nimport json\n```\n',
}


def _asked(write_page, tmp_path, monkeypatch, text: str) -> list[str]:
    """What the check of a page holding ``text`` asked of the whole pinned release (it is never given)."""
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    asked: list[str] = []

    def whole(why: str) -> VerlTree:
        asked.append(why)
        raise VerlSourceError("offline")

    facts = load_facts(resolve_source(default_release()).tree, whole=whole)
    try:
        findings_for(write_page(text), facts)
    except VerlSourceError:
        pass
    return asked


@pytest.mark.parametrize("kind", NEEDS_THE_WHOLE_RELEASE)
def test_claims_and_python_importing_verl_fetch_the_whole_release(write_page, tmp_path, monkeypatch, kind) -> None:
    assert _asked(write_page, tmp_path, monkeypatch, NEEDS_THE_WHOLE_RELEASE[kind])


@pytest.mark.parametrize("kind", READ_FROM_WHAT_SHIPS)
def test_config_blocks_citations_and_other_python_are_judged_from_what_ships(
    write_page, tmp_path, monkeypatch, kind
) -> None:
    assert _asked(write_page, tmp_path, monkeypatch, READ_FROM_WHAT_SHIPS[kind]) == []


def test_a_tree_given_on_the_command_line_has_its_facts_extracted_once_then_read_from_the_cache(
    verl_copy: VerlTree, tmp_path, monkeypatch
) -> None:
    from verl_cookbook import facts as facts_module

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    extracted: list[Path] = []
    real = facts_module.extract_all
    monkeypatch.setattr(facts_module, "extract_all", lambda tree: extracted.append(tree.root) or real(tree))
    first = load_facts(verl_copy)
    second = load_facts(verl_copy)
    assert extracted == [verl_copy.root] and first.data == second.data
    assert list((tmp_path / "cache" / "facts").glob("*.json"))


def test_deleting_the_cache_or_any_of_its_folders_is_safe(write_page, tmp_path, monkeypatch, capsys) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))
    page = write_page('# P\n\n``` { .yaml check="config" }\ntrainer:\n  total_epochz: 2\n```\n')
    argv = ["check", "--verl", default_release(), str(page)]

    def run() -> tuple[int, str]:
        code = main(argv)
        return code, capsys.readouterr().out

    first = run()
    assert first[0] == 1 and "config/unknown-key" in first[1]
    assert {p.name for p in cache.iterdir()} >= {"releases", "pages"}  # a covered release's compositions ship
    for folder in ("releases", "facts", "compose", "pages", None):
        target = cache / folder if folder else cache
        shutil.rmtree(target, ignore_errors=True)
        assert run() == first, folder


def test_the_families_the_checker_page_names_are_families_of_declared_rules() -> None:
    from verl_cookbook.rules import declarations

    families = {r.code.split("/")[0] + "/" for r in declarations()}
    for page in ("docs/tools/checker.md", "docs/tools/checker.en.md"):
        text = (REPO / page).read_text(encoding="utf-8")
        start = text.index("`snippet/`")
        named = re.findall(r"`([a-z]+/)`", text[start : text.index("`verl/`", start) + len("`verl/`")])
        assert len(named) >= 6 and set(named) <= families, page


def test_the_facts_json_holds_no_composed_default_config(capsys) -> None:
    assert main(["facts", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    text = json.dumps(doc)
    assert "ppo_trainer" not in doc and "compositions" not in doc and "total_epochs" not in text


def test_a_covered_release_ships_every_yaml_file_of_its_package_generated_ones_included(
    verl_tree: VerlTree, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    shipped = verl_source.shipped_release(default_release())
    assert shipped is not None and not shipped.whole

    def yaml_files(root: Path) -> set[str]:
        return {p.relative_to(root).as_posix() for p in (root / "verl").rglob("*.yaml")}

    whole = yaml_files(verl_tree.root)
    assert "verl/trainer/config/_generated_ppo_trainer.yaml" in whole
    assert yaml_files(shipped.root) == whole
