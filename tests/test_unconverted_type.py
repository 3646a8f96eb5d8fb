"""``config/unconverted-type``: a value under a node verl instantiates from its ``_target_`` that cannot be what the
field holds is reported with the place verl builds the node; verl's own code, run, shows what happens to it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from helpers import fence, findings_for, rules, startup_python

from verl_cookbook.checks.config.field_types import unconverted_case
from verl_cookbook.facts import Facts

RUNS = Path(__file__).parent / "data" / "runs"


def test_verl_keeps_a_string_for_betas_when_it_instantiates_and_torch_then_refuses_it() -> None:
    done = subprocess.run(
        [startup_python("0.9.1"), str(RUNS / "optimizer_betas.py")], capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got["string"]["held"] == "str"  # instantiate converted nothing
    assert got["string"]["built"].startswith("TypeError")  # verl's build_optimizer hands it to torch, which fails
    assert got["string"]["typed"] == "ValidationError"  # the typed merge would have refused it
    assert got["list"] == {"held": "list", "built": "AdamW", "typed": "list"}


@pytest.mark.parametrize(
    ("annotation", "value", "case"),
    [
        ("tuple[float, float]", "[0.9,0.95]", ""),
        ("float", "1e-5", ""),
        ("Optional[int]", "3", ""),
        ("dict[str, Any]", [1], "list"),
        ("float", [1.0], "list"),
        ("int", {"a": 1}, "mapping"),
    ],
)
def test_a_value_the_field_cannot_hold_as_written_is_a_case(annotation: str, value, case: str) -> None:
    assert unconverted_case(annotation, value) == case


@pytest.mark.parametrize(
    ("annotation", "value"),
    [
        ("tuple[float, float]", [0.9, 0.95]),  # a list for a tuple: OmegaConf and verl store a tuple as a list
        ("float", 1e-5),
        ("float", 3),  # a number for a number of another kind
        ("str", "x"),
        ("int | str", "x"),
        ("Optional[str]", None),
        ("float", "${oc.env:LR}"),  # resolved at run time
        ("float", "???"),
        ("SomeConfig", "x"),  # another class: not judged
        ("Any", "x"),
    ],
)
def test_a_value_the_field_can_hold_is_not_a_case(annotation: str, value) -> None:
    assert unconverted_case(annotation, value) is None


BETAS_IN_A_VARIABLE = """#!/usr/bin/env bash
OPTIM="actor_rollout_ref.actor.optim.lr=1e-6 actor_rollout_ref.actor.optim.betas='[0.9,0.95]'"
python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm \\
    $OPTIM
"""


def test_betas_quoted_inside_a_double_quoted_variable_is_reported_where_verl_builds_the_optimizer(
    write_page, facts: Facts
) -> None:
    page = write_page("# p\n\n" + fence(BETAS_IN_A_VARIABLE, '{ .bash check="shell" }'))
    (f,) = [f for f in findings_for(page, facts) if f.rule == "config/unconverted-type"]
    assert f.line == 5 and "`'[0.9,0.95]'` is a string" in f.message and "tuple[float, float]" in f.message
    assert "hydra.utils.instantiate (verl/" in f.message  # the omega_conf_to_dataclass call that builds it
    assert f.fact_source and f.fact_source.startswith("verl/workers/config/optimizer.py:")


def test_betas_written_as_a_list_passes(write_page, facts: Facts) -> None:
    script = BETAS_IN_A_VARIABLE.replace("betas='[0.9,0.95]'", "betas=[0.9,0.95]")
    page = write_page("# p\n\n" + fence(script, '{ .bash check="shell" }'))
    assert "config/unconverted-type" not in rules(findings_for(page, facts))
