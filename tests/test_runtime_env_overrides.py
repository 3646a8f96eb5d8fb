"""review18b #4: environment variables handed to every worker through Ray's runtime_env take the form
``+ray_kwargs.ray_init.runtime_env.env_vars.NAME=value``: verl's config declares no ``env_vars`` there, so Hydra
rejects the key without the leading ``+``; a number goes in quotes so that it reaches Ray as a string."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from hydra.core.override_parser.overrides_parser import OverridesParser

from verl_cookbook.cli import main

REPO = Path(__file__).resolve().parents[1]
PREFIX = "ray_kwargs.ray_init.runtime_env.env_vars."
COMMAND = (  # a whole command: doctor also judges the values verl 0.9.1 requires at startup
    "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm"
    " actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8"
    " actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8"
)
SNIPPETS = sorted(
    p
    for name in ("ports_second_job_runtime_env", "ascend_direct_runtime_env", "whitelist_runtime_env")
    for p in REPO.glob(f"snippets/*/{name}*.sh")
)


def _overrides(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    command = next(line for line in text.splitlines() if line.startswith("python3 -m verl.trainer.main_ppo"))
    return [arg for arg in shlex.split(command)[3:]]


def test_the_snippets_exist_in_both_languages() -> None:
    assert len(SNIPPETS) == 6


@pytest.mark.parametrize("path", SNIPPETS, ids=lambda p: p.name)
def test_every_env_var_override_adds_its_key_and_reaches_ray_as_a_string(path: Path) -> None:
    parser = OverridesParser.create()
    overrides = _overrides(path)
    assert overrides
    for arg in overrides:
        assert arg.startswith("+" + PREFIX), arg
        assert isinstance(parser.parse_override(arg).value(), str), arg


def test_without_the_plus_the_key_is_unknown_and_with_it_the_command_composes(tmp_path: Path, capsys) -> None:
    def script(name: str, override: str) -> Path:
        path = tmp_path / name
        path.write_text(f"{COMMAND} {override}\n", encoding="utf-8")
        return path

    bare = script("bare.sh", f"{PREFIX}HCCL_WHITELIST_FILE=/etc/hccl/whitelist.json")
    plus = script("plus.sh", f"+{PREFIX}HCCL_WHITELIST_FILE=/etc/hccl/whitelist.json")
    assert main(["doctor", "--verl", "0.9.1", str(bare)]) == 1
    assert "config/unknown-key" in capsys.readouterr().out
    assert main(["doctor", "--verl", "0.9.1", str(plus)]) == 0


def test_an_unquoted_number_would_reach_ray_as_an_int() -> None:
    parser = OverridesParser.create()
    assert parser.parse_override(f"+{PREFIX}HCCL_WHITELIST_DISABLE=0").value() == 0
    assert parser.parse_override(f'+{PREFIX}HCCL_WHITELIST_DISABLE="0"').value() == "0"
