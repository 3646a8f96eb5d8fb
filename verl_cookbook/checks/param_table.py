"""Parameter tables: each row's default must equal verl's.

A table is declared by the comment right above it:

- ``<!-- check: params scope="actor_rollout_ref.rollout.checkpoint_engine" -->``: first column holds
  config keys (relative to ``scope``), checked against the generated default config;
- ``<!-- check: params engine="nccl" device="npu" -->``: first column holds constructor arguments of
  the engine that backend name resolves to on that device.

The key is the first `code` span of the first column; the claimed default is the first `code` span
of the default column ("—" or no code span claims there is no default). A table with a default
column and no declaration is a finding, so no defaults table goes unchecked.
"""

from __future__ import annotations

import ast
from typing import Any

import yaml

from verl_cookbook.checks import Context, table_check
from verl_cookbook.checks.config.model import DEVICES, closest, closest_key, lookup_path
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import Table, code_spans
from verl_cookbook.rules.config import CONFIG_UNKNOWN_CONFIG, CONFIG_UNKNOWN_KEY
from verl_cookbook.rules.engines import ENGINE_UNKNOWN_BACKEND, ENGINE_UNKNOWN_KWARG
from verl_cookbook.rules.pages import (
    TABLE_AMBIGUOUS_ENGINE,
    TABLE_DEFAULT_MISMATCH,
    TABLE_NO_DEFAULT_COLUMN,
    TABLE_NO_KEY,
    TABLE_UNDECLARED_SCOPE,
)

DEFAULT_HEADERS = {"默认值", "默认", "default", "defaults", "default value", "缺省值"}
NO_DEFAULT = {"—", "-", "–", "无", "none (required)", "required", "必填", "(必填)", "（必填）"}


def default_column(table: Table) -> int | None:
    for i, h in enumerate(table.header):
        if h.strip().strip("*").strip().lower() in DEFAULT_HEADERS:
            return i
    return None


def parse_value(text: str) -> Any:
    """A claimed value as data: YAML first (``false``, ``2048``, ``null``), then Python (``False``, ``None``)."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        pass
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError:
        return text


def same_value(claimed: str, actual: Any) -> bool:
    value = parse_value(claimed)
    if value == actual and type(value) is type(actual):
        return True
    if isinstance(actual, str) and not isinstance(value, str):
        return False
    if isinstance(actual, str):
        return str(value) == actual or claimed.strip("'\"") == actual
    if isinstance(actual, bool) or isinstance(value, bool):
        return False
    return value == actual


@table_check("params")
def check_params(table: Table, ctx: Context) -> list[Finding]:
    d = table.directive
    assert d is not None
    col = default_column(table)
    if col is None:
        return [TABLE_NO_DEFAULT_COLUMN.at(table.page, table.line, 1)]
    if "engine" in d.attrs:
        lookup = _engine_lookup(d.attrs["engine"], d.attrs.get("device"), ctx, table)
    elif "scope" in d.attrs:
        lookup = _config_lookup(d.attrs["scope"], d.attrs.get("config", "ppo_trainer"), ctx, table)
    else:
        return [TABLE_UNDECLARED_SCOPE.at(d.page, d.line, 1)]
    if isinstance(lookup, list):
        return lookup
    findings: list[Finding] = []
    for line, cells in table.rows:
        if not cells:
            continue
        keys = code_spans(cells[0])
        if not keys:
            findings.append(TABLE_NO_KEY.at(table.page, line, 1))
            continue
        key = keys[0]
        claimed = code_spans(cells[col]) if col < len(cells) else []
        cell_text = cells[col].strip() if col < len(cells) else ""
        found = lookup(key, line)
        if isinstance(found, Finding):
            findings.append(found)
            continue
        has_default, actual, source = found
        if not claimed:
            if cell_text.lower() in NO_DEFAULT and not has_default:
                continue
            case = "no-default" if cell_text.lower() in NO_DEFAULT else "not-code"
            findings.append(
                TABLE_DEFAULT_MISMATCH.at(
                    table.page,
                    line,
                    1,
                    fact=f"default: {actual!r}",
                    fact_source=source,
                    case=case,
                    key=key,
                    default=actual,
                    cell=cell_text,
                )
            )
            continue
        if not has_default:
            findings.append(
                TABLE_DEFAULT_MISMATCH.at(
                    table.page,
                    line,
                    1,
                    fact="required argument",
                    fact_source=source,
                    case="required",
                    key=key,
                    claimed=claimed[0],
                )
            )
            continue
        if not same_value(claimed[0], actual):
            findings.append(
                TABLE_DEFAULT_MISMATCH.at(
                    table.page,
                    line,
                    1,
                    fact=f"default: {actual!r}",
                    fact_source=source,
                    key=key,
                    claimed=claimed[0],
                    default=actual,
                )
            )
    return findings


def _config_lookup(scope: str, config: str, ctx: Context, table: Table):
    base = ctx.facts.default_config(config)
    if base is None:
        return [CONFIG_UNKNOWN_CONFIG.at(table.page, table.line, 1, case="table", config=config)]
    prefix = tuple(p for p in scope.split(".") if p)

    def lookup(key: str, line: int):
        path = (*prefix, *key.split("."))
        state, depth, node = lookup_path(base, path)
        dotted = ".".join(path)
        if state != "found":
            parent = node if isinstance(node, dict) else {}
            suggestion = closest_key(path[depth], sorted(parent)) if depth < len(path) else None
            return CONFIG_UNKNOWN_KEY.at(
                table.page,
                line,
                1,
                fact_source=ctx.facts.config_source(".".join(path[:depth]), config),
                case="suggested" if suggestion else "",
                key=dotted,
                config=config,
                name=path[depth] if depth < len(path) else path[-1],
                parent=".".join(path[:depth]),
                suggestion=suggestion,
            )
        source = ctx.facts.config_source(dotted, config)
        if len(path) >= 2 and path[-2] == "checkpoint_engine":
            fld = ctx.facts.checkpoint_field(path[-1])
            if fld:
                source = f"{fld['source']}; {source}"
        return (True, node, source)

    return lookup


def _engine_lookup(backend: str, device: str | None, ctx: Context, table: Table):
    dev = DEVICES.get(device or "")
    engines = ctx.facts.engines_for(backend, dev)
    if not engines:
        known = ctx.facts.backends()
        return [
            ENGINE_UNKNOWN_BACKEND.at(
                table.page,
                table.line,
                1,
                fact=f"registered backends: {', '.join(known)}",
                fact_source=ctx.facts.data["engines"]["source"],
                name=backend,
                device=dev.upper() if dev else None,
                suggestion=closest(backend, [k for k in known if k != backend]),
            )
        ]
    if len(engines) > 1:
        return [
            TABLE_AMBIGUOUS_ENGINE.at(table.page, table.line, 1, backend=backend, engines=[e["class"] for e in engines])
        ]
    eng = engines[0]
    params = {p["name"]: p for p in eng["constructor"]["params"]}

    def lookup(key: str, line: int):
        if key not in params:
            return ENGINE_UNKNOWN_KWARG.at(
                table.page,
                line,
                1,
                fact=f"accepts: {', '.join(params)}",
                fact_source=eng["constructor"]["source"],
                backend=backend,
                name=key,
                cls=eng["class"],
                suggestion=closest(key, list(params)),
            )
        p = params[key]
        return (not p["required"], p["default"], p["source"])

    return lookup
