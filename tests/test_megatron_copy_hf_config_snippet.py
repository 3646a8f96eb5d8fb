"""model-merger's copy of the base model's files into a Megatron checkpoint's model/huggingface/
(snippets/recipes/megatron_copy_hf_config.sh and its 中文 twin), run as a user runs it on a made-up base model folder.

review29i U1: the first version copied only *.json, *.txt and *.model and hid the misses with 2>/dev/null, so custom
model code (*.py, which the merger's AutoConfig needs with --trust-remote-code), chat_template.jinja and other
tokenizer files did not reach the folder the merger reads config, processor and tokenizer from."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO

BASE = "/models/Qwen3-8B"
ACTOR = "checkpoints/my_project/my_run/global_step_100/actor"
KEPT = ("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json", "vocab.json",
        "merges.txt", "tokenizer.model", "qwen.tiktoken", "chat_template.jinja", "configuration_x.py",
        "modeling_x.py", "README.md", "LICENSE")  # fmt: skip
WEIGHTS = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors", "model.safetensors.index.json",
           "pytorch_model.bin", "pytorch_model.bin.index.json", "consolidated.pth", "optimizer.pt")  # fmt: skip


def _run(snippet: str, base: Path, cwd: Path) -> subprocess.CompletedProcess:
    text = (REPO / "snippets" / "recipes" / snippet).read_text(encoding="utf-8")
    assert f"BASE={BASE}" in text and f"ACTOR={ACTOR}" in text, f"{snippet} changed: update this test"
    script = text.replace(f"BASE={BASE}", f"BASE={base}")
    return subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("snippet", ["megatron_copy_hf_config.sh", "megatron_copy_hf_config.zh.sh"])
def test_the_copy_takes_every_file_of_the_base_model_but_the_weights(tmp_path: Path, snippet: str) -> None:
    base = tmp_path / "base"
    (base / "subdir").mkdir(parents=True)
    for name in KEPT + WEIGHTS:
        (base / name).write_text(name)
    r = _run(snippet, base, tmp_path)
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.splitlines()[-1] == f"{ACTOR}/model/huggingface/config.json"
    copied = {p.name for p in (tmp_path / ACTOR / "model" / "huggingface").iterdir()}
    assert copied == set(KEPT)


@pytest.mark.parametrize("snippet", ["megatron_copy_hf_config.sh", "megatron_copy_hf_config.zh.sh"])
def test_a_wrong_base_path_is_not_hidden(tmp_path: Path, snippet: str) -> None:
    r = _run(snippet, tmp_path / "no-such-model", tmp_path)
    assert r.returncode != 0 and "no-such-model" in r.stderr and "config.json" in r.stderr


@pytest.mark.parametrize("snippet", ["megatron_copy_hf_config.sh", "megatron_copy_hf_config.zh.sh"])
def test_a_hub_cache_snapshot_of_symlinks_is_copied_too(tmp_path: Path, snippet: str) -> None:
    """review30e: a model.path given as a hub ID lives in the hub cache, where a snapshot folder holds only symlinks
    to blobs; ``-type f`` matched none of them and the copy ended at ``ls: cannot access …/config.json``."""
    blobs, snapshot = tmp_path / "blobs", tmp_path / "snapshots" / "abc123"
    blobs.mkdir()
    snapshot.mkdir(parents=True)
    for n, name in enumerate(KEPT + WEIGHTS):
        (blobs / f"blob{n}").write_text(name)
        (snapshot / name).symlink_to(blobs / f"blob{n}")
    r = _run(snippet, snapshot, tmp_path)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    out = tmp_path / ACTOR / "model" / "huggingface"
    assert {p.name for p in out.iterdir()} == set(KEPT)
    assert not any(p.is_symlink() for p in out.iterdir()) and (out / "config.json").read_text() == "config.json"
