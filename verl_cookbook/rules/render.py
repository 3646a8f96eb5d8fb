"""The rules page (docs/tools/rules.md, docs/tools/rules.en.md), rendered from the declarations.

A pure function of the declarations: ``scripts/gen_rules_page.py`` writes the two files, and
``tests/test_rules_page.py`` fails when the committed ones differ from what it renders. Both languages have the
same structure (headings with the same English anchors, the same fences, the same table rows), so translation
parity holds by construction. The Chinese page gives each rule's summary, what it catches and why in 中文 (the
last two from ``rules/zh.py``), and its message and fix as the rule declares them in 中文 (what ``--lang zh`` prints);
the examples are code, the same on both pages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TypedDict

from verl_cookbook.rules import Example, Rule, declarations, page_examples
from verl_cookbook.rules.zh import ZH

FAMILIES = {
    "ascend": ("昇腾环境变量", "Ascend environment"),
    "cite": ("源码引用", "Citations of verl's source"),
    "claim": ("页面声明", "Claims about verl"),
    "cmake": ("Mooncake CMake 选项", "Mooncake CMake options"),
    "command": ("启动命令", "The command that starts verl"),
    "combo": ("版本组合", "Version combinations"),
    "config": ("配置项", "Config keys and values"),
    "coverage": ("陈述覆盖率", "Claim coverage"),
    "defaults": ("默认值代码块", "Blocks of defaults"),
    "delta": ("delta_sharded 约束", "delta_sharded constraints"),
    "diagram": ("图表", "Diagrams"),
    "engine": ("检查点引擎", "Checkpoint engines"),
    "env": ("环境变量", "Environment variables"),
    "fact": ("上游事实快照", "Facts from upstream snapshots"),
    "file": ("文件读取", "Reading files"),
    "include": ("文件引用", "Includes"),
    "install": ("安装脚本", "Install scripts"),
    "json": ("JSON", "JSON"),
    "lenient": ("其他项目的文档（--lenient）", "Other projects' docs (--lenient)"),
    "markdown": ("Markdown", "Markdown"),
    "merger": ("模型合并工具命令行", "The model merger command line"),
    "override": ("Hydra 覆盖项", "Hydra overrides"),
    "parity": ("中英文结构一致", "Translation parity"),
    "python": ("Python 示例", "Python examples"),
    "shell": ("Shell 脚本", "Shell scripts"),
    "shellcheck": ("ShellCheck", "ShellCheck"),
    "snippet": ("代码块声明", "Code block declarations"),
    "upgrade": ("旧版本脚本升级", "Scripts written for an older verl"),
    "startup": ("verl 启动检查", "verl's startup checks"),
    "suppression": ("忽略注释", "Suppression comments"),
    "table": ("参数表格", "Parameter tables"),
    "verl": ("verl 自身一致性", "verl's own consistency"),
    "wheel": ("wheel 元数据", "Wheel metadata"),
    "yaml": ("YAML", "YAML"),
}


class _Text(TypedDict):
    """The page's own words in one language."""

    title: str
    intro: str
    select_h: str
    select: str
    suppress_h: str
    suppress: str
    index_h: str
    cols: tuple[str, str, str]
    catches: str
    why: str
    message: str
    fix: str
    bad: str
    good: str
    severity: dict[str, str]
    family_code: str
    json_code: str


_TEXT: dict[str, _Text] = {
    "zh": {
        "title": "规则列表 { #rules }",
        "intro": (
            "`verl-cookbook check` 与 `verl-cookbook doctor` 报告的每条检查结果都属于下列某条规则，输出中以规则代码标识"
            "（如 `config/unknown-key`）。每条规则的提示信息与修改方法"
            "均以中文和英文声明：`--lang zh` 输出中文，`--lang en` 输出英文；未指定时按 `LC_ALL`、`LC_MESSAGES`、"
            "`LANG` 中第一个已设置的变量判断，以 `zh` 开头即输出中文。`cite/`、`claim/`、`coverage/`、`parity/`、"
            "`diagram/` 规则检查 Markdown 页面中的源码引用、检查声明、中英文对照和图表，"
            "`doctor` 检查启动脚本和配置文件时不会报告这些规则。\n\n"
            "提示信息中的 `{名称}` 由检查结果的数据填入，⟦…⟧ 中的部分只在相应数据存在时显示（规则声明中写作 `[[…]]`）。"
            "一条规则有多种情形时，提示信息按情形列出：一般情形以 `…` 标出，"
            "其余情形以情形名（如 `a2`、`not-json`）标出。\n\n"
            "级别为“警告”的规则在 `--format github` 输出中显示为 `::warning` 注解，在文本输出中于规则代码后标注 "
            "`(warning)`。报告出的警告与错误一样使退出码为 1；不希望因某条规则而失败时，"
            "用 `--ignore` 或忽略注释将其排除。级别为“提示”的规则（如代码块标错了语言）显示为 `::notice` 注解，"
            "在文本输出中标注 `(info)`，只有提示时退出码为 0。"
        ),
        "select_h": "选择与忽略规则 { #select }",
        "select": (
            "`check` 与 `doctor` 均支持以下选项：`--select` 只报告所列规则，`--ignore` 不报告所列规则；两者均接受"
            "规则代码或代码前缀（如 `config`、`engine/unknown-`），多个值以逗号分隔，同时指定时 `--ignore` 优先。"
            "对下面的脚本，各条命令报告的规则见其注释。"
        ),
        "suppress_h": "忽略注释 { #suppressions }",
        "suppress": (
            "在某一行或其上一行添加 `verl-cookbook: ignore[规则代码]` 注释后，该处不再报告这条规则。"
            "Markdown 中使用 HTML 注释（verl 的 Sphinx/MyST 构建同样不输出 HTML 注释），Shell 与 YAML 中使用 `#` 注释。"
            "未生效的忽略注释本身报告为检查结果（`suppression/unused`），"
            "注释中的规则代码不存在时报告 `suppression/unknown-code`。"
            "下面两个示例按所示写法没有任何检查结果；删去忽略注释后，报告注释中所写的规则。"
        ),
        "index_h": "规则一览 { #index }",
        "cols": ("规则代码", "摘要", "级别"),
        "catches": "检查内容",
        "why": "影响",
        "message": "提示信息",
        "fix": "修改方法",
        "bad": "错误示例",
        "good": "正确示例",
        "severity": {"error": "错误", "warning": "警告", "info": "提示"},
        "family_code": "ShellCheck 的检查结果以 `shellcheck/SC<编号>` 标识。",
        "json_code": "JSON Schema 校验的检查结果以 `json/schema-<校验项>` 标识。",
    },
    "en": {
        "title": "Rules { #rules }",
        "intro": (
            "Every finding of `verl-cookbook check` and `verl-cookbook doctor` belongs to one of the rules below, "
            "and the output names it by its code (`config/unknown-key`). This page is generated from the rule "
            "declarations (`verl_cookbook/rules/`). Each rule declares its message and its fix in English and in "
            "中文: `--lang en` prints the English, `--lang zh` the 中文; without `--lang`, the first of `LC_ALL`, "
            "`LC_MESSAGES` and `LANG` that is set decides (a value starting with `zh` means 中文). The `cite/`, "
            "`claim/`, `coverage/`, `parity/` and `diagram/` rules check the source citations, check declarations, "
            "language twins and diagrams of Markdown pages, so `doctor`, which reads launch scripts and config files, "
            "never reports them."
            "\n\n"
            "In a message, `{name}` is filled from the finding's data, and a part in ⟦…⟧ (written `[[…]]` in the "
            "declaration) is shown only when its data is there. When a rule has several cases, its messages are listed "
            "by case: the general case is marked `…`, and the others carry the case's name (`a2`, `not-json`)."
            "\n\n"
            "A rule of severity warning is annotated `::warning` in `--format github` output and marked `(warning)` "
            "after its code in text output. A reported warning sets exit code 1 just as "
            "an error does; to keep a rule from failing a run, leave it out with `--ignore` or a suppression comment. "
            "A rule of severity info (a note, such as a block tagged with the wrong language) is annotated `::notice` "
            "and marked `(info)`; info notes alone leave the exit code at 0."
        ),
        "select_h": "Selecting and ignoring rules { #select }",
        "select": (
            "`check` and `doctor` both take these options: `--select` reports only the rules named, `--ignore` never "
            "reports them; both take codes or code prefixes (`config`, `engine/unknown-`), comma-separated, and "
            "`--ignore` wins when both are given. For the script below, each command reports the rules named in its "
            "comment."
        ),
        "suppress_h": "Suppression comments { #suppressions }",
        "suppress": (
            "A `verl-cookbook: ignore[CODE]` comment on a line, or on the line above it, silences that rule there: "
            "an HTML comment in Markdown (verl's Sphinx/MyST build ignores those too), a `#` comment in shell and "
            "YAML. A suppression comment that silences nothing is itself reported (`suppression/unused`), and so is "
            "one naming a code that does not exist (`suppression/unknown-code`). Each example below reports nothing "
            "as written; without its comment, it reports the rule the comment names."
        ),
        "index_h": "All rules { #index }",
        "cols": ("Code", "Summary", "Severity"),
        "catches": "What it catches",
        "why": "Why",
        "message": "Message",
        "fix": "Fix",
        "bad": "Bad",
        "good": "Correct",
        "severity": {"error": "error", "warning": "warning", "info": "info"},
        "family_code": "ShellCheck's findings are named `shellcheck/SC<number>`.",
        "json_code": "Findings of JSON Schema validation are named `json/schema-<validator>`.",
    },
}

_FENCE = {"sh": "bash", "yaml": "yaml", "md": "markdown"}
_REASON = {"zh": "规则示例，由 tests/test_rules.py 运行", "en": "a rule's example, run by tests/test_rules.py"}


def anchor(rule: Rule) -> str:
    return rule.code.replace("/", "-").rstrip("-").lower()


def texts(rule: Rule, lang: str) -> tuple[str, str]:
    """What ``rule`` catches and why it matters, in ``lang``; a rule without 中文 in rules/zh.py keeps its English
    (tests/test_rules_page.py fails on it, so the page is never published that way)."""
    if lang == "zh" and rule.code in ZH:
        return ZH[rule.code]
    return rule.catches, rule.why


_VERL_REF = re.compile(r"\bverl (PR )?#(\d+)\b")


def linked(text: str) -> str:
    """``text`` with each ``verl PR #N`` / ``verl #N`` it names linked to that pull request or issue (a rule's texts
    are plain, for the command line; the page links what they cite)."""

    def link(m: re.Match[str]) -> str:
        kind = "pull" if m.group(1) else "issues"
        return f"[{m.group(0)}](https://github.com/verl-project/verl/{kind}/{m.group(2)})"

    return _VERL_REF.sub(link, text)


_BESIDE = {
    "zh": "保存为 `example.md`，与 `mkdocs.yml`（站点根目录）及以下文件放在同一目录：",
    "en": "Saved as `example.md` in a folder with a `mkdocs.yml` (the site root) and these files:",
}
_FILE_FENCE = {".json": "json", ".md": "markdown", ".yaml": "yaml", ".yml": "yaml"}


def _fenced(kind: str, text: str, lang: str) -> list[str]:
    fence = "````" if "```" in text else "```"
    return [
        f'{fence} {{ .{kind} check="skip" reason="{_REASON[lang]}" }}',
        *text.rstrip("\n").split("\n"),
        fence,
    ]


def _example(ex: Example, lang: str) -> list[str]:
    """An example as the reader reruns it: its text, and the files it needs beside it (e.g. a coverage debt list)."""
    args = f" (`{' '.join(ex.args)}`)" if ex.args else ""
    lines = [*([args.strip()] if args else []), "", *_fenced(_FENCE[ex.kind], ex.text, lang)]
    if ex.files:
        lines += ["", _BESIDE[lang]]
        for name, text in ex.files.items():
            lines += ["", f"`{name}`:" if lang == "en" else f"`{name}`：", ""]
            lines += _fenced(_FILE_FENCE.get(Path(name).suffix, "text"), text, lang)
    return lines


_SPAN = re.compile(r"(`+)(.+?)\1")


def shown_fix(fix: str | None) -> str | None:
    """A rule's fix as the page shows it: an unfilled field as ``{name}``, as in the message (``<name>`` read as an
    HTML tag and vanished from the page)."""
    return re.sub(r"<(\w+)>", r"{\1}", fix) if fix else fix


_CONVERSION = re.compile(r"\{(\w+)![a-z]\}")


def _shown(template: str) -> str:
    """A template as Markdown text: an optional part ``[[…]]`` shown as ``⟦…⟧``, other square brackets outside
    code spans escaped, so that neither reads as a link reference, and a field's conversion (``{value!r}``,
    ``{missing!c}``: how the value is quoted or listed) left out, as ``{value}``, for the reader."""
    template = _CONVERSION.sub(r"{\1}", template)

    def text(part: str) -> str:
        part = part.replace("[[", "⟦").replace("]]", "⟧")
        return part.replace("[", "\\[").replace("]", "\\]")

    out, last = [], 0
    for m in _SPAN.finditer(template):
        out += [text(template[last : m.start()]), m.group(0)]
        last = m.end()
    out.append(text(template[last:]))
    return "".join(out)


def _messages(rule: Rule, lang: str, label: str) -> list[str]:
    """The rule's message templates in ``lang``: one line, or one sub-item per case (and per listed part)."""
    m = rule.declared.message
    templates = {case: _shown(text) for case, text in (m.zh if lang == "zh" else m.en).items()}
    colon = "：" if lang == "zh" else ": "
    if list(templates) == [""]:
        lines = [label + templates[""]]
    else:
        lines = [label] + [f"    - `{case or '…'}`{colon}{text}" for case, text in templates.items()]
    if m.parts is not None:  # the problems a `!p` field lists, one wording each
        parts = m.parts.zh if lang == "zh" else m.parts.en
        lines += [f"    - `{case}`{colon}{_shown(text)}" for case, text in parts.items()]
    return lines


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


_PAGE_REASON = {
    "zh": "本页示例，由 tests/test_rules_page.py 运行",
    "en": "an example of this page, run by tests/test_rules_page.py",
}
_REPORTS = {"zh": "报告", "en": "reports"}
_AND = {"zh": "、", "en": ", "}  # between the rules a command reports


def _select_examples(lang: str) -> list[str]:
    """The script of the select section, then each command with the rules it reports (tests/test_rules_page.py runs
    them)."""
    reason = _PAGE_REASON[lang]
    width = max(len(page_examples.command(opts)) for opts, _ in page_examples.SELECT_COMMANDS)
    lines = [
        f'``` {{ .bash check="skip" reason="{reason}" title="{page_examples.SELECT_NAME}" }}',
        *page_examples.SELECT_SCRIPT.text.rstrip("\n").split("\n"),
        "```",
        "",
        f'``` {{ .bash check="skip" reason="{reason}" }}',
    ]
    for opts, codes in page_examples.SELECT_COMMANDS:
        lines.append(f"{page_examples.command(opts).ljust(width)}  # {_REPORTS[lang]} {_AND[lang].join(codes)}")
    return [*lines, "```"]


def _suppression_examples(lang: str) -> list[str]:
    """Each suppression example, as a reader would write it (tests/test_rules_page.py runs them)."""
    out: list[str] = []
    for ex in page_examples.SUPPRESSIONS:
        fence = "````" if "```" in ex.text else "```"
        out += [
            *([""] if out else []),
            f'{fence} {{ .{_FENCE[ex.kind]} check="skip" reason="{_PAGE_REASON[lang]}" }}',
            *ex.text.rstrip("\n").split("\n"),
            fence,
        ]
    return out


# the page is written from the declarations: claim coverage counts its statements as generated, held by this test
GENERATED = "<!-- generated: test_rules_page.py::test_the_committed_rules_page_is_current -->"
_NOTE = {
    "zh": '!!! info "说明"\n    本页由规则声明生成，与当前版本的 verl-cookbook 一致。',
    "en": '!!! info "Note"\n    This page is generated from the rule declarations of the current verl-cookbook.',
}


def render(lang: str) -> str:
    """The rules page in ``lang`` ("zh" or "en")."""
    t = _TEXT[lang]
    zh = lang == "zh"
    rules = declarations()
    out = [
        f"# {t['title']}",
        "",
        GENERATED,
        "",
        _NOTE[lang],
        "",
        t["intro"],
        "",
        f"## {t['select_h']}",
        "",
        t["select"],
        "",
    ]
    out += _select_examples(lang)
    out += ["", f"## {t['suppress_h']}", "", t["suppress"], ""]
    out += _suppression_examples(lang)
    out += ["", f"## {t['index_h']}", "", f"| {' | '.join(t['cols'])} |", "|---|---|---|"]
    for r in rules:
        code = f"`{r.code}…`" if r.family else f"`{r.code}`"
        summary = r.summary_zh if zh else r.summary
        out.append(f"| [{code}](#{anchor(r)}) | {_cell(summary)} | {t['severity'][r.severity]} |")
    family = None
    for r in rules:
        fam = r.code.split("/")[0]
        if fam != family:
            family = fam
            name = FAMILIES[fam][0 if zh else 1]
            out += ["", f"## {name} {{ #family-{fam} }}"]
        title = f"{r.code}…" if r.family else r.code
        # the summary as the section's first line, not bold: bold is kept for warnings (scripts/prose_layout.py)
        out += ["", f"### `{title}` {{ #{anchor(r)} }}", "", r.summary_zh if zh else r.summary, ""]
        if r.code == "shellcheck/SC":
            out += [t["family_code"], ""]
        elif r.code == "json/schema-":
            out += [t["json_code"], ""]
        colon = "：" if zh else ": "  # a 中文 label takes the full-width colon (AutoCorrect, scripts/prose_lint.py)
        catches, why = texts(r, lang)
        out += [f"- {t['catches']}{colon}{linked(catches)}", f"- {t['why']}{colon}{linked(why)}"]
        out += _messages(r, lang, f"- {t['message']}{colon}")
        fix = shown_fix(r.fix_text({}, lang)) if r.fix else None
        if fix:
            out.append(f"- {t['fix']}{colon}{fix}")
        for heading, ex in ((t["bad"], r.bad), (t["good"], r.good)):
            if ex is not None:
                shown = f"`{' '.join(ex.args)}`" if ex.args else ""
                if shown:
                    shown = f"（{shown}）" if zh else f" ({shown})"
                out += ["", f"{heading}{shown}{colon.strip()}"]
                out += _example(ex, lang)[1 if ex.args else 0 :]
    return "\n".join(out) + "\n"
