"""The install overview's vllm-ascend build: what has to be installed before a `--no-build-isolation` build."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from verl_cookbook.stack_facts import stack_facts

REPO = Path(__file__).resolve().parent.parent
SNIPPETS = ["snippets/install/vllm_ascend_npu.sh", "snippets/install/vllm_ascend_npu.zh.sh"]


def _commands(path: str) -> list[str]:
    lines = (REPO / path).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def _first(commands: list[str], pattern: str) -> int:
    return next(i for i, c in enumerate(commands) if re.search(pattern, c))


@pytest.mark.parametrize("path", SNIPPETS)
def test_the_vllm_ascend_build_installs_its_build_requirements_first_in_both_languages(path: str) -> None:
    """vllm-ascend's setup.py imports setuptools_scm at the top (a fact at v0.23.0), listed in its requirements.txt;
    a --no-build-isolation build uses what is installed, so requirements.txt goes in first, inside the clone, after
    CANN's environment is loaded."""
    assert stack_facts()["vllm_ascend.v0.23.0.setup_imports_setuptools_scm"][0].value == "setuptools_scm"
    assert stack_facts()["vllm_ascend.v0.23.0.requirements.setuptools_scm"][0].value == "setuptools-scm>=8"
    commands = _commands(path)
    cann = _first(commands, r"^source /usr/local/Ascend/ascend-toolkit/set_env\.sh$")
    into = _first(commands, r"^cd vllm-ascend$")
    reqs = _first(commands, r"pip install -r requirements\.txt")
    build = _first(commands, r"pip install -e \. --no-build-isolation")
    assert cann < into < reqs < build
    assert "cd .." not in commands[into:build]  # both run inside the clone


def test_both_languages_run_the_same_commands() -> None:
    en, zh = (_commands(p) for p in SNIPPETS)
    assert en == zh
