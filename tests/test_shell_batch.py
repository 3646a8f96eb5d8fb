"""One ShellCheck process for many snippets gives each snippet exactly what a process of its own gives."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from verl_cookbook.rules.scripts import SHELLCHECK_EXCLUDE
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


# -- wired in: a run's shell blocks go through one bash and one ShellCheck -------------------------------

BAD_BLOCKS = [
    'echo "unclosed\necho next\n',  # an unclosed quote: must not spill into the next block
    "export A=1\nif true; then\n  echo x\n",  # if without fi: EOF error on the last line
    "rm $(ls *.tmp)\n",  # SC2046
    "echo ok\n)\n",  # stray parenthesis on line 2
    'for f in $(ls); do echo "$f"; done\n',  # SC2045
]
GOOD_BLOCKS = ["echo ok\n", 'export HCCL_CONNECT_TIMEOUT=1800\necho "$HOME"\n', "ls -l\n"]


def _run(write_page, facts, blocks, monkeypatch, batched: bool, options=None):
    from helpers import fence

    from verl_cookbook.checks import shell_tools
    from verl_cookbook.runner import check_paths

    calls = []
    real_run, real_popen = subprocess.run, subprocess.Popen

    def counting(cmd, *a, **k):
        calls.append(cmd[0])
        return real_run(cmd, *a, **k)

    class CountingPopen(real_popen):  # the batches start their processes with Popen
        def __init__(self, cmd, *a, **k):
            calls.append(cmd[0])
            super().__init__(cmd, *a, **k)

    if not batched:
        monkeypatch.setattr(shell_tools, "start_batches", lambda pages, ctx: shell_tools.finish_batches(ctx))
    monkeypatch.setattr(subprocess, "run", counting)
    monkeypatch.setattr(subprocess, "Popen", CountingPopen)
    text = "# t\n\n" + "\nText.\n\n".join(fence(b, '{ .bash check="shell" }') for b in blocks)
    page = write_page(text)
    opts = {"use_cache": False, **(options or {})}
    found = check_paths([page], facts, root=page.parent.parent, options=opts).findings
    monkeypatch.undo()
    return found, calls


def test_batched_findings_equal_one_by_one_on_bad_blocks(shellcheck, write_page, facts, monkeypatch) -> None:
    batched, calls = _run(write_page, facts, BAD_BLOCKS, monkeypatch, batched=True)
    alone, calls_alone = _run(write_page, facts, BAD_BLOCKS, monkeypatch, batched=False)
    assert batched == alone
    assert len(calls) == 2 and len(calls_alone) > len(BAD_BLOCKS)  # one bash, one ShellCheck
    # page lines: block 1 is lines 4-5, block 2 lines 11-13, block 3 line 19, block 4 lines 25-26, block 5 line 32
    assert {(f.rule, f.line) for f in batched} == {
        ("shell/syntax", 4),  # the unclosed quote is block 1's own (where it opens), not spilt into block 2
        ("shell/syntax", 13),  # if without fi: EOF on block 2's last line
        ("shellcheck/SC2046", 19),
        ("shell/syntax", 26),
        ("shellcheck/SC2045", 32),
    }


def test_batched_good_blocks_stay_silent(shellcheck, write_page, facts, monkeypatch) -> None:
    batched, calls = _run(write_page, facts, GOOD_BLOCKS, monkeypatch, batched=True)
    assert batched == [] and len(calls) == 2


def test_batched_lenient_equals_one_by_one(shellcheck, write_page, facts, monkeypatch) -> None:
    blocks = [*BAD_BLOCKS, "$ ls <dir>\nout\n", "trainer.save_freq=10\n"]
    lenient = {"lenient": True}
    batched, _ = _run(write_page, facts, blocks, monkeypatch, batched=True, options=lenient)
    alone, _ = _run(write_page, facts, blocks, monkeypatch, batched=False, options=lenient)
    assert batched == alone and batched


def test_bash_many_matches_bash_n_on_stdin() -> None:
    from verl_cookbook.shell_batch import bash_many

    codes = [*BAD_BLOCKS, *GOOD_BLOCKS, "", "# 中文\necho 'x\n"]
    alone = []  # as checks/shell_tools.py's bash_syntax calls it (bash names itself by the path it was started by)
    for code in codes:
        p = subprocess.run([shutil.which("bash"), "-n"], input=code, capture_output=True, text=True, check=False)
        alone.append((p.returncode, p.stderr))
    assert bash_many(codes) == alone


def test_the_shellcheck_rule_names_the_codes_and_level_the_checks_leave_out() -> None:
    """The rules page says what ShellCheck is asked for (review42j-4): its description in both languages names the
    severity passed to -S and every excluded code, and its example is a code that severity reports."""
    from verl_cookbook.checks.shell_tools import _shellcheck_args
    from verl_cookbook.rules.scripts import SHELLCHECK_SC
    from verl_cookbook.rules.zh import ZH

    args = _shellcheck_args("warning")
    assert args[args.index("-e") + 1].split(",") == list(SHELLCHECK_EXCLUDE)
    for text in (SHELLCHECK_SC.catches, ZH["shellcheck/SC"][0]):
        assert "`-S warning`" in text and all(code in text for code in SHELLCHECK_EXCLUDE)
        assert "shellcheck/SC2045" in text  # a warning (for f in $(ls …)); SC2086 is info, never reported
