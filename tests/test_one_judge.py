"""One judge for a command that launches verl (``verl_cookbook.checks.launch``): a ``check="shell"`` block and
``doctor`` give the same findings for the same command, asking for the same stages; they differ only in the stages
they declare (a page's block: static; doctor: static and the values verl requires) and in doctor's own rules about
the machine (``ascend/``)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from helpers import fence, findings_for

from verl_cookbook.checks import launch
from verl_cookbook.checks.shell import check_script
from verl_cookbook.doc_reader import read_page
from verl_cookbook.doctor import diagnose
from verl_cookbook.facts import Facts

REPO = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
# What only doctor has: its rules about the machine; and what each caller checks before the judge (bash's syntax).
OUTSIDE_THE_JUDGE = ("ascend/", "shell/syntax", "shell/timeout")

SWEEP = "python3 -m verl.trainer.main_ppo {flag}trainer.total_epochs=1,2 actor_rollout_ref.rollout.name=vllm\n"
TYPO = "export HCCL_CONNECT_TIMEOT=1200\npython3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm\n"


def _both(write_page, facts: Facts, tmp_path: Path, script: str) -> tuple[list[str], list[str]]:
    """The rules `check` (a shell block) and `doctor` (a launch script) report for ``script``."""
    page = write_page("# p\n\n" + fence(script, '{ .bash check="shell" device="npu" }'))
    path = tmp_path / "run.sh"
    path.write_text(script, encoding="utf-8")
    doctor = [d.finding.rule for d in diagnose(path, facts, device="npu").findings]
    return [f.rule for f in findings_for(page, facts)], doctor


@pytest.mark.parametrize("flag", ["--multirun ", "-m "])
def test_a_sweep_with_multirun_passes_through_check_and_doctor(write_page, facts, tmp_path, flag: str) -> None:
    on_page, in_doctor = _both(write_page, facts, tmp_path, SWEEP.format(flag=flag))
    assert "override/sweep-without-multirun" not in on_page + in_doctor


def test_a_sweep_without_multirun_is_reported_once_by_check_and_by_doctor(write_page, facts, tmp_path) -> None:
    on_page, in_doctor = _both(write_page, facts, tmp_path, SWEEP.format(flag=""))
    assert on_page.count("override/sweep-without-multirun") == in_doctor.count("override/sweep-without-multirun") == 1


def test_a_misspelt_export_is_reported_by_check_and_by_doctor(write_page, facts, tmp_path) -> None:
    on_page, in_doctor = _both(write_page, facts, tmp_path, TYPO)
    assert "env/unknown-name" in on_page and "env/unknown-name" in in_doctor


def test_the_required_values_are_a_stage_any_caller_may_ask_for(facts: Facts) -> None:
    script = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm\n"

    def where(line: int) -> tuple[str, int]:
        return ("run.sh", line)

    static = check_script(script, where, facts, "gpu", stages=launch.SHELL_BLOCK)
    required = check_script(script, where, facts, "gpu", stages=launch.DOCTOR)
    assert "config/required-missing" not in [f.rule for f in static]
    assert "config/required-missing" in [f.rule for f in required]


def _commands_of_the_site_and_the_tests() -> list[tuple[str, str]]:
    """(name, script) for every shell block of the site (includes resolved) and every launch script of the tests."""
    out = []
    for md in sorted((REPO / "docs").rglob("*.md")):  # both languages: a 中文 page may include a 中文 variant
        for block in read_page(md, REPO, bases=[REPO]).blocks:
            if block.attrs.get("check") == "shell" and "verl" in block.code:
                out.append((f"{md.relative_to(REPO)}:{block.line}", block.code))
    for sh in sorted([*(DATA / "doctor").glob("*.sh"), *(DATA / "launch").glob("*.sh")]):
        out.append((str(sh.relative_to(REPO)), sh.read_text(encoding="utf-8")))
    return out


def _judged(findings) -> Counter:
    return Counter(
        (f.rule, f.line, f.col, f.message) for f in findings if not str(f.rule).startswith(OUTSIDE_THE_JUDGE)
    )


def test_every_command_of_the_site_and_the_tests_gets_the_same_findings_from_check_and_doctor(
    facts: Facts, tmp_path: Path
) -> None:
    commands = _commands_of_the_site_and_the_tests()
    assert len(commands) > 40  # the site's commands and the tests' scripts were found
    differ = []
    for name, script in commands:
        path = tmp_path / "run.sh"
        path.write_text(script, encoding="utf-8")
        report = diagnose(path, facts, stages=launch.DOCTOR)
        in_doctor = _judged(d.finding for d in report.findings)

        def where(line: int, path: Path = path) -> tuple[str, int]:
            return (str(path), line)

        on_page = _judged(check_script(script, where, facts, report.device.value, stages=launch.DOCTOR))
        if in_doctor != on_page:
            differ.append(f"{name}: doctor only {in_doctor - on_page}, check only {on_page - in_doctor}")
    assert not differ, "\n".join(differ)


MERGER = "python3 -m verl.model_merger merge --backend {backend} --local_dir ckpt/actor --target_dir out\n"
CMAKE = "cmake .. -DUSE_ASCEND_DIRECT={value}\n"


@pytest.mark.parametrize(
    ("script", "rule"),
    [(MERGER.format(backend="ddp"), "merger/invalid-choice"), (CMAKE.format(value="MAYBE"), "cmake/invalid-value")],
)
def test_a_wrong_merger_or_cmake_command_is_reported_by_check_and_by_doctor_on_its_line(
    write_page, facts, tmp_path, script: str, rule: str
) -> None:
    on_page, in_doctor = _both(write_page, facts, tmp_path, script)
    assert rule in on_page and rule in in_doctor
    path = tmp_path / "run.sh"
    report = diagnose(path, facts, device="npu")
    assert [(d.finding.rule, d.finding.line) for d in report.findings] == [(rule, 1)]


@pytest.mark.parametrize("script", [MERGER.format(backend="fsdp"), CMAKE.format(value="ON")])
def test_a_right_merger_or_cmake_command_is_silent_in_check_and_in_doctor(write_page, facts, tmp_path, script) -> None:
    assert _both(write_page, facts, tmp_path, script) == ([], [])


def test_every_command_check_is_registered_by_the_module_the_lazy_map_names() -> None:
    """doctor imports a command check's module only when a script runs that command
    (``checks.COMMAND_CHECK_MODULES``): the map must name every registered check and the module that registers it."""
    import importlib

    from verl_cookbook import checks

    checks.load_all()
    assert set(checks.COMMAND_CHECKS) == set(checks.COMMAND_CHECK_MODULES)
    for name, module in checks.COMMAND_CHECK_MODULES.items():
        registered = checks.COMMAND_CHECKS[name]
        assert registered.__module__ == importlib.import_module(f"verl_cookbook.checks.{module}").__name__, name


def test_a_checkout_of_another_verl_release_is_a_page_finding_that_doctor_leaves_to_the_script(
    write_page, facts, tmp_path
) -> None:
    """``install/checkout-other-release`` judges a page about the pinned release; a launch script may build any."""
    script = "git clone https://github.com/verl-project/verl.git && cd verl && git checkout v0.8.0\n"
    on_page, in_doctor = _both(write_page, facts, tmp_path, script)
    assert "install/checkout-other-release" in on_page and "install/checkout-other-release" not in in_doctor
