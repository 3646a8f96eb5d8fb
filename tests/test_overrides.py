"""Hydra overrides read by Hydra's own override parser, turned into config assignments."""

from __future__ import annotations

import math

import pytest

from verl_cookbook.checks.command_line import overrides_to_assignments
from verl_cookbook.hydra_overrides import OverrideError, parse_override, parse_override_value
from verl_cookbook.shell.evaluate import parse_script


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("null", None),
        ("NULL", None),
        ("true", True),
        ("False", False),
        ("10", 10),
        ("-20", -20),
        ("1_000_000", 1000000),
        ("3.14", 3.14),
        ("1e-3", 0.001),
        ("foo_10", "foo_10"),
        ("foo-bar", "foo-bar"),
        ("/path/to/model", "/path/to/model"),
        ("10.0.0.1", "10.0.0.1"),
        ("60000-60050", "60000-60050"),
        ("'hello world'", "hello world"),
        ('"it\\"s"', 'it"s'),
        ("${oc.env:HOME}", "${oc.env:HOME}"),
        ("run_${now:%H}", "run_${now:%H}"),
        ("[]", []),
        ("[a, b, [1, 2]]", ["a", "b", [1, 2]]),
        ("{}", {}),
        ("{a:10, b:{c:x}}", {"a": 10, "b": {"c": "x"}}),
        ("a\\,b", "a,b"),
        ("", ""),
        ("int(3.0)", 3),
        ("str(1)", "1"),
        ("float(2)", 2.0),
    ],
)
def test_values_are_typed_as_hydra_types_them(text: str, value: object) -> None:
    assert parse_override_value(text) == value
    assert type(parse_override_value(text)) is type(value)


def test_inf_and_nan_are_floats() -> None:
    assert math.isinf(parse_override_value("inf"))
    assert math.isnan(parse_override_value("nan"))


@pytest.mark.parametrize(
    ("arg", "first"),
    [
        ("a.b=x,y,z", "x"),
        ("a.b=choice(4,8)", 4),
        ("a.b=range(1,3)", 1),
        ("a.b=shuffle(p,q)", "p"),
        ("a.b=sort(3,1)", 1),
        ("a.b=interval(0,1)", None),
        ("a.b=glob(*)", None),
    ],
)
def test_sweeps_are_flagged_with_their_first_value(arg: str, first: object) -> None:
    ov = parse_override(arg)
    assert (ov.sweep, ov.value) == (True, first)


@pytest.mark.parametrize("arg", ["a.b=[x,y]", "a.b=x\\,y", "a.b='x,y'", "a.b=int(3.0)"])
def test_lists_escaped_commas_and_casts_are_not_sweeps(arg: str) -> None:
    assert parse_override(arg).sweep is False


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ('{"rebuild_group": true}', "no viable alternative at input '{\"rebuild_group\"'"),
        ("[1,2", "no viable alternative at input '[1,2'"),
        ("{a:1", "no viable alternative at input '{a:1'"),
        ("a#b", "LexerNoViableAltException"),
        ("'open", "LexerNoViableAltException"),
        ("${oc.env:HOME", "mismatched input '{'"),
        ("~/x", "LexerNoViableAltException"),
        ("tag(x,a,b)", "Last argument to tag()"),
    ],
)
def test_malformed_values_raise_with_hydras_message(text: str, why: str) -> None:
    with pytest.raises(OverrideError) as e:
        parse_override_value(text)
    assert why in str(e.value)
    assert "See https://hydra.cc" not in str(e.value)


@pytest.mark.parametrize(
    ("arg", "op", "key", "value", "has_value"),
    [
        ("a.b=1", "set", "a.b", 1, True),
        ("+a.b=1", "add", "a.b", 1, True),
        ("++a.b=1", "force", "a.b", 1, True),
        ("~a.b", "delete", "a.b", None, False),
        ("~a.b=1", "delete", "a.b", 1, True),
        ("a.b=", "set", "a.b", "", True),
        ("a.b=null", "set", "a.b", None, True),
        ("a.0.b=x", "set", "a.0.b", "x", True),
    ],
)
def test_override_operators(arg: str, op: str, key: str, value: object, has_value: bool) -> None:
    ov = parse_override(arg)
    assert (ov.op, ov.key, ov.value, ov.has_value, ov.group, ov.sweep) == (op, key, value, has_value, False, False)


@pytest.mark.parametrize(
    ("arg", "group"),
    [("db=mysql", False), ("hydra/launcher=basic", True), ("db@backup=mysql", True), ("db@=mysql", True)],
)
def test_group_overrides_are_told_apart(arg: str, group: bool) -> None:
    assert parse_override(arg).group is group


@pytest.mark.parametrize(
    ("arg", "why"),
    [
        ("+a.b", "missing EQUAL"),
        ("a.b", "missing EQUAL"),
        ("a..b=1", "LexerNoViableAltException"),
        ("a b=1", "LexerNoViableAltException"),
        ("-a=1", "LexerNoViableAltException"),
        ("a.b=~/x", "LexerNoViableAltException"),
    ],
)
def test_malformed_overrides_are_rejected_as_hydra_rejects_them(arg: str, why: str) -> None:
    with pytest.raises(OverrideError) as e:
        parse_override(arg)
    assert why in str(e.value)


def _cmd(text: str):
    return next(c for c in parse_script(text).commands if c.module == "verl.trainer.main_ppo")


def test_assignments_carry_file_line_and_op() -> None:
    cmd = _cmd(
        "python3 -m verl.trainer.main_ppo \\\n"
        "  --config-name=ppo_megatron_trainer.yaml \\\n"
        "  actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \\\n"
        "  '+actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl={rebuild_group: true}'\n"
    )
    assigns, findings, info = overrides_to_assignments(cmd, "run.sh")
    assert findings == []
    assert info["config_name"] == "ppo_megatron_trainer"
    assert [(a.dotted, a.op, a.line, a.file) for a in assigns] == [
        ("actor_rollout_ref.rollout.checkpoint_engine.backend", "set", 3, "run.sh"),
        ("actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl", "add", 4, "run.sh"),
    ]
    assert assigns[1].value == {"rebuild_group": True}


def test_shell_variables_make_values_symbolic() -> None:
    cmd = _cmd("python3 -m verl.trainer.main_ppo trainer.nnodes=$NNODES $EXTRA hydra.run.dir=/tmp model/actor=x\n")
    assigns, findings, info = overrides_to_assignments(cmd, "run.sh")
    assert [(a.dotted, a.value) for a in assigns] == [("trainer.nnodes", None)]
    assert info["symbolic"] == ["trainer.nnodes"]
    assert info["opaque"] == ["$EXTRA"]
    assert info["hydra"] == ["hydra.run.dir=/tmp"]


def test_malformed_override_is_a_finding_with_its_line() -> None:
    cmd = _cmd("python3 -m verl.trainer.main_ppo \\\n  a.b=1 \\\n  '+c.d={\"x\": 1}'\n")
    _assigns, findings, _info = overrides_to_assignments(cmd, "run.sh")
    assert [(f.rule, f.path, f.line) for f in findings] == [("override/malformed", "run.sh", 3)]
    assert "no viable alternative at input '{\"x\"'" in findings[0].message


def test_an_unknown_flag_is_a_finding_and_a_sweep_is_left_to_hydras_checker() -> None:
    cmd = _cmd("python3 -m verl.trainer.main_ppo --config_name x a.b=1,2\n")
    _assigns, findings, info = overrides_to_assignments(cmd, "run.sh")
    assert [f.rule for f in findings] == ["override/unknown-flag"]  # the sweep: hydra_apply, told info["multirun"]
    assert info["multirun"] is False
    assert "--config-name" in next(f.message for f in findings if f.rule == "override/unknown-flag")


def test_sweep_with_multirun_is_accepted() -> None:
    cmd = _cmd("python3 -m verl.trainer.main_ppo -m a.b=1,2\n")
    assigns, findings, info = overrides_to_assignments(cmd, "run.sh")
    assert findings == [] and info["multirun"] and assigns[0].value == 1


@pytest.mark.parametrize(("arg", "where"), [("a.b=~/x", "character 5, `~`"), ("a.b=a#b", "character 6, `#`")])
def test_hydras_caret_becomes_the_character_it_points_at(arg: str, where: str) -> None:
    with pytest.raises(OverrideError) as e:
        parse_override(arg)
    assert where in str(e.value) and "\n" not in str(e.value)


def test_a_message_without_caret_is_hydras_unchanged() -> None:
    with pytest.raises(OverrideError) as e:
        parse_override("a.b")
    assert str(e.value) == "Error parsing override 'a.b'\nmissing EQUAL at '<EOF>'"
