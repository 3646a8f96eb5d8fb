"""What a word expands to, before it becomes a ``model.Word``: segments of characters that remember
where each was written and whether it is known (``Seg``), fields (one argv word each), variables as the script
sets them (``Var``), and bash's operations on those values: juxtaposition (``concat``), word splitting of
unquoted expansions (``split_fields``) and the conversion to and from ``Word``. Plain data and functions; no
tree-sitter."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from verl_cookbook.shell.model import Word

_IFS = " \t\n"


@dataclass
class Seg:
    """A run of characters of an expanded word: where each was written, and whether it is known."""

    text: str
    pos: list[tuple[int, int]]
    known: bool = True
    quoted: bool = False
    split: bool = False  # the result of an unquoted expansion: bash splits it on whitespace


Field = list[Seg]


@dataclass
class Var:
    value: list[Field] | None  # a scalar is one field; None: set but unknown (e.g. `$(…)`)
    is_array: bool
    line: int
    exported: bool = False
    keys: list[str] | None = None  # an associative array (`declare -A`): its keys, one per value


def field_text(f: Field) -> str:
    return "".join(s.text for s in f)


def field_known(f: Field) -> bool:
    return all(s.known for s in f)


def copy_vars(vs: dict[str, Var]) -> dict[str, Var]:
    return {
        k: Var(v.value, v.is_array, v.line, v.exported, list(v.keys) if v.keys is not None else None)
        for k, v in vs.items()
    }


def is_int(s: str) -> bool:
    return bool(re.fullmatch(r"-?\d+", s.strip()))


def var_text(v: Var | None) -> Any:
    if v is None or v.value is None:
        return None
    return [(field_text(f), field_known(f)) for f in v.value]


def strip_split(f: Field) -> Field:
    return [Seg(s.text, s.pos, s.known, s.quoted, False) for s in f]


def concat(left: list[Field], right: list[Field]) -> list[Field]:
    """Juxtaposed parts of one word: the last field of the left joins the first field of the right."""
    if not right:
        return left
    if not left:
        return right
    return [*left[:-1], left[-1] + right[0], *right[1:]]


def split_fields(fields: list[Field]) -> list[Field]:
    """Bash's word splitting: whitespace inside unquoted expansion results separates fields."""
    out: list[Field] = []
    for f in fields:
        cur: Field = []
        started = False  # a field exists even if empty (a quoted "" or a literal)
        for s in f:
            if not (s.split and s.known):
                cur.append(s)
                started = started or s.quoted or bool(s.text) or not s.known
                continue
            buf: list[str] = []
            bpos: list[tuple[int, int]] = []
            for ch, p in zip(s.text, s.pos, strict=False):
                if ch in _IFS:
                    if buf:
                        cur.append(Seg("".join(buf), bpos, True, s.quoted))
                        started = True
                        buf, bpos = [], []
                    if started:
                        out.append(cur)
                    cur, started = [], False
                else:
                    buf.append(ch)
                    bpos.append(p)
            if buf:
                cur.append(Seg("".join(buf), bpos, True, s.quoted))
                started = True
        if started:
            out.append(cur)
    return out


def to_word(f: Field) -> Word:
    text = field_text(f)
    pos = [p for s in f for p in s.pos]
    spans = []
    a = 0
    for s in f:
        if not s.known:
            spans.append((a, a + len(s.text)))
        a += len(s.text)
    first = next((s.pos[0] for s in f if s.pos), (0, 0))
    return Word(text, first[0], first[1], any(s.quoted for s in f), spans, text, pos)


def word_field(w: Word) -> Field:
    if not w.var_spans:
        return [Seg(w.text, w.lines or [(w.line, w.col)] * len(w.text), True, w.quoted)]
    out: Field = []
    a = 0
    for s, e in w.var_spans:
        if s > a:
            out.append(Seg(w.text[a:s], [w.where(k) for k in range(a, s)], True, w.quoted))
        out.append(Seg(w.text[s:e], [w.where(k) for k in range(s, e)], False, w.quoted))
        a = e
    if a < len(w.text):
        out.append(Seg(w.text[a:], [w.where(k) for k in range(a, len(w.text))], True, w.quoted))
    return out
