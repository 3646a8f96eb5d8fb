"""The troubleshooting entry on resuming a Megatron checkpoint saved before verl 0.9.0, held by a run in the startup
environment of verl 0.9.1:

- the check verl 0.9.1's ``MegatronCheckpointManager.load_checkpoint`` runs first (``_raise_for_old_layout``) rejects a
  role folder that has ``dist_ckpt/`` or ``huggingface/`` directly under it (the layout verl 0.7.1 and 0.8.0 save) with
  ``RuntimeError: Detected deprecated Megatron checkpoint layout``. The manager module imports Megatron, which the
  startup environment does not have, so the function and the two path helpers it calls are compiled from the
  installed verl's own source and run as they are;
- the migration script the 0.9.1 wheel installs (``python -m scripts.migrate_megatron_checkpoint_layout``) turns that
  folder into the split layout (``model/``, ``optimizer/``, ``extra/``), after which the same check passes, and a second
  run of the script changes nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests import helpers
from tests.conftest import REPO

PAGES = [REPO / "docs" / "recipes" / f"troubleshooting{s}.md" for s in ("", ".en")]
COMMAND = "python3 -m scripts.migrate_megatron_checkpoint_layout"

CHECK = r"""
import ast, json, os, sys
from pathlib import Path
import verl

root = Path(verl.__file__).parent
ns = {"os": os}
def take(path, names):
    tree = ast.parse((root / path).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) in names for t in node.targets):
            exec(compile(ast.Module([node], []), str(root / path), "exec"), ns)
        if isinstance(node, ast.FunctionDef) and node.name in names:
            node.decorator_list = []
            exec(compile(ast.Module([node], []), str(root / path), "exec"), ns)
take("utils/megatron_utils.py", {"_DIST_CKPT_SUBDIR", "_HUGGINGFACE_SUBDIR",
     "get_legacy_dist_checkpoint_path", "get_legacy_hf_model_checkpoint_path"})
take("utils/checkpoint/megatron_checkpoint_manager.py", {"_raise_for_old_layout"})
try:
    ns["_raise_for_old_layout"](sys.argv[1])
    print(json.dumps({"error": None}))
except Exception as e:
    print(json.dumps({"error": f"{type(e).__name__}: {e}"}))
"""


def _python() -> str:
    return helpers.startup_python("0.9.1")


def _check(actor: Path) -> str | None:
    r = subprocess.run(
        [_python(), "-c", CHECK, str(actor)], capture_output=True, text=True, timeout=300, cwd=actor.parent
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])["error"]


def _migrate(actor: Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    # cwd is outside the repository, whose own scripts/ folder would shadow the wheel's ``scripts`` package.
    return subprocess.run(
        [_python(), "-m", "scripts.migrate_megatron_checkpoint_layout", "--checkpoint", str(actor)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": ""},
    )


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    base = tmp_path_factory.mktemp("layout")
    actor = base / "checkpoints" / "global_step_100" / "actor"
    (actor / "dist_ckpt").mkdir(parents=True)
    (actor / "huggingface").mkdir()
    (actor / "dist_ckpt" / "common.pt").write_bytes(b"common")
    (actor / "dist_ckpt" / "__0_0.distcp").write_bytes(b"shard")
    (actor / "huggingface" / "config.json").write_text("{}")
    before = _check(actor)
    first = _migrate(actor, base)
    after = _check(actor)
    second = _migrate(actor, base)
    files = sorted(str(p.relative_to(actor)) for p in actor.rglob("*") if p.is_file())
    inodes = {sub: (actor / sub / "__0_0.distcp").stat().st_ino for sub in ("dist_ckpt", "model/dist_ckpt")}
    return {"before": before, "first": first, "after": after, "second": second, "files": files, "inodes": inodes}


def test_verl_rejects_a_megatron_checkpoint_in_the_layout_before_0_9_0(run: dict) -> None:
    assert run["before"] is not None
    assert run["before"].startswith("RuntimeError: Detected deprecated Megatron checkpoint layout"), run["before"]
    assert "migrate_megatron_checkpoint_layout.py" in run["before"]
    for page in PAGES:
        assert "Detected deprecated Megatron checkpoint layout" in page.read_text(encoding="utf-8"), page


def test_the_wheels_migration_script_splits_the_folder_and_verl_then_accepts_it(run: dict) -> None:
    assert run["first"].returncode == 0, run["first"].stderr[-3000:]
    assert "migrated" in run["first"].stdout
    for sub in ("model", "optimizer", "extra"):
        assert f"{sub}/dist_ckpt/__0_0.distcp" in run["files"], run["files"]
    assert "model/huggingface/config.json" in run["files"]
    assert "huggingface/config.json" not in run["files"], "the HF folder is moved, not linked"
    assert "dist_ckpt/__0_0.distcp" in run["files"], "the old dist_ckpt/ stays"
    assert run["inodes"]["dist_ckpt"] == run["inodes"]["model/dist_ckpt"], "the new files are hard links to the old"
    assert run["after"] is None
    for page in PAGES:
        assert COMMAND in page.read_text(encoding="utf-8"), page


def test_a_second_run_of_the_script_changes_nothing(run: dict) -> None:
    assert run["second"].returncode == 0, run["second"].stderr[-3000:]
    assert "skipped (already v2)" in run["second"].stdout
