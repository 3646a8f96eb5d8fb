"""One ShellCheck process for many snippets gives each snippet exactly what a process of its own gives."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from verl_cookbook.checks.shell import SHELLCHECK_EXCLUDE
from verl_cookbook.shell_batch import shellcheck_many

ARGS = ["-s", "bash", "-f", "json1", "-S", "warning", "-e", ",".join(SHELLCHECK_EXCLUDE), "--norc"]

SNIPPETS = [
    "export HCCL_CONNECT_TIMEOUT=1800\npython3 -m verl.trainer.main_ppo trainer.save_freq=10\n",
    'for f in $(ls *.ckpt); do echo "$f"; done\nrm $(ls *.tmp)\n',  # SC2045, SC2046: user mistakes
    'if [ -n "$A" ]; then\n  echo yes\n',  # unterminated if: a parse error
    "",
    '# 中文注释\nexport ASCEND_RT_VISIBLE_DEVICES=0,1 \\\n  X=1\necho "$X"\n',
    "cd /tmp\n[ $1 == x ] && echo ok\n",
]


def _alone(code: str) -> list[dict]:
    proc = subprocess.run(["shellcheck", *ARGS, "-"], input=code, capture_output=True, text=True, check=False)
    comments = json.loads(proc.stdout or "{}").get("comments", [])
    for c in comments:
        c.pop("file", None)
    return comments


@pytest.fixture(scope="module")
def shellcheck() -> None:
    if shutil.which("shellcheck") is None:
        pytest.fail("shellcheck is not installed (scripts/install.sh installs it: apt-get install shellcheck)")


def test_each_snippet_gets_the_comments_of_its_own_run(shellcheck) -> None:
    batch = shellcheck_many(SNIPPETS, ARGS)
    assert batch is not None
    alone = [_alone(code) for code in SNIPPETS]
    assert batch == alone
    assert alone[0] == [] and alone[3] == []  # clean snippets stay silent
    assert {c["code"] for c in alone[1]} >= {2045, 2046}
    assert alone[2] and all(c["line"] <= 3 for c in alone[2])


def test_snippets_beyond_one_chunk_keep_their_order(shellcheck, monkeypatch) -> None:
    import verl_cookbook.shell_batch as shell_batch

    monkeypatch.setattr(shell_batch, "CHUNK", 2)
    codes = ["echo ok\n", "rm $(ls)\n", "echo ok\n", "ls $@ $(ls)\n", "x=( $(ls) )\n"]
    batch = shellcheck_many(codes, ARGS)
    assert batch == [_alone(code) for code in codes]
    assert [len(b) for b in batch] == [0, 1, 0, 2, 1]


def test_no_shellcheck_means_no_batch(monkeypatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert shellcheck_many(SNIPPETS, ARGS) is None
