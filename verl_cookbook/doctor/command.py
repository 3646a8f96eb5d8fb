"""``verl-cookbook doctor``: the command (its parser is defined in cli.py): each file diagnosed, the startup stage
when asked for, ``--select/--ignore``, the report in text, JSON or GitHub annotations, and the exit code."""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from dataclasses import asdict
from pathlib import Path

from verl_cookbook import github_output
from verl_cookbook.checks import launch
from verl_cookbook.doctor.inputs import InputError
from verl_cookbook.doctor.judgement import FileReport, dedupe, diagnose
from verl_cookbook.doctor_rules import DoctorFinding, ascend_env, in_language, with_fix
from verl_cookbook.facts import Facts
from verl_cookbook.findings import apply_rules_options, count_text, default_lang, json_findings
from verl_cookbook.findings import (
    format_text as format_findings_text,
)
from verl_cookbook.interface import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, plural


def valid_cann(version: str | None) -> bool:
    """Whether ``--cann`` names a version doctor can compare (or none was given)."""
    return not version or ascend_env.cann_key(version) is not None


def run(args: argparse.Namespace, facts: Facts) -> int:
    """``verl-cookbook doctor`` with its parsed ``args`` against ``facts``; returns the exit code."""
    reports: list[FileReport] = []
    errors: list[str] = []
    asked = getattr(args, "startup", False) or getattr(args, "startup_python", None)
    stages = launch.DOCTOR | (launch.Stage.STARTUP if asked else launch.Stage(0))  # the stages doctor declares

    def judge(path: Path, stages: launch.Stage) -> FileReport:
        return diagnose(path, facts, device=args.device, cann=args.cann, product=args.product, stages=stages)

    for path in args.files:
        try:
            reports.append(judge(path, stages))
        except InputError as e:
            errors.append(f"{path}: {e}")
    stage = startup_stage(reports, args, facts) if launch.Stage.STARTUP in stages else None
    for r in reports:
        r.findings = select_findings(r, getattr(args, "select", None), getattr(args, "ignore", None))
    findings = [f for r in reports for f in r.findings]
    lang = getattr(args, "lang", None) or default_lang()
    if getattr(args, "diff", False) or getattr(args, "fix", False):
        for err in errors:
            print(f"verl-cookbook doctor: error: {err}", file=sys.stderr)
        from verl_cookbook import fixes

        def rejudge() -> list:  # later passes judge statically: the startup stage runs once, if asked
            again = [
                judge(path, launch.DOCTOR) for path in args.files if not any(e.startswith(f"{path}: ") for e in errors)
            ]
            select, ignore = getattr(args, "select", None), getattr(args, "ignore", None)
            return [df.finding for r in again for df in select_findings(r, select, ignore)]

        code = fixes.run([df.finding for df in findings], [], lang, write=args.fix, rejudge=rejudge)
        return EXIT_ERROR if errors else code
    out = {"text": format_text, "json": format_json, "github": format_github}[args.format](reports, facts, lang)
    if out:
        print(out)
    for err in errors:
        print(f"verl-cookbook doctor: error: {err}", file=sys.stderr)
    if args.format == "text" and not getattr(args, "quiet", False):
        print_notes(reports)
        print(
            f"verl {facts.tree.label}: {plural(len(reports), 'file')} checked, "
            f"{count_text([df.finding for df in findings])}" + (f", {len(errors)} not found" if errors else ""),
            file=sys.stderr,
        )
        if stage or any(r.commands and r.kind == "shell" for r in reports):
            why = "startup stage not run: not asked for (--startup runs verl's own startup checks)"
            print(f"doctor: {stage or why}", file=sys.stderr)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if findings else EXIT_OK


def print_notes(reports: list[FileReport]) -> None:
    """What was guessed and what could not be checked, on standard error. One file: its context and each note.
    Several files: the context of each file with findings, then the notes counted by kind (one line per kind,
    the most frequent first); ``--format json`` keeps every file's notes."""
    if len(reports) == 1:
        r = reports[0]
        print(f"doctor: {r.path}: " + "; ".join(_context(r)), file=sys.stderr)
        for n in r.notes:
            print(f"doctor: {r.path}: note: {n}", file=sys.stderr)
        return
    for r in reports:
        if r.findings:
            print(f"doctor: {r.path}: " + "; ".join(_context(r)), file=sys.stderr)
    kinds = Counter(note_kind(n) for r in reports for n in r.notes)
    files = {k: sum(any(note_kind(n) == k for n in r.notes) for r in reports) for k in kinds}
    if kinds:
        print("doctor: notes by kind (count, files; --format json lists each file's notes):", file=sys.stderr)
    for kind, count in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])):
        print(f"doctor: {count:5d} in {plural(files[kind], 'file')}: {kind}", file=sys.stderr)


def note_kind(note: str) -> str:
    """A note without its line, the names quoted in it and its counts, so that notes of one kind count together
    (``line 12: 3 override(s) take their value from …`` and ``line 40: 1 override(s) …`` are one kind)."""
    note = re.sub(r"^line \d+: ", "", note)
    note = re.sub(r"`[^`]*`", "`…`", note)
    note = re.sub(r"\([^)]*\)", "(…)", note)
    note = re.sub(r"followed for .*$", "followed for …", note)
    return re.sub(r"(?<![\w.])\d+(?![\w.])", "N", note)


def select_findings(r: FileReport, select: list[str] | None, ignore: list[str] | None) -> list[DoctorFinding]:
    """``r``'s findings after its suppression comments and ``--select/--ignore`` (see
    :func:`verl_cookbook.findings.apply_rules_options`)."""
    by_finding = {df.finding: df for df in r.findings}
    kept = apply_rules_options(by_finding, select or (), ignore or (), files=[r.path])
    return [by_finding.get(f) or with_fix(f, None) for f in kept]


def startup_stage(reports: list[FileReport], args: argparse.Namespace, facts: Facts) -> str | None:
    """The ``STARTUP`` stage (``--startup``, ``--startup-python PYTHON``): verl's own startup checks on each command
    (verl_cookbook/startup/), on the units the one judge read. A flag, not an option with an optional value:
    ``doctor --startup run.sh`` must not take the script for a Python."""
    from verl_cookbook.startup import doctor_stage

    python = getattr(args, "startup_python", None)
    stage = doctor_stage.apply(reports, python, facts.tree.version, lambda f: with_fix(f, None))
    for r in reports:
        r.findings = dedupe(r.findings)
    return stage


def _context(r: FileReport) -> list[str]:
    parts = [f"{r.kind}", r.device.describe("device")]
    if r.device.value == "npu":  # an unknown CANN or product matters only to the kimi_ckpt_engine rules
        parts += [g.describe(what) for g, what in ((r.cann, "CANN"), (r.product, "product")) if r.kimi or g.value]
    if r.units:  # no verl command found: no config was composed, so none is named
        parts.append(f"config {r.config}")
    return parts


# -- output ----------------------------------------------------------------------------------------
_LABELS = {"en": ("fix", "see"), "zh": ("修改方法", "参见")}


def _extra(reports: list[FileReport], lang: str) -> list[list[tuple[str, str | None]]]:
    fix, see = _LABELS[lang]
    return [[(fix, df.fix_text(lang)), (see, in_language(df.link, lang))] for r in reports for df in r.findings]


def format_text(reports: list[FileReport], facts: Facts, lang: str = "en") -> str:
    return format_findings_text([df.finding for r in reports for df in r.findings], _extra(reports, lang), lang)


def format_json(reports: list[FileReport], facts: Facts, lang: str = "en") -> str:
    out = {
        "verl": facts.tree.label,
        "files": [
            {
                "path": r.path,
                "kind": r.kind,
                "config": r.config,
                "device": asdict(r.device),
                "cann": asdict(r.cann),
                "product": asdict(r.product),
                "notes": r.notes,
            }
            for r in reports
        ],
        "findings": [
            {**d, "fix": df.fix_text(lang), "link": in_language(df.link, lang)}
            for d, df in zip(
                json_findings([df.finding for r in reports for df in r.findings], lang),
                [df for r in reports for df in r.findings],
                strict=True,
            )
        ],
    }
    return json.dumps(out, ensure_ascii=False, indent=2)


def format_github(reports: list[FileReport], facts: Facts, lang: str = "en") -> str:
    """Annotations within GitHub's limits, every finding in the job summary (:mod:`verl_cookbook.github_output`)."""
    findings = [df.finding for r in reports for df in r.findings]
    return github_output.emit(findings, "verl-cookbook doctor", lang, _extra(reports, lang))
