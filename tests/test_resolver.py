"""pip's resolver, read: a conflict's cause and a missing distribution are taken from pip's own output, and the
committed answers (snapshots/resolver.json) are still what pip says (network: one resolution, about 9 s here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from verl_cookbook import resolver

ROOT = Path(__file__).resolve().parents[1]


def test_pips_conflict_cause_is_kept_in_its_own_words() -> None:
    out = (
        "ERROR: Cannot install a==1 and b==2 because these package versions have conflicting dependencies.\n\n"
        "The conflict is caused by:\n    The user requested a==1\n    b 2 depends on a>=3\n\n"
        "To fix this you could try to:\n1. loosen the range\n\nERROR: ResolutionImpossible: for help visit x\n"
    )
    r = resolver.interpret(1, out, None)
    assert r.verdict == "conflict" and r.lines == ("The user requested a==1", "b 2 depends on a>=3")


def test_a_requirement_the_index_lacks_is_missing_not_a_conflict() -> None:
    out = "ERROR: No matching distribution found for triton-ascend==3.2.2\n"
    assert resolver.interpret(1, out, None) == resolver.Resolution(
        "missing", ("No matching distribution found for triton-ascend==3.2.2",)
    )


def test_a_resolution_lists_what_pip_would_install() -> None:
    report = {"install": [{"metadata": {"name": "b", "version": "2"}}, {"metadata": {"name": "a", "version": "3"}}]}
    assert resolver.interpret(0, "", report).installs == ("a==3", "b==2")


def test_pip_failing_for_another_reason_is_an_error_not_a_verdict() -> None:
    with pytest.raises(RuntimeError, match="without a resolver answer"):
        resolver.interpret(1, "ERROR: network is unreachable\n", None)


def test_the_target_offers_every_manylinux_level_up_to_glibc_2_35() -> None:
    tags = resolver.platforms()
    assert tags[0] == "manylinux_2_35_x86_64" and "manylinux_2_17_x86_64" in tags
    assert not any(t.startswith("manylinux_2_36") for t in tags)


def test_a_combinations_key_keeps_the_extras_pip_resolves_with() -> None:
    """verl[fsdp] pins torch 2.11.0 where verl alone pins nothing: the two must not share pip's answer (rev50c-1)."""
    assert resolver.key(["verl[fsdp]==0.9.1", "vllm==0.29.0"]) == "verl[fsdp]==0.9.1; vllm==0.29.0"
    assert resolver.key(["vllm==0.29.0", "verl==0.9.1"]) == "verl==0.9.1; vllm==0.29.0"
    assert resolver.key(["Verl[Megatron,fsdp]==0.9.1"]) == resolver.key(["verl[fsdp,megatron]==0.9.1"])


def test_every_combination_a_page_claims_has_pips_answer_in_the_snapshot() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from refresh_resolver import page_combinations, pins_of

    missing = [c for c in page_combinations() if resolver.answer(pins_of(c)) is None]
    assert missing == []


@pytest.mark.network
def test_the_snapshot_is_what_pip_answers_now_for_verl_with_old_numpy() -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts" / "refresh_resolver.py"),
            "--check",
            "--only",
            "verl==0.9.1; numpy<2.0.0",
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert json.loads((ROOT / "verl_cookbook" / "snapshots" / "resolver.json").read_text("utf-8"))["combinations"]


def test_a_resolution_past_its_deadline_says_so(monkeypatch) -> None:
    from verl_cookbook.processes import Overdue

    monkeypatch.setattr(resolver, "RESOLVE_S", 0.01)  # pip cannot even start in that time: no index is asked
    with pytest.raises(Overdue, match=r"pip's resolution of verl==0\.9\.1 did not finish within 0\.01 s"):
        resolver.resolve(["verl==0.9.1"])


def test_pip_runs_without_the_machines_configuration(monkeypatch) -> None:
    monkeypatch.setenv("PIP_FIND_LINKS", "/opt/wheels")
    monkeypatch.setenv("PIP_CONSTRAINT", "/etc/xdg/pip/constraints.txt")
    monkeypatch.setenv("PIP_CERT", "/etc/ssl/certs/ca-certificates.crt")
    env = resolver.isolated_env()
    assert env["PIP_CONFIG_FILE"] == os.devnull and "PIP_FIND_LINKS" not in env and "PIP_CONSTRAINT" not in env
    assert env["PIP_CERT"] == "/etc/ssl/certs/ca-certificates.crt"  # a TLS proxy's CA bundle is kept


def test_the_target_platform_python_and_index_are_on_pips_command_line() -> None:
    to = resolver.Target("3.12", "aarch64", (2, 34), "https://mirror.example/simple/")
    cmd = resolver.command(["verl==0.9.1"], "/t", "/r.json", to, no_deps=True)
    assert cmd[cmd.index("--python-version") + 1] == "3.12" and "--no-deps" in cmd
    assert "manylinux_2_34_aarch64" in cmd and "manylinux_2_35_aarch64" not in cmd
    assert cmd[cmd.index("--index-url") + 1] == "https://mirror.example/simple/"


def test_an_sdists_declared_requirements_are_read_and_dynamic_ones_are_not() -> None:
    static = "Metadata-Version: 2.4\nName: a\nVersion: 1\nRequires-Dist: b>=2\nRequires-Dist: c; extra == 'x'\n"
    assert resolver.pkg_info_requires(static) == ["b>=2", "c; extra == 'x'"]
    dynamic = "Metadata-Version: 2.2\nName: a\nVersion: 1\nDynamic: Requires-Dist\n"
    assert resolver.pkg_info_requires(dynamic) is None
    assert resolver.pkg_info_requires("Metadata-Version: 2.1\nName: a\nVersion: 1\n") is None


def test_pip_evaluates_environment_markers_for_the_target_platform() -> None:
    cmd = resolver.command(["torch==2.8.0"], "/t", "/r.json", resolver.Target("3.12", "aarch64"))
    env = json.loads(cmd[3])
    assert cmd[1] == "-c" and env["platform_machine"] == "aarch64" and env["python_version"] == "3.12"


def test_the_combo_rules_name_the_target_pip_resolves_for() -> None:
    """A writer checking an aarch64 statement must know the answer is for another target (review42j-8): the rule's
    description in both languages names what snapshots/resolver.json records."""
    import json
    from pathlib import Path

    from verl_cookbook.rules.stack import COMBO_CONFLICT
    from verl_cookbook.rules.zh import ZH

    snap = Path(__file__).resolve().parents[1] / "verl_cookbook" / "snapshots" / "resolver.json"
    target = json.loads(snap.read_text(encoding="utf-8"))["target"]
    for part in ("CPython 3.11", "glibc 2.35", "x86_64", "--only-binary=:all:"):
        assert part in target, f"resolver.json's target changed ({target}): update the combo rules' text"
    for text in (COMBO_CONFLICT.catches, ZH["combo/conflict"][0]):
        assert all(p in text for p in ("CPython 3.11", "glibc 2.35", "x86_64"))
