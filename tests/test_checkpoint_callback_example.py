"""The checkpoint-callback recipe's example, run against a stand-in for verl's no-op base class (verl itself
is never imported): it publishes FSDP saves at once even with async_save=True, holds a Megatron async save
until Megatron's manifest appears, retries best-effort failures, and the after-the-job command publishes
what the callback could not."""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from pathlib import Path

import pytest

SNIPPET = Path(__file__).resolve().parent.parent / "snippets" / "recipes" / "checkpoint_callback.py"


@pytest.fixture
def example(monkeypatch, tmp_path):
    base = types.ModuleType("verl.trainer.ppo.checkpoint_callback")

    class CheckpointCallback:  # verl's base: stores config, on_save does nothing
        def __init__(self, config=None):
            self.config = config

    base.CheckpointCallback = CheckpointCallback
    for name in ("verl", "verl.trainer", "verl.trainer.ppo"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, "verl.trainer.ppo.checkpoint_callback", base)
    monkeypatch.setenv("CKPT_UPLOAD_ROOT", str(tmp_path / "shared"))
    (tmp_path / "shared").mkdir()
    spec = importlib.util.spec_from_file_location("ckpt_callbacks_example", SNIPPET)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _config(strategy: str):
    actor = types.SimpleNamespace(strategy=strategy)
    return types.SimpleNamespace(actor_rollout_ref=types.SimpleNamespace(actor=actor))


def _save(root: Path, step: int, *, data: bool = True, manifest: bool = False) -> str:
    d = root / f"global_step_{step}"
    (d / "actor").mkdir(parents=True)
    (d / "actor" / "model_world_size_2_rank_0.pt").write_text("w")
    if data:
        (d / "data.pt").write_text("d")
    if manifest:
        (d / "actor" / "ckpt_contents.json").write_text("{}")
    return str(d)


def _registered(tmp_path: Path) -> list[int]:
    registry = tmp_path / "shared" / "registry.jsonl"
    if not registry.exists():
        return []
    return [json.loads(line)["global_step"] for line in registry.read_text().splitlines()]


def test_fsdp_with_async_save_is_published_at_once(example, tmp_path):
    cb = example.UploadRegisterEvaluate(config=_config("fsdp"))
    cb.on_save(trainer=None, global_step=10, checkpoint_dir=_save(tmp_path / "ckpt", 10), async_save=True)
    assert _registered(tmp_path) == [10]
    assert (tmp_path / "shared" / "global_step_10" / "data.pt").exists()
    assert cb.pending == []


def test_megatron_async_save_waits_for_the_manifest_then_publishes(example, tmp_path):
    cb = example.UploadRegisterEvaluate(config=_config("megatron"))
    first = _save(tmp_path / "ckpt", 10)
    cb.on_save(trainer=None, global_step=10, checkpoint_dir=first, async_save=True)
    assert _registered(tmp_path) == []
    (Path(first) / "actor" / "ckpt_contents.json").write_text("{}")  # Megatron finished writing
    cb.on_save(trainer=None, global_step=20, checkpoint_dir=_save(tmp_path / "ckpt", 20), async_save=True)
    assert _registered(tmp_path) == [10]
    assert [step for step, _ in cb.pending] == [20]


def test_a_best_effort_failure_is_kept_and_retried_at_the_next_save(example, tmp_path, monkeypatch):
    monkeypatch.setenv("CKPT_CALLBACK_BEST_EFFORT", "1")
    cb = example.UploadRegisterEvaluate(config=_config("fsdp"))
    real = cb.publisher.publish
    calls = {"n": 0}

    def flaky(step, ckpt_dir):
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("shared storage is down")
        real(step, ckpt_dir)

    monkeypatch.setattr(cb.publisher, "publish", flaky)
    cb.on_save(trainer=None, global_step=10, checkpoint_dir=_save(tmp_path / "ckpt", 10), async_save=False)
    assert _registered(tmp_path) == [] and [s for s, _ in cb.pending] == [10]
    cb.on_save(trainer=None, global_step=20, checkpoint_dir=_save(tmp_path / "ckpt", 20), async_save=False)
    assert _registered(tmp_path) == [10, 20]


def test_without_best_effort_a_failure_aborts(example, tmp_path, monkeypatch):
    cb = example.UploadRegisterEvaluate(config=_config("fsdp"))
    monkeypatch.setattr(cb.publisher, "publish", lambda step, d: (_ for _ in ()).throw(OSError("down")))
    with pytest.raises(OSError):
        cb.on_save(trainer=None, global_step=10, checkpoint_dir=_save(tmp_path / "ckpt", 10))


def test_after_the_job_only_complete_unpublished_checkpoints_are_published(example, tmp_path):
    root = tmp_path / "ckpt"
    _save(root, 10, manifest=True)
    _save(root, 20, manifest=True)
    _save(root, 30, manifest=False)  # the last async save never finished
    example.Publisher(str(tmp_path / "shared")).publish(10, str(root / "global_step_10"))
    assert example.publish_remaining(str(root), megatron=True) == [20]
    assert _registered(tmp_path) == [10, 20]
    _save(root, 40, data=False)  # an FSDP save the job died in: the driver never wrote data.pt
    assert example.publish_remaining(str(root), megatron=False) == [30]


def test_a_folder_left_by_max_ckpt_to_keep_is_not_published(example, tmp_path):
    """verl's retention deletes global_step_N/actor and leaves data.pt: that folder is not a checkpoint."""
    root = tmp_path / "ckpt"
    _save(root, 10)
    import shutil

    shutil.rmtree(root / "global_step_10" / "actor")  # what max_actor_ckpt_to_keep does
    _save(root, 20)
    assert example.publish_remaining(str(root), megatron=False) == [20]


def test_a_torchtitan_checkpoint_without_actor_folder_is_published(example, tmp_path):
    """TorchTitan writes global_step_N/step-N/ (a DCP folder), never actor/."""
    d = tmp_path / "ckpt" / "global_step_10"
    (d / "step-10").mkdir(parents=True)
    (d / "step-10" / ".metadata").write_text("m")
    (d / "data.pt").write_text("d")
    cb = example.UploadRegisterEvaluate(config=_config("torchtitan"))
    cb.on_save(trainer=None, global_step=10, checkpoint_dir=str(d), async_save=False)
    assert _registered(tmp_path) == [10]


def test_a_torchtitan_step_that_wrote_no_model_files_is_skipped_not_kept_pending(example, tmp_path):
    """A TorchTitan save off torchtitan's interval leaves only data.pt (tests/test_torchtitan_save_run.py): the
    save is synchronous, so the folder never completes and waiting for it would keep it pending forever."""
    d = tmp_path / "ckpt" / "global_step_7"
    d.mkdir(parents=True)
    (d / "data.pt").write_text("d")
    cb = example.UploadRegisterEvaluate(config=_config("torchtitan"))
    cb.on_save(trainer=None, global_step=7, checkpoint_dir=str(d), async_save=False)
    assert _registered(tmp_path) == [] and cb.pending == []


def test_with_node_local_disks_the_example_publishes_only_what_the_drivers_node_holds(example, tmp_path):
    """rev50c-3: every trainer rank writes its shard on its own node and the driver writes data.pt on its own, so
    on node-local disks the driver's node sees data.pt and only its ranks' shards. The example cannot tell: it
    uploads and registers that partial folder, and with no trainer rank on the driver's node it publishes nothing.
    Hence the page's prerequisite that trainer.default_local_dir is shared by every node."""
    d = tmp_path / "ckpt" / "global_step_10"
    (d / "actor").mkdir(parents=True)
    for rank in range(8):  # node 0's ranks; ranks 8-15 wrote theirs on node 1's disk
        (d / "actor" / f"model_world_size_16_rank_{rank}.pt").write_text("w")
    (d / "data.pt").write_text("d")
    cb = example.UploadRegisterEvaluate(config=_config("fsdp"))
    cb.on_save(trainer=None, global_step=10, checkpoint_dir=str(d), async_save=False)
    assert _registered(tmp_path) == [10]
    uploaded = sorted(p.name for p in (tmp_path / "shared" / "global_step_10" / "actor").iterdir())
    assert uploaded == [f"model_world_size_16_rank_{rank}.pt" for rank in range(8)]

    bare = tmp_path / "ckpt" / "global_step_20"  # a driver node with no trainer rank: data.pt alone
    bare.mkdir()
    (bare / "data.pt").write_text("d")
    cb.on_save(trainer=None, global_step=20, checkpoint_dir=str(bare), async_save=False)
    assert _registered(tmp_path) == [10] and cb.pending == []


def test_an_upload_root_below_a_regular_file_fails_even_as_root(example, tmp_path, monkeypatch):
    """The page's way to make the upload fail on purpose: a folder cannot be created below a file, whoever
    you are (a read-only folder does not stop root)."""
    blocker = tmp_path / "a_file"
    blocker.write_text("x")
    monkeypatch.setenv("CKPT_UPLOAD_ROOT", str(blocker / "upload"))
    cb = example.UploadRegisterEvaluate(config=_config("fsdp"))
    with pytest.raises(OSError):
        cb.on_save(trainer=None, global_step=10, checkpoint_dir=_save(tmp_path / "ckpt", 10), async_save=False)


@pytest.mark.parametrize("name", ["checkpoint_callback_after_job.sh", "checkpoint_callback_after_job.zh.sh"])
def test_the_after_job_command_runs_in_a_plain_shell_from_any_folder(tmp_path, name):
    """review18a F5: the after-job command runs in the reader's own shell, which has neither variable step 2 passes
    through Ray's runtime_env. The snippet sets both: run from a folder that is not above my_project, with verl (a
    stand-in here) already on PYTHONPATH, it imports the module, keeps verl importable, and reads and writes the
    registry under the job's CKPT_UPLOAD_ROOT, not the default /mnt/shared/checkpoints."""
    import os
    import shutil
    import subprocess

    src, upload, stub, work = (tmp_path / d for d in ("src", "up", "stub", "elsewhere"))
    (src / "my_project").mkdir(parents=True)
    (src / "my_project" / "__init__.py").write_text("")
    shutil.copy(SNIPPET, src / "my_project" / "ckpt_callbacks.py")
    ppo = stub / "verl" / "trainer" / "ppo"
    ppo.mkdir(parents=True)
    for d in (stub / "verl", stub / "verl" / "trainer", ppo):
        (d / "__init__.py").write_text("")
    (ppo / "checkpoint_callback.py").write_text(
        "class CheckpointCallback:\n    def __init__(self, config=None):\n        self.config = config\n"
    )
    upload.mkdir()
    _save(work / "checkpoints" / "my_project" / "my_run", 300)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    text = (SNIPPET.parent / name).read_text(encoding="utf-8")
    assert "export CKPT_UPLOAD_ROOT=/mnt/shared/checkpoints" in text and "export PYTHONPATH=/workspace/src" in text
    text = text.replace("/mnt/shared/checkpoints", str(upload)).replace("/workspace/src", str(src))
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "PYTHONPATH": str(stub), "PYTHONNOUSERSITE": "1"}
    out = subprocess.run(["bash", "-e", "-c", text], cwd=work, env=env, capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout) == (0, "[300]\n[]\n"), out.stderr
    assert [json.loads(line)["global_step"] for line in (upload / "registry.jsonl").read_text().splitlines()] == [300]
    assert os.path.isdir(upload / "global_step_300" / "actor")
