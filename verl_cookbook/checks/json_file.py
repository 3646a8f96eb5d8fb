"""JSON blocks (``check="json"``): syntax, then a JSON Schema from the catalog (``schema="hccl_whitelist"``),
with IP addresses checked by :mod:`ipaddress` (``format: ipv4`` / ``ipv6`` / ``ipvanyaddress``).
"""

from __future__ import annotations

import ipaddress
import json
import re
from typing import Any

import jsonschema

from verl_cookbook import catalog
from verl_cookbook.checks import Context, block_check
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.rules.scripts import JSON_SCHEMA, JSON_SYNTAX, JSON_UNKNOWN_SCHEMA

_FORMATS = jsonschema.FormatChecker(formats=())


@_FORMATS.checks("ipv4", raises=ValueError)
def _ipv4(value: object) -> bool:
    if isinstance(value, str):
        ipaddress.IPv4Address(value)
    return True


@_FORMATS.checks("ipv6", raises=ValueError)
def _ipv6(value: object) -> bool:
    if isinstance(value, str):
        ipaddress.IPv6Address(value)
    return True


def _schema_source(schema: dict) -> str | None:
    desc = schema.get("description", "")
    return desc.rsplit("Source: ", 1)[1].strip() if "Source: " in desc else None


def _value_lines(text: str) -> dict[tuple, tuple[int, int]]:
    """(line, col) of every value by its JSON path, found by a small position-tracking scan."""
    out: dict[tuple, tuple[int, int]] = {}
    decoder = json.JSONDecoder()

    def pos(i: int) -> tuple[int, int]:
        line = text.count("\n", 0, i) + 1
        return line, i - (text.rfind("\n", 0, i) + 1) + 1

    def skip_ws(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def walk(i: int, path: tuple) -> int:
        i = skip_ws(i)
        out[path] = pos(i)
        if text[i] == "{":
            i = skip_ws(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                key, i = decoder.raw_decode(text, skip_ws(i))
                i = skip_ws(i) + 1  # the colon
                i = skip_ws(walk(i, (*path, key)))
                if text[i] == "}":
                    return i + 1
                i += 1
        if text[i] == "[":
            i = skip_ws(i + 1)
            if text[i] == "]":
                return i + 1
            k = 0
            while True:
                i = skip_ws(walk(i, (*path, k)))
                k += 1
                if text[i] == "]":
                    return i + 1
                i += 1
        _value, end = decoder.raw_decode(text, i)
        return end

    try:
        walk(0, ())
    except (ValueError, IndexError):
        pass
    return out


_IPV4 = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")


def _whitelist_like(text: str, schema_name: str | None) -> bool:
    """JSON for an IP whitelist (the HCCL one): declared with its schema, or a host_ip key or IPs in it."""
    return schema_name == "hccl_whitelist" or '"host_ip"' in text or bool(_IPV4.search(text))


def _trailing_comma(text: str, pos: int) -> int | None:
    """The offset of a comma that only whitespace separates from the ``}`` or ``]`` where the parser stopped (JSON's
    most common mistake, which :mod:`json` reports as a missing key or value), or None."""
    if pos >= len(text) or text[pos] not in "}]":
        return None
    i = pos - 1
    while i >= 0 and text[i] in " \t\r\n":
        i -= 1
    return i if i >= 0 and text[i] == "," else None


def check_json_text(text: str, schema_name: str | None, where, fallback: tuple[str, int]) -> list[Finding]:
    """Findings for JSON ``text``; ``where(line) -> (file, line)`` maps its lines. Shared with ``doctor``."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as e:
        file, line = where(e.lineno)
        comma = _trailing_comma(text, e.pos)
        if comma is not None:
            c_line = text.count("\n", 0, comma) + 1
            c_col = comma - (text.rfind("\n", 0, comma) + 1) + 1
            file, line = where(c_line)
            closer = text[e.pos] if e.pos < len(text) else "EOF"
            return [JSON_SYNTAX.at(file, line, c_col, case="trailing-comma", closer=closer, line=c_line, column=c_col)]
        case = ""
        if e.msg.startswith("Expecting property name"):
            case = "key-ips" if _whitelist_like(text, schema_name) else "key"
        return [JSON_SYNTAX.at(file, line, e.colno, case=case, error=e.msg, line=e.lineno, column=e.colno)]
    if not schema_name:
        return []
    schema = catalog.schema(schema_name)
    if schema is None:
        file, line = fallback
        return [JSON_UNKNOWN_SCHEMA.at(file, line, 1, schema=schema_name, known=catalog.schema_names())]
    validator = jsonschema.Draft202012Validator(schema, format_checker=_FORMATS)
    positions = _value_lines(text)
    source = _schema_source(schema)
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = tuple(err.absolute_path)
        line, col = positions.get(path, positions.get((), (1, 1)))
        file, fline = where(line)
        at = "/".join(str(p) for p in path)
        rule = JSON_SCHEMA.member(str(err.validator))
        common = {"fact": schema.get("title"), "fact_source": source, "schema": schema_name, "at": at}
        if err.validator == "format":
            value = err.instance if isinstance(err.instance, str | int | float | bool) else str(err.instance)
            out.append(rule.at(file, fline, col, case="format", value=value, format=str(err.validator_value), **common))
        elif err.validator == "additionalProperties":
            allowed = list(schema.get("properties", {}))
            out.append(rule.at(file, fline, col, case="additional", message=err.message, allowed=allowed, **common))
        else:
            out.append(rule.at(file, fline, col, message=err.message, **common))
    return out


@block_check("json", attrs=("schema",))
def check_json(block: CodeBlock, ctx: Context) -> list[Finding]:
    return check_json_text(block.code, block.attrs.get("schema"), block.where, (block.page, block.line))
