"""Environment assignments of a shell script (``export NAME=value``, ``NAME=value cmd``) against the curated
env catalog (HCCL, Mooncake Ascend, CANN) and the variables verl itself reads: allowed values, probable typos of
catalogued names, variables whose mere presence switches a feature on, catalogued variables assigned but never
exported, and variables that conflict with another or need a companion.
"""

from __future__ import annotations

from verl_cookbook import catalog
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.rules.scripts import (
    ENV_CONFLICT,
    ENV_INVALID_VALUE,
    ENV_NOT_EXPORTED,
    ENV_PRESENCE_ENABLES,
    ENV_REQUIRES,
    ENV_UNKNOWN_NAME,
)
from verl_cookbook.shell.model import Export, Script


def verl_env_vars(facts: Facts | None) -> dict[str, list[dict]]:
    fam = facts.family("env") if facts is not None else None
    return (fam or {}).get("vars", {}) if isinstance(fam, dict) else {}


def check_exports(script: Script, where, facts: Facts | None = None) -> list[Finding]:
    """Judge every environment assignment in ``script`` against the env catalog (and verl's own reads)."""
    cat = catalog.env_catalog()
    verl_vars = verl_env_vars(facts)
    known = set(cat.vars) | set(cat.other_names) | set(verl_vars)
    allexport = any(c.argv[0] == "set" and ("-a" in c.argv or "allexport" in c.argv) for c in script.commands)
    exported_names = {e.name for e in script.exports if e.exported}
    final: dict[str, Export] = {}
    out: list[Finding] = []
    for e in script.exports:
        file, line = where(e.line)
        loc = (file, line, e.col)
        entry = cat.vars.get(e.name)
        if e.exported:
            final[e.name] = e
        if entry is None:
            prefix = catalog.covered_prefix(e.name)
            if prefix and e.name not in known:
                family_names = [n for n in known if n.startswith(prefix)]
                guess = catalog.probable_typo(e.name, family_names)
                if guess:
                    g = cat.vars.get(guess)
                    out.append(
                        ENV_UNKNOWN_NAME.at(
                            *loc,
                            fact=(g["meaning"]["en"] if g else None),
                            fact_source=(g["source"] if g else cat.other_names.get(guess)),
                            name=e.name,
                            suggestion=guess,
                        )
                    )
            continue
        if e.kind == "assign" and not allexport and e.name not in exported_names:
            out.append(ENV_NOT_EXPORTED.at(*loc, fact_source=entry["source"], name=e.name, value=e.value))
        if e.value is None or e.has_var:
            continue
        spec = entry["value"]
        if spec["type"] == "presence":
            if e.value.strip().lower() in ("0", "false", "off", "no", ""):
                out.append(
                    ENV_PRESENCE_ENABLES.at(
                        *loc,
                        fact=entry["meaning"]["en"],
                        fact_source=entry.get("presence_source") or entry["source"],
                        name=e.name,
                        value=e.value,
                    )
                )
            continue
        problem = catalog.check_value(spec, e.value)
        if problem:
            case, data = problem
            out.append(
                ENV_INVALID_VALUE.at(
                    *loc,
                    fact=f"{entry['meaning']['en']} Default: {entry.get('default')}",
                    fact_source=entry["source"],
                    case=case,
                    name=e.name,
                    **data,
                )
            )
    out.extend(_cross_checks(final, where, cat))
    return out


def _cross_checks(final: dict[str, Export], where, cat: catalog.EnvCatalog) -> list[Finding]:
    out = []
    for name, e in final.items():
        entry = cat.vars.get(name)
        if not entry or e.value is None or e.has_var:
            continue
        file, line = where(e.line)
        req = entry.get("requires_when")
        if req and e.value == req["value"] and req["name"] not in final:
            out.append(
                ENV_REQUIRES.at(
                    file,
                    line,
                    e.col,
                    fact=cat.vars.get(req["name"], {}).get("meaning", {}).get("en"),
                    fact_source=entry["source"],
                    name=name,
                    value=e.value,
                    required=req["name"],
                )
            )
        for c in entry.get("conflicts", []):
            if "when" in c and e.value != c["when"]:
                continue
            if "when_not" in c and e.value == c["when_not"]:
                continue
            other = final.get(c["name"])
            if other is None or ("value" in c and other.value != c["value"]):
                continue
            out.append(
                ENV_CONFLICT.at(
                    file,
                    line,
                    e.col,
                    fact_source=c.get("source") or entry["source"],
                    name=name,
                    value=e.value,
                    other=c["name"],
                    other_value=other.value,
                    why=c["why"],
                )
            )
    return out
