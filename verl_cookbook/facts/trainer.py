"""Trainer checkpoint facts: `trainer.*` checkpoint settings, `CheckpointCallback`, and where the trainer uses it.

- ``config``: each checkpoint setting of the generated ``ppo_trainer`` config (``trainer.save_freq``,
  ``trainer.default_local_dir``, ``trainer.resume_mode``, … and ``actor_rollout_ref.actor.checkpoint.*``)
  with its default, its line in the generated file and in the hand-written ``ppo_trainer.yaml``, and the
  comment verl writes above it there;
- ``resume_modes``: the values the trainer compares ``trainer.resume_mode`` with, each with its line;
- ``callback``: the ``CheckpointCallback`` base class (verl ≥ 0.9.1), its methods' signatures and lines,
  and the builder that instantiates ``trainer.checkpoint_callback_class``;
- ``call_sites``: where the trainer imports, builds and calls the callback (``file:line``).

A release without a piece has it empty (``None`` / ``[]`` / ``{}``); nothing here raises on an older tree.
"""

from __future__ import annotations

import ast
import re

import yaml

from verl_cookbook.facts.parts import nodes_near
from verl_cookbook.facts.pyast import dotted_name, function_params, parse_file
from verl_cookbook.verl_source import VerlTree
from verl_cookbook.yaml_lines import key_lines, values_at

GENERATED = "verl/trainer/config/_generated_ppo_trainer.yaml"
SOURCE_YAML = "verl/trainer/config/ppo_trainer.yaml"
CALLBACK_FILE = "verl/trainer/ppo/checkpoint_callback.py"
CALLBACK_CLASS = "CheckpointCallback"
# The trainers that may load the callback or branch on resume_mode, newest first.
TRAINER_FILES = ("verl/trainer/ppo/v1/trainer_base.py", "verl/trainer/ppo/ray_trainer.py")

# The trainer settings that concern checkpoints (saving, resuming, keeping, the callback).
TRAINER_KEYS = (
    "save_freq",
    "esi_redundant_time",
    "resume_mode",
    "resume_from_path",
    "checkpoint_callback_class",
    "default_hdfs_dir",
    "del_local_ckpt_after_load",
    "default_local_dir",
    "max_actor_ckpt_to_keep",
    "max_critic_ckpt_to_keep",
)
# Per-role checkpoint contents (what goes into a checkpoint), below these config paths.
CONTENT_SCOPES = ("actor_rollout_ref.actor.checkpoint", "critic.checkpoint")


def _comment_above(lines: list[str], line: int) -> str | None:
    """The ``#`` comment lines right above 1-based ``line`` (no blank line between), joined."""
    out: list[str] = []
    n = line - 2
    while n >= 0:
        stripped = lines[n].strip()
        if not stripped.startswith("#"):
            break
        out.append(stripped.lstrip("#").strip())
        n -= 1
    return " ".join(reversed(out)) or None


def _config(tree: VerlTree) -> dict:
    if not tree.exists(GENERATED):
        return {"file": None, "keys": {}}
    text = tree.read(GENERATED)
    paths = [f"trainer.{k}" for k in TRAINER_KEYS]
    try:  # only the values looked up are built (see yaml_lines.values_at); the key lines stay for the checks' citations
        lines = key_lines(text)
        values = values_at(text, paths + list(CONTENT_SCOPES))
    except yaml.YAMLError:
        return {"file": GENERATED, "keys": {}}
    src_lines: dict[str, int] = {}
    src_text: list[str] = []
    if tree.exists(SOURCE_YAML):
        raw = tree.read(SOURCE_YAML)
        src_text = raw.splitlines()
        try:
            src_lines = key_lines(raw)
        except yaml.YAMLError:
            src_lines = {}
    dotted: list[str] = []  # a key with a dot in it is looked up by its parts, as a path
    for scope in CONTENT_SCOPES:
        node = values.get(scope)
        if isinstance(node, dict):
            for k in node:
                if not k.startswith("_"):
                    paths.append(f"{scope}.{k}")
                    if "." in k:
                        dotted.append(f"{scope}.{k}")
                    else:
                        values[f"{scope}.{k}"] = node[k]
    values.update(values_at(text, dotted) if dotted else {})
    keys: dict[str, dict] = {}
    for path in paths:
        if path not in values:
            continue
        entry: dict = {
            "default": values[path],
            "source": f"{GENERATED}:{lines.get(path, 1)}",
            "defined": None,
            "doc": None,
        }
        if path in src_lines:
            entry["defined"] = f"{SOURCE_YAML}:{src_lines[path]}"
            entry["doc"] = _comment_above(src_text, src_lines[path])
        keys[path] = entry
    return {"file": GENERATED, "keys": keys}


def _parse(tree: VerlTree, rel: str) -> tuple[str, ast.Module] | None:
    if not tree.exists(rel):
        return None
    return parse_file(tree.root, rel)


class _Trainer:
    """One trainer file, read once (when it is first asked for): its nodes on the lines that name one of ``words``
    (the resume mode, the callback), in ``ast.walk`` order (:func:`pyast.nodes_near`)."""

    def __init__(self, tree: VerlTree, rel: str, words: tuple[str, ...]) -> None:
        self.tree, self.rel, self.words = tree, rel, words
        self._nodes: list[ast.AST] | None = None

    def nodes(self) -> list[ast.AST]:
        """Empty when the file is absent."""
        if self._nodes is None:
            found = self.tree.exists(self.rel)
            self._nodes = nodes_near(self.tree.read(self.rel), self.rel, self.words)[0] if found else []
        return self._nodes


def _resume_modes(files: dict[str, _Trainer]) -> list[dict]:
    """``config.trainer.resume_mode == "auto"`` comparisons in the first trainer that has them (a value compared
    twice: the first the walk meets)."""
    for rel in TRAINER_FILES:
        found = _resume_modes_in(files[rel], rel)
        if found:
            return sorted(found, key=lambda v: int(v["source"].rpartition(":")[2]))
    return []


def _resume_modes_in(file: _Trainer, rel: str) -> list[dict]:
    out: list[dict] = []
    seen: set[str] = set()
    for node in file.nodes():
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
            continue
        left, right = node.left, node.comparators[0]
        if (dotted_name(left) or "").endswith("trainer.resume_mode") and isinstance(right, ast.Constant):
            if isinstance(right.value, str) and right.value not in seen:
                seen.add(right.value)
                out.append({"value": right.value, "source": f"{rel}:{node.lineno}"})
    return out


def _signature(fn: ast.FunctionDef | ast.AsyncFunctionDef, source: str, rel: str) -> dict:
    sig = function_params(fn, source)
    a = fn.args
    return {
        "name": fn.name,
        "params": [p["name"] for p in sig["params"]],
        "detail": sig["params"],
        "positional": [x.arg for x in [*a.posonlyargs, *a.args]],
        "kwonly": [x.arg for x in a.kwonlyargs],
        "varargs": sig["varargs"],
        "varkw": sig["varkw"],
        "text": f"{fn.name}({ast.unparse(a)})",
        "async": isinstance(fn, ast.AsyncFunctionDef),
        "source": f"{rel}:{fn.lineno}",
    }


def _callback(tree: VerlTree) -> dict | None:
    parsed = _parse(tree, CALLBACK_FILE)
    if parsed is None:
        return None
    source, mod = parsed
    cls = next((n for n in mod.body if isinstance(n, ast.ClassDef) and n.name == CALLBACK_CLASS), None)
    if cls is None:
        return None
    methods = {
        n.name: _signature(n, source, CALLBACK_FILE)
        for n in cls.body
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    builder = None
    for n in mod.body:
        if isinstance(n, ast.FunctionDef) and n.name.startswith("build_"):
            reads = re.findall(r"""get\(\s*["']([\w.]+)["']""", ast.get_source_segment(source, n) or "")
            builder = {"name": n.name, "source": f"{CALLBACK_FILE}:{n.lineno}", "reads": reads}
    return {
        "class": CALLBACK_CLASS,
        "module": CALLBACK_FILE.removesuffix(".py").replace("/", "."),
        "source": f"{CALLBACK_FILE}:{cls.lineno}",
        "methods": methods,
        "builder": builder,
    }


def _call_sites(files: dict[str, _Trainer], callback: dict | None) -> list[dict]:
    """Where a trainer imports the callback module, builds the callback and calls its hooks."""
    if callback is None:
        return []
    module = callback["module"]
    builder = (callback.get("builder") or {}).get("name")
    hooks = {name for name in callback["methods"] if not name.startswith("_")}
    out: list[dict] = []
    for rel in TRAINER_FILES:
        for node in files[rel].nodes():
            line = getattr(node, "lineno", 0)
            if isinstance(node, ast.ImportFrom) and node.module == module:
                names = [a.name for a in node.names]
                out.append({"what": "import", "names": names, "source": f"{rel}:{line}"})
            elif isinstance(node, ast.Call):
                func = dotted_name(node.func) or ""
                last = func.rpartition(".")[2]
                if builder and last == builder:
                    out.append({"what": "build", "call": func, "source": f"{rel}:{line}"})
                elif last in hooks and "callback" in func:
                    kwargs = [kw.arg for kw in node.keywords if kw.arg]
                    out.append({"what": last, "call": func, "kwargs": kwargs, "source": f"{rel}:{line}"})
    return sorted(out, key=lambda c: (c["source"].rpartition(":")[0], int(c["source"].rpartition(":")[2])))


def extract(tree: VerlTree) -> dict:
    """``{"config": {...}, "resume_modes": [...], "callback": {...} | None, "call_sites": [...]}``."""
    callback = _callback(tree)
    builder = ((callback or {}).get("builder") or {}).get("name")
    words = ("resume_mode", "callback", *([builder] if builder else []))  # on a line of each node the facts need
    files = {rel: _Trainer(tree, rel, words) for rel in TRAINER_FILES}
    return {
        "config": _config(tree),
        "resume_modes": _resume_modes(files),
        "callback": callback,
        "call_sites": _call_sites(files, callback),
    }
