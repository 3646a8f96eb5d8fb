"""Required and enumerated values, statically (verl_cookbook/checks/required_values.py): each fixture under
tests/data/startup/ with the findings it must give and those it must not."""

from __future__ import annotations

from pathlib import Path

import pytest

from verl_cookbook.checks import launch
from verl_cookbook.checks import required_values as rv
from verl_cookbook.doctor import diagnose

DATA = Path(__file__).parent / "data" / "startup"


def _found(facts, name: str) -> list[tuple[int, str, str]]:
    report = diagnose(DATA / name, facts, stages=launch.DOCTOR)
    return [(d.finding.line, d.finding.rule, d.finding.message) for d in report.findings if d.finding.rule in rv.RULES]


def test_a_command_with_every_required_value_set_once_gets_no_finding(facts):
    assert _found(facts, "plain_ok.sh") == []


def test_both_micro_batch_keys_set_in_a_bash_array_is_reported_at_the_deprecated_key(facts):
    found = _found(facts, "both_set_array.sh")
    assert [(ln, rule) for ln, rule, _ in found] == [(7, rv.RULE_BOTH)]
    assert "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu" in found[0][2]


def test_missing_values_under_torchrun_are_reported_at_the_command_line(facts):
    found = _found(facts, "missing_torchrun.sh")
    assert {(ln, rule) for ln, rule, _ in found} == {(3, rv.RULE_MISSING)}
    text = " ".join(m for _, _, m in found)
    assert "actor_rollout_ref.rollout.name" in text and "log_prob_micro_batch_size_per_gpu" in text
    assert "ppo_micro_batch_size" not in text.replace("log_prob_micro_batch_size", "")  # the actor's pair is set


def test_a_rollout_name_verl_has_no_rollout_for_is_reported_at_its_override(facts):
    found = _found(facts, "ray_job_bad_name.sh")
    assert [(ln, rule) for ln, rule, _ in found] == [(8, rv.RULE_NOT_ACCEPTED)]
    assert "`hf`" in found[0][2] and "vllm" in found[0][2]


def test_a_value_from_the_shell_is_never_judged_missing(facts):
    assert _found(facts, "symbolic_mbs.sh") == []


def test_rollout_names_are_read_from_the_registry_in_verl_source(verl_tree):
    names, cite = rv.rollout_names(verl_tree)
    assert {"vllm", "sglang"} <= names and "hf" not in names
    path, line = cite.rsplit(":", 1)
    assert "_ROLLOUT_REGISTRY" in verl_tree.read(path).splitlines()[int(line) - 1]


@pytest.mark.parametrize("pair", rv.PAIRS, ids=lambda p: p.section)
def test_each_micro_batch_pair_is_cited_at_the_statement_that_enforces_it(verl_tree, pair):
    line = rv._line_of(verl_tree, pair.file, pair.match)
    assert line is not None, f"{pair.file} no longer holds {pair.match!r}"
    assert pair.old in verl_tree.read(pair.file) and pair.new in verl_tree.read(pair.file)


def test_the_reference_pair_is_checked_only_when_a_reference_policy_is_needed(verl_tree):
    base = {
        "actor_rollout_ref": {
            "actor": {"use_kl_loss": False, "ppo_micro_batch_size": None, "ppo_micro_batch_size_per_gpu": 2},
            "rollout": {"name": "vllm", "log_prob_micro_batch_size": None, "log_prob_micro_batch_size_per_gpu": 2},
            "ref": {"log_prob_micro_batch_size": None, "log_prob_micro_batch_size_per_gpu": None},
        },
        "algorithm": {"adv_estimator": "grpo", "use_kl_in_reward": False},
        "critic": {"enable": None},
    }
    assert rv.check(base, {}, verl_tree, "x.sh", 1) == []
    base["actor_rollout_ref"]["actor"]["use_kl_loss"] = True
    found = rv.check(base, {}, verl_tree, "x.sh", 1)
    assert [f.rule for f in found] == [rv.RULE_MISSING] and "actor_rollout_ref.ref" in found[0].message


def test_diagnose_as_a_library_judges_them_only_when_asked_so_fixtures_may_stay_partial_commands(facts):
    assert [d for d in diagnose(DATA / "missing_torchrun.sh", facts).findings if d.finding.rule in rv.RULES] == []


def test_the_doctor_command_reports_them_by_default(capsys):
    from verl_cookbook import cli

    assert cli.main(["doctor", str(DATA / "missing_torchrun.sh")]) == 1
    assert "config/required-missing" in capsys.readouterr().out
    assert cli.main(["doctor", str(DATA / "plain_ok.sh")]) == 0  # a complete command: nothing missing


def test_startup_is_a_flag_so_the_script_after_it_is_not_taken_for_a_python():
    from verl_cookbook import cli

    args = cli.build_parser().parse_args(["doctor", "--startup", "run.sh"])
    assert args.startup is True and [str(f) for f in args.files] == ["run.sh"] and args.startup_python is None
    args = cli.build_parser().parse_args(["doctor", "run.sh", "--startup-python", "/opt/py/bin/python"])
    assert args.startup is False and args.startup_python == "/opt/py/bin/python"


# -- only where verl's startup runs validate_config ----------------------------------------------------------------
def test_a_generation_server_command_needs_no_micro_batch_keys(facts):
    # verl.trainer.main_generation_server's main never calls validate_config (verl 0.9.1 main_generation_server.py)
    assert _found(facts, "generation_server.sh") == []


def test_the_same_overrides_to_main_ppo_miss_both_micro_batch_keys(facts):
    found = _found(facts, "generation_overrides_to_main_ppo.sh")
    assert [(ln, rule) for ln, rule, _ in found] == [(5, rv.RULE_MISSING), (5, rv.RULE_MISSING)]
    text = " ".join(m for _, _, m in found)
    assert "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu" in text
    assert "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu" in text


@pytest.mark.parametrize(
    ("module", "validates"),
    [
        ("verl.trainer.main_ppo", True),
        ("verl.experimental.one_step_off_policy.main_ppo", True),
        ("verl.experimental.fully_async_policy.fully_async_main", False),
        ("verl.trainer.main_generation_server", False),
        ("verl.trainer.sft_trainer", False),
        ("verl.trainer.sft_trainer_ray", False),
        ("verl.trainer.main_eval", False),
    ],
)
def test_which_entry_points_run_validate_config_is_read_from_their_file(verl_tree, module, validates):
    assert rv.runs_validate_config(verl_tree, module) is validates


def test_without_the_entry_points_file_the_known_entry_points_decide(verl_copy):
    (verl_copy.root / "verl" / "trainer" / "main_ppo.py").unlink()
    (verl_copy.root / "verl" / "trainer" / "main_generation_server.py").unlink()
    assert rv.runs_validate_config(verl_copy, "verl.trainer.main_ppo") is True
    assert rv.runs_validate_config(verl_copy, "verl.trainer.main_generation_server") is False


def test_both_keys_set_cites_the_statement_that_rejects_both_not_the_one_that_wants_one(facts):
    """verl 0.9.1's ActorConfig raises ValueError('[actor] You have set both …') for both keys set; the assertion a
    few lines below is the other case (neither set). The finding's source is the line that raises."""
    report = diagnose(DATA / "both_set_array.sh", facts, stages=launch.DOCTOR)
    (f,) = [d.finding for d in report.findings if d.finding.rule == rv.RULE_BOTH]
    rel, line = f.fact_source.rsplit(":", 1)
    text = (facts.tree.root / rel).read_text(encoding="utf-8").splitlines()[int(line) - 1]
    assert "You have set both 'actor.ppo_micro_batch_size' AND" in text, text
