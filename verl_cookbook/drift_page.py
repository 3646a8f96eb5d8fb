"""The drift page (docs/tools/drift.md, docs/tools/drift.en.md): what the checker finds in verl's own docs, READMEs and
example launch scripts, rendered from the record of the weekly canary's last run.

``scripts/verl_drift.py CHECKOUT`` runs the two commands in a verl checkout, writes the record
(``tests/data/verl_drift_run.json``, the previous run kept for comparison) and the two pages;
``tests/test_drift_page.py`` fails when the committed pages differ from what :func:`render` gives for the committed
record. A pure function of the record: nothing here reads verl or runs the checker.

A finding is the same one from run to run when its file, its rule and the text of the line it points at are the same
(as the baseline matches them, so that lines moving above it do not make it new): :func:`changes` compares the two runs
that way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from verl_cookbook.rules.scripts import SHELLCHECK_SC

VERL_REPO = "https://github.com/verl-project/verl"

Record = Mapping[str, Any]
Key = tuple[str, str, str]

_TEXT = {
    "title": ("verl 文档与示例的问题清单", "Drift in verl's own docs and examples"),
    "intro": (
        "本页列出 verl-cookbook 在 verl 自身的文档、README 和示例启动脚本中发现的问题，由每周一次的巡检运行生成："
        "巡检在 verl 主分支上执行下面两条命令，并将结果记录在 `tests/data/verl_drift_run.json` 中。"
        "每条问题都链接到 verl 在该提交下的文件和行。",
        "This page lists what verl-cookbook finds in verl's own docs, READMEs and example launch scripts. The weekly "
        "canary writes it: it runs the two commands below on verl's main branch and records the result in "
        "`tests/data/verl_drift_run.json`. Each entry links to verl's file and line at the commit it read.",
    ),
    "measured": ("本次运行：verl 提交 {commit}，{date}（UTC）。", "This run: verl commit {commit}, {date} (UTC)."),
    "counts": (
        "文档与 README 中 {docs} 条，示例启动脚本中 {examples} 条。",
        "{docs} in the docs and READMEs, {examples} in the example launch scripts.",
    ),
    "changes": ("与上次运行相比", "Since the previous run"),
    "first": (
        "本次为首次记录，无上次运行可供比较。",
        "This is the first recorded run: there is nothing to compare with.",
    ),
    "previous": (
        "上次运行：verl 提交 {commit}，{date}（UTC）。",
        "The previous run: verl commit {commit}, {date} (UTC).",
    ),
    "new": ("新增 {n} 条：", "New, {n}:"),
    "fixed": ("已修复 {n} 条：", "Fixed, {n}:"),
    "none_new": ("无新增问题。", "Nothing new."),
    "none_fixed": ("无已修复的问题。", "Nothing fixed."),
    "docs": ("文档与 README", "Docs and READMEs"),
    "examples": ("示例启动脚本", "Example launch scripts"),
    "none": ("未发现问题。", "Nothing found."),
    "head": ("| 位置 | 规则 | 问题 |", "| Where | Rule | What is wrong |"),
    "fixes": ("修复补丁", "Fixes as patches"),
    "fixes_count": (
        "上述问题中有 {n} 条有机械修复，涉及以下 {files} 个文件；在 verl 检出目录下执行下面的命令即可得到补丁，"
        "用 `git apply` 应用：",
        "{n} of the findings above have a mechanical fix, in the {files} files below; in a verl checkout, this command "
        "writes the patch, which `git apply` applies:",
    ),
    "no_fixes": ("本次运行未生成补丁。", "This run wrote no patch."),
}


def _t(key: str, lang: str, **values: Any) -> str:
    zh, en = _TEXT[key]
    return (zh if lang == "zh" else en).format(**values)


def finding_key(f: Mapping[str, Any]) -> Key:
    """What makes a finding the same one in the next run: its file, its rule and its line's text."""
    return (str(f["path"]), str(f["rule"]), " ".join(str(f.get("line_text", "")).split()))


def changes(record: Record) -> tuple[list[Mapping[str, Any]], list[Sequence[str]]] | None:
    """The findings new since the previous run, and the previous run's keys no longer found (fixed); None when the
    record has no previous run."""
    previous = record.get("previous")
    if not previous:
        return None
    before = {tuple(k) for k in previous["keys"]}
    now = {finding_key(f) for f in record["findings"]}
    new = [f for f in record["findings"] if finding_key(f) not in before]
    fixed = sorted(k for k in before if k not in now)
    return new, [list(k) for k in fixed]


def source_link(commit: str, path: str, line: int | None = None) -> str:
    """verl's file at ``commit`` on GitHub, at ``line`` when given."""
    return f"{VERL_REPO}/blob/{commit}/{path}" + (f"#L{line}" if line else "")


def _cell(text: str) -> str:
    """Text safe in one Markdown table cell: pipes escaped, line breaks joined."""
    return " ".join(text.replace("|", "\\|").split())


def _parts(f: Mapping[str, Any], commit: str, lang: str) -> tuple[str, str, str]:
    """Where (linked to verl's line at ``commit``), the rule (linked to its entry on the rules page), the message."""
    where = f"[`{f['path']}:{f['line']}`]({source_link(commit, f['path'], f['line'])})"
    rule = str(f["rule"])
    if rule.startswith(SHELLCHECK_SC.code):  # ShellCheck's own codes: its wiki explains each one
        rule_link = f"[`{rule}`](https://www.shellcheck.net/wiki/{rule.partition('/')[2]})"
    else:
        rule_link = f"[`{rule}`](rules.md#{rule.replace('/', '-')})"
    message = f["message_zh"] if lang == "zh" else f["message_en"]
    return where, rule_link, _cell(str(message))


def _row(f: Mapping[str, Any], commit: str, lang: str) -> str:
    return "| " + " | ".join(_parts(f, commit, lang)) + " |"


def _table(findings: Sequence[Mapping[str, Any]], commit: str, lang: str) -> list[str]:
    if not findings:
        return [_t("none", lang)]
    rows = sorted(findings, key=lambda f: (f["path"], f["line"], f["col"], f["rule"]))
    return [_t("head", lang), "| --- | --- | --- |", *(_row(f, commit, lang) for f in rows)]


def _short(commit: str) -> str:
    return commit[:12]


def render(record: Record, lang: str) -> str:
    """The page in ``lang`` (``zh`` or ``en``) for ``record``."""
    commit = str(record["commit"])
    findings = record["findings"]
    docs = [f for f in findings if f["source"] == "docs"]
    examples = [f for f in findings if f["source"] == "examples"]
    commit_link = f"[`{_short(commit)}`]({VERL_REPO}/tree/{commit})"
    out = [
        f"# {_t('title', lang)} {{ #drift }}",
        "",
        "<!-- generated: test_drift_page.py::test_the_committed_drift_pages_are_rendered_from_the_recorded_run -->",
        "",
        _t("intro", lang),
        "",
        '```bash {check="skip" reason="run by the canary in a verl checkout (scripts/verl_drift.py)"}',
        *record["commands"],
        "```",
        "",
        _t("measured", lang, commit=commit_link, date=record["measured"])
        + ("" if lang == "zh" else " ")
        + _t("counts", lang, docs=len(docs), examples=len(examples)),
        "",
        f"## {_t('changes', lang)} {{ #changes }}",
        "",
    ]
    diff = changes(record)
    if diff is None:
        out.append(_t("first", lang))
    else:
        new, fixed = diff
        prev = record["previous"]
        prev_link = f"[`{_short(prev['commit'])}`]({VERL_REPO}/tree/{prev['commit']})"
        out += [_t("previous", lang, commit=prev_link, date=prev["measured"]), ""]
        if new:
            out += [_t("new", lang, n=len(new)), ""]
            out += ["- " + " · ".join(_parts(f, commit, lang)) for f in new]
        else:
            out.append(_t("none_new", lang))
        out.append("")
        if fixed:
            out += [_t("fixed", lang, n=len(fixed)), ""]
            out += [f"- `{path}` · `{rule}` · `{text}`" for path, rule, text in fixed]
        else:
            out.append(_t("none_fixed", lang))
    out += ["", f"## {_t('docs', lang)} {{ #docs }}", "", *_table(docs, commit, lang)]
    out += ["", f"## {_t('examples', lang)} {{ #examples }}", "", *_table(examples, commit, lang)]
    out += ["", f"## {_t('fixes', lang)} {{ #fixes }}", ""]
    fixes = record.get("fixes") or {}
    if fixes.get("files"):
        out += [_t("fixes_count", lang, n=fixes["findings"], files=len(fixes["files"])), ""]
        out += [
            '```bash {check="skip" reason="run in a verl checkout"}',
            f"{fixes['command']} > verl-fixes.patch",
            "```",
            "",
        ]
        out += [f"- [`{path}`]({source_link(commit, path)})" for path in fixes["files"]]
        out.append("")
    else:
        out += [_t("no_fixes", lang), ""]
    return "\n".join(out).rstrip("\n") + "\n"
