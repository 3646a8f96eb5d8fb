"""The command line: exit codes 0/1/2, the three output formats, `python -m verl_cookbook`, `facts`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from verl_cookbook.cli import main
from verl_cookbook.verl_source import VerlTree

SITE = Path(__file__).resolve().parent / "data" / "minisite"
BAD_PAGE = (
    '# p\n\n``` { .yaml check="config" }\n'
    "actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      bakend: nccl\n```\n"
)
SOURCE = re.compile(r"^(verl/[\w/.-]+\.(?:py|yaml)):(\d+)$")


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_clean_site_exits_0_and_summarises_on_stderr(capsys) -> None:
    code, out, err = run(["check", "--root", str(SITE)], capsys)
    assert code == 0
    assert out == ""
    assert re.search(r"\b1 page, \d+ code blocks?, \d+ tables?, \d+ claims?; \d+ checked; 0 findings", err)


def test_findings_exit_1_in_text_format_with_the_verl_line(write_page, capsys) -> None:
    page = write_page(BAD_PAGE)
    code, out, _err = run(["check", str(page)], capsys)
    assert code == 1
    first, second = out.splitlines()[:2]
    assert re.match(r"^\S*page\.md:7:7: config/unknown-key unknown key `.*bakend`.*did you mean `backend`", first)
    assert re.match(r"^    verl: .*\(verl/trainer/config/_generated_ppo_trainer\.yaml:\d+\)$", second)


def test_json_format_is_a_list_of_findings_with_every_field(write_page, capsys) -> None:
    page = write_page(BAD_PAGE)
    code, out, _err = run(["check", str(page), "--format", "json"], capsys)
    assert code == 1
    (finding,) = json.loads(out)
    every = {"path", "line", "col", "rule", "severity", "message", "fact", "fact_source", "data", "caused_by"}
    assert set(finding) == every
    assert (finding["line"], finding["rule"], finding["caused_by"]) == (7, "config/unknown-key", None)


def test_github_format_is_one_annotation_per_finding(write_page, capsys) -> None:
    page = write_page(BAD_PAGE)
    code, out, _err = run(["check", str(page), "--format", "github"], capsys)
    assert code == 1
    (line,) = out.strip().splitlines()
    assert re.match(r"^::error file=[^,]*page\.md,line=7,col=7,title=config/unknown-key::unknown key", line)
    assert "verl/trainer/config/_generated_ppo_trainer.yaml" in line


@pytest.mark.parametrize(
    "argv",
    [["nonsense"], ["check", "--format", "xml"], ["check", "--verl", "0.9.1", "--verl-src", "."], []],
    ids=["unknown-command", "unknown-format", "verl-and-verl-src", "no-command"],
)
def test_usage_errors_exit_2(argv: list[str], capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "verl-cookbook: error:" in err and "Traceback" not in err


def test_site_mode_without_docs_folder_exits_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\n")
    code, _out, err = run(["check", "--root", str(tmp_path)], capsys)
    assert code == 2 and "no docs/ folder" in err


def test_python_dash_m_runs_the_same_cli() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "verl_cookbook", "check", "--root", str(SITE)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 findings" in proc.stderr


def _sources(node: object) -> list[str]:
    out: list[str] = []
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "source" and isinstance(v, str):
                out.append(v)
            else:
                out.extend(_sources(v))
    elif isinstance(node, list):
        for v in node:
            out.extend(_sources(v))
    return out


def test_facts_json_carries_sources_that_point_at_real_lines(verl_tree: VerlTree, capsys) -> None:
    code, out, _err = run(["facts", "--format", "json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert {"verl", "config", "engines", "trainer", "merger"} <= set(data)
    sources = _sources(data)
    with_line = [s for s in sources if SOURCE.match(s)]
    assert len(with_line) > 50
    for s in with_line:
        rel, line = SOURCE.match(s).groups()
        lines = (verl_tree.root / rel).read_text(encoding="utf-8").splitlines()
        assert 1 <= int(line) <= len(lines), s
    # every family contributes sourced facts
    for family in ("config", "engines", "trainer", "merger"):
        assert [s for s in _sources(data[family]) if SOURCE.match(s)], family


def test_facts_json_includes_the_curated_catalog_each_entry_with_a_public_source(capsys) -> None:
    code, out, _err = run(["facts", "--format", "json"], capsys)
    assert code == 0
    cat = json.loads(out)["catalog"]
    assert "HCCL_WHITELIST_DISABLE" in cat["env"] and "USE_ASCEND_DIRECT" in cat["cmake"]
    assert "hccl_whitelist" in cat["schemas"]
    entries = [*cat["env"].values(), *cat["cmake"].values()]
    assert all(e["source"].startswith("https://") for e in entries)


def test_facts_text_lists_backends_with_their_source(capsys) -> None:
    code, out, _err = run(["facts"], capsys)
    assert code == 0
    backend_lines = [ln for ln in out.splitlines() if " -> " in ln]
    assert backend_lines
    assert all(re.search(r"\[verl/checkpoint_engine/\w+\.py:\d+\]$", ln) for ln in backend_lines)
