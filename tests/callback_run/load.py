"""Load checkpoint callbacks through verl 0.9.1's own ``build_checkpoint_callback`` and report what happened.

Runs in the startup environment (verl importable), never in pytest's process. The page's example module
(snippets/recipes/checkpoint_callback.py) is copied to ``<tmp>/my_project/ckpt_callbacks.py`` and put on
``sys.path``, as a user's PYTHONPATH would; each case sets ``trainer.checkpoint_callback_class`` in an OmegaConf
config and asks verl to build the callback. For the example class it then calls ``on_save`` the way the v1 trainer
does, on a synchronous FSDP save folder, and reports what was published.

Usage: python load.py TMP_DIR SNIPPET REPORT_JSON
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from omegaconf import OmegaConf
from verl.trainer.ppo.checkpoint_callback import CheckpointCallback, build_checkpoint_callback

CASES = {
    "unset": None,
    "no_dot": "UploadRegisterEvaluate",
    "no_module": "no_such_project.ckpt_callbacks.UploadRegisterEvaluate",
    "no_class": "my_project.ckpt_callbacks.NoSuchCallback",
    "example": "my_project.ckpt_callbacks.UploadRegisterEvaluate",
}


def main(tmp: Path, snippet: Path, report_json: Path) -> None:
    package = tmp / "src" / "my_project"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copy(snippet, package / "ckpt_callbacks.py")
    sys.path.insert(0, str(tmp / "src"))
    os.environ["CKPT_UPLOAD_ROOT"] = str(tmp / "shared")
    report = {}
    for case, fqn in CASES.items():
        config = OmegaConf.create(
            {"trainer": {"checkpoint_callback_class": fqn}, "actor_rollout_ref": {"actor": {"strategy": "fsdp"}}}
        )
        try:
            callback = build_checkpoint_callback(config)
        except Exception as e:  # what the user sees is the point: record it
            report[case] = {"error": type(e).__name__, "is_import_error": isinstance(e, ImportError)}
            continue
        row = {
            "error": None,
            "class": type(callback).__name__,
            "is_checkpoint_callback": isinstance(callback, CheckpointCallback),
            "got_the_config": getattr(callback, "config", None) is config,
        }
        if case == "example":
            step = tmp / "ckpt" / "global_step_1"
            (step / "actor").mkdir(parents=True)
            (step / "actor" / "model_world_size_1_rank_0.pt").write_bytes(b"w")
            (step / "data.pt").write_bytes(b"d")
            callback.on_save(trainer=None, global_step=1, checkpoint_dir=str(step), async_save=False)
            registry = tmp / "shared" / "registry.jsonl"
            row["registered"] = [json.loads(line)["global_step"] for line in registry.read_text().splitlines()]
            row["uploaded"] = sorted(p.name for p in (tmp / "shared" / "global_step_1").iterdir())
        report[case] = row
    report_json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
