"""Differential test: for a corpus of override lists, the checker rejects exactly the lists that Hydra's own
``compose`` rejects on the same verl tree, and, where Hydra accepts, flags a type exactly where the dataclass
conversion would fail (those are labelled by hand: Hydra checks no types; verl's ``omega_conf_to_dataclass``
checks them only in its typed branch, ``dataclass_type=…``: a node it instantiates from ``_target_`` takes any
value, checked in verl 0.9.1's own environment: ``RolloutConfig`` keeps ``top_p='abc'``, ``ProfilerConfig``
rejects ``ranks=[a,b]``)."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from verl_cookbook.checks.config.checker import ConfigChecker
from verl_cookbook.checks.config.model import Assignment
from verl_cookbook.facts.compose import searchpath

HYDRA_RULES = ("override/", "config/unknown-key", "config/not-a-mapping", "config/unknown-config")
TYPE_RULES = ("config/wrong-type", "config/not-a-field")
R = "actor_rollout_ref.rollout"
CK = f"{R}.checkpoint_engine"

# (config, overrides, the dataclass conversion fails)
CORPUS: list[tuple[str, list[str], bool]] = [
    ("ppo_trainer", [], False),
    ("ppo_trainer", [f"{R}.name=vllm", "trainer.total_epochs=2", "data.train_batch_size=64"], False),
    ("ppo_trainer", ["+data.max_prompt_length=512"], False),
    ("ppo_trainer", ["++data.max_prompt_length=512", "++trainer.brand_new=1"], False),
    ("ppo_trainer", ["+data.brand_new=1"], False),
    ("ppo_trainer", ["algorithm.use_kl_in_rewrd=False"], False),
    ("ppo_trainer", ["~trainer.val_before_train"], False),
    ("ppo_trainer", ["~trainer.no_such"], False),
    ("ppo_trainer", ["model_engine=megatron", "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"], False),
    ("ppo_trainer", ["actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"], False),
    ("ppo_trainer", ["model_engine=megatronn"], False),
    ("ppo_trainer", ["actor@actor_rollout_ref.actor=megatron_actor"], False),
    ("ppo_trainer", ["nosuch@actor_rollout_ref.actor=x"], False),
    ("ppo_trainer", ["trainer.total_epochs=1,2"], False),
    ("ppo_trainer", ["trainer.total_epochs==1"], False),
    ("ppo_trainer", [f"{CK}.engine_kwargs.nccl.rebuild_group=true"], False),
    ("ppo_trainer", [f"{CK}.backend=nccl", f"+{CK}.engine_kwargs.nccl.rebuild_group=true"], False),
    ("ppo_trainer", ["+trainer.rollout_data_dir=/tmp/x"], False),
    ("ppo_trainer", [f"{R}.top_p=0.7", f"{R}.temperature=1"], False),
    ("ppo_trainer", [f"{R}.top_p=abc"], False),
    ("ppo_trainer", [f"{R}.n=1.5"], False),
    ("ppo_trainer", [f"{R}.free_cache_engine=perhaps"], False),
    ("ppo_trainer", ["trainer.logger=console"], False),
    ("ppo_trainer", ["trainer.logger=[console,wandb]"], False),
    ("ppo_trainer", [f"+{R}.gpu_memory_utilisation=0.5"], True),
    ("ppo_trainer", ["actor_rollout_ref.model.use_shm=maybe"], True),
    ("ppo_trainer", [f"{R}.profiler.ranks=[a,b]"], True),
    ("ppo_trainer", ["trainer.total_epochs.x=1"], False),
    ("ppo_trainer", ["~model_engine"], False),
    ("ppo_trainer", ["hydra.run.dir=/tmp/x"], False),
    ("ppo_trainer", [f"{R}.prompt_length=2048", "critic.ppo_micro_batch_size_per_gpu=null"], False),
    ("ppo_trainer", [f"{R}.prompt_length=long"], False),
    ("ppo_trainer", ["data.train_files=[a.parquet,b.parquet]"], False),
    ("ppo_trainer", ["~data.max_prompt_length=1024"], False),
    ("ppo_trainer", ["~data.max_prompt_length=512"], False),
    ("ppo_trainer", ["trainer.nnodes=${oc.env:NNODES,1}"], False),
    ("ppo_trainer", ["+model_engine=megatron"], False),
    ("ppo_trainer", ["reward_model.enable=True"], False),
    ("ppo_trainer", ["data={max_prompt_length:256}"], False),
    ("ppo_trainer", ["actor_rollout_ref.actor.checkpoint.save_contents=[model]"], False),
    ("ppo_megatron_trainer", ["actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"], False),
    ("sft_trainer_engine", ["data.messages_key=msgs", "optim.lr=1e-5"], False),
    ("sft_trainer_engine", ["engine=megatron", "engine.tensor_model_parallel_size=2"], False),
    ("sft_trainer_engine", [f"{R}.name=vllm"], False),
    ("evaluation", ["data.path=/x"], False),
    ("evaluation", ["data.pth=/x"], False),
    ("fully_async_ppo_trainer", ["async_training.staleness_threshold=0.5"], False),
    ("fully_async_ppo_trainer", ["async_training.staleness=0.5"], False),
    ("fully_async_ppo_trainer", ["model_engine=megatron", "actor_rollout_ref.actor.megatron.seed=1"], False),
    ("one_step_off_ppo_trainer", ["rollout.nnodes=2"], False),
]


def _hydra_compose_all(facts) -> dict[int, str | None]:
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    out: dict[int, str | None] = {}
    by_config: dict[str, list[int]] = {}
    for i, (config, _ovs, _t) in enumerate(CORPUS):
        by_config.setdefault(config, []).append(i)
    for config, idxs in by_config.items():
        folder = facts.config_dir(config)
        sp = searchpath(facts.tree, folder, config)
        extra = ["hydra.searchpath=[" + ",".join(f"'{e}'" for e in sp) + "]"] if sp else []
        GlobalHydra.instance().clear()
        with initialize_config_dir(config_dir=str(folder), version_base=None):
            for i in idxs:
                try:
                    compose(config_name=config, overrides=CORPUS[i][1] + extra)
                    out[i] = None
                except Exception as e:  # noqa: BLE001 - any error Hydra raises is a rejection
                    out[i] = f"{type(e).__name__}: {e}"
        GlobalHydra.instance().clear()
    return out


@pytest.fixture(scope="module")
def hydra_verdicts(facts, request: pytest.FixtureRequest) -> dict[int, str | None]:
    """Hydra's own compose of each list (all overrides at once, as ``@hydra.main`` does): None or its error.
    About 0.5 s a list, so the verdicts are kept in pytest's cache folder (``.pytest_cache``; the checker's cache
    is a new temporary folder each run), keyed by the verl release (its files never change on the package index),
    the corpus and Hydra's version; a fresh clone, or a run without pytest's cache plugin, computes them."""
    import hydra

    cache = getattr(request.config, "cache", None)
    if cache is None:  # pytest -p no:cacheprovider: no cache folder to keep them in
        return _hydra_compose_all(facts)
    tree = f"verl=={facts.tree.label}"  # not its path or file times: each run unpacks the release anew
    key = hashlib.sha256(f"{tree}{CORPUS!r}{hydra.__version__}".encode()).hexdigest()[:24]
    path = cache.mkdir("verl-cookbook-oracle") / f"hydra-compose-{key}.json"
    if path.is_file():
        return {int(k): v for k, v in json.loads(path.read_text(encoding="utf-8")).items()}
    out = _hydra_compose_all(facts)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(out), encoding="utf-8")
    tmp.replace(path)
    return out


def test_the_corpus_has_good_and_bad_lists_on_every_entry_points_config(hydra_verdicts) -> None:
    rejected = [i for i, v in hydra_verdicts.items() if v]
    assert 10 <= len(rejected) <= len(CORPUS) - 10
    assert {c for c, _o, _t in CORPUS} >= {"ppo_trainer", "sft_trainer_engine", "evaluation", "fully_async_ppo_trainer"}


@pytest.mark.parametrize("i", range(len(CORPUS)), ids=[" ".join(o) or "(none)" for _c, o, _t in CORPUS])
def test_the_checker_rejects_what_hydra_rejects(facts, hydra_verdicts, i: int) -> None:
    config, overrides, type_fails = CORPUS[i]
    assigns = [Assignment((), None, "run.sh", n + 1, 1, "set", raw=t) for n, t in enumerate(overrides)]
    found = ConfigChecker(facts, config).check(assigns)
    hydra_rejects = hydra_verdicts[i] is not None
    ours = [f for f in found if f.rule.startswith(HYDRA_RULES)]
    assert bool(ours) == hydra_rejects, (hydra_verdicts[i], [f.message for f in found])
    typed = [f for f in found if f.rule in TYPE_RULES]
    assert bool(typed) == (type_fails and not hydra_rejects), [f.message for f in found]
