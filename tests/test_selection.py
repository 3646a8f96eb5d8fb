"""--select/--ignore and suppression comments, applied in one place (findings.apply_rules_options)."""

from __future__ import annotations

from pathlib import Path

from helpers import sample_finding

from verl_cookbook.findings import Finding, apply_rules_options, source_label


def _f(path: Path, line: int, rule: str) -> Finding:
    return sample_finding(rule, str(path), line)


def test_select_keeps_only_the_named_codes_and_prefixes(tmp_path: Path):
    page = tmp_path / "a.md"
    page.write_text("x\n", encoding="utf-8")
    found = [_f(page, 1, "config/unknown-key"), _f(page, 1, "engine/unknown-backend"), _f(page, 1, "shell/syntax")]
    kept = apply_rules_options(found, select=["config", "engine/unknown-"])
    assert [f.rule for f in kept] == ["config/unknown-key", "engine/unknown-backend"]


def test_ignore_wins_over_select(tmp_path: Path):
    page = tmp_path / "a.md"
    page.write_text("x\n", encoding="utf-8")
    found = [_f(page, 1, "config/unknown-key"), _f(page, 1, "config/wrong-type")]
    assert [f.rule for f in apply_rules_options(found, select=["config"], ignore=["config/wrong-type"])] == [
        "config/unknown-key"
    ]


def test_a_shell_comment_silences_its_own_line_and_the_next(tmp_path: Path):
    script = tmp_path / "run.sh"
    script.write_text("# verl-cookbook: ignore[config/unknown-key]\npython3 -m verl.trainer.main_ppo a=1\n")
    assert apply_rules_options([_f(script, 2, "config/unknown-key")]) == []


def test_a_yaml_comment_for_another_rule_silences_nothing_and_is_reported_unused(tmp_path: Path):
    config = tmp_path / "c.yaml"
    config.write_text("trainer:\n  total_epoch: 2  # verl-cookbook: ignore[config/wrong-type]\n")
    kept = apply_rules_options([_f(config, 2, "config/unknown-key")])
    assert sorted(f.rule for f in kept) == ["config/unknown-key", "suppression/unused"]


def test_a_markdown_html_comment_above_a_fence_silences_the_fence(tmp_path: Path):
    page = tmp_path / "a.md"
    page.write_text("<!-- verl-cookbook: ignore[snippet/undeclared] -->\n```yaml\na: 1\n```\n")
    assert apply_rules_options([_f(page, 2, "snippet/undeclared")]) == []


def test_an_unused_suppression_is_reported_in_a_checked_file_with_no_findings(tmp_path: Path):
    page = tmp_path / "a.md"
    page.write_text("<!-- verl-cookbook: ignore[snippet/undeclared] -->\nplain text\n")
    (hit,) = apply_rules_options([], files=[page])
    assert hit.rule == "suppression/unused" and hit.line == 1


def test_a_suppression_quoted_in_a_skipped_fence_is_no_suppression(tmp_path: Path):
    page = tmp_path / "a.md"
    page.write_text('``` { .bash check="skip" reason="example" }\nx=1  # verl-cookbook: ignore[shell/syntax]\n```\n')
    assert apply_rules_options([], files=[page]) == []


def test_the_fact_label_names_the_source_it_came_from():
    assert source_label("verl/checkpoint_engine/base.py:12") == "verl"
    assert source_label("hicann/hccl docs/zh/user_guide/hccl_env/HCCL_WHITELIST_FILE.md") == "hccl"
    assert source_label("https://github.com/vllm-project/vllm-ascend/blob/x/a.py") == "vllm-ascend"
    assert source_label("verl/README.md; hicann/hccl docs/zh/x.md") == "verl, hccl"


def test_doctor_select_and_suppression_on_a_real_script(tmp_path: Path, capsys, monkeypatch):
    from verl_cookbook.cli import main

    monkeypatch.chdir(tmp_path)
    script = tmp_path / "run.sh"
    script.write_text(
        "python3 -m verl.trainer.main_ppo \\\n"
        "    trainer.total_epoch=2 \\\n"
        "    +trainer.total_epochs=3  # verl-cookbook: ignore[override/plus-on-existing]\n"
    )
    assert main(["doctor", "run.sh"]) == 1
    out = capsys.readouterr().out
    assert "config/unknown-key" in out and "plus-on-existing" not in out
    # the fragment sets no micro-batch size either (config/required-missing): ignored here with the rest
    assert main(["doctor", "run.sh", "--ignore", "config/unknown-key,config/required-missing"]) == 0


def test_a_relative_path_is_read_in_the_working_folder_of_the_call(tmp_path: Path, monkeypatch) -> None:
    """Two sites with a script of the same relative name, judged one after the other in one process (the tests, a
    served site): in the second, a finding named by its absolute path is silenced by the second script's comment,
    which is named relative to the working folder; the first folder's answer for that relative name is not reused."""
    for site in ("one", "two"):
        (tmp_path / site).mkdir()
        (tmp_path / site / "run.sh").write_text("# verl-cookbook: ignore[shell/syntax]\nfi\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path / "one")
    assert apply_rules_options([sample_finding("shell/syntax", "run.sh", 2)]) == []
    monkeypatch.chdir(tmp_path / "two")
    found = [sample_finding("shell/syntax", str(tmp_path / "two" / "run.sh"), 2)]
    assert apply_rules_options(found, files=["run.sh"]) == []
