"""``parse_one`` gives what Hydra's parser gives for one override, parses each text once per process, and hands every
caller its own copy, so a caller that changes a value does not change it for the next."""

from __future__ import annotations

import pytest
from hydra.errors import HydraException

from verl_cookbook import hydra_overrides
from verl_cookbook.hydra_overrides import parse_one, parser

TEXTS = [
    "actor_rollout_ref.rollout.checkpoint_engine.backend=nccl",
    "+actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl.rebuild_group=true",
    "++trainer.logger=[console,wandb]",
    "~actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs",
    "data.train_files={a:1,b:[2,3]}",
    "trainer.n_gpus_per_node=1,2,4",
    "model_engine=megatron",
    "actor@actor_rollout_ref.actor=megatron_actor",
    "trainer.total_epochs=int(3.0)",
    "trainer.project_name='verl ppo'",
]


@pytest.fixture(autouse=True)
def empty_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    hydra_overrides._parsed.cache_clear()


@pytest.mark.parametrize("text", TEXTS)
def test_the_override_is_the_one_hydras_parser_gives(text: str) -> None:
    assert parse_one(text) == parser().parse_overrides([text])[0]
    assert parse_one(text) == parser().parse_overrides([text])[0]  # from the memo too


def test_each_text_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    real = parser().parse_overrides
    monkeypatch.setattr(parser(), "parse_overrides", lambda texts: calls.append(texts) or real(texts))
    for _ in range(3):
        for text in TEXTS:
            parse_one(text)
    assert calls == [[text] for text in TEXTS]


def test_a_caller_that_changes_a_value_does_not_change_it_for_the_next() -> None:
    first = parse_one("++trainer.logger=[console,wandb]")
    first.value().append("tensorboard")
    first.key_or_group = "elsewhere"
    again = parse_one("++trainer.logger=[console,wandb]")
    assert again.value() == ["console", "wandb"] and again.key_or_group == "trainer.logger"


def test_a_text_hydra_refuses_raises_hydras_error_every_time() -> None:
    for _ in range(2):
        with pytest.raises(HydraException) as got:
            parse_one("trainer.n_gpus_per_node=[1,2")
        with pytest.raises(HydraException) as want:
            parser().parse_overrides(["trainer.n_gpus_per_node=[1,2"])
        assert str(got.value) == str(want.value)
