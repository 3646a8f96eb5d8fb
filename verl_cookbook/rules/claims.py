"""Rules about what a page states about verl: claims and citations of verl's source (``claim/``, ``cite/``), and
the translation parity of a page and its twin (``parity/``)."""

from __future__ import annotations

from verl_cookbook.rules import declare

_STALE = "A statement about verl that no longer matches verl's source misleads the reader."
_PARITY = "Both languages say the same things; a structural difference is a translation that drifted."


def _parity_en(what: str, whats: str | None = None) -> dict[str, str]:
    """The messages of a rule comparing one kind of element of a page and its twin: the first element that differs
    (``""``), or the first one the other page does not have (``count``)."""
    return {
        "": what + " #{index} differs from the twin: here `{here}`, {twin}:{twin_line} has `{there}`",
        "count": "{count} "
        + (whats or what + "s")
        + " here, {twin_count} in {twin}: {extra_path}:{extra_line} `{extra}` has no "
        "counterpart in {other}",
    }


def _parity_zh(what: str) -> dict[str, str]:
    return {
        "": "第 {index} 个" + what + "与对应译文不一致：本页为 `{here}`，{twin}:{twin_line} 为 `{there}`",
        "count": "本页有 {count} 个" + what + "，{twin} 有 {twin_count} 个：{extra_path}:{extra_line} 的 `{extra}` 在 "
        "{other} 中没有对应项",
    }


# -- claim/ and cite/ ------------------------------------------------------------------
CLAIM_UNKNOWN_CHECK = declare(
    "claim/unknown-check",
    "Unknown claim kind",
    "未知的声明类型",
    "A `check: …` claim comment of a kind the checker does not have.",
    _STALE,
    message="`{kind}` is not a claim kind; known: {known!c}",
    message_zh="`{kind}` 不是可用的声明类型；可用类型：{known!c}",
)
CLAIM_MISSING_ATTR = declare(
    "claim/missing-attr",
    "Claim without its attributes",
    "声明缺少属性",
    "A claim declaration missing an attribute its kind needs.",
    _STALE,
    message="`check: {kind}` needs the attribute(s) {missing!c}",
    message_zh="`check: {kind}` 缺少属性 {missing!c}",
)
CLAIM_BAD_FILE = declare(
    "claim/bad-file",
    "Claim names a bad path",
    "声明引用的路径无效",
    "A claim whose `file=` is not a path inside verl's package.",
    _STALE,
    message='`file="{file}"` must be a path inside verl\'s package (`verl/…`)',
    message_zh='`file="{file}"` 须为 verl 包内的路径（`verl/…`）',
)
CLAIM_FILE_MISSING = declare(
    "claim/file-missing",
    "Claimed file missing",
    "声明引用的文件不存在",
    "A claim about a verl file this release does not have.",
    _STALE,
    message={
        "": "verl {release} has no file `{file}`[[; a file of that name is at {moved!c}]]",
        "module": "`{name}`: verl {release} has no module file `{module_file}` (nor a `{part}` defined in "
        "`{file}`)[[; did you mean `{suggestion}`?]]",
    },
    message_zh={
        "": "verl {release} 中没有文件 `{file}`[[；同名文件位于 {moved!c}]]",
        "module": "`{name}`：verl {release} 中没有模块文件 `{module_file}`（`{file}` 中也没有定义 `{part}`）[[；"
        "是否应为 `{suggestion}`？]]",
    },
)
CLAIM_UNPARSABLE = declare(
    "claim/unparsable",
    "verl file does not parse",
    "verl 文件无法解析",
    "A claim about a verl file that Python cannot parse.",
    _STALE,
    message="verl's `{file}` does not parse: {error}",
    message_zh="verl 的 `{file}` 无法解析：{error}",
)
CLAIM_SYMBOL_MISSING = declare(
    "claim/symbol-missing",
    "Claimed symbol missing",
    "声明引用的符号不存在",
    "A claim naming a class or function the verl file does not define.",
    _STALE,
    message={
        "": "`{name}`: `{part}` is not defined in `{file}`[[; did you mean `{suggestion}`?]]",
        "no-module": "`{name}`: no module of verl {release} matches (expected `verl.<package>.<module>.…`)",
    },
    message_zh={
        "": "`{name}`：`{file}` 中没有定义 `{part}`[[；是否应为 `{suggestion}`？]]",
        "no-module": "`{name}`：verl {release} 中没有匹配的模块（应为 `verl.<package>.<module>.…`）",
    },
)
CLAIM_PARAMS_MISMATCH = declare(
    "claim/params-mismatch",
    "Claimed parameters differ",
    "声明的参数与源码不一致",
    "A claim listing parameters the function does not take.",
    _STALE,
    message={
        "": "`{name}` takes no parameter {lost!c}[[; did you mean `{suggestion}`?]]",
        "no-init": "`{name}` defines no `__init__` of its own, so `params=` cannot be checked here",
        "module": "`{name}` is a module; `params=` needs a callable",
    },
    message_zh={
        "": "`{name}` 不接受参数 {lost!c}[[；是否应为 `{suggestion}`？]]",
        "no-init": "`{name}` 没有自己的 `__init__`，无法在此核对 `params=`",
        "module": "`{name}` 是模块；`params=` 只适用于可调用对象",
    },
)
CLAIM_CODE_MISSING = declare(
    "claim/code-missing",
    "Claimed code line missing",
    "声明引用的代码行不存在",
    "A claim quoting code that no line of the verl file contains.",
    _STALE,
    message="`{file}` has no code line containing {match!r}",
    message_zh="`{file}` 中没有包含 {match!r} 的代码行",
)
CLAIM_CODE_CHANGED = declare(
    "claim/code-changed",
    "Claimed code line changed",
    "声明引用的代码行已变更",
    "A claim quoting code whose closest line in verl now differs.",
    _STALE,
    message="`{file}` has no code line containing {match!r}; the closest now is {closest!r}",
    message_zh="`{file}` 中没有包含 {match!r} 的代码行；最接近的代码行现为 {closest!r}",
)
CLAIM_ONLY_IN_COMMENT = declare(
    "claim/only-in-comment",
    "Claimed text only in a comment",
    "声明的内容仅出现在注释中",
    "A claim quoting code that appears only in a comment or docstring.",
    _STALE,
    message="`{file}` has {match!r} only in a comment or docstring, not in code",
    message_zh="`{file}` 中的 {match!r} 只出现在注释或 docstring 中，不在代码中",
)
CLAIM_RAISES_MISSING = declare(
    "claim/raises-missing",
    "Claimed error not raised",
    "声明的异常未被抛出",
    "A claim that verl raises an error with a message that no `raise` has.",
    _STALE,
    message={
        "": "no {error} raised in `{file}` has a message containing {match!r}[[; the text is now in {elsewhere}]]",
        "no-raise": "`{file}` has no `raise {error}`[[; the text is now in {elsewhere}]][[; did you mean "
        "`{suggestion}`?]]",
        "no-assert": "`{file}` has no `raise AssertionError` or `assert …, msg`[[; the text is now in {elsewhere}]]",
    },
    message_zh={
        "": "`{file}` 中以 {error} 抛出的错误信息均不含 {match!r}[[；该文本现位于 {elsewhere}]]",
        "no-raise": "`{file}` 中没有 `raise {error}`[[；该文本现位于 {elsewhere}]][[；是否应为 `{suggestion}`？]]",
        "no-assert": "`{file}` 中没有 `raise AssertionError` 或 `assert …, msg`[[；该文本现位于 {elsewhere}]]",
    },
)
CLAIM_RAISES_OTHER_ERROR = declare(
    "claim/raises-other-error",
    "Another error class raised",
    "抛出的异常类型不同",
    "A claim about an error whose message verl raises with another class.",
    _STALE,
    message="`{file}` raises {raised}, not {error}, with a message containing {match!r}",
    message_zh="`{file}` 以 {raised} 而非 {error} 抛出含 {match!r} 的错误信息",
)
CLAIM_MESSAGE_CHANGED = declare(
    "claim/message-changed",
    "Error message changed",
    "异常信息已变更",
    "A claim quoting an error message verl has since changed.",
    _STALE,
    message="`{file}` no longer raises {error} with {match!r}; the message is now {now!r}",
    message_zh="`{file}` 不再以 {error} 抛出 {match!r}；错误信息已改为 {now!r}",
)
CLAIM_VERL_VERSION = declare(
    "claim/verl-version",
    "Page checked against another release",
    "页面核对的 verl 版本与锁定版本不同",
    "A page stating the verl release it was checked against, other than the pinned one.",
    _STALE,
    message={
        "": "the page says it was checked against verl {stated}, but the pinned release is {pinned}: re-read "
        "the page against {pinned} and update the statement",
        "tree": "the pinned release is {pinned}, but the tree unpacked for it says version {version}",
    },
    message_zh={
        "": "页面注明核对所用的版本为 verl {stated}，而锁定的版本为 {pinned}：请按 {pinned} 重新核对页面并更新该说明",
        "tree": "锁定的版本为 {pinned}，但为其解压的源码树版本为 {version}",
    },
)
CITE_MISSING_FILE = declare(
    "cite/missing-file",
    "Cited file missing",
    "引用的文件不存在",
    "A citation of a verl file the cited release does not have.",
    _STALE,
    message={
        "": "cites `{path}`, which verl {release} does not have",
        "no-file": "cites `{written}`: verl has no file of that name",
        "ambiguous": "cites `{written}`, a name several files of verl have ({files!c}): write the path",
    },
    message_zh={
        "": "引用的 `{path}` 在 verl {release} 中不存在",
        "no-file": "引用了 `{written}`：verl 中没有该名称的文件",
        "ambiguous": "引用了 `{written}`：verl 中有多个同名文件（{files!c}），请写出路径",
    },
)
CITE_UNKNOWN_RELEASE = declare(
    "cite/unknown-release",
    "Cited release not covered",
    "引用的版本不在覆盖范围内",
    "A citation of a verl release the site does not cover.",
    _STALE,
    message={
        "": "cites verl {release}, which the site does not cover",
        "not-here": "cites verl {release}, which is neither unpacked in the cache nor shipped with this package",
    },
    message_zh={
        "": "引用了 verl {release}，本站未覆盖该版本",
        "not-here": "引用了 verl {release}，该版本既未解压到缓存中，也未随本工具包发布",
    },
)
CITE_LINE_OUT_OF_RANGE = declare(
    "cite/line-out-of-range",
    "Cited line beyond the file",
    "引用的行号超出文件范围",
    "A citation whose line numbers run past the end of the file.",
    _STALE,
    message="cites `{path}:{lines}`, but the file has {count} lines in verl {release}",
    message_zh="引用了 `{path}:{lines}`，但该文件在 verl {release} 中只有 {count} 行",
)
CITE_CLAIM_OUTSIDE_LINES = declare(
    "cite/claim-outside-lines",
    "Claim not in the cited lines",
    "声明内容不在引用的行内",
    "A claim whose quoted code is outside the lines its citation names.",
    _STALE,
    message="the claim before it matches `{match}`, which is not in the cited lines `{path}:{lines}`",
    message_zh="其前的声明匹配 `{match}`，而被引用的 `{path}:{lines}` 中没有这段内容",
)

# -- parity/ ------------------------------------------------------------------
PARITY_MISSING_TWIN = declare(
    "parity/missing-twin",
    "Page without its translation",
    "页面缺少对应译文",
    "A page with no twin in the other language.",
    _PARITY,
    message={
        "": "no English twin: expected `{twin}`",
        "zh": "no 中文 twin: expected `{twin}`",
    },
    message_zh={
        "": "缺少英文页面：应为 `{twin}`",
        "zh": "缺少中文页面：应为 `{twin}`",
    },
)
PARITY_HEADING_ANCHOR = declare(
    "parity/heading-anchor",
    "Heading without an explicit anchor",
    "标题缺少显式锚点",
    "A heading without `{ #anchor }`, whose slug would differ between the languages.",
    _PARITY,
    message="heading `{heading}` has no explicit `{{ #anchor }}`: its slug would differ between the "
    "languages, so links into it break in one of them",
    message_zh="标题 `{heading}` 没有显式锚点 `{{ #anchor }}`：两种语言生成的锚点不同，"
    "指向该标题的链接会在其中一种语言中失效",
)
PARITY_HEADINGS = declare(
    "parity/headings",
    "Headings differ",
    "标题结构不一致",
    "Headings (level and anchor) that differ from the twin's.",
    _PARITY,
    message=_parity_en("heading"),
    message_zh=_parity_zh("标题"),
)
PARITY_BLOCKS = declare(
    "parity/blocks",
    "Code blocks differ",
    "代码块不一致",
    "Fenced blocks (language, check, lines) that differ from the twin's.",
    _PARITY,
    message=_parity_en("code block"),
    message_zh=_parity_zh("代码块"),
)
PARITY_TABLES = declare(
    "parity/tables",
    "Parameter tables differ",
    "参数表格不一致",
    "Parameter tables whose rows differ from the twin's.",
    _PARITY,
    message=_parity_en("parameter table"),
    message_zh=_parity_zh("参数表格"),
)
PARITY_ADMONITIONS = declare(
    "parity/admonitions",
    "Admonitions differ",
    "提示框不一致",
    "Admonitions whose kinds differ from the twin's.",
    _PARITY,
    message=_parity_en("admonition"),
    message_zh=_parity_zh("提示框"),
)
PARITY_CLAIMS = declare(
    "parity/claims",
    "Check declarations differ",
    "检查声明不一致",
    "Check declarations that differ from the twin's.",
    _PARITY,
    message=_parity_en("check declaration"),
    message_zh=_parity_zh("检查声明"),
)
PARITY_SNIPPET_VARIANT = declare(
    "parity/snippet-variant",
    "中文 variant of a snippet that runs other code",
    "配置片段的中文版本与原片段的代码不同",
    "A `x.zh.sh` snippet on a 中文 page whose lines, comments left out, differ from `x.sh`'s.",
    _PARITY,
    message={
        "": "`{variant}` runs `{said}` where `{base}` runs `{wanted}`: a 中文 variant differs only in comments",
        "missing-base": "`{variant}` is a 中文 variant of `{base}`, which does not exist",
    },
    message_zh={
        "": "`{variant}` 运行 `{said}`，而 `{base}` 运行 `{wanted}`：中文版本只能在注释上不同",
        "missing-base": "`{variant}` 是 `{base}` 的中文版本，而 `{base}` 不存在",
    },
)
PARITY_MARKS = declare(
    "parity/marks",
    "Run markers or ※ marks differ",
    "运行标记或 ※ 标记不一致",
    "`run:` markers or ※ marks that differ, in number or order, from the twin's.",
    _PARITY,
    message=_parity_en("run marker or ※ mark", "run markers or ※ marks"),
    message_zh=_parity_zh("运行标记或 ※ 标记"),
)
