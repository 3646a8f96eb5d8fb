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
    fix="use one of the declaration kinds the message lists",
    fix_zh="改用提示信息所列的声明类型之一",
)
CLAIM_MISSING_ATTR = declare(
    "claim/missing-attr",
    "Claim without its attributes",
    "声明缺少属性",
    "A claim declaration missing an attribute its kind needs.",
    _STALE,
    message="`check: {kind}` needs the attribute(s) {missing!c}",
    message_zh="`check: {kind}` 缺少属性 {missing!c}",
    fix="add the attributes the declaration kind needs",
    fix_zh="补充该声明类型所需的属性",
)
CLAIM_BACKENDS_DIFFER = declare(
    "claim/backends-differ",
    "Listed backends differ from verl's",
    "所列后端与 verl 注册的后端不一致",
    "A `check: backends names=…` claim whose list is not exactly the backend names verl registers.",
    _STALE,
    message="verl {release} registers {registered!c}[[; registered but not listed: {unlisted!c}]]"
    "[[; listed but not registered: {extra!c}]]",
    message_zh="verl {release} 注册的后端为 {registered!c}[[；已注册但未列出：{unlisted!c}]]"
    "[[；已列出但未注册：{extra!c}]]",
    fix="list exactly the backends verl registers: add the unlisted ones, remove the unregistered ones",
    fix_zh="使所列后端与 verl 注册的后端一致：补充未列出的后端，删除未注册的后端",
)
CLAIM_BAD_FILE = declare(
    "claim/bad-file",
    "Claim names a bad path",
    "声明引用的路径无效",
    "A claim whose `file=` is not a path inside verl's package.",
    "A claim that cannot be read holds nothing.",
    message='`file="{file}"` must be a path inside verl\'s package (`verl/…`)',
    message_zh='`file="{file}"` 须为 verl 包内的路径（`verl/…`）',
    fix="give `file=` as a path inside the verl package, such as `verl/checkpoint_engine/base.py`",
    fix_zh="将 `file=` 改为 verl 包内的路径，如 `verl/checkpoint_engine/base.py`",
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
    fix="set `file=` to the file's path in that release; if it is gone, correct the statement or mark the releases "
    "it holds for with `since=`/`until=`",
    fix_zh="将 `file=` 改为该文件在该版本中的路径；文件已删除时，修改页面上的说明，或用 `since=`/`until=` 标出适用的"
    "版本",
)
CLAIM_UNPARSABLE = declare(
    "claim/unparsable",
    "verl file does not parse",
    "verl 文件无法解析",
    "A claim about a verl file that Python cannot parse.",
    _STALE,
    message="verl's `{file}` does not parse: {error}",
    message_zh="verl 的 `{file}` 无法解析：{error}",
    fix="check that verl's source is whole: fetch the release again, or pass a complete checkout with `--verl-src`",
    fix_zh="确认 verl 源码完整：重新获取该版本，或用 `--verl-src` 指定完整的检出目录",
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
    fix="set `name=` to the symbol's full path now; if it is gone, correct the statement",
    fix_zh="将 `name=` 改为该符号现在的完整路径；符号已删除时，修改页面上的说明",
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
    fix="set `params=` to the parameter names of the signature, or correct the statement",
    fix_zh="将 `params=` 改为签名中实际的参数名，或修改页面上的说明",
)
CLAIM_CODE_MISSING = declare(
    "claim/code-missing",
    "Claimed code line missing",
    "声明引用的代码行不存在",
    "A claim quoting code that no line of the verl file contains.",
    _STALE,
    message="`{file}` has no code line containing {match!r}",
    message_zh="`{file}` 中没有包含 {match!r} 的代码行",
    fix="find where the code is in that release and set `file=` or `match=` to it; if the code is gone, correct or "
    "remove the statement",
    fix_zh="查明该代码在该版本中的位置，将 `file=` 或 `match=` 改为实际的文件和代码；代码已删除时，"
    "修改或删除页面上的说明",
)
CLAIM_CODE_CHANGED = declare(
    "claim/code-changed",
    "Claimed code line changed",
    "声明引用的代码行已变更",
    "A claim quoting code whose closest line in verl now differs.",
    _STALE,
    message="`{file}` has no code line containing {match!r}; the closest now is {closest!r}",
    message_zh="`{file}` 中没有包含 {match!r} 的代码行；最接近的代码行现为 {closest!r}",
    fix="read the changed code in verl: if the statement still holds, set `match=` to the code as it is now; if "
    "not, correct the statement on the page",
    fix_zh="核对 verl 中改动后的代码：说明仍然成立时，将 `match=` 改为现在的代码；不再成立时，修改页面上的说明",
)
CLAIM_ONLY_IN_COMMENT = declare(
    "claim/only-in-comment",
    "Claimed text only in a comment",
    "声明的内容仅出现在注释中",
    "A claim quoting code that appears only in a comment or docstring.",
    _STALE,
    message="`{file}` has {match!r} only in a comment or docstring, not in code",
    message_zh="`{file}` 中的 {match!r} 只出现在注释或 docstring 中，不在代码中",
    fix="match a line of code that runs: text in a comment or docstring shows nothing about what the code does",
    fix_zh="改为匹配实际执行的代码行：注释和 docstring 中的文字不能证明代码的行为",
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
    fix="set `match=` to the message verl raises now; if the check is gone, correct the statement",
    fix_zh="将 `match=` 改为 verl 现在抛出的错误信息；该检查已删除时，修改页面上的说明",
)
CLAIM_RAISES_OTHER_ERROR = declare(
    "claim/raises-other-error",
    "Another error class raised",
    "抛出的异常类型不同",
    "A claim about an error whose message verl raises with another class.",
    _STALE,
    message="`{file}` raises {raised}, not {error}, with a message containing {match!r}",
    message_zh="`{file}` 以 {raised} 而非 {error} 抛出含 {match!r} 的错误信息",
    fix="set `error=` to the exception verl raises, `{raised}`",
    fix_zh="将 `error=` 改为 verl 实际抛出的异常类型 `{raised}`",
)
CLAIM_MESSAGE_CHANGED = declare(
    "claim/message-changed",
    "Error message changed",
    "异常信息已变更",
    "A claim quoting an error message verl has since changed.",
    _STALE,
    message="`{file}` no longer raises {error} with {match!r}; the message is now {now!r}",
    message_zh="`{file}` 不再以 {error} 抛出 {match!r}；错误信息已改为 {now!r}",
    fix="set `match=` to the new error message, and check the page's text that quotes it",
    fix_zh="将 `match=` 改为新的错误信息，并核对页面上引用该信息的文字",
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
    fix="check the page again against the pinned release and update its version notice",
    fix_zh="按锁定的版本重新核对页面，并更新页面的版本说明",
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
    fix="cite the file by its path in that release (`verl/…`), or remove the citation",
    fix_zh="写出该文件在所引版本中的路径（`verl/…`），或删除该引用",
)
CITE_UNKNOWN_RELEASE = declare(
    "cite/unknown-release",
    "Cited release not covered",
    "引用的版本不在覆盖范围内",
    "A citation of a verl release this manual does not cover.",
    "A claim that cannot be read holds nothing.",
    message={
        "": "cites verl {release}, which this manual does not cover",
        "not-here": "cites verl {release}, which is neither unpacked in the cache nor shipped with this package",
    },
    message_zh={
        "": "引用了 verl {release}，本手册未覆盖该版本",
        "not-here": "引用了 verl {release}，该版本既未解压到缓存中，也未随本工具包发布",
    },
    fix="cite a release this manual covers (`verl_cookbook/data/releases.yaml`), or drop the release from the citation",
    fix_zh="改为引用本手册覆盖的版本（见 `verl_cookbook/data/releases.yaml`），或删除引用中的版本号",
)
CITE_LINE_OUT_OF_RANGE = declare(
    "cite/line-out-of-range",
    "Cited line beyond the file",
    "引用的行号超出文件范围",
    "A citation whose line numbers run past the end of the file.",
    _STALE,
    message="cites `{path}:{lines}`, but the file has {count} lines in verl {release}",
    message_zh="引用了 `{path}:{lines}`，但该文件在 verl {release} 中只有 {count} 行",
    fix="change the cited lines to where the code is in verl {release}, or remove the citation",
    fix_zh="将引用的行号改为 verl {release} 中实际的行号，或删除该引用",
)
CITE_CLAIM_OUTSIDE_LINES = declare(
    "cite/claim-outside-lines",
    "Claim not in the cited lines",
    "声明内容不在引用的行内",
    "A claim whose quoted code is outside the lines its citation names.",
    _STALE,
    message="the claim before it matches `{match}`, which is not in the cited lines `{path}:{lines}`",
    message_zh="其前的声明匹配 `{match}`，而被引用的 `{path}:{lines}` 中没有这段内容",
    fix="cite the lines that hold the declared code, or move the declaration next to the citation it checks",
    fix_zh="将引用的行号改为所声明代码实际所在的行，或将声明移到其核对的引用旁",
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
    fix="add the page in the other language",
    fix_zh="补充另一种语言的页面",
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
    fix="add an explicit `{{ #anchor }}` to the heading in both pages",
    fix_zh="在两种语言页面的该标题后添加相同的显式锚点 `{{ #anchor }}`",
)
PARITY_HEADINGS = declare(
    "parity/headings",
    "Headings differ",
    "标题结构不一致",
    "Headings (level and anchor) that differ from the twin's.",
    _PARITY,
    message=_parity_en("heading"),
    message_zh=_parity_zh("标题"),
    fix="give both pages the same headings and anchors in the same order",
    fix_zh="使两种语言页面的标题与锚点一致、顺序相同",
)
PARITY_BLOCKS = declare(
    "parity/blocks",
    "Code blocks differ",
    "代码块不一致",
    "Fenced blocks (language, check, lines) that differ from the twin's.",
    _PARITY,
    message=_parity_en("code block"),
    message_zh=_parity_zh("代码块"),
    fix="give both pages the same code blocks in the same order",
    fix_zh="使两种语言页面的代码块一致、顺序相同",
)
PARITY_TABLES = declare(
    "parity/tables",
    "Parameter tables differ",
    "参数表格不一致",
    "Parameter tables whose rows differ from the twin's.",
    _PARITY,
    message=_parity_en("parameter table"),
    message_zh=_parity_zh("参数表格"),
    fix="give both pages the same parameter-table rows",
    fix_zh="使两种语言页面的参数表格行一致",
)
PARITY_ADMONITIONS = declare(
    "parity/admonitions",
    "Admonitions differ",
    "提示框不一致",
    "Admonitions whose kinds differ from the twin's.",
    _PARITY,
    message=_parity_en("admonition"),
    message_zh=_parity_zh("提示框"),
    fix="give both pages the same admonitions in the same order",
    fix_zh="使两种语言页面的提示框种类与顺序一致",
)
PARITY_CLAIMS = declare(
    "parity/claims",
    "Check declarations differ",
    "检查声明不一致",
    "Check declarations that differ from the twin's.",
    _PARITY,
    message=_parity_en("check declaration"),
    message_zh=_parity_zh("检查声明"),
    fix="give both pages the same check declarations in the same order",
    fix_zh="使两种语言页面的检查声明一致、顺序相同",
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
    fix="make the 中文 variant differ from its base in comments only",
    fix_zh="使中文版本片段与原片段只在注释上不同",
)
PARITY_MARKS = declare(
    "parity/marks",
    "Run markers or ※ marks differ",
    "运行标记或 ※ 标记不一致",
    "`run:` markers or ※ marks that differ, in number or order, from the twin's.",
    _PARITY,
    message=_parity_en("run marker or ※ mark", "run markers or ※ marks"),
    message_zh=_parity_zh("运行标记或 ※ 标记"),
    fix="give both pages the same run markers and ※ marks in the same order",
    fix_zh="使两种语言页面的运行标记与 ※ 标记一致、顺序相同",
)
