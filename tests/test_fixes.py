"""--diff and --fix: each mechanical fix is the edit its rule computes from the finding's data; a finding whose line
does not read as the finding says gets none; the commands print or write exactly that, and a fixed file re-checks
without the findings that were fixed and with no new one."""

from __future__ import annotations

from pathlib import Path

import pytest

from verl_cookbook import cli, fixes
from verl_cookbook.rules.config import (
    COMMAND_MISSING_DASH_M,
    CONFIG_LEGACY_KEY,
    CONFIG_UNCONVERTED_TYPE,
    CONFIG_UNKNOWN_KEY,
    OVERRIDE_MALFORMED,
    OVERRIDE_NEEDS_PLUS,
    OVERRIDE_PLUS_ON_EXISTING,
)
from verl_cookbook.rules.lenient import LENIENT_WRONG_LANGUAGE
from verl_cookbook.rules.scripts import SHELL_AFTER_PIPE, SHELLCHECK_SC
from verl_cookbook.rules.upgrade import UPGRADE_ENTRY_POINT_MOVED, UPGRADE_KEY_MOVED


def _fix(tmp_path: Path, text: str, finding) -> str:
    """The file after the one fix ``finding`` calls for (``finding`` made for a file named f.sh)."""
    path = tmp_path / "f.sh"
    path.write_text(text, encoding="utf-8")
    p = fixes.plan([finding], fixes.resolver(tmp_path))
    return p.files[0].result.text if p.files else text


PPO = "python3 -m verl.trainer.main_ppo \\\n"


def test_a_moved_key_is_rewritten_to_the_releases_key(tmp_path: Path) -> None:
    f = UPGRADE_KEY_MOVED.at("f.sh", 2, 5, key="train_batch_size", new="data.train_batch_size", release="0.9.1")
    out = _fix(tmp_path, PPO + "    train_batch_size=${BSZ} \\\n    trainer.nnodes=1\n", f)
    assert "    data.train_batch_size=${BSZ} \\\n" in out


def test_a_legacy_reward_key_moves_under_reward(tmp_path: Path) -> None:
    f = CONFIG_LEGACY_KEY.at(
        "f.sh", 2, 5, key="custom_reward_function.path", readers=["verl.trainer.main_ppo"], migrating=["x"],
        function="migrate_legacy_reward_impl", new="reward.custom_reward_function.path",
    )  # fmt: skip
    out = _fix(tmp_path, PPO + "    custom_reward_function.path=r.py \\\n    trainer.nnodes=1\n", f)
    assert "    reward.custom_reward_function.path=r.py \\\n" in out


def test_a_key_that_needs_plus_gets_it_and_one_that_exists_loses_it(tmp_path: Path) -> None:
    key = "actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend"
    add = OVERRIDE_NEEDS_PLUS.at("f.sh", 2, 5, key=key, config="ppo_trainer", override=f"{key}=triton")
    assert f"    +{key}=triton\n" in _fix(tmp_path, PPO + f"    {key}=triton\n", add)
    key2 = "actor_rollout_ref.model.lora.merge"
    drop = OVERRIDE_PLUS_ON_EXISTING.at("f.sh", 2, 5, key=key2, config="ppo_trainer", override=f"+{key2}=True")
    assert f"    {key2}=True\n" in _fix(tmp_path, PPO + f"    +{key2}=True\n", drop)


def test_plus_is_not_the_fix_for_a_key_under_a_section_verl_migrates(tmp_path: Path) -> None:
    """With `+` Hydra takes `reward_model.reward_manager.name`, and verl's v1 entry point still never reads it."""
    key = "reward_model.reward_manager.name"
    f = OVERRIDE_NEEDS_PLUS.at("f.sh", 2, 5, key=key, config="ppo_trainer", override=f"{key}=dapo", legacy=True)
    text = PPO + f"    {key}=dapo\n"
    assert _fix(tmp_path, text, f) == text
    assert fixes.plan([f], fixes.resolver(tmp_path)).unfixable == [f]


def test_python_without_dash_m_gets_it_and_a_moved_entry_point_its_new_module(tmp_path: Path) -> None:
    mod = "verl.experimental.fully_async_policy.fully_async_main"
    f = COMMAND_MISSING_DASH_M.at("f.sh", 1, 9, prog="python3", module=mod)
    assert _fix(tmp_path, f"python3 {mod} \\\n    x=1\n", f).startswith(f"python3 -m {mod} \\\n")
    g = UPGRADE_ENTRY_POINT_MOVED.at(
        "f.sh",
        1,
        12,
        old="verl.trainer.main_ppo_sync",
        new="verl.trainer.main_ppo",
        since="0.9.0",
        release="0.9.1",
        config="ppo_trainer",
    )
    assert _fix(tmp_path, "python3 -m verl.trainer.main_ppo_sync \\\n", g) == "python3 -m verl.trainer.main_ppo \\\n"


def test_a_moved_entry_point_carries_the_old_configs_required_defaults_as_overrides(tmp_path: Path) -> None:
    g = UPGRADE_ENTRY_POINT_MOVED.at(
        "f.sh", 1, 12, old="verl.trainer.main_generation", new="verl.trainer.main_generation_server", since="0.7.1",
        release="0.9.1", config="ppo_trainer", keep=["actor_rollout_ref.rollout.name=vllm"],
    )  # fmt: skip
    out = _fix(tmp_path, "python3 -m verl.trainer.main_generation \\\n    x=1\n", g)
    assert out == "python3 -m verl.trainer.main_generation_server actor_rollout_ref.rollout.name=vllm \\\n    x=1\n"


@pytest.mark.parametrize(
    ("fence", "fixed"),
    [
        ("```bash\n", "```text\n"),
        ("``` { .bash }\n", "``` { .text }\n"),
        (".. code:: bash\n", ".. code:: text\n"),
        ("   .. code-block:: bash\n", "   .. code-block:: text\n"),
    ],
)
def test_a_block_of_output_tagged_bash_is_tagged_text(tmp_path: Path, fence: str, fixed: str) -> None:
    f = LENIENT_WRONG_LANGUAGE.at("f.sh", 1, 1, case="log", lang="bash", tag="text")
    assert _fix(tmp_path, fence + "INFO started\n", f).startswith(fixed)


def test_a_tag_that_is_not_the_one_the_finding_names_is_left_alone(tmp_path: Path) -> None:
    f = LENIENT_WRONG_LANGUAGE.at("f.sh", 1, 1, case="log", lang="bash", tag="text")
    assert _fix(tmp_path, "```bashrc\nx\n", f) == "```bashrc\nx\n"  # not the word `bash`
    assert _fix(tmp_path, "```shell\nx\n", f) == "```shell\nx\n"


def test_an_override_written_with_spaces_around_equals_is_joined(tmp_path: Path) -> None:
    f = SHELLCHECK_SC.member("2283").at("f.sh", 1, 40, message="Remove spaces around =", code="SC2283")
    out = _fix(tmp_path, '    trainer.v1.sampler.path = "p.py"\n', f)
    assert out == '    trainer.v1.sampler.path="p.py"\n'
    plain = SHELLCHECK_SC.member("2283").at("f.sh", 1, 1, message="Remove spaces around =", code="SC2283")
    assert _fix(tmp_path, "x = 1\n", plain) == "x = 1\n"  # a shell variable, not an override: no fix


def test_overrides_after_tee_move_before_it_and_the_log_still_goes_to_tee(tmp_path: Path) -> None:
    text = PPO + "    trainer.total_epochs=15 2>&1 | tee log.txt \\\n    trainer.resume_mode=disable\n"
    f = SHELL_AFTER_PIPE.at("f.sh", 3, 5, word="trainer.resume_mode=disable", line=2, module="verl.trainer.main_ppo")
    out = _fix(tmp_path, text, f)
    assert out == PPO + "    trainer.total_epochs=15 \\\n    trainer.resume_mode=disable 2>&1 | tee log.txt\n"


def test_a_quoted_value_loses_the_quotes_the_shell_passes_on(tmp_path: Path) -> None:
    f = CONFIG_UNCONVERTED_TYPE.at(
        "f.sh", 1, 10, key="optim.betas", value="'[0.9,0.95]'", cls="C", field="betas",
        annotation="tuple[float, float]", built="x.py:1",
    )  # fmt: skip
    assert _fix(tmp_path, "OPTIM=\"optim.betas='[0.9,0.95]'\"\n", f) == 'OPTIM="optim.betas=[0.9,0.95]"\n'


SFT_ENGINE = """ENGINE_CONFIG="\\
    engine=megatron \\
    optim=megatron \\
    optim.betas={betas} \\
    engine.tensor_model_parallel_size=2"

torchrun --nproc_per_node=8 -m verl.trainer.sft_trainer \\
    model.path=Qwen/Qwen3-8B \\
    ${{ENGINE_CONFIG}}
"""


def test_a_value_hydra_read_as_a_quoted_string_loses_its_quotes_in_a_real_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As verl's own v0.7.1 SFT examples write it: the finding carries the value Hydra read (no quotes), and the
    quotes are on the line inside the double-quoted variable."""
    script = tmp_path / "sft.sh"
    script.write_text(SFT_ENGINE.format(betas="'[0.9,0.95]'"), encoding="utf-8")
    cli.main(["doctor", "--verl", "0.9.1", "--fix", "-q", str(script)])
    assert "fixed 1 of 1" in capsys.readouterr().err
    assert script.read_text(encoding="utf-8") == SFT_ENGINE.format(betas="[0.9,0.95]")
    assert cli.main(["doctor", "--verl", "0.9.1", "-q", str(script)]) == 0


COMMENTED = """set -x
python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \\
{comment_line}    algorithm.adv_estimator=grpo \\{trailing}
    trainer.total_epochs=2
"""


@pytest.mark.parametrize(
    ("comment_line", "trailing"),
    [("    # GRPO: no critic\n", ""), ("", '  # ["gae", "grpo"]')],
    ids=["comment-line", "after-backslash"],
)
def test_a_comment_that_cuts_a_command_short_moves_above_the_command(
    tmp_path: Path, comment_line: str, trailing: str
) -> None:
    """Both ways verl's own examples write it (v0.7.1 run_qwen3_vl-30b-megatron.sh, run_deepseek7b_llm_pfppo.sh):
    the comment is kept, above the command, and the re-check finds the whole command and nothing wrong."""
    script = tmp_path / "run.sh"
    script.write_text(COMMENTED.format(comment_line=comment_line, trailing=trailing), encoding="utf-8")
    assert cli.main(["doctor", "--verl", "0.9.1", "-q", str(script)]) == 1
    cli.main(["doctor", "--verl", "0.9.1", "--fix", "-q", str(script)])
    comment = (comment_line or trailing).strip()
    fixed = COMMENTED.format(comment_line="", trailing="").replace("python3", f"{comment}\npython3")
    assert script.read_text(encoding="utf-8") == fixed
    assert cli.main(["doctor", "--verl", "0.9.1", "-q", str(script)]) == 0


def test_a_comment_above_the_command_is_silent(tmp_path: Path) -> None:
    script = tmp_path / "run.sh"
    script.write_text(COMMENTED.format(comment_line="", trailing="").replace("python3", "# GRPO\npython3"))
    assert cli.main(["doctor", "--verl", "0.9.1", "-q", str(script)]) == 0


def test_a_finding_without_a_mechanical_fix_changes_nothing(tmp_path: Path) -> None:
    f = CONFIG_UNKNOWN_KEY.at("f.sh", 2, 5, key="trainer.nope", config="ppo_trainer", name="nope", parent="trainer")
    p = fixes.plan([f], fixes.resolver(tmp_path))
    assert p.files == [] and p.unfixable == [f]


def test_a_crlf_file_keeps_its_line_ends(tmp_path: Path) -> None:
    f = UPGRADE_KEY_MOVED.at("f.sh", 2, 5, key="train_batch_size", new="data.train_batch_size", release="0.9.1")
    path = tmp_path / "f.sh"
    path.write_bytes(b"python3 -m verl.trainer.main_ppo \\\r\n    train_batch_size=8\r\n")
    p = fixes.plan([f], fixes.resolver(tmp_path))
    assert p.files[0].result.text == "python3 -m verl.trainer.main_ppo \\\r\n    data.train_batch_size=8\r\n"


SCRIPT = (
    "#!/usr/bin/env bash\n"
    "python3 -m verl.trainer.main_ppo \\\n"
    "    +actor_rollout_ref.model.lora.merge=True \\\n"
    "    actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=triton \\\n"
    "    trainer.total_epochs=2 2>&1 | tee run.log \\\n"
    "    trainer.save_freq=10\n"
)


def test_doctor_diff_prints_the_fixes_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    assert cli.main(["doctor", "--verl", "0.9.1", "--diff", str(script)]) == 1
    out = capsys.readouterr()
    assert script.read_text(encoding="utf-8") == SCRIPT
    assert "-    +actor_rollout_ref.model.lora.merge=True \\" in out.out
    assert "+    actor_rollout_ref.model.lora.merge=True \\" in out.out
    assert "+    trainer.save_freq=10 2>&1 | tee run.log" in out.out
    assert "can fix 3 of" in out.err


def test_doctor_fix_writes_the_file_and_the_recheck_finds_nothing_it_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "run.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    cli.main(["doctor", "--verl", "0.9.1", "--fix", str(script)])
    assert "fixed 3 of" in capsys.readouterr().err
    fixed = script.read_text(encoding="utf-8")
    assert "+actor_rollout_ref.rollout.engine_kwargs.sglang.attention_backend=triton" in fixed
    assert fixed.rstrip().endswith("trainer.save_freq=10 2>&1 | tee run.log")
    cli.main(["doctor", "--verl", "0.9.1", "--format", "json", str(script)])
    import json

    rules = {f["rule"] for f in json.loads(capsys.readouterr().out)["findings"]}
    assert not rules & {"override/plus-on-existing", "override/needs-plus", "shell/after-pipe"}


def test_check_fix_retags_a_log_block_of_another_projects_page(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    page = tmp_path / "page.md"
    text = "# p\n\n```bash\n2026-12-05 10:00:00 INFO worker started\n2026-12-05 10:00:01 INFO step 1 done\n```\n"
    page.write_text(text, encoding="utf-8")
    assert cli.main(["check", "--verl", "0.9.1", "--lenient", "--diff", str(page)]) == 1
    assert "+```text" in capsys.readouterr().out and page.read_text(encoding="utf-8") == text
    assert cli.main(["check", "--verl", "0.9.1", "--lenient", "--fix", str(page)]) == 0
    assert page.read_text(encoding="utf-8") == text.replace("```bash", "```text")
    assert cli.main(["check", "--verl", "0.9.1", "--lenient", str(page)]) == 0


def test_diff_and_fix_cannot_be_asked_together(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["doctor", "--diff", "--fix", "x.sh"])
    assert e.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_key_the_release_removed_is_dropped_with_its_line(tmp_path: Path) -> None:
    from verl_cookbook.rules.upgrade import UPGRADE_KEY_REMOVED

    key = "trainer.use_legacy_worker_impl"
    f = UPGRADE_KEY_REMOVED.at("f.sh", 3, 5, key=key, last="0.7.1", since="0.8.0", release="0.9.1")
    text = PPO + "    trainer.nnodes=1 \\\n    trainer.use_legacy_worker_impl=auto \\\n    trainer.save_freq=5\n"
    assert _fix(tmp_path, text, f) == PPO + "    trainer.nnodes=1 \\\n    trainer.save_freq=5\n"
    inline = UPGRADE_KEY_REMOVED.at("f.sh", 1, 35, key=key, last="0.7.1", since="0.8.0", release="0.9.1")
    one = "python3 -m verl.trainer.main_ppo trainer.use_legacy_worker_impl=auto trainer.nnodes=1\n"
    assert _fix(tmp_path, one, inline) == "python3 -m verl.trainer.main_ppo trainer.nnodes=1\n"


def test_a_removed_key_with_a_quoted_value_is_left_for_the_user(tmp_path: Path) -> None:
    from verl_cookbook.rules.upgrade import UPGRADE_KEY_REMOVED

    key = "trainer.use_legacy_worker_impl"
    f = UPGRADE_KEY_REMOVED.at("f.sh", 2, 5, key=key, last="0.7.1", since="0.8.0", release="0.9.1")
    text = PPO + "    trainer.use_legacy_worker_impl='a b' \\\n    trainer.nnodes=1\n"
    assert _fix(tmp_path, text, f) == text


def _fix_page(tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    """Another project's page with ``body`` in it, after ``check --lenient --fix``; and what a re-check reports."""
    page = tmp_path / "page.md"
    page.write_text(f"# p\n\n{body}", encoding="utf-8")
    cli.main(["check", "--verl", "0.9.1", "--lenient", "--fix", str(page)])
    capsys.readouterr()
    cli.main(["check", "--verl", "0.9.1", "--lenient", str(page)])
    return page.read_text(encoding="utf-8"), capsys.readouterr().out


NPU_CONTENTS = "actor_rollout_ref.actor.profiler.tool_config.npu.contents"


def test_a_sweep_on_a_list_field_becomes_the_list_and_rechecks_clean(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = f"```bash\n{PPO}    {NPU_CONTENTS}=npu,cpu \\\n    trainer.nnodes=1\n```\n"
    fixed, left = _fix_page(tmp_path, body, capsys)
    assert f"    {NPU_CONTENTS}=[npu,cpu] \\\n" in fixed
    assert "sweep-without-multirun" not in left


def test_a_sweep_on_a_field_that_is_no_list_is_left_for_the_user(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = f"```bash\n{PPO}    trainer.total_epochs=1,2 \\\n    trainer.nnodes=1\n```\n"
    fixed, left = _fix_page(tmp_path, body, capsys)
    assert fixed == f"# p\n\n{body}" and "override/sweep-without-multirun" in left


GLOB_KEY = "+actor_rollout_ref.actor.fsdp_config.turbo_config.distributed.fsdp_plan.apply_modules"


def test_a_glob_in_a_quoted_dict_key_is_escaped_as_hydra_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = f"```bash\n{PPO}    {GLOB_KEY}='{{model.layers.{{*}}:{{}},lm_head:{{}}}}' \\\n    trainer.nnodes=1\n```\n"
    fixed, left = _fix_page(tmp_path, body, capsys)
    assert f"{GLOB_KEY}='{{model.layers.\\{{*\\}}:{{}},lm_head:{{}}}}' \\\n" in fixed
    assert "override/malformed" not in left


def test_a_glob_in_an_unquoted_dict_key_is_left_since_bash_would_eat_the_backslashes(tmp_path: Path) -> None:
    f = OVERRIDE_MALFORMED.at("f.sh", 2, 5, override=f"{GLOB_KEY}={{a.{{*}}:{{}}}}", hydra="no viable alternative")
    text = PPO + f"    {GLOB_KEY}={{a.{{*}}:{{}}}} \\\n    trainer.nnodes=1\n"
    assert _fix(tmp_path, text, f) == text


def test_comment_lines_inside_a_command_move_above_it_and_the_command_is_whole_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = (
        f"```bash\n{PPO}    trainer.nnodes=1 \\\n    # placement\n    trainer.n_gpus_per_node=8 \\\n"
        "    # logging\n    trainer.logger=console\n```\n"
    )
    fixed, left = _fix_page(tmp_path, body, capsys)
    assert fixed.startswith("# p\n\n```bash\n# placement\n# logging\npython3 -m verl.trainer.main_ppo \\\n")
    assert "    trainer.nnodes=1 \\\n    trainer.n_gpus_per_node=8 \\\n    trainer.logger=console\n" in fixed
    assert "comment-ends-command" not in left


def test_a_comment_above_a_command_is_no_finding_and_is_not_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = f"```bash\n# placement\n{PPO}    trainer.nnodes=1\n```\n"
    fixed, left = _fix_page(tmp_path, body, capsys)
    assert fixed == f"# p\n\n{body}" and "comment-ends-command" not in left


def test_a_trailing_comma_in_json_is_removed_and_the_block_parses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = '```json\n{\n  "a": {\n    "b": 1\n  },\n}\n```\n'
    fixed, left = _fix_page(tmp_path, body, capsys)
    assert '  "a": {\n    "b": 1\n  }\n}\n' in fixed and "json/syntax" not in left


def test_json_with_a_missing_key_is_left_for_the_user(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = '```json\n{ "host_ip": ["ip1"], ["ip2"] }\n```\n'
    fixed, left = _fix_page(tmp_path, body, capsys)
    assert fixed == f"# p\n\n{body}" and "json/syntax" in left


def test_the_legacy_reward_manager_moves_to_its_name_field_as_verls_migration_assigns_it(tmp_path: Path, facts) -> None:
    """review11b: the migration's comment says `reward_model.reward_manager -> reward.reward_manager`, but its code
    assigns `config.reward.reward_manager.name`; following the comment replaced the whole section with a string."""
    from verl_cookbook.doctor import diagnose

    script = tmp_path / "run.sh"
    script.write_text("python3 -m verl.trainer.main_ppo reward_model.reward_manager=dapo\n", encoding="utf-8")
    (legacy,) = [d for d in diagnose(script, facts).findings if d.finding.rule == "config/legacy-key"]
    assert legacy.finding.data["new"] == "reward.reward_manager.name"
    assert "set `reward.reward_manager.name` instead" in legacy.finding.message
