"""Rules that only ``check --lenient`` reports, on another project's docs (``lenient/``): what a block shows read as a
reader reads it (verl_cookbook/block_reading.py, verl_cookbook/lenient.py)."""

from __future__ import annotations

from verl_cookbook.rules import INFO, declare

# What a block shows (block_reading.Reading.what; "" for a plain text of sentences), in English and 中文.
_SHOWS = {
    "": ("text, not commands", "说明文字而非命令"),
    "log": ("a program's log (output, not commands)", "程序日志（输出而非命令）"),
    "traceback": ("a traceback (output, not commands)", "异常堆栈（输出而非命令）"),
    "error": ("an error message (output, not commands)", "报错信息（输出而非命令）"),
    "help": ("`--help` text (output, not commands)", "`--help` 帮助信息（输出而非命令）"),
    "banner": ("a program's status output, not commands", "程序的状态输出而非命令"),
    "pip": ("pip's output, not commands", "来自 pip 的输出而非命令"),
    "transcript": ("a console session with its output", "带输出的终端会话"),
    "command": ("a shell command, not Python", "一条 shell 命令而非 Python 代码"),
}

LENIENT_WRONG_LANGUAGE = declare(
    "lenient/wrong-language",
    "Block tagged with the wrong language",
    "代码块标注的语言与内容不符",
    "A block of another project's docs tagged `bash` (or `shell`, `sh`) that shows the output of a program (a log, "
    "a traceback, an error, `--help` text, a banner, a console session with its output), or tagged `python` that "
    "holds a shell command. It is read as what it shows and not checked as a script or a module: one note, at "
    "the fence.",
    "Sphinx and GitHub highlight the block in the language named and a reader copies it as that: output under "
    "`bash` looks like commands to run. Nothing fails, so the note is information (exit code 0 on its own).",
    severity=INFO,
    message={
        what: f"this block is tagged `{{lang}}` but shows {en}; tag it `{{tag}}`" for what, (en, _zh) in _SHOWS.items()
    },
    message_zh={
        # a space between 中文 and code (`--help`), none between two 中文 characters
        what: f"该代码块标注为 `{{lang}}`，但内容是{' ' if zh.startswith('`') else ''}{zh}；请改标为 `{{tag}}`"
        for what, (_en, zh) in _SHOWS.items()
    },
    fix="tag the block `{tag}`",
    fix_zh="将代码块改标为 `{tag}`",
)
