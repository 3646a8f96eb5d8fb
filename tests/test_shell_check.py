"""Shell blocks: bash syntax, env exports against the catalog, trainer overrides, and cmake options."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import fence, findings_for, rules

SHELL = Path(__file__).parent / "data" / "shell"


def _page(write_page, name: str, info: str = '{ .bash check="shell" device="npu" }') -> Path:
    """A page that includes the fixture as a snippet, so findings point into the snippet file."""
    return write_page(
        "# t\n\n" + fence(f'--8<-- "snippets/{name}"', info),
        files={f"snippets/{name}": (SHELL / name).read_text()},
    )


def test_good_npu_launch_passes(write_page, facts) -> None:
    assert findings_for(_page(write_page, "good_npu_launch.sh"), facts) == []


def test_backend_hccl_is_reported_at_its_snippet_line(write_page, facts) -> None:
    found = findings_for(_page(write_page, "bad_backend_hccl.sh"), facts)
    hit = next(f for f in found if f.rule == "engine/unknown-backend")
    assert hit.path.endswith("snippets/bad_backend_hccl.sh") and hit.line == 2
    assert "`nccl`" in hit.message


def test_engine_kwarg_missing_plus_is_reported(write_page, facts) -> None:
    found = findings_for(_page(write_page, "bad_missing_plus.sh"), facts)
    hit = next(f for f in found if f.rule == "override/needs-plus")
    assert hit.line == 3 and "+actor_rollout_ref" in hit.message


def test_whitelist_disable_out_of_range(write_page, facts) -> None:
    found = findings_for(_page(write_page, "bad_whitelist_disable.sh"), facts)
    assert rules(found) == ["env/invalid-value"]
    assert found[0].line == 1 and "hicann/hccl" in (found[0].fact_source or "")


def test_cmake_option_typo_gets_did_you_mean(write_page, facts) -> None:
    found = findings_for(_page(write_page, "bad_cmake_typo.sh"), facts)
    hit = next(f for f in found if f.rule == "cmake/unknown-option")
    assert hit.line == 3 and "USE_ASCEND_DIRECT" in hit.message
    assert "common.cmake#L" in (hit.fact_source or "")


def test_good_cmake_line_passes(write_page, facts) -> None:
    assert findings_for(_page(write_page, "good_cmake.sh"), facts) == []


def test_bash_syntax_error_names_the_file_and_line(write_page, facts) -> None:
    found = findings_for(_page(write_page, "bad_syntax.sh"), facts)
    assert rules(found) == ["shell/syntax"]
    assert found[0].path.endswith("snippets/bad_syntax.sh")


@pytest.mark.parametrize(
    ("code", "rule"),
    [
        ("export HCCL_WHITELIST_DISABEL=0", "env/unknown-name"),
        ("export ASCEND_USE_ASYNC_TRANSFER=0", "env/presence-enables"),
        ("HCCL_BUFFSIZE=200\npython3 train.py", "env/not-exported"),
        ("export HCCL_WHITELIST_DISABLE=0", "env/requires"),
        ("export HCCL_NPU_SOCKET_PORT_RANGE=61000-61050,61040", "env/invalid-value"),
        ("export ASCEND_RT_VISIBLE_DEVICES='0, 1'", "env/invalid-value"),
        ("export HCCL_INTRA_ROCE_ENABLE=1 HCCL_INTRA_PCIE_ENABLE=1", "env/conflict"),
        ("export ASCEND_BUFFER_POOL=4:8 ASCEND_USE_ASYNC_TRANSFER=1", "env/conflict"),
    ],
)
def test_env_mistakes(write_page, facts, code: str, rule: str) -> None:
    page = write_page("# t\n\n" + fence(code, '{ .bash check="shell" }'))
    assert rule in rules(findings_for(page, facts))


@pytest.mark.parametrize(
    "code",
    [
        "export HCCL_BUFFSIZE=400",
        "export ASCEND_HOME_PATH=/usr/local/Ascend",  # a CANN variable, not a typo of a catalogued one
        'export HCCL_IF_IP="$NODE_IP"',  # known only at run time: not judged
        "set -a\nHCCL_BUFFSIZE=200\nset +a",
        "export RAY_DEDUP_LOGS=0",
    ],
)
def test_env_that_is_fine(write_page, facts, code: str) -> None:
    page = write_page("# t\n\n" + fence(code, '{ .bash check="shell" }'))
    assert findings_for(page, facts) == []


def test_malformed_override_in_block(write_page, facts) -> None:
    code = "python3 -m verl.trainer.main_ppo \\\n  '+a.b={\"x\": 1}'"
    page = write_page("# t\n\n" + fence(code, '{ .bash check="shell" }'))
    found = findings_for(page, facts)
    assert rules(found) == ["override/malformed"] and found[0].line == 5


def test_config_name_on_the_command_line_selects_the_config(write_page, facts) -> None:
    code = (
        "python3 -m verl.trainer.main_ppo --config-name ppo_megatron_trainer "
        "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2"
    )
    page = write_page("# t\n\n" + fence(code, '{ .bash check="shell" }'))
    assert findings_for(page, facts) == []
    page = write_page(
        "# t\n\n" + fence(code.replace(" --config-name ppo_megatron_trainer", ""), '{ .bash check="shell" }')
    )
    assert "config/unknown-key" in rules(findings_for(page, facts))


@pytest.mark.skipif(
    shutil.which("shellcheck") is None, reason="shellcheck not installed (scripts/install.sh installs it)"
)
def test_shellcheck_warnings_become_findings(write_page, facts) -> None:
    page = write_page("# t\n\n" + fence('for f in $(ls *.sh); do echo "$f"; done', '{ .bash check="shell" }'))
    assert any(r.startswith("shellcheck/SC") for r in rules(findings_for(page, facts)))


def test_shellcheck_past_its_deadline_is_a_timeout_finding_not_silence(monkeypatch) -> None:
    from verl_cookbook.checks import shell_tools

    monkeypatch.setattr(shell_tools, "TIMEOUT_S", 0.001)  # ShellCheck cannot start in that time
    (f,) = shell_tools.shellcheck('for f in $(ls *.sh); do echo "$f"; done\n', lambda ln: ("run.sh", ln))
    assert (f.rule, f.path, f.line) == ("shell/timeout", "run.sh", 1)
    assert f.message == "ShellCheck did not finish within 0.001 s"
