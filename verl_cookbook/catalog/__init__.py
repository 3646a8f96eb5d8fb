"""Curated facts that are not in verl's source: HCCL and Ascend environment variables, Mooncake's CMake
options, and JSON Schemas (the HCCL trust list). Every entry names the public page it comes from.

The data lives beside this module (``env_*.yaml``, ``mooncake_cmake.yaml``, ``*.schema.json``); each YAML
file is validated against ``catalog.schema.json`` by the test suite. :func:`check_value` says why a value
is not one an entry accepts, so the shell check and ``doctor`` judge values the same way.
"""

from __future__ import annotations

import difflib
import ipaddress
import json
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from verl_cookbook.yaml_lines import safe_load

CATALOG_DIR = Path(__file__).resolve().parent
CMAKE_TRUE = {"ON", "TRUE", "YES", "Y"}
CMAKE_FALSE = {"OFF", "FALSE", "NO", "N", "IGNORE", "NOTFOUND"}


@dataclass(frozen=True)
class EnvCatalog:
    vars: dict[str, dict]  # name -> entry (with "family")
    prefixes: dict[str, str]  # prefix -> family
    other_names: dict[str, str]  # known name without an entry -> source


def catalog_files() -> list[Path]:
    return sorted(CATALOG_DIR.glob("*.yaml"))


@cache
def load_file(name: str) -> dict:
    """A catalog file by name (``env_hccl.yaml``)."""
    return safe_load((CATALOG_DIR / name).read_text(encoding="utf-8"))


@cache
def meta_schema() -> dict:
    return json.loads((CATALOG_DIR / "catalog.schema.json").read_text(encoding="utf-8"))


def validate_catalog() -> list[str]:
    """Problems with the catalog files themselves (schema violations, broken schema references)."""
    import jsonschema

    errors: list[str] = []
    validator = jsonschema.Draft202012Validator(meta_schema())
    for path in catalog_files():
        data = load_file(path.name)
        for err in validator.iter_errors(data):
            where = "/".join(str(p) for p in err.absolute_path) or "(top)"
            errors.append(f"{path.name}: {where}: {err.message}")
        for name, entry in (data.get("vars") or {}).items():
            if entry.get("schema") and schema(entry["schema"]) is None:
                errors.append(f"{path.name}: {name}: no schema file {entry['schema']}.schema.json")
    for path in sorted(CATALOG_DIR.glob("*.schema.json")):
        try:
            jsonschema.Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))
        except (json.JSONDecodeError, jsonschema.SchemaError) as e:
            errors.append(f"{path.name}: {str(e).splitlines()[0]}")
    return errors


@cache
def env_catalog() -> EnvCatalog:
    vars_: dict[str, dict] = {}
    prefixes: dict[str, str] = {}
    others: dict[str, str] = {}
    for path in catalog_files():
        data = load_file(path.name)
        if "vars" not in data:
            continue
        for name, entry in data["vars"].items():
            vars_[name] = {**entry, "family": data["family"]}
        for p in data.get("prefixes", []):
            prefixes[p] = data["family"]
        other = data.get("other_names") or {}
        for name in other.get("names", []):
            others[name] = other["source"]
    return EnvCatalog(vars_, prefixes, others)


@cache
def cmake_catalog() -> dict:
    return load_file("mooncake_cmake.yaml")


@cache
def schema(name: str) -> dict | None:
    """A JSON Schema shipped with the catalog (``hccl_whitelist``), or None."""
    if not re.fullmatch(r"[A-Za-z0-9_]+", name):
        return None
    path = CATALOG_DIR / f"{name}.schema.json"
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def schema_names() -> list[str]:
    return sorted(
        p.name[: -len(".schema.json")] for p in CATALOG_DIR.glob("*.schema.json") if p.name != "catalog.schema.json"
    )


def describe(value_spec: dict) -> str:
    """What a value spec accepts, in words."""
    t = value_spec["type"]
    if t == "enum":
        return "one of " + ", ".join(f"`{v}`" for v in value_spec["values"])
    if t in ("int", "number"):
        lo, hi = value_spec.get("min"), value_spec.get("max")
        kind = "an integer" if t == "int" else "a number"
        unit = f" ({value_spec['unit']})" if value_spec.get("unit") else ""
        if lo is not None and hi is not None:
            return f"{kind} in [{_num(lo)}, {_num(hi)}]{unit}"
        if lo is not None:
            return f"{kind} >= {_num(lo)}{unit}"
        return f"{kind}{unit}"
    return {
        "port_ranges": "`auto`, or ports / port ranges in 1-65535 separated by commas, e.g. `60000-60050,61000`",
        "ip": "an IPv4 or IPv6 address",
        "path": "a file path",
        "regex": f"the form `{value_spec.get('format', value_spec.get('pattern'))}`",
        "int_list": "device IDs in ascending order separated by commas, no spaces (e.g. `0,1,2,3`)",
        "json": "a JSON document",
        "presence": "any value (only whether it is set matters)",
        "cmake_bool": "a CMake boolean (`ON`/`OFF`)",
        "string": "any string",
    }.get(t, t)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


# Why a value is refused, as a finding's data: ``(case, data)``; the case names the message of env/invalid-value and
# cmake/invalid-value (verl_cookbook/rules/scripts.py), the data fills it.
ValueProblem = tuple[str, dict[str, Any]]


def check_value(value_spec: dict, value: str) -> ValueProblem | None:
    """Why ``value`` is not accepted by ``value_spec`` (see :data:`ValueProblem`); None when it is."""
    t = value_spec["type"]
    ok = True
    if t == "enum":
        ok = value in value_spec["values"]
    elif t in ("int", "number"):
        try:
            if t == "int":
                if not re.fullmatch(r"[+-]?\d+", value.strip()):
                    raise ValueError
                n: float = int(value)
            else:
                n = float(value)
                if not math.isfinite(n):
                    raise ValueError
        except ValueError:
            ok = False
        else:
            lo, hi = value_spec.get("min"), value_spec.get("max")
            ok = (lo is None or n >= lo) and (hi is None or n <= hi)
    elif t == "port_ranges":
        return _port_ranges_error(value)
    elif t == "ip":
        try:
            ipaddress.ip_address(value)
        except ValueError:
            ok = False
    elif t == "path":
        ok = 0 < len(value) < 4096
    elif t == "regex":
        ok = re.fullmatch(value_spec["pattern"], value) is not None
    elif t == "int_list":
        ok = re.fullmatch(r"\d+(,\d+)*", value) is not None
        if ok and value_spec.get("ascending"):
            ids = [int(x) for x in value.split(",")]
            if ids != sorted(set(ids)):
                return "descending", {"value": value}
    elif t == "json":
        try:
            json.loads(value)
        except json.JSONDecodeError as e:
            return "json", {"value": value, "error": e.msg, "column": e.colno}
    elif t == "cmake_bool":
        v = value.upper()
        number = re.fullmatch(r"[+-]?\d+(\.\d+)?", v) is not None
        ok = v in CMAKE_TRUE or v in CMAKE_FALSE or v.endswith("-NOTFOUND") or number
    if ok:
        return None
    return "", {"value": value, "expected": describe(value_spec)}


def _port_ranges_error(value: str) -> ValueProblem | None:
    if value == "auto":
        return None
    spans: list[tuple[int, int]] = []
    for part in value.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            return "port-form", {"value": value, "part": part, "expected": describe({"type": "port_ranges"})}
        a = int(m.group(1))
        b = int(m.group(2) or a)
        if not (1 <= a <= 65535 and 1 <= b <= 65535):
            return "port-outside", {"value": value, "part": part}
        if a > b:
            return "port-backwards", {"value": value, "part": part}
        for lo, hi in spans:
            if a <= hi and b >= lo:
                return "port-overlap", {"value": value, "part": part}
        spans.append((a, b))
    return None


def probable_typo(name: str, known: list[str] | set[str], cutoff: float = 0.8) -> str | None:
    """The catalog name ``name`` is probably a misspelling of, if any."""
    close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=cutoff)
    return close[0] if close else None


def env_entry(name: str) -> dict | None:
    return env_catalog().vars.get(name)


def covered_prefix(name: str) -> str | None:
    return next((p for p in env_catalog().prefixes if name.startswith(p)), None)


def as_jsonable() -> dict[str, Any]:
    """The whole catalog, for ``verl-cookbook facts`` and the docs."""
    return {
        "env": env_catalog().vars,
        "cmake": cmake_catalog()["options"],
        "schemas": schema_names(),
    }
