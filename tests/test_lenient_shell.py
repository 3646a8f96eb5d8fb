"""``check --lenient`` on shell blocks written the way project docs write them: fragment lists are checked
as overrides, placeholders and pasted output are not mistakes, and each real problem is reported once.

The fixture tests/data/lenient/docs_shell_styles.md is written for these tests in the styles of real docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from verl_cookbook.checks.override_fragments import fragment_lines
from verl_cookbook.checks.shell_placeholders import fill_placeholders, transcript_commands
from verl_cookbook.checks.shell_tools import bash_syntax
from verl_cookbook.runner import check_paths

PAGE = Path(__file__).resolve().parent / "data" / "lenient" / "docs_shell_styles.md"


def line_of(needle: str, after: str | None = None) -> int:
    lines = PAGE.read_text().splitlines()
    start = next(i for i, t in enumerate(lines) if after in t) if after else 0
    return next(i for i, t in enumerate(lines[start:], start + 1) if needle in t)


@pytest.fixture(scope="module")
def findings(facts):
    return check_paths([PAGE], facts, PAGE.parent, {"lenient": True}).findings


MUST = [
    ("config/unknown-key", "algorithm.use_kl_in_rewrd"),  # a fragment list, checked as overrides
    ("config/unknown-key", "trainer.totl_epochs"),  # a console session: the command after `$ `
    ("shell/comment-ends-command", "# rollout settings"),
    ("shell/orphan-overrides", "trainer.n_gpus_per_node=1"),
    ("python/syntax", 'print("unbalanced"'),  # a complete snippet that does not parse
]
# A traceback under `bash`: output, not commands; one note at its fence (the line above the traceback's first line).
NOTE = ("lenient/wrong-language", "Traceback (most recent call last)")


@pytest.mark.parametrize(("rule", "needle"), MUST, ids=[m[1] for m in MUST])
def test_a_real_mistake_is_reported_at_its_line(findings, rule, needle):
    assert (rule, line_of(needle)) in [(f.rule, f.line) for f in findings]


def test_a_broken_script_is_still_a_syntax_error(findings):
    broken = line_of("if [ -f x ]")
    assert [f.rule for f in findings if broken <= f.line < broken + 3] == ["shell/syntax"]


def test_a_traceback_under_bash_is_one_note_at_its_fence(findings):
    assert (NOTE[0], line_of(NOTE[1]) - 1) in [(f.rule, f.line) for f in findings]


def test_nothing_else_is_reported(findings):
    """Fragments with valid keys, placeholders (also a phrase such as "SOCKET IFNAME FOR YOUR NODE"),
    tracebacks (beyond the note), console output, Python in a bash fence, a Python excerpt (`continue` outside its
    loop), alternatives in separate paragraphs, commands with elided arguments and YAML templates give nothing."""
    assert len(findings) == len(MUST) + 2, [(f.line, f.rule, f.message) for f in findings]
    assert not [f for f in findings if f.rule.startswith("shellcheck/")]


def test_each_problem_is_reported_once_even_when_a_page_is_named_twice(facts):
    once = check_paths([PAGE], facts, PAGE.parent, {"lenient": True}).findings
    twice = check_paths([PAGE.parent, PAGE], facts, PAGE.parent, {"lenient": True}).findings
    assert len(twice) == len(once)
    assert len({(f.line, f.rule) for f in once}) == len(once)


def test_bash_reports_one_error_per_line_with_the_offending_text():
    (f,) = bash_syntax("export KEY=<value>\n", lambda ln: ("x.sh", ln))
    assert f.line == 1 and "unexpected token" in f.message and "export KEY=<value>" in f.message


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        ("export K=<YOUR_KEY>", "export K=${PLACEHOLDER}"),
        ("pip install verl=={version}", "pip install verl==${PLACEHOLDER}"),
        ("a.b=... c.d=1", "a.b=${PLACEHOLDER} c.d=1"),
        ("  ...", "  ${ELIDED}"),
        ("  [other overrides...]", "  ${ELIDED}"),
        ("cmd > out.txt 2>&1 <in.txt", "cmd > out.txt 2>&1 <in.txt"),  # redirections are not placeholders
        ('echo "${HOME}" {a,b}', 'echo "${HOME}" {a,b}'),
    ],
)
def test_placeholders_become_unknown_values_and_redirections_stay(text, kept):
    assert fill_placeholders(text) == kept


def test_a_transcript_keeps_the_commands_and_blanks_the_output():
    code = "$ python3 -m x a=1 \\\n    b=2\noutput line\n$ ls\nfile\n"
    assert transcript_commands(code) == "python3 -m x a=1 \\\n    b=2\n\nls\n\n"
    assert transcript_commands("python3 -m x\n") is None


@pytest.mark.parametrize(
    ("code", "is_fragments"),
    [
        ("a.b=1 \\\nc.d=2\n", True),
        ("# comment\n+a.b.c=1   # trailing comment\n", True),
        ("model_engine=megatron\nactor.x.y=1\n", True),
        ("MODEL_PATH=/x\nTRAIN=/y\n", False),  # environment assignments: a script
        ("python3 -m verl.trainer.main_ppo a.b=1\n", False),
        ("", False),
    ],
)
def test_a_fragment_list_is_recognised(code, is_fragments):
    assert fragment_lines(code) is is_fragments
