"""Adopting the checker in a repository with existing findings: a baseline matched by text not line numbers,
``--changed`` from git, and GitHub output within GitHub's annotation limit with everything in the job summary."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from helpers import sample_finding

from verl_cookbook import github_output
from verl_cookbook.cli import main
from verl_cookbook.findings import Finding

BAD = '{"host_ip": ["10.0.0.1"],}'
GOOD = '{"host_ip": ["10.0.0.1"]}'


def _json_page(*bodies: str, above: str = "") -> str:
    return "# Page\n\n" + above + "".join(f"```json\n{b}\n```\n\n" for b in bodies)


def _check(tmp_path: Path, capsys, *extra: str) -> tuple[int, str, str]:
    code = main(["check", "--lenient", *extra, str(tmp_path / "docs")])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def repo(tmp_path: Path, monkeypatch) -> Path:
    (tmp_path / "docs").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_baselined_findings_stay_quiet_when_lines_move_and_a_new_one_is_named_alone(repo: Path, capsys) -> None:
    page = repo / "docs" / "a.md"
    page.write_text(_json_page(BAD), encoding="utf-8")
    assert _check(repo, capsys, "--write-baseline", "base.json")[0] == 0
    assert _check(repo, capsys, "--baseline", "base.json")[0] == 0

    page.write_text(_json_page(BAD, above="Two new lines\nabove it.\n\n"), encoding="utf-8")
    code, out, err = _check(repo, capsys, "--baseline", "base.json")
    assert (code, out) == (0, "")
    assert "1 known finding(s) not shown" in err

    page.write_text(_json_page(BAD, '{"a": 1,,}', above="Two new lines\nabove it.\n\n"), encoding="utf-8")
    code, out, _ = _check(repo, capsys, "--baseline", "base.json")
    assert code == 1
    assert out.count("json/syntax") == 1 and "docs/a.md:11:" in out  # the planted block, not the baselined one


def test_a_second_copy_of_a_baselined_mistake_in_the_same_file_is_new(repo: Path, capsys) -> None:
    page = repo / "docs" / "a.md"
    page.write_text(_json_page(BAD), encoding="utf-8")
    main(["check", "--lenient", "--write-baseline", "base.json", "docs"])
    page.write_text(_json_page(BAD, BAD), encoding="utf-8")
    code, out, _ = _check(repo, capsys, "--baseline", "base.json")
    assert code == 1 and out.count("json/syntax") == 1


def test_a_fixed_baselined_finding_is_reported_as_fixed(repo: Path, capsys) -> None:
    page = repo / "docs" / "a.md"
    page.write_text(_json_page(BAD), encoding="utf-8")
    main(["check", "--lenient", "--write-baseline", "base.json", "docs"])
    page.write_text(_json_page(GOOD), encoding="utf-8")
    code, out, err = _check(repo, capsys, "--baseline", "base.json")
    assert (code, out) == (0, "")
    assert "fixed: docs/a.md json/syntax (was line 4)" in err


def test_an_unreadable_baseline_is_a_usage_error_that_says_why(repo: Path, capsys) -> None:
    (repo / "docs" / "a.md").write_text(_json_page(GOOD), encoding="utf-8")
    (repo / "base.json").write_text("[]", encoding="utf-8")
    code, _, err = _check(repo, capsys, "--baseline", "base.json")
    assert code == 2 and "not a verl-cookbook baseline" in err
    code, _, err = _check(repo, capsys, "--baseline", "missing.json")
    assert code == 2 and "cannot read the baseline" in err


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def test_changed_checks_only_pages_the_diff_names_or_whose_included_file_changed(repo: Path, capsys) -> None:
    (repo / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    (repo / "snippets").mkdir()
    (repo / "snippets" / "w.json").write_text(GOOD + "\n", encoding="utf-8")
    (repo / "docs" / "a.md").write_text(_json_page(BAD), encoding="utf-8")
    (repo / "docs" / "b.md").write_text(_json_page(BAD), encoding="utf-8")
    (repo / "docs" / "c.md").write_text('# C\n\n```json\n--8<-- "snippets/w.json"\n```\n', encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")

    code, out, err = _check(repo, capsys, "--changed")
    assert (code, out) == (0, "") and "0 of 3 page(s)" in err

    (repo / "docs" / "b.md").write_text(_json_page(BAD, above="Edited.\n\n"), encoding="utf-8")
    (repo / "snippets" / "w.json").write_text(BAD + "\n", encoding="utf-8")
    code, out, err = _check(repo, capsys, "--changed")
    assert code == 1 and "2 of 3 page(s)" in err
    assert "docs/b.md:" in out and "snippets/w.json:" in out and "docs/a.md" not in out


def test_changed_outside_a_git_repository_is_a_usage_error(repo: Path, capsys) -> None:
    (repo / "docs" / "a.md").write_text(_json_page(GOOD), encoding="utf-8")
    code, _, err = _check(repo, capsys, "--changed")
    assert code == 2 and "--changed" in err and "git" in err


def _findings(n: int) -> list[Finding]:
    return [sample_finding("json/syntax", f"docs/p{k}.md", k + 1, error=f"bad | {k}") for k in range(n)]


def test_github_output_annotates_ten_and_puts_every_finding_in_the_job_summary(tmp_path: Path, monkeypatch) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    out = github_output.emit(_findings(12))
    assert out.count("::error ") == github_output.ANNOTATIONS == 10
    assert "::notice" in out and "2 more finding(s)" in out and "job summary" in out
    table = summary.read_text(encoding="utf-8")
    assert table.count("| `docs/p") == 12
    assert "bad \\| 11" in table  # a | in a message does not break the table


def test_github_output_within_the_limit_has_no_notice(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    out = github_output.emit(_findings(3))
    assert out.count("::error ") == 3 and "::notice" not in out
    assert github_output.emit([]) == ""


EXCERPT = "```python\nfor step in range(3):\n    <<<continue below>>>\n```\n"


def _recorded_by_an_older_checker(repo: Path, page: Path, line: int) -> None:
    """A baseline as an older verl-cookbook wrote it: a python/syntax finding on an excerpt's line, which this one
    reads as an excerpt and no longer reports."""
    import json

    from verl_cookbook.baseline import line_fingerprint

    text = page.read_text(encoding="utf-8").splitlines()[line - 1]
    entry = {"path": "docs/a.md", "rule": "python/syntax", "fingerprint": line_fingerprint("python/syntax", text)}
    doc = {"verl-cookbook-baseline": 1, "findings": [{**entry, "count": 1, "line": line, "message": "invalid Python"}]}
    (repo / "base.json").write_text(json.dumps(doc), encoding="utf-8")


def test_a_baselined_finding_the_checker_no_longer_reports_is_gone_not_fixed(repo: Path, capsys) -> None:
    page = repo / "docs" / "a.md"
    page.write_text("# Page\n\n" + EXCERPT, encoding="utf-8")
    _recorded_by_an_older_checker(repo, page, 5)
    code, out, err = _check(repo, capsys, "--baseline", "base.json")
    assert (code, out) == (0, "")
    assert err.count("gone: docs/a.md python/syntax (line 5 is unchanged") == 1
    assert "fixed:" not in err and "drop the fixed and gone ones" in err


def test_a_baselined_line_that_changed_is_fixed_not_gone(repo: Path, capsys) -> None:
    page = repo / "docs" / "a.md"
    page.write_text("# Page\n\n" + EXCERPT, encoding="utf-8")
    _recorded_by_an_older_checker(repo, page, 5)
    page.write_text("# Page\n\n" + EXCERPT.replace("<<<continue below>>>", "pass"), encoding="utf-8")
    code, out, err = _check(repo, capsys, "--baseline", "base.json")
    assert (code, out) == (0, "")
    assert "fixed: docs/a.md python/syntax (was line 5)" in err and "gone:" not in err


def test_writing_the_baseline_again_after_a_fix_drops_the_fixed_finding(repo: Path, capsys) -> None:
    page = repo / "docs" / "a.md"
    page.write_text(_json_page(BAD, BAD.replace("10.0.0.1", "10.0.0.2")), encoding="utf-8")
    main(["check", "--lenient", "--write-baseline", "base.json", "docs"])
    page.write_text(_json_page(GOOD, BAD.replace("10.0.0.1", "10.0.0.2")), encoding="utf-8")
    code, _, err = _check(repo, capsys, "--baseline", "base.json")
    assert code == 0 and "fixed: docs/a.md json/syntax" in err  # the old baseline still names the fixed one
    assert _check(repo, capsys, "--write-baseline", "base.json")[0] == 0
    code, out, err = _check(repo, capsys, "--baseline", "base.json")
    assert (code, out) == (0, "") and "fixed:" not in err and "1 known finding(s) not shown" in err


def _commit(repo: Path, message: str) -> None:
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", message)


def test_changed_rev_counts_from_the_branch_point_with_untracked_files_and_pages_naming_a_changed_file(
    repo: Path, capsys
) -> None:
    (repo / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    (repo / "conf").mkdir()
    (repo / "conf" / "w.yaml").write_text("a: 1\n", encoding="utf-8")
    for name in ("a", "b", "c", "named"):
        (repo / "docs" / f"{name}.md").write_text(_json_page(BAD), encoding="utf-8")
    (repo / "docs" / "named.md").write_text(_json_page(BAD, above="Set it in `conf/w.yaml`.\n\n"), encoding="utf-8")
    _git(repo, "init", "-q", "-b", "main")
    _commit(repo, "start")
    _git(repo, "checkout", "-q", "-b", "topic")
    (repo / "docs" / "a.md").write_text(_json_page(BAD, above="On the branch.\n\n"), encoding="utf-8")
    (repo / "conf" / "w.yaml").write_text("a: 2\n", encoding="utf-8")
    _commit(repo, "topic")
    _git(repo, "checkout", "-q", "main")
    (repo / "docs" / "b.md").write_text(_json_page(BAD, above="On main after the branch left.\n\n"), encoding="utf-8")
    _commit(repo, "main moves on")
    _git(repo, "checkout", "-q", "topic")
    (repo / "docs" / "new.md").write_text(_json_page(BAD), encoding="utf-8")  # untracked

    code, out, err = _check(repo, capsys, "--changed", "main")
    assert code == 1 and "3 of 5 page(s)" in err
    checked = {line.split(":")[0] for line in out.splitlines() if line.startswith("docs/")}
    assert checked == {"docs/a.md", "docs/named.md", "docs/new.md"}  # not b.md: main changed it after the branch point
