"""Run verl's own startup checks on composed configs. Runs in the environment that has verl, never in the checker.

This file is executed by path (``python worker.py``) with the Python of an environment where verl is installed
(the user's, or the one ``scripts/startup_env.sh`` builds); it imports nothing from ``verl_cookbook``, only the
standard library, Hydra/OmegaConf and verl. It reads one JSON document on stdin::

    {"jobs": [{"id": "…", "module": "verl.trainer.main_ppo", "config_name": null, "overrides": ["a.b=1", …],
               "env": {"NAME": "value"}}]}

and writes one JSON line per job on stdout. For each job it composes the config exactly as the entry point's
``@hydra.main`` would (Hydra's compose API on the module's own config folder, with the overrides), then calls the
entry point's own ``main`` with that config (``hydra.main`` hands a passed config straight to the function). The
step where training would begin is replaced by a stop: ``run_ppo`` (after which ``main_ppo``, ``fully_async`` and
``one_step_off`` start Ray), ``run_sft``, and ``ray.init`` for any other path. Before the stop, what the v1
``TaskRunner`` does ahead of building workers is done too: pick the trainer class for ``trainer.v1.trainer_mode``
and construct it (the trainer-mode asserts live in the constructors), after ``OmegaConf.resolve``.

``auto_set_device`` reads the accelerator of the machine (on a machine without one verl falls back to CUDA and
rewrites ``trainer.device``); the worker keeps ``trainer.device`` as written unless ``detect_device`` is true.

Nothing is patched that decides accept or reject: the patches only stop before Ray and record which config keys
verl read (``DictConfig`` reads, with the verl line that read them), so a failure can be tied to the override
that set the key. ``tests/test_startup_differential.py`` shows the accept/reject equals the real command line.
"""

from __future__ import annotations

import ast
import io
import json
import os
import sys
import traceback
import warnings
from contextlib import redirect_stdout
from types import FrameType
from typing import Any, TypedDict

PROTOCOL = 1


class ReachedTraining(BaseException):  # noqa: N818 - not an error: the point where training would start
    """Raised where the entry point would start Ray or training: every startup check before it passed."""

    def __init__(self, where: str, trainer: str | None = None) -> None:
        super().__init__(where)
        self.where = where
        self.trainer = trainer


_READS: list[tuple[str, str, int, int]] = []  # (full key, file, line, id(frame))
_RECORD = [False]


def _install_read_recorder() -> None:
    """Record each DictConfig key read (full dotted key, the reading frame) without changing what is returned."""
    from omegaconf import DictConfig

    orig_getattr = DictConfig.__getattr__
    orig_getitem = DictConfig.__getitem__
    orig_get = DictConfig.get

    def note(self: Any, key: Any) -> None:
        if not _RECORD[0] or not isinstance(key, str) or key.startswith("_"):
            return
        try:
            full = self._get_full_key(key)
        except Exception:
            return
        f = sys._getframe(2)
        _READS.append((str(full), f.f_code.co_filename, f.f_lineno, id(f)))
        if len(_READS) > 4000:
            del _READS[:2000]

    def getattr_(self: Any, key: str) -> Any:
        note(self, key)
        return orig_getattr(self, key)

    def getitem_(self: Any, key: Any) -> Any:
        note(self, key)
        return orig_getitem(self, key)

    def get_(self: Any, key: Any, default_value: Any = None) -> Any:
        note(self, key)
        return orig_get(self, key, default_value)

    DictConfig.__getattr__ = getattr_  # type: ignore[method-assign]
    DictConfig.__getitem__ = getitem_  # type: ignore[method-assign]
    DictConfig.get = get_  # type: ignore[method-assign]


def _verl_root() -> str:
    import verl

    return os.path.dirname(os.path.dirname(os.path.abspath(verl.__file__)))


def _config_dir(module: Any, config_path: str | None) -> str:
    base = os.path.dirname(os.path.abspath(module.__file__))
    return os.path.normpath(os.path.join(base, config_path or "config"))


def _hydra_args(fn: Any) -> tuple[str | None, str | None]:
    """(config_path, config_name) of ``@hydra.main`` around ``fn``, read from the decorator's closure."""
    path = name = None
    # hydra.main keeps them only in closures: read the decorator from the module's source instead
    try:
        import inspect

        src = inspect.getsource(sys.modules[fn.__module__])
    except (OSError, TypeError):
        return path, name
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.FunctionDef) and node.name == fn.__name__:
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and getattr(d.func, "attr", getattr(d.func, "id", "")) == "main":
                    kw = {k.arg: k.value for k in d.keywords}
                    p, n = kw.get("config_path"), kw.get("config_name")
                    path = p.value if isinstance(p, ast.Constant) and isinstance(p.value, str | None) else path
                    name = n.value if isinstance(n, ast.Constant) and isinstance(n.value, str | None) else name
    return path, name


def _statement_range(path: str, line: int) -> tuple[int, int]:
    """Lines of the innermost simple statement of ``path`` containing ``line`` (for a multi-line assert)."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return line, line
    best = (line, line)
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body"):
            end = getattr(node, "end_lineno", node.lineno) or node.lineno
            if node.lineno <= line <= end and (end - node.lineno) <= (best[1] - best[0] or 10**9):
                best = (node.lineno, end)
    return best


def _innermost(e: BaseException) -> tuple[BaseException, list[str]]:
    """The error verl raised: Hydra's ``instantiate`` wraps a dataclass's own error (``raise … from e``)."""
    wrappers = []
    while e.__cause__ is not None and type(e).__name__ == "InstantiationException":
        wrappers.append(type(e).__name__)
        e = e.__cause__
    return e, wrappers


class _Frame(TypedDict):
    """One traceback frame as the report gives it."""

    file: str  # relative to verl's root when it is one of verl's files
    line: int | None  # None for a frame Python keeps no line number for
    function: str
    text: str


def _describe_failure(outer: BaseException, root: str) -> dict:
    e, wrappers = _innermost(outer)
    tb = _chain_tb(outer, e)
    frames: list[_Frame] = []
    verl_frames: list[tuple[_Frame, FrameType]] = []
    for fs, (frame, _) in zip(traceback.extract_tb(tb), traceback.walk_tb(tb), strict=False):
        rel = os.path.relpath(fs.filename, root) if fs.filename.startswith(root + os.sep) else None
        item: _Frame = {"file": rel or fs.filename, "line": fs.lineno, "function": fs.name, "text": fs.line or ""}
        frames.append(item)
        if rel and rel.startswith("verl" + os.sep):
            verl_frames.append((item, frame))
    out: dict[str, Any] = {
        "type": type(e).__name__,
        "module": type(e).__module__,
        "message": str(e),
        "wrapped_by": wrappers,
        "frames": frames[-12:],
    }
    if not verl_frames:
        return out
    item, frame = verl_frames[-1]
    out["verl_file"], out["verl_line"], out["verl_function"] = item["file"], item["line"], item["function"]
    out["verl_text"] = item["text"]
    line = item["line"]
    # no line number: no statement to widen to (an empty range), the frame's own reads stand in for it
    lo, hi = _statement_range(frame.f_code.co_filename, line) if line is not None else (0, -1)
    whole = " ".join(x.strip() for x in _source_lines(frame.f_code.co_filename, lo, hi))
    out["verl_text"] = whole if 0 < len(whole) <= 300 else item["text"]
    fid = id(frame)
    in_stmt = [k for k, fn, ln, i in _READS if i == fid and lo <= ln <= hi]
    in_frame = [k for k, fn, ln, i in _READS if i == fid]
    keys = list(dict.fromkeys(in_stmt or in_frame[-6:]))
    # a read of a section on the way to a key (``config.data`` before ``.train_batch_size``) is not a key read
    out["frame_keys"] = list(dict.fromkeys(in_frame))
    out["keys_read"] = [k for k in keys if not any(o.startswith(k + ".") for o in keys)]
    # a dataclass check (__post_init__ / validate): the section the dataclass was converted from
    out["section"] = None
    outer_frames = [fr for fr, _ in traceback.walk_tb(outer.__traceback__)] if outer is not e else []
    for fr in reversed([fr for _i, fr in verl_frames] + outer_frames):
        if fr.f_code.co_name == "omega_conf_to_dataclass":
            cfg: Any = fr.f_locals.get("config")
            try:
                out["section"] = cfg._get_full_key(None) or None
            except Exception:
                out["section"] = None
            break
    self_obj = frame.f_locals.get("self")
    if self_obj is not None and hasattr(self_obj, "__dataclass_fields__"):
        out["dataclass"] = type(self_obj).__name__
        names = []
        lo2 = _enclosing_test(frame.f_code.co_filename, lo)
        stmt = "\n".join(_source_lines(frame.f_code.co_filename, lo, hi))
        if lo2 is not None:
            stmt += "\n" + "\n".join(_source_lines(frame.f_code.co_filename, lo2[0], lo2[1]))
        import re

        for attr in re.findall(r"\bself\.(\w+)", stmt):
            if attr in self_obj.__dataclass_fields__:
                names.append(attr)
        out["fields_read"] = list(dict.fromkeys(names))
    return out


def _enclosing_test(path: str, line: int) -> tuple[int, int] | None:
    """Lines of the condition of the innermost ``if`` whose body holds ``line`` (a ``raise`` under its test)."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError):
        return None
    best = None
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and node.body and node.body[0].lineno <= line <= (node.body[-1].end_lineno or 0):
            if best is None or node.lineno > best.lineno:
                best = node
    if best is None:
        return None
    return best.test.lineno, best.test.end_lineno or best.test.lineno


def _chain_tb(outer: BaseException, inner: BaseException) -> Any:
    """The traceback from the entry point down to where ``inner`` was raised: the outer chain up to the wrapping
    call, then the inner one (so the frames read top to bottom as the call went)."""
    if inner is outer:
        return outer.__traceback__
    return inner.__traceback__


def _source_lines(path: str, lo: int, hi: int) -> list[str]:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()[lo - 1 : hi]
    except OSError:
        return []


def _stops(job: dict) -> list[tuple[Any, str, Any]]:
    """Patch the points where training would begin; returns (owner, name, original) to restore."""
    import importlib

    restore: list[tuple[Any, str, Any]] = []

    def patch(owner: Any, name: str, value: Any) -> None:
        if hasattr(owner, name):
            restore.append((owner, name, getattr(owner, name)))
            setattr(owner, name, value)

    def stop_ray(*_a: Any, **_k: Any) -> None:
        raise ReachedTraining("ray.init")

    import ray

    patch(ray, "init", stop_ray)

    def run_ppo_stop(config: Any, task_runner_class: Any = None, **_k: Any) -> None:
        trainer = _v1_trainer_checks(config, task_runner_class)
        raise ReachedTraining("run_ppo", trainer)

    try:
        mp = importlib.import_module("verl.trainer.main_ppo")
        patch(mp, "run_ppo", run_ppo_stop)
    except ImportError:
        pass
    for name in ("verl.trainer.sft_trainer", "verl.trainer.sft_trainer_ray"):
        try:
            m = importlib.import_module(name)
        except Exception:
            continue

        def run_sft_stop(*_a: Any, **_k: Any) -> None:
            raise ReachedTraining("run_sft")

        patch(m, "run_sft", run_sft_stop)
    return restore


def _v1_trainer_checks(config: Any, task_runner_class: Any) -> str | None:
    """What ``TaskRunnerV1.run`` does before building workers: pick the trainer for ``trainer_mode``, resolve the
    config and construct the trainer (its constructor holds the trainer-mode asserts). Other task runners build
    Ray workers first: nothing more is run for them."""
    name = getattr(task_runner_class, "__name__", "") or ""
    cls = getattr(task_runner_class, "__ray_metadata__", None)
    cls_name = getattr(getattr(cls, "modified_class", None), "__name__", name) if cls else name
    if "V1" not in cls_name and "V1" not in name:
        return None
    from omegaconf import OmegaConf
    from verl.trainer.ppo.v1 import get_trainer_cls

    try:
        trainer_cls = get_trainer_cls(config.trainer.v1.trainer_mode)
        config.transfer_queue.enable = True
        OmegaConf.resolve(config)
        trainer_cls(config=config)
    except Exception as e:
        e._startup_phase = "trainer"  # type: ignore[attr-defined]  # after validate_config passed
        raise
    return trainer_cls.__name__


def run_job(job: dict, root: str) -> dict:
    import importlib

    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    res: dict[str, Any] = {"id": job.get("id")}
    module_name = job["module"]
    try:
        mod: Any = importlib.import_module(module_name)
    except Exception as e:  # an entry point this verl does not have, or one that needs more than installed
        res.update(status="no-entry-point", error={"type": type(e).__name__, "message": str(e)})
        return res
    main = getattr(mod, "main", None)
    if main is None:
        res.update(status="no-entry-point", error={"type": "AttributeError", "message": f"{module_name} has no main"})
        return res
    config_path, config_name = _hydra_args(main)
    config_name = job.get("config_name") or config_name
    cdir = _config_dir(mod, job.get("config_path") or config_path)
    old_env = {k: os.environ.get(k) for k in job.get("env", {})}
    os.environ.update({k: str(v) for k, v in job.get("env", {}).items()})
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=cdir, version_base=None):
            cfg = compose(config_name=config_name, overrides=list(job.get("overrides", [])))
    except Exception as e:
        res.update(status="compose-error", error={"type": type(e).__name__, "message": str(e)})
        _restore_env(old_env)
        return res
    restore = _stops(job)
    skipped = []
    if not job.get("detect_device") and hasattr(mod, "auto_set_device"):
        restore.append((mod, "auto_set_device", mod.auto_set_device))
        mod.auto_set_device = lambda config: skipped.append("auto_set_device")
    _READS.clear()
    _RECORD[0] = True
    out = io.StringIO()
    try:
        with redirect_stdout(out), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            main(cfg)
        res.update(status="returned")  # main returned without reaching the stop: nothing would train
    except ReachedTraining as r:
        res.update(status="pass", reached=r.where, trainer=r.trainer)
    except Exception as e:
        res.update(status="fail", error=_describe_failure(e, root), phase=getattr(e, "_startup_phase", "main"))
    finally:
        _RECORD[0] = False
        for owner, name, value in reversed(restore):
            setattr(owner, name, value)
        _restore_env(old_env)
    res["skipped"] = skipped
    res["config_name"] = config_name
    return res


def _restore_env(old: dict) -> None:
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def main() -> int:
    request = json.load(sys.stdin)
    real_stdout = sys.stdout
    sys.stdout = sys.stderr  # verl prints while importing and validating: keep stdout for results
    try:
        import verl

        root = _verl_root()
        _install_read_recorder()
    except Exception as e:
        real_stdout.write(json.dumps({"fatal": f"{type(e).__name__}: {e}"}) + "\n")
        return 2
    real_stdout.write(json.dumps({"protocol": PROTOCOL, "verl": verl.__version__, "root": root}) + "\n")
    real_stdout.flush()
    for job in request.get("jobs", []):
        try:
            res = run_job(job, root)
        except BaseException as e:  # the harness itself: say so, go on with the next job
            res = {
                "id": job.get("id"),
                "status": "harness-error",
                "error": {"type": type(e).__name__, "message": str(e)},
            }
        real_stdout.write(json.dumps(res, default=str) + "\n")
        real_stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
