"""ConfigChecker judges overrides as Hydra does (its parser, its composer, its override semantics) and types as
the dataclass a node's ``_target_`` names; each rule fails on a mistake and stays silent on the way users write
the same thing correctly."""

from __future__ import annotations

import pytest

from verl_cookbook.checks.config.checker import ConfigChecker
from verl_cookbook.checks.config.field_types import conversion_error, type_error
from verl_cookbook.checks.config.hydra_apply import assignment_from_override, entry_point_findings, resolve_config
from verl_cookbook.checks.config.model import Assignment, override_value
from verl_cookbook.folding import fold

ROLLOUT = "actor_rollout_ref.rollout"
CKPT = f"{ROLLOUT}.checkpoint_engine"


def ov(*texts: str) -> list[Assignment]:
    """Overrides as a reader that keeps the user's text hands them over: one per line of run.sh."""
    return [Assignment((), None, "run.sh", i + 1, 1, "set", raw=t) for i, t in enumerate(texts)]


def judge(facts, *texts: str, config: str = "ppo_trainer", device: str | None = None, **kw) -> list:
    return ConfigChecker(facts, config, device).check(ov(*texts), **kw)


def rules(found: list) -> list[str]:
    return [f.rule for f in found]


# -- Hydra's + / ++ / ~ ------------------------------------------------------------------------------------------
def test_plus_on_an_absent_key_is_what_plus_is_for(facts) -> None:
    found = judge(facts, f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.nccl.rebuild_group=true", "+trainer.tag=a")
    assert found == []


def test_plus_on_a_present_key_quotes_hydras_error(facts) -> None:
    (f,) = judge(facts, "+data.max_prompt_length=512")
    assert f.rule == "override/plus-on-existing" and f.line == 1
    assert "Could not append to config. An item is already at 'data.max_prompt_length'" in f.message


def test_plus_on_a_key_whose_value_is_null_is_accepted_as_hydra_does(facts) -> None:
    assert facts.default_config()["trainer"]["rollout_data_dir"] is None
    assert judge(facts, "+trainer.rollout_data_dir=/tmp/rollouts") == []


def test_double_plus_adds_or_overrides(facts) -> None:
    assert judge(facts, "++data.max_prompt_length=512", "++trainer.brand_new=1") == []


def test_a_plain_override_of_an_absent_key_is_an_unknown_key(facts) -> None:
    (f,) = judge(facts, "algorithm.use_kl_in_rewrd=False")
    assert f.rule == "config/unknown-key" and "did you mean `use_kl_in_reward`" in f.message
    assert "Could not override 'algorithm.use_kl_in_rewrd'" in f.message and f.fact_source.startswith("verl/")


def test_an_absent_key_under_an_empty_mapping_needs_plus(facts) -> None:
    (f,) = judge(facts, f"{CKPT}.engine_kwargs.nccl.rebuild_group=true")
    assert f.rule == "override/needs-plus" and f"+{CKPT}.engine_kwargs.nccl.rebuild_group=true" in f.message


def test_delete_of_a_present_key_passes_and_of_an_absent_one_fails(facts) -> None:
    assert judge(facts, "~trainer.val_before_train") == []
    (f,) = judge(facts, "~trainer.no_such_key")
    assert f.rule == "override/delete-missing" and "Could not delete from config" in f.message


def test_hydras_parse_error_is_quoted(facts) -> None:
    (f,) = judge(facts, "trainer.total_epochs==2")
    assert f.rule == "override/malformed" and "Error parsing override 'trainer.total_epochs==2'" in f.message


def test_a_sweep_needs_multirun(facts) -> None:
    assert rules(judge(facts, "trainer.total_epochs=1,2")) == ["override/sweep-without-multirun"]
    assert judge(facts, "trainer.total_epochs=1,2", multirun=True) == []


def test_hydras_own_config_is_not_verls(facts) -> None:
    assert judge(facts, "hydra.run.dir=/tmp/out", "hydra/job_logging=disabled") == []


def test_every_later_override_is_still_checked_after_a_rejected_one(facts) -> None:
    found = judge(facts, "+data.max_prompt_length=1", "trainer.no_such=1", "trainer.total_epochs=3")
    assert [(f.rule, f.line) for f in found] == [("override/plus-on-existing", 1), ("config/unknown-key", 2)]


# -- config groups -----------------------------------------------------------------------------------------------
def test_model_engine_megatron_makes_megatron_keys_valid(facts) -> None:
    key = "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"
    assert rules(judge(facts, key)) == ["config/unknown-key"]
    assert judge(facts, "model_engine=megatron", key) == []
    assert judge(facts, key, config="ppo_megatron_trainer") == []


def test_a_group_choice_with_a_package(facts) -> None:
    assert judge(facts, "actor@actor_rollout_ref.actor=megatron_actor", "actor_rollout_ref.actor.megatron.seed=1") == []


def test_an_option_the_group_lacks_names_the_options_the_release_has(facts) -> None:
    (f,) = judge(facts, "model_engine=megatronn")
    assert f.rule == "override/group" and f.data["case"] == "missing"
    assert f.data["offered"] == ["dp", "megatron", "torchtitan", "veomni"]
    assert "verl 0.9.1 has no `model_engine` option `megatronn` (it has `dp`, `megatron`" in f.message
    assert "Config search path" not in f.message


def test_an_option_an_older_release_had_names_that_release_and_its_file(facts) -> None:
    # verl 0.9.0 ships verl/trainer/config/model_engine/mindspeed.yaml; the 0.9.1 wheel does not
    (f,) = judge(facts, "model_engine=mindspeed")
    assert (f.rule, f.data["case"], f.data["last"]) == ("override/group", "gone", "0.9.0")
    assert f.fact.startswith("verl/trainer/config/model_engine/mindspeed.yaml at tag v0.9.0")
    assert f.data["under"] == ["actor_rollout_ref.actor", "actor_rollout_ref.ref", "critic"]
    assert "verl 0.9.0 was the last release with it" in f.message


def test_keys_under_an_option_hydra_cannot_compose_are_folded_under_it_and_the_others_are_not(facts) -> None:
    found = judge(
        facts, "engine=mlite", "+engine.impl_cfg.recompute=[full]", "optim.lrr=1", config="sft_trainer_engine"
    )
    found.sort(key=lambda f: f.line)
    assert [(f.rule, f.line) for f in found] == [
        ("override/group", 1),
        ("config/not-a-field", 2),
        ("config/unknown-key", 3),
    ]
    folding = fold(found)
    assert [found[i].line for i in folding.shown] == [1, 3] and folding.cause == [None, 0, None]
    found = judge(
        facts,
        "model_engine=nope",
        "actor@actor_rollout_ref.actor=megatron_actor",
        "actor_rollout_ref.actor.megatron.seed=1",
    )
    assert [found[i].rule for i in fold(found).shown] == ["override/group"]


def test_a_package_on_something_that_is_no_group(facts) -> None:
    (f,) = judge(facts, "nosuchgroup@actor_rollout_ref.actor=x")
    assert f.rule == "override/unknown-group" and "does not exist" in f.message


# -- types from the dataclass a node's _target_ names ------------------------------------------------------------
def test_a_float_field_takes_a_float_and_an_int(facts) -> None:
    assert judge(facts, f"{ROLLOUT}.top_p=0.7", f"{ROLLOUT}.top_p=1") == []


def test_a_quoted_number_for_a_node_verl_instantiates_stays_a_string(facts) -> None:
    # the typed merge would convert '0.5'; RolloutConfig is instantiated, so the sampler gets the text "0.5"
    assert rules(judge(facts, f"{ROLLOUT}.temperature='0.5'")) == ["config/unconverted-type"]


@pytest.mark.parametrize(
    ("text", "annotation"),
    [
        ("actor_rollout_ref.model.use_shm=maybe", "bool"),
        ("actor_rollout_ref.model.trust_remote_code=perhaps", "bool"),
        (f"{ROLLOUT}.profiler.ranks=[a,b]", "list[int]"),
    ],
)
def test_a_value_the_typed_merge_cannot_take(facts, text: str, annotation: str) -> None:
    # HFModelConfig (the rollout servers) and ProfilerConfig (engine_workers.py:487) are built with
    # omega_conf_to_dataclass(…, dataclass_type=…): OmegaConf's typed merge, which raises (verl 0.9.1)
    (f,) = judge(facts, text)
    assert f.rule == "config/wrong-type" and f"`{annotation}`" in f.message and "OmegaConf:" in f.message
    assert f.fact_source.startswith("verl/") and ".py:" in f.fact_source


def test_keys_whose_default_is_an_interpolation_take_their_real_type(facts) -> None:
    assert facts.default_config()["actor_rollout_ref"]["rollout"]["prompt_length"].startswith("${oc.select:")
    assert judge(facts, f"{ROLLOUT}.prompt_length=1024", "critic.ppo_micro_batch_size_per_gpu=4") == []
    assert rules(judge(facts, "actor_rollout_ref.model.use_shm=${trainer.n_gpus_per_node}")) == []


@pytest.mark.parametrize(
    ("text", "annotation"),
    [
        (f"{ROLLOUT}.top_p=abc", "float"),
        (f"{ROLLOUT}.free_cache_engine=maybe", "bool"),
        (f"{ROLLOUT}.prompt_length=long", "int"),
        ("actor_rollout_ref.actor.checkpoint.save_contents=model", "list[str]"),
        (f"{CKPT}.update_weights_bucket_megabytes=lots", "int"),
    ],
)
def test_a_string_that_a_node_verl_instantiates_cannot_hold_is_reported_unconverted(
    facts, text: str, annotation: str
) -> None:
    # omega_conf_to_dataclass(node) without dataclass_type calls hydra.utils.instantiate (verl 0.9.1
    # verl/utils/config.py:42-50), which passes the value on unconverted: RolloutConfig(top_p="abc") holds the text
    (f,) = judge(facts, text)
    assert f.rule == "config/unconverted-type" and f"is `{annotation}`" in f.message
    assert "instantiate (verl/" in f.message


def test_a_number_of_another_kind_for_a_node_verl_instantiates_is_not_judged(facts) -> None:
    assert judge(facts, f"{ROLLOUT}.n=1.5", f"{ROLLOUT}.top_p=1") == []


def test_the_typed_merge_fact_names_only_calls_with_dataclass_type_each_with_its_line(tmp_path) -> None:
    from verl_cookbook.facts.dataclass_types import typed_merges
    from verl_cookbook.verl_source import VerlTree

    pkg = tmp_path / "verl" / "workers"
    pkg.mkdir(parents=True)
    (pkg / "a.py").write_text(
        "from verl.utils.config import omega_conf_to_dataclass\n"
        "rollout = omega_conf_to_dataclass(config.rollout)\n"  # instantiated from _target_: no type check
        "model = omega_conf_to_dataclass(\n    config.model, dataclass_type=HFModelConfig\n)\n",
        encoding="utf-8",
    )
    (pkg / "b.py").write_text("p = omega_conf_to_dataclass(c, dataclass_type=cfg.ProfilerConfig)\n", encoding="utf-8")
    assert typed_merges(VerlTree(tmp_path, "t", None)) == {
        "HFModelConfig": "verl/workers/a.py:3",
        "ProfilerConfig": "verl/workers/b.py:1",
    }


def test_the_typed_merge_facts_of_each_release_name_what_its_source_calls(facts) -> None:
    typed = facts.data["dataclasses"]["typed"]
    assert facts.typed_merge("verl.workers.config.model.HFModelConfig") == typed["HFModelConfig"]
    assert facts.typed_merge("verl.workers.config.rollout.RolloutConfig") is None
    file, _, line = typed["HFModelConfig"].rpartition(":")
    assert "dataclass_type" in facts.tree.read(file).splitlines()[int(line) - 1]


def test_the_sft_optimizers_betas_quoted_as_a_string_is_reported_because_verl_passes_it_on_unconverted(facts) -> None:
    # verl's examples/sft/gsm8k/run_qwen3_5_397b_a17b_megatron.sh:103 passes optim.betas='[0.9,0.95]' inside a
    # string variable, so Hydra receives a string; McoreOptimizerConfig is instantiated from `_target_`, which keeps it
    found = judge(facts, "engine=megatron", "optim=megatron", "optim.betas='[0.9,0.95]'", config="sft_trainer_engine")
    assert rules(found) == ["config/unconverted-type"] and "McoreOptimizerConfig.betas" in found[0].message
    assert judge(facts, "optim.betas=[0.9,0.95]", config="sft_trainer_engine") == []


def test_optional_lists_and_interpolations_as_values(facts) -> None:
    assert (
        judge(
            facts,
            "critic.ppo_micro_batch_size_per_gpu=null",
            f"{ROLLOUT}.profiler.ranks=[0,1]",
            f"{ROLLOUT}.cudagraph_capture_sizes=[1,2,4]",
            f"{ROLLOUT}.n=${{trainer.n_gpus_per_node}}",
        )
        == []
    )


def test_a_node_without_a_dataclass_gets_no_type_judgment(facts) -> None:
    assert "_target_" not in facts.default_config()["trainer"]
    assert judge(facts, "trainer.logger=console", "trainer.logger=['console','wandb']") == []


def test_a_key_added_to_a_dataclass_node_that_has_no_such_field(facts) -> None:
    (f,) = judge(facts, f"+{ROLLOUT}.gpu_memory_utilisation=0.5")
    assert f.rule == "config/not-a-field" and "RolloutConfig" in f.message
    assert "did you mean `gpu_memory_utilization`" in f.message


def test_a_subtree_added_below_a_dataclass_node_must_start_at_one_of_its_fields(facts) -> None:
    fsdp = "actor_rollout_ref.actor.fsdp_config"
    assert judge(facts, f"+{fsdp}.mixed_precision.param_dtype=bf16") == []  # mixed_precision: Optional[dict]
    (f,) = judge(facts, f"+{fsdp}.mixed_precison.param_dtype=bf16")
    assert f.rule == "config/not-a-field" and "FSDPEngineConfig" in f.message and "`mixed_precision`" in f.message


@pytest.mark.parametrize(
    ("annotation", "value", "ok"),
    [
        ("float", 1, True),
        ("float", "0.7", True),
        ("int", "7", True),
        ("int", 7.5, False),
        ("Optional[int]", None, True),
        ("int | str", "auto", True),
        ("Union[int, list[int]]", [1, 2], True),
        ("Union[int, list[int]]", {"a": 1}, False),
        ("dict[str, Any]", "x", False),
        ("Optional[torch.dtype]", "bfloat16", True),
        ("SomeOtherConfig", 3, True),
        ("Literal['a', 'b']", "c", True),
        ("str", "${oc.select:x,1}", True),
        ("int", "???", True),
    ],
)
def test_conversion_follows_omegaconf(annotation: str, value, ok: bool) -> None:
    assert (conversion_error(annotation, value) is None) is ok


@pytest.mark.parametrize("value", [None, True, 3, -2.5, "a b", "it's", [1, "x"], {"k": [1]}, "${oc.env:HOME}"])
def test_a_rebuilt_override_gives_hydra_back_the_same_value(value) -> None:
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides([f"a.b={override_value(value)}"])[0]
    assert parsed.value() == value


def test_assignments_without_raw_text_are_rebuilt_for_hydra(facts) -> None:
    a = [
        Assignment(("data", "max_prompt_length"), 512, "run.sh", 1, 1, "add"),
        Assignment(("trainer", "logger"), ["console"], "run.sh", 2, 1, "set"),
    ]
    assert rules(ConfigChecker(facts).check(a)) == ["override/plus-on-existing"]


# -- entry points, their configs and flags -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("module", "config"),
    [
        ("verl.trainer.main_ppo", "ppo_trainer"),
        ("verl.trainer.sft_trainer", "sft_trainer_engine"),
        ("verl.trainer.sft_trainer_ray", "sft_trainer_engine"),
        ("verl.trainer.main_generation_server", "ppo_trainer"),
        ("verl.trainer.main_eval", "evaluation"),
        ("verl.experimental.fully_async_policy.fully_async_main", "fully_async_ppo_trainer"),
        ("verl.experimental.one_step_off_policy.main_ppo", "one_step_off_ppo_trainer"),
    ],
)
def test_each_entry_point_names_its_config_with_its_source_line(facts, module: str, config: str) -> None:
    entry = facts.entry_point(module)
    assert entry["config_name"] == config
    path, line = entry["source"].rsplit(":", 1)
    assert "@hydra.main" in facts.tree.read(path).splitlines()[int(line) - 1]
    name, folder, why = resolve_config(facts, module)
    assert (name, why) == (config, None) and ConfigChecker(facts, name, config_dir=folder).base


def test_sft_keys_are_judged_against_the_sft_config(facts) -> None:
    good = ("data.messages_key=messages", "engine=megatron", "engine.tensor_model_parallel_size=2", "optim.lr=1e-5")
    assert judge(facts, *good, config="sft_trainer_engine") == []
    assert rules(judge(facts, f"{ROLLOUT}.name=vllm", config="sft_trainer_engine")) == ["config/unknown-key"]
    assert rules(judge(facts, "data.messages_key=messages")) == ["config/unknown-key"]  # not a ppo_trainer key


def test_eval_and_generation_entry_points(facts) -> None:
    assert judge(facts, "data.path=/tmp/x.parquet", config="evaluation") == []
    assert rules(judge(facts, "data.pth=/tmp/x.parquet", config="evaluation")) == ["config/unknown-key"]
    name, _folder, _ = resolve_config(facts, "verl.trainer.main_generation_server")
    assert judge(facts, f"{ROLLOUT}.name=vllm", config=name) == []


def test_an_entry_point_the_release_lacks(facts) -> None:
    (f,) = entry_point_findings(facts, "verl.trainer.main_generation", "run.sh", 3)
    assert f.rule == "command/unknown-entry-point" and f.line == 3
    assert "verl.trainer.main_generation_server" in f.message
    assert entry_point_findings(facts, "verl.trainer.main_ppo", "run.sh", 3) == []
    assert entry_point_findings(facts, "verl.model_merger", "run.sh", 3) == []  # exists, not a Hydra entry point


def test_config_name_and_config_path_flags(facts, tmp_path) -> None:
    assert resolve_config(facts, "verl.trainer.main_ppo", "ppo_megatron_trainer.yaml")[0] == "ppo_megatron_trainer"
    name, folder, why = resolve_config(facts, "verl.trainer.main_ppo", None, "config")
    assert why is None and folder == facts.tree.root / "verl/trainer/config"
    _name, folder, why = resolve_config(facts, "verl.trainer.main_ppo", None, str(tmp_path / "nowhere"))
    assert folder is None and "--config-path" in why


def test_a_config_of_ones_own_that_builds_on_verls(facts, tmp_path) -> None:
    (tmp_path / "my_trainer.yaml").write_text(
        "hydra:\n  searchpath:\n    - pkg://verl.trainer.config\n\n"
        "defaults:\n  - ppo_trainer\n  - _self_\n\nmy_section:\n  knob: 1\n"
    )
    checker = ConfigChecker(facts, "my_trainer", config_dir=tmp_path)
    assert checker.check(ov("my_section.knob=2", "trainer.total_epochs=2")) == []
    assert rules(checker.check(ov("my_section.knobb=2"))) == ["config/unknown-key"]


def test_an_unknown_config_name_quotes_hydra(facts) -> None:
    (f,) = judge(facts, "trainer.total_epochs=1", config="ppo_trainr")
    assert f.rule == "config/unknown-config" and "Cannot find primary config 'ppo_trainr'" in f.message


def test_legacy_keys_warn_naming_the_entry_point_that_reads_them(facts) -> None:
    (f,) = judge(facts, "reward_model.enable=True")
    assert f.rule == "config/legacy-key" and f.rule.severity == "warning"  # the level is the rule's, not the text's
    assert "warning" not in f.message
    assert "fully_async_main" in f.message and "`reward.reward_model.enable`" in f.message
    assert f.fact_source.startswith("verl/experimental/reward_loop/")
    assert judge(facts, "reward_model.enable=null") == []  # null is the legacy key's "not set"
    assert rules(judge(facts, "reward_model.no_such_key=1")) == ["config/unknown-key"]  # one finding, not two
    fully_async = ConfigChecker(facts, "fully_async_ppo_trainer")
    assert fully_async.check(ov("reward_model.enable=True")) == []


# -- device rules only on a known device -------------------------------------------------------------------------
def test_an_nccl_kwarg_is_not_judged_against_the_npu_engine_when_the_device_is_unknown(facts) -> None:
    kw = f"+{CKPT}.engine_kwargs.nccl.multi_sender=true"
    assert judge(facts, f"{CKPT}.backend=nccl", kw) == []
    assert judge(facts, f"{CKPT}.backend=nccl", kw, device="gpu") == []
    assert rules(judge(facts, f"{CKPT}.backend=nccl", kw, device="npu")) == ["engine/unknown-kwarg"]
    assert rules(judge(facts, f"{CKPT}.backend=nccl", f"+{CKPT}.engine_kwargs.nccl.no_such_kw=1")) == [
        "engine/unknown-kwarg"
    ]


def test_a_shell_reader_gets_assignments_parsed_by_hydra(facts) -> None:
    a = assignment_from_override("+actor_rollout_ref.rollout.top_p=0.7", "run.sh", 4, 5)
    assert (a.path, a.value, a.op, a.line, a.col) == (tuple(f"{ROLLOUT}.top_p".split(".")), 0.7, "add", 4, 5)
    assert rules(ConfigChecker(facts).check([a])) == ["override/plus-on-existing"]
    bad = assignment_from_override("trainer.total_epochs=[1,", "run.sh", 4, 5)
    assert bad.rule == "override/malformed" and (bad.line, bad.col) == (4, 5)


def test_yaml_fragments_are_typed_by_the_dataclass_too(facts) -> None:
    def yaml(path: str, value) -> Assignment:
        return Assignment(tuple(path.split(".")), value, "cfg.yaml", 3)

    checker = ConfigChecker(facts)
    assert checker.check([yaml(f"{ROLLOUT}.top_p", 0.7), yaml("trainer.logger", "console")]) == []
    # RolloutConfig is instantiated, so a string is passed on unconverted
    assert rules(checker.check([yaml(f"{ROLLOUT}.top_p", "high")])) == ["config/unconverted-type"]
    assert rules(checker.check([yaml("actor_rollout_ref.model.use_shm", "sometimes")])) == ["config/wrong-type"]


def test_a_yaml_fragment_may_add_entries_to_a_dict_typed_field_but_an_override_needs_plus(facts) -> None:
    teachers = "distillation.teacher_models"
    assert "dict" in facts.dataclass_fields("verl.workers.config.DistillationConfig")[1]["teacher_models"]["annotation"]
    checker = ConfigChecker(facts)
    new_entry = [Assignment(tuple(f"{teachers}.math.model_path".split(".")), "Qwen/Qwen3-8B", "cfg.yaml", 4)]
    assert checker.check(new_entry) == []
    assert rules(judge(facts, f"{teachers}.math.model_path=Qwen/Qwen3-8B")) == ["config/unknown-key"]
    assert judge(facts, f"+{teachers}.math.model_path=Qwen/Qwen3-8B") == []
    typo = [Assignment(("distillation", "teacher_modles", "math"), {}, "cfg.yaml", 4)]
    assert rules(checker.check(typo)) == ["config/unknown-key"]


def test_types_are_judged_only_on_nodes_verl_converts_to_their_dataclass(facts) -> None:
    assert facts.default_config()["reward"]["_target_"].endswith("RewardConfig")
    assert not facts.converted(("reward",)) and facts.converted(("actor_rollout_ref", "actor", "policy_loss"))
    assert judge(facts, "+reward.reward_kwargs.max_resp_len=1024") == []  # verl reads `reward` as a DictConfig
    (f,) = judge(facts, "+actor_rollout_ref.actor.policy_loss.tau_pos=1.0")
    assert f.rule == "config/not-a-field" and "PolicyLossConfig" in f.message


def test_a_group_choice_written_as_a_key_is_named_as_a_group_choice(facts) -> None:
    (f,) = judge(facts, "actor_rollout_ref.actor.model_engine=megatron")
    assert f.rule == "config/unknown-key" and "`model_engine=megatron`" in f.message


def test_keys_of_the_option_a_misplaced_choice_meant_are_judged_under_that_option(facts) -> None:
    meant = (
        "actor_rollout_ref.actor.model_engine=megatron",
        "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=4",
        "actor_rollout_ref.actor.megatron.param_offload=True",
    )
    (f,) = judge(facts, *meant)  # the misplaced choice, not the megatron keys it drags along
    assert f.rule == "config/unknown-key" and f.line == 1 and "`model_engine=megatron`" in f.message
    assert judge(facts, "model_engine=megatron", *meant[1:]) == []  # the fix the finding gives is clean
    # what is wrong under the meant option too is still reported
    found = judge(facts, *meant, "actor_rollout_ref.actor.megatron.tensor_model_paralel_size=4")
    assert [(x.rule, x.line) for x in found] == [("config/unknown-key", 1), ("config/unknown-key", 4)]


def test_an_option_that_does_not_compose_leaves_its_keys_judged_on_the_default(facts) -> None:
    found = judge(facts, "actor_rollout_ref.actor.model_engine=no_such_engine", "actor_rollout_ref.actor.megatron.x=1")
    assert [(x.rule, x.line) for x in found] == [("config/unknown-key", 1), ("config/unknown-key", 2)]
    # `+` adds a key of the user's own (the actor's dataclass has no such field): no choice is meant by it
    found = judge(facts, "+actor_rollout_ref.actor.model_engine=megatron", "actor_rollout_ref.actor.megatron.x=1")
    assert sorted((x.rule, x.line) for x in found) == [("config/not-a-field", 1), ("config/unknown-key", 2)]


# -- one checker, many checks: nothing of one check is seen by the next -----------------------------------------
def _fragment(*pairs: tuple[str, object]) -> list[Assignment]:
    """A YAML fragment as the config reader hands it over: one assignment per leaf, op "yaml"."""
    return [Assignment(tuple(p.split(".")), v, "page.md", i + 1) for i, (p, v) in enumerate(pairs)]


def test_a_check_does_not_see_the_fragment_an_earlier_check_of_the_same_checker_set(facts) -> None:
    # doctor and --lenient judge many snippets with one checker: the first sets a rollout with no delta consumer
    checker = ConfigChecker(facts, "ppo_trainer", "gpu")
    first = checker.check(_fragment((f"{ROLLOUT}.name", "trtllm"), (f"{CKPT}.engine_kwargs.hccl.foo", 1)), delta=True)
    assert "delta/rejected" not in [f.rule for f in first]  # no delta backend chosen: no guard applies
    # the second sets only the backend; verl's default rollout (vllm) has a delta consumer, so verl accepts it
    second = checker.check(_fragment((f"{CKPT}.backend", "delta_sharded")), delta=True)
    assert [f.rule for f in second] == []
    # and the same second check from a fresh checker gives the same answer
    assert (
        ConfigChecker(facts, "ppo_trainer", "gpu").check(_fragment((f"{CKPT}.backend", "delta_sharded")), delta=True)
        == second
    )


def test_a_delta_setup_on_a_rollout_without_a_consumer_is_still_rejected_in_one_check(facts) -> None:
    checker = ConfigChecker(facts, "ppo_trainer", "gpu")
    found = checker.check(_fragment((f"{ROLLOUT}.name", "trtllm"), (f"{CKPT}.backend", "delta_sharded")), delta=True)
    assert [f.rule for f in found] == ["delta/rejected"]


@pytest.mark.parametrize(
    ("default", "value", "annotation", "error"),
    [
        (8, "abc", None, "int"),
        (8, True, None, "int"),  # a bool is no int here, though Python says it is
        (True, 1, None, "bool"),
        (1.0, 2, None, None),  # an int stands where a float is expected
        ("nccl", 3, None, None),  # a number stands where a string is expected (Hydra passes it on as text)
        ({}, [1], None, "dict"),
        (None, "x", "Optional[int]", "int"),
        (None, "x", "Any", None),  # no type to judge by
        (8, "${oc.env:N}", None, None),  # an interpolation is resolved at run time
    ],
)
def test_an_engine_keyword_argument_is_judged_by_the_type_of_its_python_default(default, value, annotation, error):
    assert type_error(default, value, annotation) == error
