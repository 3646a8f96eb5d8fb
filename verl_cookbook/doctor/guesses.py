"""Doctor's guesses about the machine a file runs on: the device (NPU or GPU), the CANN version and the Ascend
product, each either given on the command line, guessed from a named line of the file, or unknown (and why)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from verl_cookbook.checks.config.model import Assignment
from verl_cookbook.doctor_rules import ascend_env


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


# -- guessing the machine -----------------------------------------------------------------------------
_NPU_EXPORTS = ("ASCEND_RT_VISIBLE_DEVICES",)
_DEVICE_OVERRIDE_RE = re.compile(r"(?<![\w.])trainer\.device=[\"']?(npu|cuda|gpu)\b", re.I)
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
    if not hints and script is not None:
        # a command doctor does not judge (a recipe's trainer) still says its device in its overrides: read its
        # words after the shell's quote removal, so `trainer.device="npu"` is shown as bash passes it
        hints += _device_words(script)[:1]
    if not hints:  # what the shell reader could not read: the written text, its quotes left out
        for ln, line in _code_lines(text):
            m = _DEVICE_OVERRIDE_RE.search(line)
            if m:
                dev = m.group(1).lower()
                hints.append((0, {"npu": "npu"}.get(dev, "gpu"), f"line {ln}: trainer.device={dev}"))
                break
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
        if name.startswith(("HCCL_", "ASCEND_", "VLLM_ASCEND_", "PYTORCH_NPU_")):
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


def _device_words(script: Any) -> list[tuple[int, str, str]]:
    """(0, device, why) for each `trainer.device=…` word of the script's commands, in order."""
    out = []
    for cmd in script.commands:
        for w in cmd.words:
            key, eq, value = w.text.partition("=")
            if eq and key.lstrip("+~") == "trainer.device" and not w.has_var:
                dev = {"npu": "npu", "cuda": "gpu", "gpu": "gpu"}.get(value.lower())
                if dev:
                    out.append((0, dev, f"line {w.line}: trainer.device={value}"))
    return out


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
