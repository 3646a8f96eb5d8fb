"""Bash's patterns, statically: the glob of ``[[ $x == *.y* ]]`` and of ``${x/pat/rep}``, ``${x#pat}``, ``${x%pat}``
matched against values that may hold parts not known (``Seg.known`` false).

A pattern is a ``Field``: its quoted characters stand for themselves, its unquoted ``*``, ``?`` and ``[…]`` are
wildcards (bash, "Pattern Matching"). A value's unknown parts are matched as a character no literal, ``?`` or
bracket can match and only ``*`` can take: so a match found is certain (any text in their place is taken by the
same ``*``), and no match is certain only when the value is wholly known. Plain functions of the values module's data;
no tree-sitter."""

from __future__ import annotations

import re

from verl_cookbook.shell.values import Field, Seg

_UNKNOWN = "\x00"  # stands for a value's unknown characters while matching


def _glob(pattern: Field, star: str) -> str | None:
    """The regular expression of a bash pattern; None when the pattern itself is not known."""
    out: list[str] = []
    for seg in pattern:
        if not seg.known:
            return None
        if seg.quoted:
            out.append(re.escape(seg.text))
            continue
        text, i = seg.text, 0
        while i < len(text):
            ch = text[i]
            if ch == "\\" and i + 1 < len(text):
                out.append(re.escape(text[i + 1]))
                i += 2
                continue
            if ch == "*":
                out.append(star)
            elif ch == "?":
                out.append(f"[^{_UNKNOWN}]")
            elif ch == "[" and (end := _bracket_end(text, i)) is not None:
                body = text[i + 1 : end]
                negate = body[:1] in ("!", "^")
                body = body[1:] if negate else body
                chars = body.replace("\\", "\\\\").replace("]", "\\]").replace("[", "\\[")
                out.append(f"[^{_UNKNOWN}{chars}]" if negate else f"[{chars}]")
                i = end
            else:
                out.append(re.escape(ch))
            i += 1
    return "".join(out)


def _bracket_end(text: str, start: int) -> int | None:
    """Index of the ``]`` that closes the bracket expression opened at ``start`` (a ``]`` right after ``[`` or
    ``[!`` is a member), or None when there is none: the ``[`` is then a plain character."""
    i = start + 1
    if i < len(text) and text[i] in "!^":
        i += 1
    if i < len(text) and text[i] == "]":
        i += 1
    end = text.find("]", i)
    return end if end != -1 else None


def _placeholder_text(value: Field) -> str:
    return "".join(s.text if s.known else _UNKNOWN for s in value)


def glob_match(value: Field, pattern: Field) -> bool | None:
    """``[[ value == pattern ]]``: True or False when the script fixes the answer, None when it does not."""
    rx = _glob(pattern, ".*")
    if rx is None:
        return None
    if re.fullmatch(rx, _placeholder_text(value), re.S):
        return True
    return False if all(s.known for s in value) else None


def _units(value: Field) -> list[Seg]:
    """``value`` one placeholder character at a time: a known character alone, an unknown segment whole."""
    out: list[Seg] = []
    for s in value:
        if not s.known:
            out.append(s)
            continue
        out += [Seg(ch, [s.pos[k]] if k < len(s.pos) else [], True, s.quoted) for k, ch in enumerate(s.text)]
    return out


def _joined(units: list[Seg]) -> Field:
    """Runs of known characters of one quoting joined back into segments; unknown segments kept as they are."""
    out: Field = []
    for u in units:
        last = out[-1] if out else None
        if u.known and last is not None and last.known and last.quoted == u.quoted:
            out[-1] = Seg(last.text + u.text, last.pos + u.pos, True, last.quoted)
        else:
            out.append(Seg(u.text, list(u.pos), u.known, u.quoted, u.split))
    return out


def _cut(value: Field, start: int, end: int, middle: list[Seg]) -> Field:
    """``value`` with its placeholder characters ``start:end`` replaced by ``middle``."""
    units = _units(value)
    return _joined(units[:start] + middle + units[end:])


def _at(value: Field, offset: int) -> tuple[int, int]:
    """Where the placeholder character at ``offset`` was written."""
    units = _units(value)
    for u in units[offset:] + units[:offset][::-1]:
        if u.pos:
            return u.pos[0]
    return (0, 0)


def substitute(value: Field, pattern: Field, replacement: Field, op: str) -> Field | None:
    """``${value<op>pattern/replacement}`` for ``op`` in ``/ // /# /%``: the longest match of the pattern (the
    first, every one, one at the start, one at the end) replaced. The replacement's characters are placed where
    the text they replace was written. None when the result is not known: the pattern or the replacement is not,
    or a match could lie in a part of the value that is not."""
    if not all(s.known for s in replacement):
        return None
    anchor = {"/#": "^", "/%": ""}.get(op, "")
    rx = _glob(pattern, f"[^{_UNKNOWN}]*")
    if rx is None or rx == "":
        return None
    text = _placeholder_text(value)
    known = _UNKNOWN not in text
    if op == "/%":
        rx = f"(?:{rx})$"
    compiled = re.compile(anchor + rx, re.S)
    matches = [m for m in compiled.finditer(text) if m.end() > m.start()]
    if op == "//" and not known:
        return None
    if op != "//":
        matches = matches[:1] if op != "/%" else matches[-1:]
        if matches and not known and _UNKNOWN in text[: matches[0].start()] and op != "/%":
            return None  # an unknown part before the match might hold an earlier one
        if not matches and not known:
            return None
    rep_text = "".join(s.text for s in replacement)
    out = value
    for m in reversed(matches):
        where = _at(value, m.start())
        middle = [Seg(rep_text, [where] * len(rep_text), True, True)] if rep_text else []
        out = _cut(out, m.start(), m.end(), middle)
    return out


def strip_affix(value: Field, pattern: Field, op: str) -> Field | None:
    """``${value#pattern}`` / ``##`` (shortest / longest prefix removed) and ``%`` / ``%%`` (suffix); None when
    the value or the pattern is not wholly known."""
    if not all(s.known for s in value):
        return None
    rx = _glob(pattern, ".*?" if op in ("#", "%") else ".*")
    if rx is None:
        return None
    text = _placeholder_text(value)
    if op in ("#", "##"):
        cuts = [k for k in range(len(text) + 1) if re.fullmatch(rx, text[:k], re.S)]
        k = (min(cuts) if op == "#" else max(cuts)) if cuts else 0
        return _cut(value, 0, k, []) if k else value
    cuts = [k for k in range(len(text) + 1) if re.fullmatch(rx, text[k:], re.S)]
    k = (max(cuts) if op == "%" else min(cuts)) if cuts else len(text)
    return _cut(value, k, len(text), []) if k < len(text) else value
