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
from verl_cookbook.checks.config.model import DEVICES, did_you_mean, lookup_path
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import Table, code_spans

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
        return [
            Finding(
                table.page,
                table.line,
                1,
                "table/no-default-column",
                "declared parameter table has no default column (默认值 / Default)",
            )
        ]  # noqa: E501
    if "engine" in d.attrs:
        lookup = _engine_lookup(d.attrs["engine"], d.attrs.get("device"), ctx, table)
    elif "scope" in d.attrs:
        lookup = _config_lookup(d.attrs["scope"], d.attrs.get("config", "ppo_trainer"), ctx, table)
    else:
        return [
            Finding(
                d.page,
                d.line,
                1,
                "table/undeclared-scope",
                'a params table needs scope="<config path>" or engine="<backend>"',
            )
        ]  # noqa: E501
    if isinstance(lookup, list):
        return lookup
    findings: list[Finding] = []
    for line, cells in table.rows:
        if not cells:
            continue
        keys = code_spans(cells[0])
        if not keys:
            findings.append(Finding(table.page, line, 1, "table/no-key", "first column must name the key in `code`"))
            continue
        key = keys[0]
        claimed = code_spans(cells[col]) if col < len(cells) else []
        cell_text = cells[col].strip() if col < len(cells) else ""
        found = lookup(key)
        if isinstance(found, Finding):
            findings.append(Finding(table.page, line, 1, found.rule, found.message, found.fact, found.fact_source))
            continue
        has_default, actual, source = found
        if not claimed:
            if cell_text.lower() in NO_DEFAULT and not has_default:
                continue
            if cell_text.lower() in NO_DEFAULT:
                msg = f"`{key}`: the table says there is no default, but verl's default is {actual!r}"
            else:
                msg = f"`{key}`: put the default value in `code` (got {cell_text!r})"
            findings.append(Finding(table.page, line, 1, "table/default-mismatch", msg, f"default: {actual!r}", source))
            continue
        if not has_default:
            findings.append(
                Finding(
                    table.page,
                    line,
                    1,
                    "table/default-mismatch",
                    f"`{key}`: the table claims default `{claimed[0]}`, but verl gives it no default (required)",
                    "required argument",
                    source,
                )
            )
            continue
        if not same_value(claimed[0], actual):
            findings.append(
                Finding(
                    table.page,
                    line,
                    1,
                    "table/default-mismatch",
                    f"`{key}`: the table says the default is `{claimed[0]}`, verl's default is {actual!r}",
                    f"default: {actual!r}",
                    source,
                )
            )
    return findings


def _config_lookup(scope: str, config: str, ctx: Context, table: Table):
    base = ctx.facts.default_config(config)
    if base is None:
        from verl_cookbook.rules.config import CONFIG_UNKNOWN_CONFIG

        return [CONFIG_UNKNOWN_CONFIG.at(table.page, table.line, 1, case="table", config=config)]
    prefix = tuple(p for p in scope.split(".") if p)

    def lookup(key: str):
        path = (*prefix, *key.split("."))
        state, depth, node = lookup_path(base, path)
        dotted = ".".join(path)
        if state != "found":
            parent = node if isinstance(node, dict) else {}
            return Finding(
                table.page,
                0,
                1,
                "config/unknown-key",
                f"`{dotted}` is not in verl's default config" + did_you_mean(path[depth], sorted(parent)),
                fact_source=ctx.facts.config_source(".".join(path[:depth]), config),
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
        where = f" on {dev.upper()}" if dev else ""
        return [
            Finding(
                table.page,
                table.line,
                1,
                "engine/unknown-backend",
                f"no checkpoint engine registers `{backend}`{where}" + did_you_mean(backend, known),
                fact=f"registered backends: {', '.join(known)}",
                fact_source=ctx.facts.data["engines"]["source"],
            )
        ]
    if len(engines) > 1:
        names = ", ".join(e["class"] for e in engines)
        return [
            Finding(
                table.page,
                table.line,
                1,
                "table/ambiguous-engine",
                f'`{backend}` resolves to several engines ({names}); declare device="npu" or device="gpu"',
            )
        ]
    eng = engines[0]
    params = {p["name"]: p for p in eng["constructor"]["params"]}

    def lookup(key: str):
        if key not in params:
            return Finding(
                table.page,
                0,
                1,
                "engine/unknown-kwarg",
                f"{eng['class']} (`{backend}`) takes no argument `{key}`" + did_you_mean(key, list(params)),
                fact=f"accepts: {', '.join(params)}",
                fact_source=eng["constructor"]["source"],
            )
        p = params[key]
        return (not p["required"], p["default"], p["source"])

    return lookup
