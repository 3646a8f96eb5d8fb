"""What a command line runs: the Python module (``python -m X``, a ``verl/…py`` script) behind the wrappers
(``env``, ``nohup``, ``timeout``…) and launchers (``torchrun``, ``deepspeed``, ``accelerate launch``, ``uv run``,
``ray job submit --``), and where that program's own arguments start."""

from __future__ import annotations

import os
import re

_ASSIGN = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)(\+?)=")

_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_PY_FLAGS_WITH_VALUE = {"-X", "-W", "--check-hash-based-pycs"}
_LAUNCHER_BOOL_FLAGS = {
    "torchrun": {"--standalone", "-m", "--module", "--no-python", "--no_python", "--run-path", "--run_path"},
    "deepspeed": {
        "--module",
        "--no_python",
        "--no_local_rank",
        "--autotuning",
        "--force_multi",
        "--bind_cores_to_rank",
    },
    "accelerate": {
        "-m",
        "--module",
        "--no_python",
        "--multi_gpu",
        "--cpu",
        "--use_deepspeed",
        "--use_fsdp",
        "-q",
        "--quiet",
    },
}
_WRAPPERS = {
    "nohup",
    "exec",
    "time",
    "command",
    "builtin",
    "stdbuf",
    "nice",
    "sudo",
    "env",
    "timeout",
    "taskset",
    "numactl",
}


def _basename(word: str) -> str:
    return os.path.basename(word.rstrip("/")) or word


def script_module(path: str) -> str | None:
    """``verl/trainer/main_ppo.py`` (or ``…/verl/trainer/main_ppo.py``) -> ``verl.trainer.main_ppo``."""
    if not path.endswith(".py"):
        return None
    parts = path[:-3].replace("\\", "/").split("/")
    if "verl" in parts:
        parts = parts[len(parts) - 1 - parts[::-1].index("verl") :]
        return ".".join(p for p in parts if p)
    return None


def classify(argv: list[str], i: int = 0) -> tuple[str | None, int]:
    """(module, index of its first argument) for a command line."""
    n = len(argv)
    while i < n:
        prog = _basename(argv[i])
        if prog not in _WRAPPERS:
            break
        i += 1
        if prog == "env":
            while i < n and (argv[i].startswith("-") or _ASSIGN.match(argv[i])):
                i += 2 if argv[i] in ("-u", "--unset", "-C", "--chdir") else 1
        elif prog in ("sudo", "nice", "stdbuf", "numactl", "taskset", "timeout"):
            while i < n and argv[i].startswith("-"):
                takes_value = argv[i] in ("-u", "-g", "-n", "-c", "-s", "-k", "--signal", "--kill-after", "-C")
                i += 2 if takes_value and "=" not in argv[i] else 1
            if prog in ("timeout", "taskset") and i < n and not (prog == "taskset" and "-c" in argv):
                i += 1  # the duration / CPU mask
    if i >= n:
        return None, n
    prog = _basename(argv[i])
    if _PYTHON.match(prog):
        j = i + 1
        while j < n and argv[j].startswith("-") and argv[j] != "-":
            a = argv[j]
            if a == "-m":
                return (argv[j + 1] if j + 1 < n else None), j + 2
            if a.startswith("-m") and len(a) > 2:
                return a[2:], j + 1
            if a == "-c":
                return None, n
            j += 2 if a in _PY_FLAGS_WITH_VALUE else 1
        if j < n:
            mod = script_module(argv[j])
            if mod in ("torch.distributed.run", "torch.distributed.launch"):
                return _launcher(argv, j + 1, "torchrun")
            return mod, j + 1
        return None, n
    if prog in ("torchrun", "deepspeed"):
        return _launcher(argv, i + 1, prog)
    if prog == "accelerate" and i + 1 < n and argv[i + 1] == "launch":
        return _launcher(argv, i + 2, "accelerate")
    if prog == "uv" and i + 1 < n and argv[i + 1] == "run":
        return _uv_run(argv, i + 2)
    if prog == "ray" and "--" in argv[i + 1 :]:
        return classify(argv, argv.index("--", i + 1) + 1)
    return prog, i + 1


# `uv run` options that take a value (https://docs.astral.sh/uv/reference/cli/#uv-run); the others are flags.
_UV_RUN_VALUE_OPTS = {
    "--extra",
    "--with",
    "--with-editable",
    "--with-requirements",
    "--python",
    "-p",
    "--project",
    "--directory",
    "--package",
    "--group",
    "--only-group",
    "--no-group",
    "--env-file",
    "--index",
    "--default-index",
    "--index-url",
    "--extra-index-url",
    "--find-links",
    "-f",
    "--config-file",
    "--cache-dir",
    "--color",
    "--resolution",
    "--prerelease",
    "--index-strategy",
    "--keyring-provider",
    "--link-mode",
    "--exclude-newer",
    "--refresh-package",
    "--reinstall-package",
    "--upgrade-package",
    "-P",
    "--no-binary-package",
    "--no-build-package",
    "--config-setting",
    "-C",
    "--python-platform",
    "--allow-insecure-host",
}


def _uv_run(argv: list[str], j: int) -> tuple[str | None, int]:
    n = len(argv)
    while j < n and argv[j].startswith("-"):
        a = argv[j]
        if a == "--":
            j += 1
            break
        if a in ("-m", "--module"):
            return (argv[j + 1] if j + 1 < n else None), j + 2
        j += 2 if a in _UV_RUN_VALUE_OPTS else 1
    if j >= n:
        return None, n
    return classify(argv, j)


def _launcher(argv: list[str], j: int, kind: str) -> tuple[str | None, int]:
    bool_flags = _LAUNCHER_BOOL_FLAGS[kind]
    as_module = False
    n = len(argv)
    while j < n and argv[j].startswith("-"):
        a = argv[j]
        if a in ("-m", "--module"):
            as_module = True
        if a in bool_flags or "=" in a:
            j += 1
        else:
            j += 2
    if j >= n:
        return None, n
    if as_module:
        return argv[j], j + 1
    if _PYTHON.match(_basename(argv[j])):
        return classify(argv, j)
    return script_module(argv[j]), j + 1
