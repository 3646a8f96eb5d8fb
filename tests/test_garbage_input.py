"""Bad input gives exit 1 (findings) or 2 (usage/environment) and a message naming the file, never a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from verl_cookbook import verl_source
from verl_cookbook.cli import main
from verl_cookbook.facts import load_facts
from verl_cookbook.verl_source import VerlTree


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out = capsys.readouterr()
    assert "Traceback" not in out.err and "Traceback" not in out.out
    return code, out.out, out.err


def check_json(path: Path, capsys) -> tuple[int, list[dict]]:
    code, out, _err = run(["check", str(path), "--format", "json"], capsys)
    return code, json.loads(out) if out.strip() else []


@pytest.mark.parametrize(
    ("content", "rule"),
    [
        (b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)), "file/binary"),
        ("# 标题\n\nok\n".encode() + b"\xff\xfe broken\n", "file/encoding"),
        (b'# page\n\n``` { .yaml check="config" }\nactor_rollout_ref: {}\n', "markdown/unterminated-fence"),
        (b"# page\n\n" + b"x" * (10 * 1024 * 1024), "file/too-large"),
    ],
    ids=["binary", "invalid-utf8", "unterminated-fence", "10MB"],
)
def test_unreadable_markdown_is_a_finding_on_that_file(tmp_path: Path, capsys, content: bytes, rule: str) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(content)
    code, findings = check_json(page, capsys)
    assert code == 1
    assert [f["rule"] for f in findings] == [rule]
    assert findings[0]["path"].endswith("page.md")


def test_invalid_utf8_points_at_its_line(tmp_path: Path, capsys) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(b"line one\nline two\nbad \xc3\x28 here\n")
    _code, findings = check_json(page, capsys)
    assert findings[0]["line"] == 3


def test_missing_path_is_a_usage_error_not_raised(tmp_path: Path, capsys) -> None:
    code, _out, err = run(["check", str(tmp_path / "no" / "such" / "dir"), "--format", "json"], capsys)
    assert code == 2
    assert "no such file or folder" in err and "dir" in err


def test_verl_src_that_is_not_verl_exits_2_with_a_reason(tmp_path: Path, capsys) -> None:
    (tmp_path / "verl").mkdir()
    code, _out, err = run(["check", str(tmp_path), "--verl-src", str(tmp_path)], capsys)
    assert code == 2
    assert "not a verl source tree" in err


def test_verl_src_that_does_not_exist_exits_2(tmp_path: Path, capsys) -> None:
    code, _out, err = run(["facts", "--verl-src", str(tmp_path / "nowhere")], capsys)
    assert code == 2
    assert "not a directory" in err


def test_unknown_verl_release_exits_2_quickly(tmp_path: Path, capsys, monkeypatch) -> None:
    """pip cannot find verl==99.99.99: simulated, so the test needs no network."""
    monkeypatch.setenv(verl_source.CACHE_ENV, str(tmp_path / "cache"))
    calls = []

    def fake_run(cmd, **kwargs):
        calls.append(cmd)
        return subprocess.CompletedProcess(cmd, 1, "", "ERROR: No matching distribution found for verl==99.99.99\n")

    monkeypatch.setattr(subprocess, "run", fake_run)
    code, _out, err = run(["check", str(tmp_path), "--verl", "99.99.99"], capsys)
    assert code == 2
    assert "99.99.99" in err and "No matching distribution" in err
    assert calls and "verl==99.99.99" in calls[0]


def test_a_release_name_that_is_not_a_version_is_refused_before_pip(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: pytest.fail("pip must not run"))
    code, _out, err = run(["check", str(tmp_path), "--verl", "0.9.1; rm -rf /"], capsys)
    assert code == 2 and "expected a release number" in err


def test_malformed_yaml_snippet_is_a_yaml_finding_at_its_line(write_page, capsys) -> None:
    page = write_page('# p\n\n``` { .yaml check="config" }\nactor_rollout_ref:\n  rollout: [unclosed\n```\n')
    code, findings = check_json(page, capsys)
    assert code == 1
    assert [f["rule"] for f in findings] == ["yaml/syntax"]
    assert 3 <= findings[0]["line"] <= 6  # inside the block (PyYAML reports this one at the end of input)


def test_malformed_json_snippet_is_a_finding_not_a_crash(write_page, capsys) -> None:
    page = write_page('# p\n\n``` { .json check="json" }\n{ "host_ip": ["10.0.0.1"], ["10.0.0.2"] }\n```\n')
    code, findings = check_json(page, capsys)
    assert code == 1
    assert findings and all(f["path"].endswith("page.md") for f in findings)


def test_corrupt_facts_cache_is_rebuilt(verl_tree: VerlTree, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(verl_source.CACHE_ENV, str(tmp_path))
    first = load_facts(verl_tree)
    (cached,) = (tmp_path / "facts").glob("*.json")
    cached.write_bytes(b'{"verl": {"label": tru\xff')
    again = load_facts(verl_tree)
    assert again.data == first.data


def test_no_traceback_from_the_real_process(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_bytes(b"\0\0\0binary")
    proc = subprocess.run(
        [sys.executable, "-m", "verl_cookbook", "check", str(page)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "file/binary" in proc.stdout


def test_a_generated_config_that_is_not_yaml_cites_the_file_without_a_line(verl_copy: VerlTree, tmp_path, monkeypatch):
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "cache"))
    facts = load_facts(verl_copy, use_cache=False)
    rel = facts.data["config"]["generated"]["ppo_trainer"]["file"]
    good = facts.config_source("trainer.save_freq")
    assert verl_copy.read(rel).splitlines()[int(good.rsplit(":", 1)[1]) - 1].strip().startswith("save_freq:")
    (verl_copy.root / rel).write_text("trainer: [unclosed\n", encoding="utf-8")
    broken = load_facts(verl_copy, use_cache=False)  # the facts are still extracted: the lines are read when cited
    assert broken.config_source("trainer.save_freq") == rel


# -- one answer in check and doctor (issue 28 item 5) -----------------------------------------------------------
def doctor_json(path: Path, capsys) -> tuple[int, dict, str]:
    code, out, err = run(["doctor", str(path), "--format", "json"], capsys)
    return code, json.loads(out) if out.strip() else {}, err


@pytest.mark.parametrize(
    ("content", "rule"),
    [
        (b"\x7fELF\x02\x01\x00\x00binary", "file/binary"),
        (b"export A=1\n\xff\xfe not utf-8\n", "file/encoding"),
    ],
    ids=["binary", "invalid-utf8"],
)
@pytest.mark.parametrize("name", ["run.sh", "config.yaml"])
def test_a_file_that_is_not_text_is_the_same_finding_in_check_and_doctor(
    tmp_path: Path, capsys, content: bytes, rule: str, name: str
) -> None:
    page, script = tmp_path / "page.md", tmp_path / name
    page.write_bytes(content)
    script.write_bytes(content)
    check_code, check_findings = check_json(page, capsys)
    doctor_code, report, _err = doctor_json(script, capsys)
    assert (check_code, [f["rule"] for f in check_findings]) == (1, [rule])
    assert (doctor_code, [f["rule"] for f in report["findings"]]) == (1, [rule])
    assert report["findings"][0]["path"].endswith(name)


def test_invalid_utf8_in_a_script_points_at_its_line(tmp_path: Path, capsys) -> None:
    script = tmp_path / "run.sh"
    script.write_bytes(b"#!/bin/bash\nexport A=1\necho \xc3\x28\n")
    _code, report, _err = doctor_json(script, capsys)
    assert [(f["rule"], f["line"]) for f in report["findings"]] == [("file/encoding", 3)]


@pytest.mark.parametrize("name", ["run.sh", "config.yaml", "page.md"])
@pytest.mark.parametrize("content", ["", "\n  \n"], ids=["0-bytes", "blank"])
def test_an_empty_file_has_no_findings_and_exits_0_in_both_commands(
    tmp_path: Path, capsys, name: str, content: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    if name.endswith(".md"):
        code, findings = check_json(path, capsys)
        assert (code, findings) == (0, [])
        return
    code, report, _err = doctor_json(path, capsys)
    assert (code, report["findings"]) == (0, [])
    assert report["files"][0]["notes"] == ["empty file: nothing to check"]


def test_a_yaml_config_of_comments_only_is_empty_too(tmp_path: Path, capsys) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("# settings come later\n", encoding="utf-8")
    code, report, _err = doctor_json(path, capsys)
    assert (code, report["findings"]) == (0, [])
    assert "empty file: nothing to check" in report["files"][0]["notes"]


def test_a_yaml_config_that_is_a_list_is_a_finding_with_its_line(tmp_path: Path, capsys) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("# a list, not a config\n- trainer\n- actor\n", encoding="utf-8")
    code, report, _err = doctor_json(path, capsys)
    assert code == 1
    assert [(f["rule"], f["line"]) for f in report["findings"]] == [("yaml/not-a-mapping", 2)]


@pytest.mark.parametrize("make", [lambda d: d / "missing.sh", lambda d: d], ids=["missing", "folder"])
def test_a_file_that_is_not_there_to_read_is_a_usage_error_in_doctor(tmp_path: Path, capsys, make) -> None:
    code, _out, err = run(["doctor", str(make(tmp_path))], capsys)
    assert code == 2 and "verl-cookbook doctor: error:" in err
