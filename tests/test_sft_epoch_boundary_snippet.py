"""The troubleshooting page's command for a resume from a checkpoint saved at the end of an epoch
(#sft-epoch-boundary: snippets/recipes/sft_epoch_boundary_resume.sh and its 中文 twin), run as a user runs it, in
the training's working folder, on the two checkpoint layouts the entry names: an SFT checkpoint, whose dataloader
state is one ``data_{rank}.pt`` per rank beside the engine's files, and a checkpoint of verl 0.7.1's PPO trainer,
whose state is one ``data.pt`` beside ``actor/`` (review41d-3: a ``data_*.pt`` glob moved nothing there)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import REPO

CKPT = Path("checkpoints/my_project/my_experiment/global_step_500")
LAYOUTS = {  # the files of each layout, and which of them are the dataloader state
    "sft": (
        ["data_0.pt", "data_1.pt", "model_world_size_2_rank_0.pt", "huggingface/config.json"],
        {"data_0.pt", "data_1.pt"},
    ),
    "ppo 0.7.1": (["data.pt", "actor/model_world_size_2_rank_0.pt", "actor/huggingface/config.json"], {"data.pt"}),
}


def _run(snippet: str, cwd: Path) -> subprocess.CompletedProcess:
    path = REPO / "snippets" / "recipes" / snippet
    return subprocess.run(["bash", "-e", str(path)], cwd=cwd, capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("snippet", ["sft_epoch_boundary_resume.sh", "sft_epoch_boundary_resume.zh.sh"])
def test_the_command_sets_aside_the_dataloader_state_of_an_sft_and_a_071_ppo_checkpoint_and_nothing_else(
    tmp_path: Path, snippet: str
) -> None:
    for name, (files, state) in LAYOUTS.items():
        work = tmp_path / name
        for f in files:
            (work / CKPT / f).parent.mkdir(parents=True, exist_ok=True)
            (work / CKPT / f).write_text(f)
        r = _run(snippet, work)
        assert r.returncode == 0 and r.stderr == "", (name, r.stderr)
        top = {p.name for p in (work / CKPT).glob("*.pt")}
        assert not top & state, (name, top)  # the state is no longer where verl looks for it
        aside = {p.name for p in (work / CKPT / "dataloader_state_set_aside").iterdir()}
        assert aside == state, (name, aside)  # and only the state was moved
        assert all((work / CKPT / f).exists() for f in files if f not in state), name
