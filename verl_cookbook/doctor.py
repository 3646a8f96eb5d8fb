"""``verl-cookbook doctor FILE ...``: check a user's launch script or verl config before it burns cluster hours.

A launch script (shell: exports plus ``python3 -m verl.trainer.main_ppo key=value ...``) or a YAML
config (a full or partial verl trainer config; Hydra ``defaults:`` lists are tolerated) goes through the
same config rules as the site's own snippets (unknown keys, types, backend names, ``engine_kwargs``
under the backend in effect, constructor kwargs, ``device: npu``) plus doctor's own rules (HCCL env on
Ascend, ``delta_sharded`` constraints read from verl's ``raise`` statements). Each finding says how to
fix it and links to the page that explains it. The files are only read, never modified.

Exit codes (the contract of every verl-cookbook command, see ``verl-cookbook doctor --help``): 0 no
findings, 1 findings, 2 usage or environment error (an input missing or not a script or config, verl's
source out of reach).
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import re
import shutil
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from verl_cookbook.checks import upgrade
from verl_cookbook.checks.config_rules import Assignment, ConfigChecker, _ckpt_prefixes, merged_config
from verl_cookbook.doctor_rules import DoctorFinding, Target, advise, ascend_env
from verl_cookbook.facts import Facts
from verl_cookbook.findings import (
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_OK,
    Finding,
    apply_rules_options,
    plural,
)
from verl_cookbook.findings import (
    format_github as format_findings_github,
)
from verl_cookbook.findings import (
    format_text as format_findings_text,
)

YAML_SUFFIXES = (".yaml", ".yml")
SHELL_SUFFIXES = (".sh", ".bash")
MAX_BYTES = 5 * 1024 * 1024
DEFAULT_CONFIG = "ppo_trainer"


class InputError(Exception):
    """An input that cannot be checked (exit code 2)."""


@dataclass
class Guess:
    value: str | None
    how: str  # "given", "guessed", "unknown"
    why: str = ""

    def describe(self, what: str) -> str:
        if self.how == "given":
            return f"{what} {self.value} (given)"
        if self.value is None:
            return f"{what} unknown{(': ' + self.why) if self.why else ''}"
        return f"{what} {self.value} (guessed from {self.why})"


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


# -- command line (the parser is defined in cli.py) -------------------------------------------------
def valid_cann(version: str | None) -> bool:
    """Whether ``--cann`` names a version doctor can compare (or none was given)."""
    return not version or ascend_env.cann_key(version) is not None


def run(args: argparse.Namespace, facts: Facts) -> int:
    """``verl-cookbook doctor`` with its parsed ``args`` against ``facts``; returns the exit code."""
    reports: list[FileReport] = []
    errors: list[str] = []
    for path in args.files:
        try:
            reports.append(
                diagnose(
                    path,
                    facts,
                    device=args.device,
                    cann=args.cann,
                    product=args.product,
                    required=bool(getattr(args, "required", False)),
                )
            )
        except InputError as e:
            errors.append(f"{path}: {e}")
    stage = startup_stage(reports, args, facts)
    for r in reports:
        r.findings = select_findings(r, getattr(args, "select", None), getattr(args, "ignore", None))
    findings = [f for r in reports for f in r.findings]
    out = {"text": format_text, "json": format_json, "github": format_github}[args.format](reports, facts)
    if out:
        print(out)
    for e in errors:
        print(f"verl-cookbook doctor: error: {e}", file=sys.stderr)
    if args.format == "text":
        for r in reports:
            print(f"doctor: {r.path}: " + "; ".join(_context(r)), file=sys.stderr)
            for n in r.notes:
                print(f"doctor: {r.path}: note: {n}", file=sys.stderr)
        print(
            f"verl {facts.tree.label}: {plural(len(reports), 'file')} checked, {plural(len(findings), 'finding')}"
            + (f", {len(errors)} unreadable" if errors else ""),
            file=sys.stderr,
        )
        if any(r.commands and r.kind == "shell" for r in reports):
            why = "startup stage not run: not asked for (--startup runs verl's own startup checks)"
            print(f"doctor: {stage or why}", file=sys.stderr)
    if errors:
        return EXIT_ERROR
    return EXIT_FINDINGS if findings else EXIT_OK


def select_findings(r: FileReport, select: list[str] | None, ignore: list[str] | None) -> list[DoctorFinding]:
    """``r``'s findings after its suppression comments and ``--select/--ignore`` (see
    :func:`verl_cookbook.findings.apply_rules_options`)."""
    by_finding = {df.finding: df for df in r.findings}
    kept = apply_rules_options(by_finding, select or (), ignore or (), files=[r.path])
    return [by_finding.get(f) or advise(f, None) for f in kept]


def required_values(unit: Unit, target: Target, facts: Facts) -> list[Finding]:
    from verl_cookbook.checks import required_values as rv

    set_keys = {a.dotted: (a.line, a.col) for a in unit.assignments}
    symbolic = {".".join(k) for k in unit.symbolic}
    return rv.check(target.config, set_keys, facts.tree, target.file, unit.line, symbolic)


def startup_stage(reports: list[FileReport], args: argparse.Namespace, facts: Facts) -> str | None:
    """``--startup [PYTHON]``: verl's own startup checks on each command (verl_cookbook/startup/)."""
    from verl_cookbook.startup import doctor_stage

    if getattr(args, "startup", None) is None:
        return None
    stage = doctor_stage.apply(reports, args.startup or None, facts.tree.version, lambda f: advise(f, None))
    for r in reports:
        r.findings = _dedupe(r.findings)
    return stage


def _context(r: FileReport) -> list[str]:
    parts = [f"{r.kind}", r.device.describe("device")]
    if r.device.value == "npu":
        parts += [r.cann.describe("CANN"), r.product.describe("product")]
    parts.append(f"config {r.config}")
    return parts


# -- reading inputs ---------------------------------------------------------------------------------
def read_input(path: Path) -> str:
    """The text of ``path``; :class:`InputError` when it is missing, a folder, binary or too large."""
    if not path.exists():
        raise InputError("no such file")
    if path.is_dir():
        raise InputError("is a folder; give the launch script or config file itself")
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise InputError(f"{size} bytes: too large for a launch script or config")
        data = path.read_bytes()
    except OSError as e:
        raise InputError(f"cannot read: {e.strerror or e}") from None
    if b"\0" in data:
        raise InputError("binary file (NUL bytes): expected a shell script or a YAML config")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text (byte {e.start}): expected a shell script or a YAML config") from None


def detect_kind(path: Path, text: str) -> str:
    """ "yaml" or "shell": by suffix, then by shebang, then by whether the text is a YAML mapping."""
    if path.suffix.lower() in YAML_SUFFIXES:
        return "yaml"
    if path.suffix.lower() in SHELL_SUFFIXES or text.startswith("#!"):
        return "shell"
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return "shell"
    if isinstance(node, yaml.MappingNode) and not re.search(r"^\s*(export\s|python|torchrun|ray\s)", text, re.M):
        return "yaml"
    return "shell"


@dataclass
class Unit:
    """One thing to judge: a trainer command of a script, or a YAML config."""

    assignments: list[Assignment]
    findings: list[Finding]
    config: str
    line: int
    note: str | None = None
    symbolic: set[tuple[str, ...]] = field(default_factory=set)  # keys whose value is a shell expansion
    strict: bool = True  # False: the config may hold keys verl's tree does not show (unknown keys not reported)
    module: str | None = None  # the entry point (python -m …); None for a YAML config


def _entry_config(facts: Facts, module: str) -> str | None:
    """The ``config_name`` of ``@hydra.main`` in verl's module ``module``, if it is an entry point."""
    ep = facts.entry_point(module)
    return ep["config_name"] if ep else None


def script_units(text: str, file: str, facts: Facts) -> tuple[list[Unit], dict, list[Finding], Any, list[str]]:
    """The trainer commands of a launch script, as units to judge; also its environment, the findings about
    the script as a whole (syntax, comment lines that cut a command short, words after ``| tee``, modules
    verl does not have), the parsed script, and notes on what could not be known statically."""
    from verl_cookbook.checks.command_line import overrides_to_assignments
    from verl_cookbook.checks.plugins import external_modules_note
    from verl_cookbook.checks.shell import bash_syntax, script_findings
    from verl_cookbook.shell.evaluate import parse_script

    script = parse_script(text, file)
    findings = bash_syntax(text, lambda ln: (file, ln))
    if findings and not findings[0].message.startswith("bash"):
        findings = []  # `bash -n` could not run (timeout): fall back to the reader's own view
    if not findings and shutil.which("bash") is None:
        findings = [Finding(file, ln, col, "shell/syntax", msg) for ln, col, msg in script.errors]
    findings += script_findings(script, lambda ln: (file, ln), facts)
    notes = [f"line {ln}: {msg}" for ln, msg in script.notes]
    env: dict[str, tuple[str | None, int]] = {}
    for e in script.exports:
        if e.kind == "export" or e.kind == "prefix" or e.exported:
            env[e.name] = (e.value, e.line)
    units: list[Unit] = []
    for cmd in script.commands:
        module = upgrade.replacement(facts, cmd.module or "") or cmd.module or ""  # judged as the replacement
        if not module.startswith("verl."):
            continue
        entry = _entry_config(facts, module)
        if entry is None:
            continue  # not a Hydra entry point of verl (e.g. verl.model_merger), or no such module (reported)
        assigns, fs, info = overrides_to_assignments(cmd, file)
        config = info.get("config_name") or entry
        for name, value in cmd.env.items():
            env[name] = (value, cmd.line)
        symbolic = {tuple(k.split(".")) for k in info.get("symbolic", [])}
        note = None
        if symbolic:
            note = (
                f"line {cmd.line}: {len(symbolic)} override(s) take their value from something not known "
                f"statically ({', '.join(sorted('.'.join(k) for k in symbolic))}): their keys were checked, "
                "not their values"
            )
        opaque = info.get("opaque", [])
        if opaque:
            notes.append(
                f"line {cmd.line}: argument(s) of `{module}` not known statically, not checked: "
                + "; ".join(f"`{a}` ({_why_unknown(a)})" for a in opaque)
            )
        unit = Unit(assigns, fs, config, cmd.module_at[0], note, symbolic, module=module)
        outside = [g for g in info.get("groups", []) if not _group_option_in_tree(facts, g)]
        if outside:
            unit.strict = False
            notes.append(
                f"line {cmd.line}: {', '.join(f'`{g}`' for g in outside)} chooses a config that verl's config "
                "folders do not hold (a Hydra search-path plugin of another package may provide it): keys under "
                "it are not judged missing"
            )
        plugin = external_modules_note(env, file)
        if plugin:
            unit.strict = False
            notes.append(plugin)
        if cmd.via:
            unit.strict = False
            notes.append(
                f"line {cmd.line}: `{module}` is run through `{cmd.via}`, which may add config groups and keys "
                "of its own: unknown keys and groups are not reported"
            )
        units.append(unit)
    return units, env, findings, script, notes


def _group_option_in_tree(facts: Facts, override: str) -> bool:
    """Whether a group choice such as ``actor@actor_rollout_ref.actor=megatron_actor`` names a config file
    (``<group>/<option>.yaml``) somewhere in verl's tree; True when it cannot be told (not a plain name)."""
    key, _, option = override.lstrip("+~").partition("=")
    group = key.split("@", 1)[0]
    if not re.fullmatch(r"[\w-]+(/[\w-]+)*", group) or not re.fullmatch(r"[\w.-]+", option or ""):
        return True
    return (group, option) in _config_options(str(facts.tree.package))


@functools.lru_cache(maxsize=8)
def _config_options(package: str) -> frozenset[tuple[str, str]]:
    """(group folder, option) for every YAML file under a ``config`` folder of verl's package."""
    out = set()
    for cfg in Path(package).rglob("config"):
        if cfg.is_dir():
            for y in cfg.rglob("*.yaml"):
                rel = y.relative_to(cfg).with_suffix("")
                if len(rel.parts) > 1:
                    out.add(("/".join(rel.parts[:-1]), rel.parts[-1]))
    return frozenset(out)


def _why_unknown(arg: str) -> str:
    """Why an argument cannot be known statically, in a few words."""
    if re.search(r"\$\{?[@*]|\$\{?[1-9]", arg):
        return "the script's own command-line arguments"
    if "$(" in arg or "`" in arg:
        return "the output of a command"
    m = re.search(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)", arg)
    if m:
        return f"`{m.group(1)}` is not set in the script (it comes from the environment)"
    return "a shell expansion"


def yaml_unit(text: str, file: str, facts: Facts, config: str = DEFAULT_CONFIG) -> Unit:
    from verl_cookbook.checks.yaml_config import parse_fragment
    from verl_cookbook.markdown import CodeBlock

    base = facts.default_config(config)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        f = Finding(file, mark.line + 1 if mark else 1, mark.column + 1 if mark else 1, "yaml/syntax", problem)
        return Unit([], [Finding(f.path, f.line, f.col, f.rule, f"invalid YAML: {f.message}")], config, 1)
    if node is None:
        raise InputError("empty file")
    if not isinstance(node, yaml.MappingNode):
        raise InputError("not a YAML mapping: expected a verl config such as `actor_rollout_ref: ...`")
    # Hydra's own keys are not part of verl's config: blank them out, keeping the line numbers.
    lines = text.splitlines(keepends=True)
    note = None
    for key_node, value_node in node.value:
        if key_node.value in ("defaults", "hydra"):
            for i in range(key_node.start_mark.line, value_node.end_mark.line + 1):
                if i < len(lines) and (i < value_node.end_mark.line or value_node.end_mark.column > 0):
                    lines[i] = "\n"
            if key_node.value == "defaults":
                note = "Hydra `defaults:` list ignored: the file is checked as settings on top of verl's defaults"
    code = "".join(lines)
    block = CodeBlock(
        page=file,
        line=1,
        col=1,
        lang="yaml",
        attrs={},
        info="",
        code=code,
        line_map=[(file, i + 1) for i in range(code.count("\n") + 1)],
    )
    if not code.strip():
        return Unit([], [], config, 1, note)
    assigns, errors, _data = parse_fragment(block, base)
    return Unit(assigns, errors, config, 1, note)


# -- guessing the machine -----------------------------------------------------------------------------
_NPU_EXPORTS = ("ASCEND_RT_VISIBLE_DEVICES",)
_GPU_EXPORTS = ("CUDA_VISIBLE_DEVICES",)
_CANN_RE = re.compile(r"cann[-_/]?(?:toolkit[-_/])?v?(\d+\.\d+(?:\.\d+|\.rc\d+)?)", re.I)
_TOOLKIT_RE = re.compile(r"ascend-toolkit/(\d+\.\d+(?:\.\d+|\.rc\d+)?)", re.I)
_PRODUCT_RES = (
    ("950", re.compile(r"(?:ascend|atlas)[ _-]?950|\b950(?:pr|dt)\b", re.I)),
    ("A3", re.compile(r"\batlas[ _-]?(?:\d{3}[a-z]?[ _-]?)?a3\b|\b910_?93\b|\b910c\b|[-_:]a3\b", re.I)),
    ("A2", re.compile(r"\batlas[ _-]?(?:\d{3}[a-z]?[ _-]?)?a2\b|\b910b\d?\b|[-_:]a2\b", re.I)),
)


def _code_lines(text: str) -> list[tuple[int, str]]:
    return [(i + 1, ln) for i, ln in enumerate(text.splitlines()) if not ln.lstrip().startswith("#")]


def guess_device(given: str | None, assigns: list[Assignment], env: dict, script: Any, text: str, kind: str) -> Guess:
    if given:
        return Guess(given, "given")
    hints: list[tuple[int, str, str]] = []  # (priority, device, why)
    for a in assigns:
        if a.path == ("trainer", "device") and isinstance(a.value, str):
            dev = {"npu": "npu", "cuda": "gpu", "gpu": "gpu"}.get(a.value.lower())
            if dev:
                hints.append((0, dev, f"line {a.line}: trainer.device={a.value}"))
    for name in _NPU_EXPORTS:
        if name in env:
            hints.append((1, "npu", f"line {env[name][1]}: {name}"))
    for name in _GPU_EXPORTS:
        if name in env:
            hints.append((1, "gpu", f"line {env[name][1]}: {name}"))
    if script is not None:
        for cmd in script.commands:
            if cmd.argv and cmd.argv[0] in ("source", ".") and len(cmd.argv) > 1:
                target = cmd.argv[1]
                if "ascend" in target.lower() or "cann" in target.lower():
                    hints.append((2, "npu", f"line {cmd.line}: source {target}"))
    for ln, line in _code_lines(text):
        if "torch_npu" in line:
            hints.append((2, "npu", f"line {ln}: torch_npu"))
            break
    for name, (_v, ln) in env.items():
        if name.startswith(("HCCL_", "ASCEND_")):
            hints.append((3, "npu", f"line {ln}: {name}"))
            break
    for name, (_v, ln) in env.items():
        if name.startswith("NCCL_"):
            hints.append((3, "gpu", f"line {ln}: {name}"))
            break
    if not hints:
        return Guess(None, "unknown", "no hint in the file; pass --device npu|gpu")
    best = min(h[0] for h in hints)
    top = [h for h in hints if h[0] == best]
    devices = {h[1] for h in top}
    if len(devices) > 1:
        return Guess(None, "unknown", "conflicting hints (" + ", ".join(h[2] for h in top) + "); pass --device")
    return Guess(top[0][1], "guessed", top[0][2])


def guess_cann(given: str | None, env: dict, text: str) -> Guess:
    if given:
        return Guess(given, "given")
    for name in ("CANN_VERSION", "ASCEND_CANN_VERSION"):
        if name in env and env[name][0] and ascend_env.cann_key(env[name][0]):
            return Guess(env[name][0], "guessed", f"line {env[name][1]}: {name}")
    for ln, line in _code_lines(text):
        m = _CANN_RE.search(line) or _TOOLKIT_RE.search(line)
        if m:
            return Guess(m.group(1), "guessed", f"line {ln}: `{m.group(0)}`")
    return Guess(None, "unknown", "pass --cann VERSION")


def guess_product(given: str | None, text: str) -> Guess:
    if given:
        return Guess(given, "given")
    for i, line in enumerate(text.splitlines(), 1):
        for product, rx in _PRODUCT_RES:
            m = rx.search(line)
            if m:
                return Guess(product, "guessed", f"line {i}: `{m.group(0)}`")
    return Guess(None, "unknown", "pass --product A2|A3|950")


# -- judging --------------------------------------------------------------------------------------


# Findings about a key itself (not its value): still right when the value is a shell expansion.
_KEY_RULES = {"config/unknown-key", "config/not-a-mapping", "override/needs-plus", "override/plus-on-existing"}


def _about_symbolic(f: Finding, unit: Unit) -> bool:
    return any(a.path in unit.symbolic and (a.line, a.col) == (f.line, f.col) for a in unit.assignments)


def judge(unit: Unit, target: Target, checker: ConfigChecker, strict_keys: bool) -> list[DoctorFinding]:
    out: list[DoctorFinding] = []
    raw = list(unit.findings)
    if unit.assignments:
        for f in checker.check(unit.assignments, mode="config", delta=True, unknown=unit.symbolic):
            if f.rule in _KEY_RULES or f.rule == "delta/rejected" or not _about_symbolic(f, unit):
                raw.append(f)
    raw += _after_backend_fix(raw, unit, checker)
    kept = [
        f
        for f in raw
        if strict_keys
        or f.rule not in ("config/unknown-key", "override/needs-plus", "override/group", "config/not-a-field")
    ]
    for f in upgrade.rewrite(kept, checker.facts, checker.base, unit.config):  # stale keys read as an upgrade
        out.append(advise(f, target))
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
        if f.rule == "engine/unknown-backend"
        and not f.data.get("as_kwargs_key")
        and f.data.get("name") in _BACKEND_FIXES
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
                        Finding(
                            a.file,
                            a.line,
                            a.col,
                            "engine/kwargs-ignored",
                            f"`{'.'.join(path)}`: once the backend is corrected to `{good}`, verl reads only "
                            f"`engine_kwargs.{good}`, so this setting would be ignored; write "
                            f"`{'.'.join(new_path)}` instead",
                            data={"key": ".".join(path), "corrected": good, "case": "after-fix"},
                        )
                    )
                    a = Assignment(new_path, a.value, a.file, a.line, a.col, op=a.op)
            fixed.append(a)
        seen = {(f.line, f.rule) for f in found}
        for f in checker.check(fixed, mode="config", delta=True, unknown=unit.symbolic):
            if f.rule.startswith("engine/") and (f.line, f.rule) not in seen:
                out.append(dataclasses.replace(f, message=f"with backend `{good}`: {f.message}"))
    return out


def diagnose(
    path: Path,
    facts: Facts,
    *,
    device: str | None = None,
    cann: str | None = None,
    product: str | None = None,
    required: bool = False,
) -> FileReport:
    """All findings for one file. Raises :class:`InputError` when the file cannot be checked."""
    text = read_input(path)
    file = str(path)
    kind = detect_kind(path, text)
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
    report.findings += [advise(f, None) for f in pre]
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
            report.notes.append(
                f"verl generates no full config for `{config}`: checked against `{DEFAULT_CONFIG}`, "
                "unknown keys not reported"
            )
            config, strict = DEFAULT_CONFIG, False
        report.config = config
        checker = ConfigChecker(facts, config, dev.value)
        base = checker.base or {}
        prefixes = _ckpt_prefixes(base)
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
            report.findings += [advise(f, target) for f in required_values(unit, target, facts)]
    if dev.value is None:
        report.notes.append(f"{dev.describe('device')}: device-specific rules were not applied")
    elif dev.value == "npu":
        if report.product.value is None:
            report.notes.append(
                "Ascend product unknown (--product A2|A3|950): the Ascend 950PR/950DT whitelist rule was not applied"
            )
        if report.cann.value is None:
            report.notes.append("CANN version unknown (--cann VERSION): the CANN >= 8.5.0 rule was not applied")
    report.findings = _dedupe(report.findings)
    return report


def _dedupe(findings: list[DoctorFinding]) -> list[DoctorFinding]:
    seen = set()
    out = []
    for df in sorted(findings, key=lambda d: d.finding.sort_key()):
        key = (df.finding.path, df.finding.line, df.finding.rule, df.finding.message)
        if key not in seen:
            seen.add(key)
            out.append(df)
    return out


# -- output -----------------------------------------------------------------------------------------
def _extra(reports: list[FileReport]) -> list[list[tuple[str, str | None]]]:
    return [[("fix", df.fix), ("see", df.link)] for r in reports for df in r.findings]


def format_text(reports: list[FileReport], facts: Facts) -> str:
    return format_findings_text([df.finding for r in reports for df in r.findings], _extra(reports))


def format_json(reports: list[FileReport], facts: Facts) -> str:
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
        "findings": [{**df.finding.as_dict(), "fix": df.fix, "link": df.link} for r in reports for df in r.findings],
    }
    return json.dumps(out, ensure_ascii=False, indent=2)


def format_github(reports: list[FileReport], facts: Facts) -> str:
    return format_findings_github([df.finding for r in reports for df in r.findings], _extra(reports))
