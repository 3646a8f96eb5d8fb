"""What the shell reader returns: the commands, exports and words of a script, each character with the line
and column where it was written (see ``verl_cookbook.shell``)."""

from __future__ import annotations

from dataclasses import dataclass, field


def positions(text: str, line: int, col: int) -> list[tuple[int, int]]:
    """(line, column) of each character of ``text`` written consecutively from ``line``:``col``."""
    pos = []
    for ch in text:
        pos.append((line, col))
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    return pos


@dataclass
class Word:
    """One shell word after expansion and quote removal. What could not be expanded statically (``$X``
    never set, ``$(…)``, backticks) is kept as written; ``var_spans`` says where it sits in ``text``.
    ``line``/``col`` are where the word's first character was written (an array element's own line for
    ``"${ARR[@]}"``); ``lines`` holds that for every character."""

    text: str
    line: int
    col: int
    quoted: bool = False
    var_spans: list[tuple[int, int]] = field(default_factory=list)
    raw: str = ""
    lines: list[tuple[int, int]] = field(default_factory=list)

    @property
    def has_var(self) -> bool:
        return bool(self.var_spans)

    def var_in(self, start: int, end: int | None = None) -> bool:
        end = len(self.text) if end is None else end
        return any(s < end and e > start for s, e in self.var_spans)

    def where(self, offset: int) -> tuple[int, int]:
        """(line, col) where character ``offset`` of ``text`` was written."""
        if self.lines and 0 <= offset < len(self.lines):
            return self.lines[offset]
        return self.line, self.col


@dataclass
class Export:
    """``export NAME=value`` (``exported``), ``NAME=value cmd`` (kind "prefix", exported to that command
    only) or a plain ``NAME=value`` (kind "assign", not exported). ``value`` is None for ``export NAME``
    with no earlier assignment in the script."""

    name: str
    value: str | None
    line: int
    col: int
    exported: bool = True
    kind: str = "export"  # export | prefix | assign
    has_var: bool = False


@dataclass
class Command:
    """A simple command. ``module`` says what it runs: the Python module for ``python -m X`` (also behind
    ``torchrun``, ``uv run``, ``ray job submit --``, ``env``, ``nohup``…), the dotted module of a
    ``verl/…py`` script, otherwise the program's basename (``cmake``, ``export``…). ``argv[args_start:]``
    are that program's own arguments. ``piped_from`` is the index (in ``Script.commands``) of the command
    whose output this one reads through ``|``."""

    argv: list[str]
    line: int
    arg_lines: list[int]
    module: str | None = None
    arg_cols: list[int] = field(default_factory=list)
    words: list[Word] = field(default_factory=list)
    args_start: int = 1
    env: dict[str, str] = field(default_factory=dict)
    piped_from: int | None = None
    via: str | None = None  # a launcher module that runs ``module`` (it may bring config of its own)

    @property
    def arg_vars(self) -> list[bool]:
        return [w.has_var for w in self.words]

    @property
    def module_at(self) -> tuple[int, int]:
        """(line, column) where the module (``-m verl.x``'s ``verl.x``, or the ``verl/…py`` script) is written:
        a ``\\``-continued ``torchrun … \\`` puts it lines after the command's first word."""
        k = self.args_start - 1
        if self.module and 0 < k < len(self.words) and self.words[k].line:
            return self.words[k].line, self.words[k].col
        return self.line, 1

    @property
    def module_words(self) -> list[Word]:
        return self.words[self.args_start :]


@dataclass
class Script:
    file: str
    exports: list[Export] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    # (line, col, kind, detail): syntax errors, "unterminated" (detail: what was expected) or "reader-failed"
    errors: list[tuple[int, int, str, str]] = field(default_factory=list)
    notes: list[tuple[int, str]] = field(default_factory=list)  # (line, message): what was not known
    unread: list[tuple[int, int]] = field(default_factory=list)  # (first, last) lines tree-sitter could not parse
    # (comment line, line of the command it cuts short, next code line, its first word): a `\`-continued
    # command that a comment line ends early; the lines after it are not arguments of that command.
    cut_continuations: list[tuple[int, int, int, str]] = field(default_factory=list)
    # (line, col, variable, the next word as written or ""): a command whose name is a variable the script never
    # sets (`$COMMAND data.train_files=…`), so that bash, unless the environment sets it, runs the next word
    unset_commands: list[tuple[int, int, str, str]] = field(default_factory=list)
    # (line, col, variable, the name assigned): an assignment whose value starts with a lowercase variable the script
    # never sets (`WORKSPACE_HOME=$pwd`): bash variables are case-sensitive, so unless the environment sets it the
    # value starts empty and a path built on it starts at `/`
    unset_values: list[tuple[int, int, str, str]] = field(default_factory=list)
