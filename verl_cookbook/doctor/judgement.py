"""Doctor's judgement: one file's units judged by the config rules and doctor's own rules
(:mod:`verl_cookbook.doctor_rules`), each finding with its fix; the report of a file (:func:`diagnose`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verl_cookbook.checks import upgrade
from verl_cookbook.checks.config.checker import ConfigChecker
from verl_cookbook.checks.config.model import Assignment, ckpt_prefixes, merged_config
from verl_cookbook.doctor.guesses import Guess, guess_cann, guess_device, guess_product
from verl_cookbook.doctor.inputs import (
    DEFAULT_CONFIG,
    EMPTY_NOTE,
    Unit,
    Unreadable,
    detect_kind,
    read_input,
    script_units,
    yaml_unit,
)
from verl_cookbook.doctor_rules import DoctorFinding, Target, ascend_env, with_fix
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.rules.config import (
    CONFIG_NOT_A_FIELD,
    CONFIG_NOT_A_MAPPING,
    CONFIG_UNKNOWN_KEY,
    OVERRIDE_GROUP,
    OVERRIDE_NEEDS_PLUS,
    OVERRIDE_PLUS_ON_EXISTING,
)
from verl_cookbook.rules.engines import DELTA_REJECTED, ENGINE_KWARGS_IGNORED, ENGINE_UNKNOWN_BACKEND


@dataclass
class FileReport:
    path: str
    kind: str
    device: Guess
    cann: Guess
    product: Guess
    config: str = DEFAULT_CONFIG
    commands: int = 0
    notes: list[str] = field(default_factory=list)
    findings: list[DoctorFinding] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)  # what the startup stage is given (doctor --startup)
    env: dict = field(default_factory=dict)


def required_values(unit: Unit, target: Target, facts: Facts) -> list[Finding]:
    from verl_cookbook.checks import required_values as rv

    set_keys = {a.dotted: (a.line, a.col) for a in unit.assignments}
    symbolic = {".".join(k) for k in unit.symbolic}
    return rv.check(
        target.config,
        set_keys,
        facts.tree,
        target.file,
        unit.line,
        symbolic,
        facts.session.required_values,
        module=unit.module,
    )


# -- judging --------------------------------------------------------------------------------------


# Findings about a key itself (not its value): still right when the value is a shell expansion.
_KEY_RULES = {CONFIG_UNKNOWN_KEY, CONFIG_NOT_A_MAPPING, OVERRIDE_NEEDS_PLUS, OVERRIDE_PLUS_ON_EXISTING}


def _about_symbolic(f: Finding, unit: Unit) -> bool:
    return any(a.path in unit.symbolic and (a.line, a.col) == (f.line, f.col) for a in unit.assignments)


def judge(unit: Unit, target: Target, checker: ConfigChecker, strict_keys: bool) -> list[DoctorFinding]:
    out: list[DoctorFinding] = []
    raw = list(unit.findings)
    if unit.assignments:
        for f in checker.check(unit.assignments, mode="config", delta=True, unknown=unit.symbolic):
            if f.rule in _KEY_RULES or f.rule == DELTA_REJECTED or not _about_symbolic(f, unit):
                raw.append(f)
    raw += _after_backend_fix(raw, unit, checker)
    kept = [
        f
        for f in raw
        if strict_keys or f.rule not in (CONFIG_UNKNOWN_KEY, OVERRIDE_NEEDS_PLUS, OVERRIDE_GROUP, CONFIG_NOT_A_FIELD)
    ]
    for f in upgrade.rewrite(kept, checker.facts, checker.base, unit.config):  # stale keys read as an upgrade
        out.append(with_fix(f, target))
    out += ascend_env.check_whitelist(target)
    out += ascend_env.check_intra_roce(target)
    out += ascend_env.check_rebuild_group(target)
    return out


# A backend name verl does not register, and the name the fix tells the user to write instead.
_BACKEND_FIXES = {"hccl": "nccl"}


def _after_backend_fix(found: list[Finding], unit: Unit, checker: ConfigChecker) -> list[Finding]:
    """Every other line that must change once a wrong backend name is corrected: kwargs under
    ``engine_kwargs.<wrong name>`` (ignored after the fix), and what the corrected engine says about them."""
    wrong = {
        f.data["name"]
        for f in found
        if f.rule == ENGINE_UNKNOWN_BACKEND and not f.data.get("as_kwargs_key") and f.data.get("name") in _BACKEND_FIXES
    }
    out: list[Finding] = []
    for name in sorted(wrong):
        good = _BACKEND_FIXES[name]
        fixed: list[Assignment] = []
        for a in unit.assignments:
            path = a.path
            if "checkpoint_engine" in path and path[-1] == "backend" and a.value == name:
                a = Assignment(path, good, a.file, a.line, a.col, op=a.op)
            elif "engine_kwargs" in path and path.index("engine_kwargs") + 1 < len(path):
                k = path.index("engine_kwargs") + 1
                if path[k] == name:
                    new_path = (*path[:k], good, *path[k + 1 :])
                    out.append(
                        ENGINE_KWARGS_IGNORED.at(
                            a.file,
                            a.line,
                            a.col,
                            case="after-fix",
                            path=".".join(path),
                            key=".".join(path),
                            corrected=good,
                            new=".".join(new_path),
                        )
                    )
                    a = Assignment(new_path, a.value, a.file, a.line, a.col, op=a.op)
            fixed.append(a)
        seen = {(f.line, f.rule) for f in found}
        for f in checker.check(fixed, mode="config", delta=True, unknown=unit.symbolic):
            if f.rule.startswith("engine/") and (f.line, f.rule) not in seen:
                out.append(f.with_data(corrected=good))
    return out


def unknown_config(unit: Unit, facts: Facts, file: str) -> Finding:
    """``config/unknown-config`` at a command's ``--config-name`` that verl's config folders do not hold: the configs
    the release has, the last release (or verl's main branch) with the one named; the rest of the command, judged
    against the default config, is folded under it (its ``span``)."""
    from verl_cookbook.facts import history
    from verl_cookbook.rules.config import CONFIG_UNKNOWN_CONFIG

    assert unit.config_at is not None
    line, col = unit.config_at
    lines = [line, unit.line, *(a.line for a in unit.assignments)]
    entry = facts.entry_point(unit.module or "") or {}
    folder = facts.config_dir(entry.get("config_name", DEFAULT_CONFIG))
    known: dict[str, Any] = {
        "config": unit.config,
        "release": facts.tree.version or facts.tree.label,
        "offered": [n for n in facts.config_names() if facts.config_dir(n) == folder],  # beside the entry's own
        "span": [min(lines), max(lines)],
    }
    gone = history.gone_config(facts.tree.version, unit.config)
    if gone is None:
        return CONFIG_UNKNOWN_CONFIG.at(file, line, col, case="missing", **known)
    case = "newer" if gone["last"] == "main" else "gone"
    return CONFIG_UNKNOWN_CONFIG.at(file, line, col, fact=gone["source"], case=case, last=gone["last"], **known)


def diagnose(
    path: Path,
    facts: Facts,
    *,
    device: str | None = None,
    cann: str | None = None,
    product: str | None = None,
    required: bool = False,
) -> FileReport:
    """All findings for one file. Raises :class:`InputError` when there is no file to read (missing, a folder);
    a file that cannot be read as text is a ``file/…`` finding on it, an empty file has none (a note says so)."""
    file = str(path)
    try:
        text = read_input(path)
    except Unreadable as e:
        report = _bare_report(file, "unreadable", device, cann, product)
        report.findings.append(with_fix(e.rule.at(file, e.line, 1, **e.data), None))
        return report
    kind = detect_kind(path, text)
    if not text.strip():
        report = _bare_report(file, kind, device, cann, product)
        report.notes.append(EMPTY_NOTE)
        return report
    env: dict = {}
    script = None
    pre: list[Finding] = []
    script_notes: list[str] = []
    if kind == "shell":
        units, env, pre, script, script_notes = script_units(text, file, facts)
    else:
        units = [yaml_unit(text, file, facts)]
    all_assigns = [a for u in units for a in u.assignments]
    dev = guess_device(device, all_assigns, env, script, text, kind)
    report = FileReport(
        file,
        kind,
        dev,
        guess_cann(cann, env, text) if dev.value == "npu" else Guess(cann, "given" if cann else "unknown"),
        guess_product(product, text) if dev.value == "npu" else Guess(product, "given" if product else "unknown"),
    )
    report.commands = len(units)
    report.units, report.env = units, env
    report.findings += [with_fix(f, None) for f in pre]
    report.notes += script_notes
    if kind == "shell" and not units:
        report.notes.append(
            "no verl trainer command (python -m verl.trainer.main_ppo ...) found: only the script's syntax was checked"
        )
    for unit in units:
        if unit.note:
            report.notes.append(unit.note)
        config = unit.config
        strict = unit.strict
        if facts.default_config(config) is None:
            if unit.config_at is not None and config not in facts.config_names():
                report.findings.append(with_fix(unknown_config(unit, facts, file), None))
            report.notes.append(
                f"verl generates no full config for `{config}`: checked against `{DEFAULT_CONFIG}`, "
                "unknown keys not reported"
            )
            config, strict = DEFAULT_CONFIG, False
        report.config = config
        checker = ConfigChecker(facts, config, dev.value)
        base = checker.base or {}
        prefixes = ckpt_prefixes(base)
        rollout_ckpt = ("actor_rollout_ref", "rollout", "checkpoint_engine")
        prefix = rollout_ckpt if rollout_ckpt in prefixes else (prefixes[0] if prefixes else rollout_ckpt)
        target = Target(
            file=file,
            kind=kind,
            facts=facts,
            assignments=unit.assignments,
            config=merged_config(base, unit.assignments, unit.symbolic),
            ckpt_prefix=prefix,
            device=dev.value,
            cann=report.cann.value,
            product=report.product.value,
            env=env,
            anchor_line=unit.line,
        )
        report.findings += judge(unit, target, checker, strict)
        if required and unit.module:  # a command: verl's required and enumerated values (checks/required_values.py)
            report.findings += [with_fix(f, target) for f in required_values(unit, target, facts)]
    if dev.value is None:
        report.notes.append(f"{dev.describe('device')}: device-specific rules were not applied")
    elif dev.value == "npu":
        if report.product.value is None:
            report.notes.append(
                "Ascend product unknown (--product A2|A3|950): the Ascend 950PR/950DT whitelist rule was not applied"
            )
        if report.cann.value is None:
            report.notes.append("CANN version unknown (--cann VERSION): the CANN >= 8.5.0 rule was not applied")
    report.findings = dedupe(report.findings)
    return report


def _bare_report(file: str, kind: str, device: str | None, cann: str | None, product: str | None) -> FileReport:
    """The report of a file with nothing in it to judge: only what was given on the command line is known."""

    def given(value: str | None) -> Guess:
        return Guess(value, "given" if value else "unknown")

    return FileReport(file, kind, given(device), given(cann), given(product))


def dedupe(findings: list[DoctorFinding]) -> list[DoctorFinding]:
    seen = set()
    out = []
    for df in sorted(findings, key=lambda d: d.finding.sort_key()):
        key = (df.finding.path, df.finding.line, df.finding.rule, df.finding.message)
        if key not in seen:
            seen.add(key)
            out.append(df)
    return out
