"""Rules about the pages themselves: files, fences and their declarations (``file/``, ``markdown/``, ``include/``,
``snippet/``, ``table/``), diagrams (``diagram/``) and suppression comments (``suppression/``). Stated claims,
citations and translation parity are in :mod:`.claims`."""

from __future__ import annotations

from verl_cookbook.rules import WARNING, Example, declare

_DIAGRAM = "The site shows pre-rendered SVGs; a diagram mermaid cannot draw shows nothing."
_REASON = "A reason lets a reviewer tell a deliberate skip from a forgotten check."

_OK = '```yaml {check="config"}\ntrainer:\n  total_epochs: 2\n```\n'

# -- file/, markdown/, include/ ------------------------------------------------------------------
_UNREAD = "Nothing in a file that cannot be read is checked."
FILE_MISSING = declare(
    "file/missing",
    "Path does not exist",
    "路径不存在",
    "A page or folder given to the Python API (`runner.check_paths`) that does not exist; on the command line a "
    "missing path is a usage error instead (exit 2, no finding).",
    _UNREAD,
    message="no such file or folder",
    message_zh="文件或目录不存在",
    fix="check the path",
    fix_zh="检查路径是否正确",
)
FILE_UNREADABLE = declare(
    "file/unreadable",
    "File cannot be read",
    "文件无法读取",
    "A page, or a file given to doctor, that cannot be read (no permission).",
    _UNREAD,
    message="cannot read the file: {error}",
    message_zh="无法读取文件：{error}",
    fix="make the file readable for the user that runs the check",
    fix_zh="为运行检查的用户开放该文件的读权限",
)
FILE_BINARY = declare(
    "file/binary",
    "Binary file",
    "二进制文件",
    "A page, or a file given to doctor, that holds NUL bytes, so it is not text.",
    _UNREAD,
    message="the file is binary (it holds NUL bytes), not text",
    message_zh="文件为二进制文件（含 NUL 字节），不是文本",
    fix="check the file the command was given; only text files are read",
    fix_zh="确认传入的文件：检查工具只读取文本文件",
)
FILE_ENCODING = declare(
    "file/encoding",
    "Not UTF-8",
    "非 UTF-8 编码",
    "A page, or a file given to doctor, that is not UTF-8 text.",
    _UNREAD,
    message="not UTF-8: byte 0x{byte} at offset {offset}",
    message_zh="不是 UTF-8 编码：偏移 {offset} 处的字节为 0x{byte}",
    fix="save the file as UTF-8",
    fix_zh="将文件另存为 UTF-8 编码",
)
FILE_TOO_LARGE = declare(
    "file/too-large",
    "File too large",
    "文件过大",
    "A page, or a file given to doctor, larger than the checker reads.",
    _UNREAD,
    message="the file is {size} bytes; the checker reads files up to {limit} bytes",
    message_zh="文件大小为 {size} 字节，超过检查工具可读取的上限（{limit} 字节）",
    fix="check the file the command was given, or split it",
    fix_zh="确认传入的文件，或将其拆分",
)
MARKDOWN_UNTERMINATED_FENCE = declare(
    "markdown/unterminated-fence",
    "Code fence never closed",
    "代码块未闭合",
    "A ``` fence with no closing fence.",
    "The rest of the page is swallowed into the block and renders as code.",
    message="the code fence is never closed: the rest of the page is swallowed into it",
    message_zh="代码块未闭合：页面其余内容都被并入该代码块",
    bad=Example("md", '```yaml {check="config"}\ntrainer:\n  total_epochs: 2\n'),
    good=Example("md", _OK),
    fix="close the code block with a fence of the same length",
    fix_zh="用相同长度的围栏闭合该代码块",
)
INCLUDE_MISSING = declare(
    "include/missing",
    "Included file does not exist",
    "引用的文件不存在",
    "A `--8<--` include whose target file does not exist.",
    "The page renders without the snippet, and the snippet it meant is never checked.",
    message="the included file `{target}` does not exist",
    message_zh="`--8<--` 引用的文件 `{target}` 不存在",
    fix="correct the included path, or add the file",
    fix_zh="改正引用的路径，或补充该文件",
)

# -- snippet/ ------------------------------------------------------------------
SNIPPET_UNDECLARED = declare(
    "snippet/undeclared",
    "Code block without a check",
    "代码块未声明检查方式",
    'A fenced block that declares no `check="<kind>"` (or `check="skip" reason="…"`).',
    "Which check a block needs is declared, never guessed; an undeclared block would go unchecked.",
    message='the ```{lang} block declares no check: add `check="<kind>"` to its fence, or `check="skip" reason="…"`',
    message_zh='该 ```{lang} 代码块未声明检查方式：请在代码块首行添加 `check="<kind>"`，或 `check="skip" reason="…"`',
    bad=Example("md", "```yaml\ntrainer:\n  total_epochs: 2\n```\n"),
    good=Example("md", _OK),
    fix='add `check="<kind>"`, or `check="skip" reason="…"`, to the fence',
    fix_zh='在围栏中添加 `check="<kind>"`，或 `check="skip" reason="…"`',
)
SNIPPET_UNKNOWN_CHECK = declare(
    "snippet/unknown-check",
    "Unknown check kind",
    "未知的检查方式",
    'A fence whose `check="…"` names no check the checker has.',
    "A misspelt kind would otherwise leave the block unchecked.",
    message='`check="{kind}"` is not a check kind; known: {known!c}',
    message_zh='`check="{kind}"` 不是可用的检查方式；可用方式：{known!c}',
    bad=Example("md", '```yaml {check="confgi"}\ntrainer:\n  total_epochs: 2\n```\n'),
    good=Example("md", _OK),
    fix="use one of the kinds the message lists",
    fix_zh="改用提示信息所列的检查方式之一",
)
SNIPPET_UNKNOWN_ATTR = declare(
    "snippet/unknown-attr",
    "Unknown fence attribute",
    "未知的代码块属性",
    "A fence attribute the declared check does not read.",
    "A misspelt attribute (`devcie=`) silently changes nothing.",
    message='`check="{kind}"` does not read the fence attribute(s) {attrs!c}',
    message_zh='`check="{kind}"` 不读取代码块属性 {attrs!c}',
    bad=Example("md", '```yaml {check="config" devcie="npu"}\ntrainer:\n  total_epochs: 2\n```\n'),
    good=Example("md", '```yaml {check="config" device="npu"}\ntrainer:\n  total_epochs: 2\n```\n'),
    fix="remove the attributes the kind does not read",
    fix_zh="删除该检查方式不读取的属性",
)
SNIPPET_SKIP_WITHOUT_REASON = declare(
    "snippet/skip-without-reason",
    "Skipped block without a reason",
    "跳过检查但未说明原因",
    'A block declared `check="skip"` without `reason="…"`.',
    _REASON,
    message='`check="skip"` needs `reason="…"` saying why the block cannot be checked',
    message_zh='`check="skip"` 须以 `reason="…"` 说明该代码块无法检查的原因',
    bad=Example("md", '```text {check="skip"}\nsome console output\n```\n'),
    good=Example("md", '```text {check="skip" reason="console output"}\nsome console output\n```\n'),
    fix='add `reason="…"` to the fence',
    fix_zh='在围栏中添加 `reason="…"`',
)
SNIPPET_EMPTY = declare(
    "snippet/empty",
    "Empty code block",
    "空代码块",
    "A fenced block with no content.",
    "An empty block is a snippet that was lost (often an include that moved).",
    message="the code block is empty",
    message_zh="代码块为空",
    bad=Example("md", '```yaml {check="config"}\n```\n'),
    good=Example("md", _OK),
    fix="write the block's content, or remove the block",
    fix_zh="补充代码块内容，或删除该代码块",
)
SNIPPET_ORPHAN = declare(
    "snippet/orphan",
    "Snippet no page includes",
    "未被任何页面引用的代码片段",
    "A file under snippets/ that no page includes.",
    "Nothing checks it, and readers never see it.",
    message="no page includes this snippet, so nothing checks it",
    message_zh="没有页面引用该代码片段，因此它不会被检查",
    fix="include the file from a page, or delete it",
    fix_zh="在页面中引用该文件，或删除它",
)
SNIPPET_ORPHAN_DECLARATION = declare(
    "snippet/orphan-declaration",
    "Check declaration above no code block",
    "检查声明下方没有代码块",
    "A `.. verl-cookbook: check=…` comment (reStructuredText) or `<!-- verl-cookbook: check=… -->` (Markdown, MyST) "
    "that is not right above a code block.",
    "The declaration checks nothing, and the block it was meant for is judged without it.",
    message={
        "": "`<!-- verl-cookbook: check=… -->` declares no code block: put it right above a fence",
        "rst": "`.. verl-cookbook: check=…` declares no code block: put it right above a code-block, a "
        "literalinclude or the paragraph that ends in `::`",
    },
    message_zh={
        "": "`<!-- verl-cookbook: check=… -->` 下方没有代码块：请将其紧贴在代码块上方",
        "rst": "`.. verl-cookbook: check=…` 下方没有代码块：请将其紧贴在 code-block、literalinclude "
        "或以 `::` 结尾的段落上方",
    },
    fix="put the comment right above the code block",
    fix_zh="将该注释紧贴在代码块上方",
)

# -- table/ ------------------------------------------------------------------
TABLE_UNDECLARED = declare(
    "table/undeclared",
    "Table of defaults without a declaration",
    "默认值表格未声明检查方式",
    "A table with a default column and no `check: params …` comment (or skip) above it.",
    "A table of defaults that is not checked drifts from verl unnoticed.",
    message='the table has a default column but no `check: params …` comment above it (or `check: skip reason="…"`)',
    message_zh='该表格含默认值列，但上方没有 `check: params …` 注释（或 `check: skip reason="…"`）',
    fix='add a `check: params …` comment above the table, or `check: skip reason="…"`',
    fix_zh='在表格上方添加 `check: params …` 注释，或 `check: skip reason="…"`',
)
TABLE_ORPHAN_DECLARATION = declare(
    "table/orphan-declaration",
    "Table declaration not above a table",
    "表格检查声明下方没有表格",
    "A `check: …` comment that is not directly above a table.",
    "The declaration checks nothing.",
    message="the `check: {kind}` comment is not directly above a table",
    message_zh="`check: {kind}` 注释未紧贴在表格上方",
    fix="put the comment right above the table",
    fix_zh="将该注释紧贴在表格上方",
)
TABLE_UNKNOWN_CHECK = declare(
    "table/unknown-check",
    "Unknown table check",
    "未知的表格检查方式",
    "A table declaration naming a check kind the checker does not have.",
    "The table would go unchecked.",
    message="`{kind}` is not a table check; known: {known!c}",
    message_zh="`{kind}` 不是可用的表格检查方式；可用方式：{known!c}",
    fix="use one of the kinds the message lists",
    fix_zh="改用提示信息所列的检查方式之一",
)
TABLE_SKIP_WITHOUT_REASON = declare(
    "table/skip-without-reason",
    "Skipped table without a reason",
    "跳过表格检查但未说明原因",
    'a `check: skip` comment above a table without `reason="…"`.',
    _REASON,
    message='`check: skip` needs `reason="…"`',
    message_zh='`check: skip` 须注明 `reason="…"`',
    fix='add `reason="…"` to the comment',
    fix_zh='在注释中添加 `reason="…"`',
)
TABLE_UNDECLARED_SCOPE = declare(
    "table/undeclared-scope",
    "Params table without a scope",
    "参数表格未声明作用范围",
    'A params table with neither `scope="<config path>"` nor `engine="<backend>"`.',
    "The checker cannot tell which part of verl's config the rows name.",
    message='a params table needs `scope="<config path>"` or `engine="<backend>"`',
    message_zh='参数表格须声明 `scope="<config path>"` 或 `engine="<backend>"`',
    fix='add `scope="<config path>"` or `engine="<backend>"` to the declaration',
    fix_zh='在声明中添加 `scope="<config path>"` 或 `engine="<backend>"`',
)
TABLE_NO_DEFAULT_COLUMN = declare(
    "table/no-default-column",
    "Params table without a default column",
    "参数表格缺少默认值列",
    "A declared params table with no 默认值 / Default column.",
    "There is nothing to compare with verl's defaults.",
    message="the declared parameter table has no default column (默认值 / Default)",
    message_zh="声明检查的参数表格没有默认值列（默认值 / Default）",
    fix="add a 默认值 / Default column",
    fix_zh="添加“默认值”（Default）列",
)
TABLE_NO_KEY = declare(
    "table/no-key",
    "Row without a key",
    "表格行缺少配置项名",
    "A row of a params table whose first column names no key in `code`.",
    "The row cannot be matched with verl's config.",
    message="the first column must name the key in `code`",
    message_zh="第一列须以 `code` 形式写出配置项名",
    fix="write each key in the first column in code form",
    fix_zh="第一列的每个配置项名均以代码形式写出",
)
TABLE_DEFAULT_MISMATCH = declare(
    "table/default-mismatch",
    "Default in the table differs from verl's",
    "表格中的默认值与 verl 不一致",
    "A row whose default is not the one verl's config or the engine's constructor has.",
    "Readers copy defaults from the page; a wrong one misleads them.",
    message={
        "": "`{key}`: the table says the default is `{claimed}`, verl's default is {default!r}",
        "no-default": "`{key}`: the table says there is no default, but verl's default is {default!r}",
        "not-code": "`{key}`: put the default value in `code` (the cell says {cell!r})",
        "required": "`{key}`: the table claims the default `{claimed}`, but verl gives it no default (it is required)",
    },
    message_zh={
        "": "`{key}`：表格中的默认值为 `{claimed}`，而 verl 的默认值为 {default!r}",
        "no-default": "`{key}`：表格中写明没有默认值，而 verl 的默认值为 {default!r}",
        "not-code": "`{key}`：请以 `code` 形式写出默认值（单元格内容为 {cell!r}）",
        "required": "`{key}`：表格中的默认值为 `{claimed}`，而 verl 没有为它设置默认值（必填）",
    },
    fix="write verl's default in the table",
    fix_zh="将表格中的默认值改为 verl 的默认值",
)
TABLE_TERMS_SHAPE = declare(
    "table/terms-shape",
    "Glossary table of the wrong shape",
    "术语表格式不符",
    "A `check: terms` table without the columns its kind needs (the 中文 and the English form of a term; for"
    ' `list="avoid"` or `list="register"`, the words and what to write instead), or a row that leaves one empty.',
    "The prose lint reads these tables to judge every page; a row it cannot read judges nothing.",
    message={
        "term-columns": "a term table has the 中文 form and the English form in its first two columns",
        "term-row": "a term row needs both its 中文 and its English form",
        "avoid-columns": "a list of avoided words has the words and what to write instead",
        "avoid-row": "an avoided-word row needs the words and what to write instead",
        "list-kind": '`list="{which}"` is not a kind of glossary table (`avoid`, `register`, or none)',
    },
    message_zh={
        "term-columns": "术语表的前两列应为中文译法和英文原文",
        "term-row": "术语行须同时写出中文译法和英文原文",
        "avoid-columns": "不用说法列表须写出不用的说法和应改用的写法",
        "avoid-row": "不用说法的行须同时写出不用的说法和应改用的写法",
        "list-kind": '`list="{which}"` 不是术语表的类型（应为 `avoid`、`register` 或不写）',
    },
    fix="give the glossary table the columns and rows the message names",
    fix_zh="按提示信息调整术语表的列与行",
)
TABLE_TERMS_AVOIDED_FORM = declare(
    "table/terms-avoided-form",
    "Glossary term written with an avoided word",
    "术语的译法含有不用的说法",
    "A term's 中文 form, or the replacement an avoid row gives, containing a word that the same glossary's avoid"
    " or register list says not to use.",
    "The glossary would prescribe what its own lists forbid, and a page following one would fail the other.",
    message={
        "": "“{form}” contains “{word}”, which this glossary's list of avoided words (line {listed}) says not to use",
        "register": "“{form}” contains “{word}”, which this glossary's register list (line {listed}) says not to use",
    },
    message_zh={
        "": "“{form}”中含有“{word}”，本术语表的不用说法列表（第 {listed} 行）规定不使用该说法",
        "register": "“{form}”中含有“{word}”，本术语表的文体列表（第 {listed} 行）规定不使用该说法",
    },
    fix="use the term the glossary gives instead",
    fix_zh="改用术语表给出的译法",
)
TABLE_AMBIGUOUS_ENGINE = declare(
    "table/ambiguous-engine",
    "Engine name resolves to several engines",
    "后端名对应多个引擎",
    'An `engine="<backend>"` table for a backend with several engines, without `device="npu|gpu"`.',
    "Each engine has its own constructor; the table must say which one it documents.",
    message='`{backend}` resolves to several engines ({engines!l}); declare `device="npu"` or `device="gpu"`',
    message_zh='`{backend}` 对应多个引擎（{engines!l}）；请声明 `device="npu"` 或 `device="gpu"`',
    fix='add `device="npu"` or `device="gpu"` to the declaration',
    fix_zh='在声明中添加 `device="npu"` 或 `device="gpu"`',
)

# -- diagram/ ------------------------------------------------------------------
DIAGRAM_NOT_MERMAID = declare(
    "diagram/not-mermaid",
    "Diagram check on a non-mermaid fence",
    "非 mermaid 代码块声明了图表检查",
    'A `check="diagram"` fence that is not mermaid.',
    _DIAGRAM,
    message={
        "": '`check="diagram"` is for mermaid fences (``` {{ .mermaid check="diagram" }}), not `{lang}`',
        "no-lang": '`check="diagram"` is for mermaid fences (``` {{ .mermaid check="diagram" }}), not a fence '
        "without a language",
    },
    message_zh={
        "": '`check="diagram"` 仅用于 mermaid 代码块（``` {{ .mermaid check="diagram" }}），'
        "而该代码块的语言为 `{lang}`",
        "no-lang": '`check="diagram"` 仅用于 mermaid 代码块（``` {{ .mermaid check="diagram" }}），'
        "而该代码块未注明语言",
    },
    fix="tag the block `mermaid`, or declare another check",
    fix_zh="将代码块的语言标为 `mermaid`，或改用其他检查方式",
)
DIAGRAM_EMPTY = declare(
    "diagram/empty",
    "Empty diagram",
    "空图表",
    "A mermaid fence holding only comments, front matter or its diagram type (a fence with nothing in it is "
    "`snippet/empty`).",
    _DIAGRAM,
    message={
        "": "the mermaid diagram has no content",
        "declared": "the `{word}` diagram declares its type but draws nothing",
    },
    message_zh={
        "": "mermaid 图表没有内容",
        "declared": "`{word}` 图表只声明了类型，没有绘制任何内容",
    },
    fix="write the diagram, or remove the block",
    fix_zh="补充图表内容，或删除该代码块",
)
DIAGRAM_UNKNOWN_TYPE = declare(
    "diagram/unknown-type",
    "Unknown diagram type",
    "未知的图表类型",
    "A mermaid diagram whose first word is not a diagram type.",
    _DIAGRAM,
    message="`{word}` is not a mermaid diagram type[[; did you mean `{suggestion}`?]] (known: flowchart, "
    "sequenceDiagram, classDiagram, stateDiagram-v2, …)",
    message_zh="`{word}` 不是 mermaid 图表类型[[；是否应为 `{suggestion}`？]]（可用类型如 flowchart、sequenceDiagram、"
    "classDiagram、stateDiagram-v2 等）",
    fix="start the diagram with a mermaid diagram type",
    fix_zh="以 mermaid 的图表类型开始该图表",
)
DIAGRAM_NOT_DRAWN = declare(
    "diagram/not-drawn",
    "Diagram not rendered",
    "图表未渲染",
    "A diagram whose SVG under docs/diagrams/ is missing or stale.",
    _DIAGRAM,
    message="the diagram's SVG `{svg}` does not exist (the diagram changed, or mermaid did): run `python "
    "scripts/render_diagrams.py`",
    message_zh="图表对应的 SVG 文件 `{svg}` 不存在（图表或 mermaid 版本已变更）：请运行 `python "
    "scripts/render_diagrams.py`",
    fix="run `python scripts/render_diagrams.py` and commit the SVG",
    fix_zh="运行 `python scripts/render_diagrams.py`，并提交生成的 SVG 文件",
)

# -- suppression/ ------------------------------------------------------------------
SUPPRESSION_UNUSED = declare(
    "suppression/unused",
    "Suppression comment that suppresses nothing",
    "未生效的忽略注释",
    "A `verl-cookbook: ignore[<code>]` comment for which no finding of that code is on its line or the next.",
    "A stale suppression would hide the next real finding on that line; remove it.",
    message="`verl-cookbook: ignore[{code}]` silences nothing: no `{code}` finding on this line or the next",
    message_zh="`verl-cookbook: ignore[{code}]` 未生效：本行及下一行均无 `{code}` 检查结果",
    severity=WARNING,
    fix="remove the comment (or the code it names)",
    fix_zh="删除该注释（或其中列出的规则代码）",
    bad=Example("md", "<!-- verl-cookbook: ignore[snippet/undeclared] -->\n" + _OK),
    good=Example(
        "md", "<!-- verl-cookbook: ignore[snippet/undeclared] -->\n```yaml\ntrainer:\n  total_epochs: 2\n```\n"
    ),
)
SUPPRESSION_UNKNOWN_CODE = declare(
    "suppression/unknown-code",
    "Suppression of a code no rule has",
    "忽略注释中的规则代码不存在",
    "A `verl-cookbook: ignore[<code>]` comment naming a code that is not declared.",
    "A misspelt code suppresses nothing.",
    message="`verl-cookbook: ignore[{code}]` names no rule, so it silences nothing",
    message_zh="`verl-cookbook: ignore[{code}]` 中的规则代码不存在，该注释不忽略任何检查结果",
    bad=Example("md", "<!-- verl-cookbook: ignore[snippet/undeclard] -->\n```yaml\ntrainer:\n  total_epochs: 2\n```\n"),
    good=Example(
        "md", "<!-- verl-cookbook: ignore[snippet/undeclared] -->\n```yaml\ntrainer:\n  total_epochs: 2\n```\n"
    ),
    fix="write a rule code from the rules page, or remove the comment",
    fix_zh="改为规则列表中的规则代码，或删除该注释",
)
