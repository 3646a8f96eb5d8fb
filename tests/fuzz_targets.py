"""Fuzz targets: Hypothesis strategies for what users write, and the public entry points they go through.

Each target takes one generated input, runs it through a stable public entry point and raises if the
checker breaks its promise: no exception except the documented ones (``MarkdownError`` for a page it
cannot read, ``OverrideError`` for a malformed override, ``InputError`` for a file doctor cannot check),
and every finding is well formed (a file, a line >= 1, a rule, a message). Used by tests/test_fuzz_*.py
(a small budget, with shrinking) and by scripts/fuzz.py (10,000 examples per target, with figures).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from verl_cookbook import checks
from verl_cookbook.checks import Context
from verl_cookbook.checks.json_file import check_json_text
from verl_cookbook.facts import Facts, load_facts
from verl_cookbook.findings import Finding
from verl_cookbook.hydra_overrides import OverrideError, parse_override, parse_override_value
from verl_cookbook.markdown import MarkdownError, parse_page
from verl_cookbook.runner import Report, check_page
from verl_cookbook.shell.evaluate import parse_script
from verl_cookbook.verl_source import from_release

# examples per target in the test suite; scripts/fuzz.py runs 10,000
CI_EXAMPLES = int(os.environ.get("VERL_COOKBOOK_FUZZ_EXAMPLES", "60"))


# -- shared state ---------------------------------------------------------------------------------------
@lru_cache(maxsize=1)
def facts() -> Facts:
    return load_facts(from_release())


@lru_cache(maxsize=1)
def workdir() -> Path:
    """A throwaway site: mkdocs.yml, one snippet to include, a folder where files are written."""
    d = Path(tempfile.mkdtemp(prefix="verl-cookbook-fuzz-"))
    (d / "mkdocs.yml").write_text("site_name: fuzz\n", encoding="utf-8")
    (d / "snippets").mkdir()
    (d / "snippets" / "s.yaml").write_text("actor_rollout_ref:\n  rollout:\n    name: vllm\n", encoding="utf-8")
    (d / "snippets" / "s.sh").write_text("export HCCL_CONNECT_TIMEOUT=1200\n", encoding="utf-8")
    (d / "docs").mkdir()
    return d


@lru_cache(maxsize=1)
def config_keys() -> list[str]:
    """Dotted keys of verl's generated trainer config (real paths make the checks go deep)."""
    out: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, f"{path}.{k}" if path else str(k))
        elif path:
            out.append(path)

    walk(facts().default_config("ppo_trainer") or {}, "")
    return sorted(out)


def check_findings(findings: list[Finding]) -> None:
    for f in findings:
        assert isinstance(f.path, str) and f.path, f
        assert isinstance(f.line, int) and f.line >= 1, f
        assert isinstance(f.col, int) and f.col >= 1, f
        assert isinstance(f.rule, str) and "/" in f.rule, f
        assert isinstance(f.message, str) and f.message, f


# -- strategies -----------------------------------------------------------------------------------------
_WORDS = st.sampled_from(
    [
        "vllm",
        "sglang",
        "nccl",
        "hccl",
        "mooncake",
        "npu",
        "cuda",
        "true",
        "False",
        "null",
        "1e-3",
        "-1",
        "0x1F",
        "${oc.env:HOME}",
        "${actor_rollout_ref.rollout.name}",
        "中文",
        "é",
        "",
        " ",
        "\t",
        "\\",
        "'",
        '"',
        "`",
        "#",
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "=",
        "$",
        "$(",
        ")",
        "|",
        ";",
        "&&",
        "<<EOF",
        "EOF",
        "\\\n",
        "--",
        "~",
        "+",
        "++",
        "@",
        "*",
        "?",
        "!",
        "%",
        "\x00",
        "\r",
        "\u2028",
        "\ufeff",
    ]
)
_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
_BITS = st.one_of(_WORDS, _TEXT)
_ATTR_NAMES = st.sampled_from(
    [
        "check",
        "config",
        "root",
        "schema",
        "since",
        "until",
        "reason",
        "device",
        "title",
        "name",
        "file",
        "error",
        "match",
        "params",
        "text",
        "key",
        "default",
        "x",
    ]
)
_CONTAINERS = ["!!! note", "??? tip", "===", '=== "Tab"', "!!!", "???+ warning"]
_HEADERS = ["Key", "Default", "默认值", "`x`", ""]
_CHECK_KINDS = ["config", "defaults", "json", "python", "skip", "diagram", "bogus", ""]  # shell: see overrides
_ATTR_VALUES = st.one_of(
    st.sampled_from(
        [
            "config",
            "defaults",
            "json",
            "python",
            "skip",
            "ppo_trainer",
            "ppo_megatron_trainer",
            "actor_rollout_ref",
            "actor_rollout_ref.rollout",
            "hccl_whitelist",
            "0.7.1",
            "0.9.1",
            "9",
            "npu",
            "gpu",
            "verl/checkpoint_engine/base.py",
            "verl.checkpoint_engine.base.CheckpointEngine",
            "ValueError",
            "../x",
        ]
    ),
    _TEXT,
)


@st.composite
def attr_strings(draw: st.DrawFn, kinds: list[str]) -> str:
    parts = [f'check="{draw(st.sampled_from(kinds))}"'] if draw(st.booleans()) else []
    for _ in range(draw(st.integers(0, 3))):
        value = draw(_ATTR_VALUES)
        quote = draw(st.sampled_from(['"', "'", ""]))
        parts.append(f"{draw(_ATTR_NAMES)}={quote}{value}{quote}")
    return " ".join(parts)


@st.composite
def fence_infos(draw: st.DrawFn, kinds: list[str]) -> str:
    lang = draw(st.sampled_from(["yaml", "json", "python", "bash", "text", "mermaid", "", "yml", "console"]))
    attrs = draw(attr_strings(kinds))
    form = draw(st.integers(0, 3))
    if form == 0:
        return f"{{ .{lang} {attrs} }}"
    if form == 1:
        return f"{lang} {{ {attrs} }}"
    if form == 2:
        return f"{lang} {attrs}"
    return draw(_BITS)


def _yaml_body(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(yaml_texts())
    return draw(st.text(max_size=120))


_PY_SNIPPETS = [
    "from verl.trainer.ppo.checkpoint_callback import CheckpointCallback\n\n\n"
    "class Mine(CheckpointCallback):\n    def on_save(self, {params}):\n        pass\n",
    "from verl.checkpoint_engine import {name}\n",
    "import verl\nprint({name})\n",
    "def f({params}):\n    return {name}\n",
]
_VERL_FILES = [
    "verl/checkpoint_engine/base.py",
    "verl/checkpoint_engine/__init__.py",
    "verl/workers/rollout/vllm_rollout/vllm_rollout.py",
    "verl/trainer/config/ppo_trainer.yaml",
    "verl/nope.py",
    "verl",
    "../../etc/hostname",
    "",
]
_SYMBOLS = [
    "verl.checkpoint_engine.base.CheckpointEngine",
    "verl.checkpoint_engine.CheckpointEngineRegistry.register",
    "verl.trainer.ppo.checkpoint_callback.CheckpointCallback.on_save",
    "verl.checkpoint_engine.nccl_engine.X",
    "verl",
    "verl.",
    "os.path",
    "verl..x",
]


def _q(draw: st.DrawFn, value: str) -> str:
    quote = draw(st.sampled_from(['"', '"', "'", ""]))
    return f"{quote}{value}{quote}"


@st.composite
def claim_directives(draw: st.DrawFn) -> str:
    """A claim as a page writes it, with real files, errors and symbols, and wrong ones."""
    kind = draw(st.sampled_from(["raises", "symbol", "contains", "verl-version"]))
    text = draw(st.one_of(st.sampled_from(["not registered", "registered backends", "{backend}", "def ", ""]), _TEXT))
    attrs = {
        "raises": {
            "file": draw(st.sampled_from(_VERL_FILES)),
            "error": draw(st.sampled_from(["ValueError", "NotImplementedError", "AssertionError", "KeyError", "X"])),
            "match": text,
        },
        "symbol": {
            "name": draw(st.sampled_from(_SYMBOLS)),
            "params": draw(st.sampled_from(["", "self", "step,**kwargs", "x"])),
        },
        "contains": {"file": draw(st.sampled_from(_VERL_FILES)), "match": text},
        "verl-version": {"version": draw(st.sampled_from(["0.9.1", "0.9.0", "latest", ""]))},
    }[kind]
    shown = " ".join(f"{k}={_q(draw, v)}" for k, v in attrs.items() if draw(st.integers(0, 5)))
    extra = f" since={_q(draw, draw(st.sampled_from(['0.7.1', '0.9.1', 'x'])))}" if draw(st.booleans()) else ""
    return f"<!-- check: {kind} {shown}{extra} -->"


@st.composite
def coherent_blocks(draw: st.DrawFn) -> str:
    """A fence whose declared kind matches its body: YAML config, JSON, Python, a diagram."""
    kind = draw(st.sampled_from(["config", "defaults", "json", "python", "diagram", "skip"]))
    if kind in ("config", "defaults"):
        root = draw(st.sampled_from(["", "", "actor_rollout_ref", "actor_rollout_ref.rollout", "trainer", "x.y"]))
        cfg = draw(st.sampled_from(["", "", "ppo_trainer", "ppo_megatron_trainer", "nope"]))
        attrs = f'check="{kind}"' + (f' root="{root}"' if root else "") + (f' config="{cfg}"' if cfg else "")
        return f"``` {{ .yaml {attrs} }}\n{draw(yaml_texts())}\n```"
    if kind == "json":
        schema = draw(st.sampled_from(["", ' schema="hccl_whitelist"', ' schema="nope"']))
        return f'``` {{ .json check="json"{schema} }}\n{draw(json_texts())}\n```'
    if kind == "python":
        code = draw(st.sampled_from(_PY_SNIPPETS)).format(
            params=draw(st.sampled_from(["self", "step", "step, **kwargs", "*a", "x=1, /, y", "(", ""])),
            name=draw(st.sampled_from(["CheckpointEngineRegistry", "Nope", "x", "1", "'s'"])),
        )
        return f'``` {{ .python check="python" }}\n{code}\n```'
    if kind == "diagram":
        body = draw(st.sampled_from(["graph LR\n  A-->B", "sequenceDiagram\n  A->>B: x", "", "%%"])) + draw(_BITS)
        return f'``` {{ .mermaid check="diagram" }}\n{body}\n```'
    reason = draw(st.sampled_from(["", ' reason="console output"']))
    return f'``` {{ .text check="skip"{reason} }}\n{draw(_BITS)}\n```'


@st.composite
def param_tables(draw: st.DrawFn) -> str:
    """A parameter table declared against a config scope or an engine, with real and wrong defaults."""
    scope = draw(
        st.sampled_from(["actor_rollout_ref.rollout.checkpoint_engine", "actor_rollout_ref.rollout", "trainer", "x"])
    )
    decl = draw(
        st.sampled_from([f'scope="{scope}"', 'engine="nccl" device="npu"', 'engine="mooncake"', 'engine="x"', ""])
    )
    rows = ["<!-- check: params " + decl + " -->", "| Key | Default | Meaning |", "|---|---|---|"]
    for _ in range(draw(st.integers(0, 4))):
        key = draw(st.one_of(st.sampled_from([k.split(".")[-1] for k in config_keys()[:300]]), _TEXT))
        default = draw(st.sampled_from(["`1`", "`true`", "`null`", "—", "`nccl`", "`[]`", "", "`{}`", "`'x'`"]))
        rows.append(f"| `{key}` | {default} | {draw(_TEXT).replace('|', '/')} |".replace("\n", " "))
    return "\n".join(rows)


@st.composite
def markdown_texts(draw: st.DrawFn, kinds: list[str] = _CHECK_KINDS) -> str:
    """Markdown as the site and other projects write it: headings, fences (nested in containers, with
    includes, unterminated), tables with and without declarations, claim directives, and noise."""
    pieces: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 10))
        indent = draw(st.sampled_from(["", "", "    ", "  ", "\t"]))
        if kind == 0:
            pieces.append(f"{'#' * draw(st.integers(1, 7))} {draw(_BITS)}")
        elif kind in (1, 2):
            mark = draw(st.sampled_from(["```", "````", "~~~", "``"]))
            body = _yaml_body(draw)
            if draw(st.booleans()):
                target = draw(
                    st.sampled_from(["snippets/s.yaml", "snippets/s.sh", "snippets/none.yaml", "snippets", "../x", ""])
                )
                body = f'--8<-- "{target}"\n{body}'
            close = draw(st.sampled_from([mark, mark, mark + "`", "", "~~~"]))
            block = f"{mark}{draw(fence_infos(kinds))}\n{body}\n{close}"
            pieces.append("\n".join(indent + ln for ln in block.split("\n")))
        elif kind == 3:
            pieces.append(draw(st.sampled_from(_CONTAINERS)) + " " + draw(_BITS))
        elif kind == 4:
            cols = draw(st.integers(1, 4))
            head = "| " + " | ".join(draw(st.sampled_from(_HEADERS)) for _ in range(cols))
            rows = [head + " |", "|" + "---|" * cols]
            for _ in range(draw(st.integers(0, 3))):
                cells = [draw(st.one_of(st.sampled_from(config_keys()[:50]).map(lambda k: f"`{k}`"), _BITS))]
                cells += [draw(_BITS) for _ in range(cols - 1)]
                rows.append("| " + " | ".join(c.replace("\n", " ") for c in cells) + " |")
            if draw(st.booleans()):
                rows.insert(
                    0,
                    "<!-- check: "
                    + draw(st.sampled_from(["params", "skip", "bogus"]))
                    + " "
                    + draw(attr_strings(kinds))
                    + " -->",
                )
            pieces.append("\n".join(rows))
        elif kind == 5:
            claim = draw(st.sampled_from(["raises", "symbol", "contains", "verl-version", "params", "skip", "x", ""]))
            pieces.append(f"<!-- check: {claim} {draw(attr_strings(kinds))} -->")
        elif kind == 6:
            pieces.append(draw(st.text(max_size=80)))
        elif kind == 7:
            pieces.append(draw(_BITS) + draw(_BITS))
        elif kind == 8:
            pieces.append(draw(coherent_blocks()))
        elif kind == 9:
            pieces.append(draw(claim_directives()))
        else:
            pieces.append(draw(param_tables()))
    sep = draw(st.sampled_from(["\n\n", "\n", "\r\n", "\n\n\n"]))
    return sep.join(pieces)


@st.composite
def override_args(draw: st.DrawFn) -> str:
    """One Hydra override as a launch script writes it: ``[~|+|++]key[@pkg]=value``, and malformed ones."""
    key = draw(
        st.one_of(
            st.sampled_from(config_keys()),
            st.sampled_from(config_keys()),
            st.sampled_from(config_keys()).map(lambda k: k.rpartition(".")[0] or k),  # a mapping, not a leaf
            st.from_regex(r"[a-z_][a-z_0-9.]{0,30}", fullmatch=True),
            _BITS,
        )
    )
    prefix = draw(st.sampled_from(["", "", "", "+", "++", "~"]))
    pkg = draw(st.sampled_from(["", "", "@_global_", "@pkg", "@"]))
    value = draw(
        st.one_of(
            st.sampled_from(["vllm", "nccl", "hccl", "mooncake", "true", "null", "1", "-1", "1.5e3", "[]", "{}", "''"]),
            st.recursive(
                st.one_of(
                    st.integers(-5, 10**12).map(str), _WORDS, st.from_regex(r"[A-Za-z_][\w.]{0,10}", fullmatch=True)
                ),
                lambda inner: st.one_of(
                    st.lists(inner, max_size=3).map(lambda xs: "[" + ",".join(xs) + "]"),
                    st.lists(st.tuples(inner, inner), max_size=3).map(
                        lambda kv: "{" + ",".join(f"{k}:{v}" for k, v in kv) + "}"
                    ),
                    st.tuples(st.sampled_from(["choice", "range", "interval", "glob", "tag", "sort"]), inner).map(
                        lambda fv: f"{fv[0]}({fv[1]})"
                    ),
                    st.lists(inner, min_size=2, max_size=3).map(",".join),
                    inner.map(lambda v: f"'{v}'"),
                    inner.map(lambda v: f'"{v}"'),
                    inner.map(lambda v: "${" + v + "}"),
                ),
                max_leaves=6,
            ),
            _TEXT,
        )
    )
    eq = draw(st.sampled_from(["=", "=", "=", "=", "=", "=", "", "==", " = "]))
    return f"{prefix}{key}{pkg}{eq}{value}"


def _shell_quote(arg: str, how: int) -> str:
    if how == 0:
        return arg
    if how == 1:
        return "'" + arg.replace("'", "'\\''") + "'"
    if how == 2:
        return '"' + arg.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$") + '"'
    return arg.replace(" ", "\\ ")


@st.composite
def launch_scripts(draw: st.DrawFn) -> str:
    """A launch script: exports, variables, a trainer command with overrides over continuation lines,
    launchers (torchrun, ray job submit, uv run), heredocs, functions, arrays and plain noise."""
    lines = [draw(st.sampled_from(["#!/usr/bin/env bash", "set -euo pipefail", "", "#!/bin/sh"]))]
    for _ in range(draw(st.integers(0, 4))):
        name = draw(st.sampled_from(["HCCL_CONNECT_TIMEOUT", "ASCEND_RT_VISIBLE_DEVICES", "VLLM_USE_V1", "X", "PATH"]))
        lines.append(f"export {name}={_shell_quote(draw(_BITS), draw(st.integers(0, 3)))}")
    for _ in range(draw(st.integers(0, 2))):
        lines.append(
            draw(
                st.sampled_from(
                    [
                        "MODEL=/models/Qwen",
                        "arr=(a b 'c d')",
                        "f() { echo $1; }",
                        "N=${N:-8}",
                        "cat <<EOF\n$x\nEOF",
                        'if [ -n "$X" ]; then Y=1; fi',
                        "for i in 1 2; do :; done",
                    ]
                )
            )
        )
    launcher = draw(
        st.sampled_from(
            [
                "python3 -m verl.trainer.main_ppo",
                "python -m verl.trainer.main_ppo",
                "torchrun --nproc_per_node=8 -m verl.trainer.main_ppo",
                "ray job submit -- python3 -m verl.trainer.main_ppo",
                "uv run python -m verl.trainer.main_ppo",
                "python3 -m verl.trainer.main_ppo --config-name ppo_megatron_trainer",
                "python3 verl/trainer/main_ppo.py",
                "python3 -m verl.trainer.main_generation",
                "python3 -m verl.trainer.nonexistent",
                "echo",
            ]
        )
    )
    args = [_shell_quote(a, draw(st.integers(0, 3))) for a in draw(st.lists(override_args(), max_size=6))]
    sep = draw(st.sampled_from([" \\\n    ", " ", " \\\n", "\\\n"]))
    lines.append(sep.join([launcher, *args]) + draw(st.sampled_from(["", " $@", ' "$@"', " 2>&1 | tee log.txt", " &"])))
    if draw(st.booleans()):
        lines.append(draw(st.text(max_size=60)))
    return "\n".join(lines) + "\n"


@st.composite
def shell_texts(draw: st.DrawFn) -> str:
    """Launch scripts, or arbitrary shell-like text built from shell's own punctuation."""
    if draw(st.booleans()):
        return draw(launch_scripts())
    return "".join(draw(st.lists(_BITS, max_size=30)))


_YAML_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=True), _TEXT, _WORDS
)


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """A verl config fragment: real keys with random values (dumped by PyYAML), or YAML-looking text."""
    how = draw(st.integers(0, 2))
    if how == 0:
        data: dict = {}
        for key in draw(st.lists(st.sampled_from(config_keys()), max_size=6)):
            node = data
            parts = key.split(".")
            for p in parts[:-1]:
                nxt = node.get(p)
                if not isinstance(nxt, dict):
                    nxt = node[p] = {}
                node = nxt
            node[parts[-1]] = draw(
                st.one_of(
                    _YAML_SCALARS,
                    st.lists(_YAML_SCALARS, max_size=3),
                    st.dictionaries(_TEXT, _YAML_SCALARS, max_size=2),
                )
            )
        if draw(st.booleans()):
            data["defaults"] = draw(
                st.lists(
                    st.sampled_from(["ppo_trainer", "_self_", {"actor@actor_rollout_ref.actor": "dp_actor"}, 3]),
                    max_size=3,
                )
            )
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    if how == 1:
        lines = []
        for _ in range(draw(st.integers(0, 8))):
            depth = draw(st.integers(0, 3))
            key = draw(st.one_of(st.sampled_from([k.split(".")[-1] for k in config_keys()[:200]]), _BITS))
            lines.append(
                "  " * depth
                + f"{key}:{draw(st.sampled_from([' ', '', ' &a ', ' *a', ' !!str ', ' |', ' >-', ' - ']))}{draw(_BITS)}"
            )
        return "\n".join(lines)
    return draw(st.text(max_size=200))


@st.composite
def json_texts(draw: st.DrawFn) -> str:
    """JSON as users write a whitelist (valid, or with the usual mistakes), or arbitrary text."""
    how = draw(st.integers(0, 2))
    if how == 0:
        ips = draw(st.lists(st.one_of(st.ip_addresses(v=4).map(str), _TEXT, st.integers()), max_size=4))
        data: Any = draw(st.sampled_from([{"host_ip": ips}, {"host_ip": ips, "device_ip": ips}, ips, {"x": ips}]))
        return json.dumps(data, ensure_ascii=draw(st.booleans()))
    if how == 1:
        parts = draw(
            st.lists(
                st.sampled_from(
                    [
                        "{",
                        "}",
                        "[",
                        "]",
                        '"host_ip"',
                        ":",
                        ",",
                        '"10.0.0.1"',
                        "1",
                        "true",
                        "null",
                        " ",
                        "\n",
                        '"\\u00e9"',
                        '"\\ud800"',
                        "'x'",
                    ]
                ),
                max_size=25,
            )
        )
        return "".join(parts)
    return draw(st.text(max_size=100))


# -- targets --------------------------------------------------------------------------------------------
def markdown_target(text: str) -> None:
    """The Markdown extractor: blocks, tables and directives from any text, line numbers inside the page."""
    root = workdir()
    try:
        page = parse_page(root / "docs" / "fuzz.md", root, bases=[root], text=text)
    except MarkdownError:
        return
    n = max(len(text.splitlines()), 1)
    for b in page.blocks:
        assert 1 <= b.line <= n + 1 and b.col >= 1, b
        for file, line in b.line_map:
            assert isinstance(file, str) and line >= 1, b
    for t in page.tables:
        assert 1 <= t.line <= n + 1, t
    for d in page.directives:
        assert 1 <= d.line <= d.end_line <= n + 1, d


def page_target(text: str) -> None:
    """Every block, table and claim check on a page (all kinds but shell, which runs bash and shellcheck)."""
    root = workdir()
    checks.load_all()
    try:
        page = parse_page(root / "docs" / "fuzz.md", root, bases=[root], text=text)
    except MarkdownError:
        return
    report = Report()
    check_page(page, Context(facts=facts(), root=root, options={"use_cache": False}), report)
    check_findings(report.findings)


def shell_target(text: str) -> None:
    """The shell reader: a Script from any text, its commands and exports with lines inside the text."""
    script = parse_script(text, "fuzz.sh")
    n = text.count("\n") + 1
    for cmd in script.commands:
        assert 1 <= cmd.line <= n + 1, cmd
    for exp in script.exports:
        assert 1 <= exp.line <= n + 1, exp


def override_target(arg: str) -> None:
    """One override and its value: parsed, or refused with OverrideError (a finding), never anything else."""
    try:
        parse_override(arg)
    except OverrideError:
        pass
    _key, sep, value = arg.partition("=")
    if sep:
        try:
            parse_override_value(value)
        except OverrideError:
            pass


def _doctor_file(name: str, text: str) -> None:
    from verl_cookbook.doctor import InputError, diagnose

    path = workdir() / name
    # a NUL byte makes the file a file/binary finding (tests/test_garbage_input.py); without it the text goes deep
    path.write_text(text.replace("\0", ""), encoding="utf-8")
    try:
        report = diagnose(path, facts())
    except InputError:
        return
    check_findings([df.finding for df in report.findings])


def launch_script_target(text: str) -> None:
    """A launch script through doctor: overrides judged against verl's config, never an internal error."""
    _doctor_file("run.sh", text)


def yaml_target(text: str) -> None:
    """A YAML config through doctor, and as a check="config" block of a page."""
    _doctor_file("config.yaml", text)
    root = workdir()
    checks.load_all()
    body = text.replace("```", "'''")
    page = parse_page(
        root / "docs" / "fuzz.md", root, bases=[root], text=f'# t\n\n``` {{ .yaml check="config" }}\n{body}\n```\n'
    )
    report = Report()
    check_page(page, Context(facts=facts(), root=root, options={"use_cache": False}), report)
    check_findings(report.findings)


def json_target(text: str) -> None:
    """The JSON check with and without the whitelist schema."""
    for schema in (None, "hccl_whitelist"):
        check_findings(check_json_text(text, schema, lambda line: ("fuzz.json", line), ("fuzz.json", 1)))


@dataclass(frozen=True)
class Target:
    name: str
    strategy: Callable[[], st.SearchStrategy]
    run: Callable[[Any], None]


TARGETS = [
    Target("markdown", markdown_texts, markdown_target),
    Target("page", markdown_texts, page_target),
    Target("shell", shell_texts, shell_target),
    Target("override", override_args, override_target),
    Target("launch-script", launch_scripts, launch_script_target),
    Target("yaml", yaml_texts, yaml_target),
    Target("json", json_texts, json_target),
]


def fuzz_in_tests(name: str) -> None:
    """Run target ``name`` with the test suite's budget; Hypothesis shrinks any failure to a small example."""
    from hypothesis import HealthCheck, given, settings

    (target,) = [t for t in TARGETS if t.name == name]
    budget = settings(
        max_examples=CI_EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,  # the same examples on every run: the suite is not a lottery; scripts/fuzz.py explores
        suppress_health_check=list(HealthCheck),
    )
    budget(given(target.strategy())(target.run))()
