"""Doctor's judgement: one file's units judged by the config rules and doctor's own rules
(:mod:`verl_cookbook.doctor_rules`), each finding with its fix; the report of a file (:func:`diagnose`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verl_cookbook.checks import launch
from verl_cookbook.checks.config.checker import ConfigChecker
from verl_cookbook.checks.config.model import ckpt_prefixes, merged_config
from verl_cookbook.checks.launch import Stage
from verl_cookbook.doctor.guesses import Guess, guess_cann, guess_device, guess_product
from verl_cookbook.doctor.inputs import (
    DEFAULT_CONFIG,
    EMPTY_NOTE,
    Unit,
    Unreadable,
    detect_kind,
    other_entry_points,
    read_input,
    script_units,
    yaml_unit,
)
from verl_cookbook.doctor_rules import DoctorFinding, Target, ascend_env, with_fix
from verl_cookbook.facts import Facts
from verl_cookbook.findings import Finding
from verl_cookbook.rules.config import COMMAND_UNKNOWN_ENTRY_POINT


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
    kimi: bool = False  # a command uses kimi_ckpt_engine: the rules that need the CANN version and product apply


def judge(unit: Unit, target: Target, stages: Stage) -> list[DoctorFinding]:
    """``unit`` judged by the one judge every caller shares (:func:`verl_cookbook.checks.launch.judge`, for the
    ``stages`` asked for), then by doctor's own rules about the machine (the HCCL whitelist, RoCE, rebuild_group);
    each finding with its fix."""
    out = [with_fix(f, target) for f in launch.judge(unit, target.facts, target.device, stages)]
    out += ascend_env.check_whitelist(target)
    out += ascend_env.check_intra_roce(target)
    out += ascend_env.check_rebuild_group(target)
    return out


def _named(pre: list[Finding], script: Any, facts: Facts) -> bool:
    """Whether a command of the script was already named as not judged: another package's trainer (a note) or a module
    verl does not have (a finding)."""
    return any(f.rule == COMMAND_UNKNOWN_ENTRY_POINT for f in pre) or bool(other_entry_points(script, facts))


def diagnose(
    path: Path,
    facts: Facts,
    *,
    device: str | None = None,
    cann: str | None = None,
    product: str | None = None,
    stages: Stage = Stage.STATIC,
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
    # a command already named (another package's trainer in a note, a module verl lacks in a finding) says what was
    # not checked: "no verl trainer command" would say it twice
    if kind == "shell" and not units and not _named(pre, script, facts):
        report.notes.append(
            "no verl trainer command (python -m verl.trainer.main_ppo ...) found: only the script itself (its syntax, "
            "exports and the model merger or cmake commands in it) was checked"
        )
    for unit in units:
        if unit.note:
            report.notes.append(unit.note)
        config = unit.config
        if facts.default_config(config) is None:
            report.notes.append(
                f"verl generates no full config for `{config}`: checked against `{DEFAULT_CONFIG}`, "
                "unknown keys not reported"
            )
            config = DEFAULT_CONFIG
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
        report.findings += judge(unit, target, stages)
        report.kimi = report.kimi or target.backend == ascend_env.KIMI
        unread = ascend_env.whitelist_file_note(target)
        if unread and unread not in report.notes:
            report.notes.append(unread)
    if dev.value is None:
        report.notes.append(f"{dev.describe('device')}: device-specific rules were not applied")
    elif dev.value == "npu" and report.kimi:  # both rules judge kimi_ckpt_engine only: nothing to say otherwise
        if report.product.value is None:
            report.notes.append(
                "Ascend product unknown (--product A2|A3|950): the Ascend 950PR/950DT rules were not applied"
                " (ascend/whitelist-required, or ascend/kimi-950-unsupported where the release's README says so)"
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
