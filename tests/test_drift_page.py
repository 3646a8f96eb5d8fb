"""The drift page: rendered from the canary's recorded run on verl, links each defect to verl's line at the commit,
says what is new and what was fixed since the previous run, and shows the patches `check --diff` wrote."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from verl_cookbook.drift_page import changes, finding_key, render, source_link

REPO = Path(__file__).resolve().parent.parent
RECORD = REPO / "tests" / "data" / "verl_drift_run.json"
PAGES = {"zh": REPO / "docs" / "tools" / "drift.md", "en": REPO / "docs" / "tools" / "drift.en.md"}


def _record() -> dict:
    return json.loads(RECORD.read_text(encoding="utf-8"))


def _finding(path: str, line: int, rule: str, text: str, source: str = "docs") -> dict:
    return {
        "source": source,
        "path": path,
        "line": line,
        "col": 1,
        "rule": rule,
        "severity": "error",
        "message_en": f"{rule} at {path} | with a pipe",
        "message_zh": f"{rule} 位于 {path}",
        "line_text": text,
    }


def _small(previous: dict | None = None, fixes: dict | None = None) -> dict:
    return {
        "commit": "a" * 40,
        "measured": "2026-12-07 04:30",
        "commands": ["verl-cookbook check --verl-src . --lenient docs/ README*.md"],
        "findings": [
            _finding("docs/a.md", 12, "config/unknown-key", "trainer.nope=1 \\"),
            _finding("examples/run.sh", 3, "override/needs-plus", "x.y=1 \\", source="examples"),
        ],
        "fixes": fixes or {},
        "previous": previous,
    }


def test_the_committed_drift_pages_are_rendered_from_the_recorded_run():
    record = _record()
    for lang, page in PAGES.items():
        assert page.read_text(encoding="utf-8") == render(record, lang), (
            f"{page} is not what the record renders: run `python scripts/verl_drift.py --pages-only`"
        )


def test_the_recorded_run_counts_what_the_page_says_and_each_finding_has_both_languages():
    record = _record()
    docs = sum(f["source"] == "docs" for f in record["findings"])
    examples = sum(f["source"] == "examples" for f in record["findings"])
    text = PAGES["en"].read_text(encoding="utf-8")
    assert f"{docs} in the docs and READMEs, {examples} in the example launch scripts" in text
    assert docs and examples
    assert all(f["message_en"] and f["message_zh"] and f["message_en"] != f["message_zh"] for f in record["findings"])


def test_each_defect_links_to_verls_line_at_the_recorded_commit():
    record = _record()
    text = PAGES["en"].read_text(encoding="utf-8")
    for f in record["findings"]:
        assert f"]({source_link(record['commit'], f['path'], f['line'])})" in text
    assert source_link("c" * 40, "docs/x.md", 7) == f"https://github.com/verl-project/verl/blob/{'c' * 40}/docs/x.md#L7"


def test_a_rule_cell_links_to_the_rules_page_entry_of_that_rule():
    rules = (REPO / "docs" / "tools" / "rules.en.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r"\{ #([\w-]+) \}", rules))
    linked = set(re.findall(r"\(rules\.md#([\w-]+)\)", PAGES["en"].read_text(encoding="utf-8")))
    assert linked and linked <= anchors, linked - anchors
    record = _record()
    shellcheck = {f["rule"] for f in record["findings"] if f["rule"].startswith("shellcheck/")}
    for code in shellcheck:  # ShellCheck's codes link to ShellCheck's wiki
        assert f"(https://www.shellcheck.net/wiki/{code.partition('/')[2]})" in PAGES["en"].read_text(encoding="utf-8")


def test_a_pipe_in_a_message_is_escaped_so_the_table_keeps_three_columns():
    text = render(_small(), "en")
    row = next(line for line in text.splitlines() if "docs/a.md:12" in line)
    assert "\\| with a pipe" in row
    assert len(re.split(r"(?<!\\)\|", row)) == 5  # three cells between four unescaped pipes


def test_the_first_run_says_there_is_nothing_to_compare_with():
    assert changes(_small()) is None
    assert "This is the first recorded run" in render(_small(), "en")
    assert "本次为首次记录" in render(_small(), "zh")


def test_a_finding_whose_line_moved_is_not_new_and_one_no_longer_found_is_fixed():
    previous = {
        "commit": "b" * 40,
        "measured": "2026-11-30 04:30",
        "keys": [
            list(finding_key(_finding("docs/a.md", 99, "config/unknown-key", "trainer.nope=1  \\"))),  # moved
            ["docs/old.md", "json/syntax", '{"a": 1,}'],  # gone since
        ],
    }
    record = _small(previous)
    diff = changes(record)
    assert diff is not None
    new, fixed = diff
    assert [f["path"] for f in new] == ["examples/run.sh"]
    assert fixed == [["docs/old.md", "json/syntax", '{"a": 1,}']]
    text = render(record, "en")
    assert "New, 1:" in text and "Fixed, 1:" in text and "`docs/old.md` · `json/syntax`" in text
    assert f"[`{'b' * 12}`]" in text


def test_nothing_new_and_nothing_fixed_is_said_so():
    previous = {"commit": "b" * 40, "measured": "x", "keys": [list(finding_key(f)) for f in _small()["findings"]]}
    text = render(_small(previous), "en")
    assert "Nothing new." in text and "Nothing fixed." in text


def test_the_fixes_name_the_command_that_writes_the_patch_and_the_files_it_changes_and_their_absence_is_said():
    fixes = {"command": "verl-cookbook check --verl-src . --lenient docs/ README*.md --diff", "files": ["docs/a.md"],
             "findings": 1}  # fmt: skip
    text = render(_small(fixes=fixes), "en")
    assert "1 of the findings above have a mechanical fix, in the 1 files below" in text
    assert (
        "--diff > verl-fixes.patch" in text
        and f"(https://github.com/verl-project/verl/blob/{'a' * 40}/docs/a.md)" in text
    )
    assert "This run wrote no patch." in render(_small(), "en")


def test_the_recorded_fixes_count_what_check_diff_fixed_in_the_files_it_names():
    record = _record()
    assert record["fixes"]["files"] and 0 < record["fixes"]["findings"] <= len(record["findings"])
    assert record["fixes"]["command"].endswith("--diff")


def test_both_languages_have_the_same_headings_and_table_rows():
    record = _record()
    zh, en = (render(record, lang) for lang in ("zh", "en"))
    assert re.findall(r"\{ #[\w-]+ \}", zh) == re.findall(r"\{ #[\w-]+ \}", en)
    assert sum(line.startswith("| [`") for line in zh.splitlines()) == len(record["findings"])
    assert sum(line.startswith("| [`") for line in en.splitlines()) == len(record["findings"])


def test_the_canary_workflow_runs_the_drift_script_on_verl_main_weekly():
    workflow = yaml.safe_load((REPO / ".github" / "workflows" / "canary.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["drift"]["steps"]
    runs = " ".join(str(s.get("run", "")) for s in steps)
    assert "scripts/verl_drift.py" in runs
    assert any("verl-project/verl" in str(s.get("with", {}).get("repository", "")) for s in steps)
    assert workflow[True]["schedule"]  # PyYAML reads the key `on` as True


def _stale(findings: list[dict]) -> list[str]:
    """The recorded findings whose message differs from what its rule makes today from the finding's data."""
    from verl_cookbook.rules import replay

    out = []
    for f in findings:
        made = replay({**f, "message": f["message_en"]})
        if (made.text("en"), made.text("zh")) != (f["message_en"], f["message_zh"]):
            out.append(f"{f['path']}:{f['line']} {f['rule']}")
    return out


def test_every_message_on_the_drift_page_is_what_todays_rules_print_for_its_data():
    """The record is measured weekly, the rules change daily: each recorded finding is made again by its rule from the
    data it carries, in both languages, so a rule whose words changed (the page showed a day-old legacy-key message,
    and review25b F1's 'raises TypeError' after the rule was fixed) fails here until scripts/verl_drift.py reruns."""
    stale = _stale(_record()["findings"])
    assert not stale, "re-run scripts/verl_drift.py on a verl checkout: " + ", ".join(stale)


def test_a_recorded_message_in_a_rules_old_words_is_reported_stale():
    findings = [f for f in _record()["findings"] if f["rule"] == "config/not-a-field"]
    assert findings and not _stale(findings)
    old = [{**f, "message_zh": f["message_zh"].replace("构造时失败", "构造时抛出 TypeError")} for f in findings]
    assert _stale(old) == [f"{f['path']}:{f['line']} config/not-a-field" for f in findings]


def test_a_run_that_read_a_commit_older_than_a_week_says_the_findings_are_that_commits():
    """review35j-5: a run dated months after the commit it read must not pass for today's main; a run on the day's
    main says nothing of the kind."""
    record = dict(_record())
    record["commit_date"], record["measured"] = "2026-08-22", "2026-12-06 19:02"
    assert "结果反映的是该提交时的主分支" in render(record, "zh")
    assert "findings show main as of that commit" in render(record, "en")
    record["commit_date"] = "2026-12-05"
    assert "结果反映的是该提交时的主分支" not in render(record, "zh")
    assert "findings show main as of that commit" not in render(record, "en")
