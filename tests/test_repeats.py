"""A block, claim or table a run has already checked (the same input on the page's mirror) is not checked again: its
findings are the first one's, moved to the repeat's own lines, and are exactly what checking it gives; where moving
is not certain, the check runs again."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from verl_cookbook import forking, runner
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock
from verl_cookbook.repeats import Repeats, _moved, block_input
from verl_cookbook.runner import check_paths

SNIPPET = """\
backend: nccl
update_weights_bucket_megabytes: 512
no_such_key: 1
"""

# The Chinese page and its mirror: the same included snippet, the same inline blocks, claims and table, at other
# lines (the English page has a longer introduction); every one of them with a finding.
ZH = """# 检查点引擎

``` {{.yaml check="defaults" root="actor_rollout_ref.rollout.checkpoint_engine" title="默认值"}}
--8<-- "snippets/engine.yaml"
```

``` {{.bash check="shell"}}
export HCCL_BUFFSIZE=$SIZE
python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.checkpoint_engine.backend=hccl
```

引擎在大小不对时报错。
<!-- check: raises file="verl/checkpoint_engine/base.py" error="ValueError" match="not in verl" -->

<!-- check: params scope="actor_rollout_ref.rollout.checkpoint_engine" -->
| 配置项 | 默认值 |
|---|---|
| `backend` | `naive` |
| `update_weights_bucket_megabytes` | `512` |
"""

EN = ZH.replace("# 检查点引擎\n", "# Checkpoint engine\n\nA longer\nintroduction\nin English.\n").replace(
    'title="默认值"', 'title="defaults"'
)


@pytest.fixture
def mirrored(tmp_path: Path) -> Path:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    (tmp_path / "snippets").mkdir()
    (tmp_path / "snippets/engine.yaml").write_text(SNIPPET)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/engine.md").write_text(ZH.format(), encoding="utf-8")
    (tmp_path / "docs/engine.en.md").write_text(EN.format(), encoding="utf-8")
    return tmp_path


def _checked(
    site: Path, facts, monkeypatch: pytest.MonkeyPatch, repeats: bool, lenient: bool = False
) -> tuple[list[Finding], int]:
    """The findings of a one-process check of ``site`` and how many repeats were answered without a check."""
    made: list[Repeats] = []

    class Recording(Repeats):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

        def run(self, got, check):  # type: ignore[no-untyped-def]
            return super().run(got, check) if repeats else check()

    monkeypatch.setattr("verl_cookbook.repeats.Repeats", Recording)
    monkeypatch.setenv(forking.JOBS_ENV, "1")
    old = Path.cwd()
    os.chdir(site)
    try:
        report = check_paths([site / "docs"], facts, site, {"use_cache": False, "lenient": lenient})
    finally:
        os.chdir(old)
    return report.findings, sum(r.reused for r in made)


def test_a_mirror_gets_the_findings_checking_it_gives_each_at_its_own_line(
    mirrored: Path, facts, monkeypatch: pytest.MonkeyPatch
) -> None:
    found, reused = _checked(mirrored, facts, monkeypatch, repeats=True)
    oracle, none = _checked(mirrored, facts, monkeypatch, repeats=False)
    assert none == 0
    assert reused >= 3, "the mirror's block, claim and table were answered from the first page's"
    assert found == oracle
    rules = {f.rule for f in found}
    assert {"config/unknown-key", "claim/raises-missing", "table/default-mismatch"} <= rules, rules
    zh = [f for f in found if f.path.endswith("docs/engine.md")]
    en = [f for f in found if f.path.endswith("docs/engine.en.md")]
    assert zh and len(zh) == len(en)
    # the English page's own findings sit four lines lower (its longer introduction), never on the Chinese page
    assert sorted((f.line + 4, f.rule) for f in zh) == sorted((f.line, f.rule) for f in en)
    snippet = [f for f in found if f.path.endswith("snippets/engine.yaml")]
    assert snippet, "the included snippet's findings point into the snippet"


def test_correct_mirrored_pages_stay_silent_and_are_still_answered_from_the_first(
    mirrored: Path, facts, monkeypatch: pytest.MonkeyPatch
) -> None:
    (mirrored / "snippets/engine.yaml").write_text("backend: naive\nupdate_weights_bucket_megabytes: 2048\n")
    for name in ("engine.md", "engine.en.md"):
        page = mirrored / "docs" / name
        text = page.read_text(encoding="utf-8")
        text = text.split("``` {.bash")[0]  # the config block alone, as users write it
        page.write_text(text, encoding="utf-8")
    found, reused = _checked(mirrored, facts, monkeypatch, repeats=True)
    assert found == []
    assert reused == 1


COMMENT_ENDS = """\
python3 -m verl.trainer.main_ppo \\
    data.train_batch_size=8 \\
    # the rollout
    actor_rollout_ref.rollout.n=4
"""


def test_a_message_that_cites_a_line_of_the_first_is_checked_again_at_the_repeat(
    tmp_path: Path, facts, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shell check says which line a command started on: the repeat's message must cite the repeat's line."""
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    (tmp_path / "docs").mkdir()
    block = '``` {.bash check="shell"}\n' + COMMENT_ENDS + "```\n"
    (tmp_path / "docs/a.md").write_text("# A\n\n" + block, encoding="utf-8")
    (tmp_path / "docs/b.md").write_text("# B\n\n" + "Words.\n\n" * 5 + block, encoding="utf-8")
    found, reused = _checked(tmp_path, facts, monkeypatch, repeats=True)
    oracle, _ = _checked(tmp_path, facts, monkeypatch, repeats=False)
    assert found == oracle
    said = [f for f in found if f.rule == "shell/comment-ends-command"]
    assert [f.path.rsplit("/", 1)[-1] for f in said] == ["a.md", "b.md"]
    assert "started on line 4" in said[0].message and "started on line 14" in said[1].message
    assert reused == 0


# Mistakes of the kinds the real-world run finds in other projects' docs, written the way those docs write them
# (no check attributes: the lenient check guesses each block's kind from its language).
LENIENT_BLOCKS = [
    "```bash\npython3 -m verl.trainer.main_ppo \\\n    data.train_batch_size=8\n    trainer.n_gpus_per_node=1\n```\n",
    "```bash\npython3 verl.trainer.main_ppo data.train_batch_size=8\n```\n",
    "```bash\npython -m verl.trainer.main_ppo_typo \\\n    trainer.nnodes=1\n```\n",
    "```bash\npython3 -m verl.trainer.main_ppo \\\n    reward_model.overlong_buffer.len=4096\n```\n",
    "```yaml\nreward_model:\n  overlong_buffer:\n    enable: true\n```\n",
    '```json\n{"ips": ["10.0.0.1"], "10.0.0.2"}\n```\n',
    "```yaml\nactor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      backend: hccl\n```\n",
]


def test_lenient_repeats_across_files_give_what_checking_each_gives(
    tmp_path: Path, facts, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A README repeating a docs page's snippets (verl's do), each at other lines: every finding is the one checking
    the block where it stands gives, messages included."""
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    (tmp_path / "docs").mkdir()
    body = "\n".join(LENIENT_BLOCKS)
    (tmp_path / "docs/guide.md").write_text("# Guide\n\n" + body, encoding="utf-8")
    (tmp_path / "docs/README.md").write_text("# Readme\n\nIntro.\n\n" * 3 + body, encoding="utf-8")
    found, reused = _checked(tmp_path, facts, monkeypatch, repeats=True, lenient=True)
    oracle, _ = _checked(tmp_path, facts, monkeypatch, repeats=False, lenient=True)
    assert found == oracle
    assert reused >= 1
    per_page = {name: {f.rule for f in found if f.path.endswith(name)} for name in ("guide.md", "README.md")}
    assert per_page["guide.md"] == per_page["README.md"]
    assert len(per_page["guide.md"]) >= 5, per_page


def _block(page: str, line: int, col: int = 1, lines: tuple[int, ...] = (2, 3)) -> CodeBlock:
    return CodeBlock(page, line, col, "yaml", {"check": "config"}, "", "a: 1\nb: 2\n", [(page, n) for n in lines])


def _finding(path: str, line: int, message: str = "m") -> Finding:
    return Finding(path, line, 1, "config/unknown-key", message)


def test_findings_are_moved_place_for_place() -> None:
    a, b = _block("zh.md", 1, lines=(2, 3)), _block("en.md", 5, lines=(6, 7))
    _, old, col = block_input("config", a)
    _, new, _ = block_input("config", b)
    moved = _moved(
        [_finding("zh.md", 3), _finding("zh.md", 1), _finding("zh.md", 2, "bucket of 512 MB")], old, col, new, 1
    )
    assert moved == [_finding("en.md", 7), _finding("en.md", 5), _finding("en.md", 6, "bucket of 512 MB")]


@pytest.mark.parametrize(
    ("finding", "new_col", "why"),
    [
        (_finding("zh.md", 9), 1, "a line of the page that is not the block's"),
        (_finding("verl/trainer/config/ppo_trainer.yaml", 2), 1, "another file"),
        (_finding("zh.md", 2, "see zh.md"), 1, "a message naming the first page"),
        (_finding("zh.md", 2, "the command started on line 2"), 1, "a message citing a line of the first"),
        (_finding("zh.md", 2, "the lines after line 4"), 1, "a line just past the first block"),
        (_finding("zh.md", 1), 4, "the fence, whose column differs"),
    ],
)
def test_a_finding_that_cannot_be_moved_for_certain_is_not_moved(finding: Finding, new_col: int, why: str) -> None:
    a, b = _block("zh.md", 1), _block("en.md", 5, col=new_col, lines=(6, 7))
    assert _moved([finding], block_input("config", a)[1], 1, block_input("config", b)[1], new_col) is None, why


def test_one_place_of_the_first_that_is_two_of_the_repeat_is_not_moved() -> None:
    # the first block's two code lines come from one line (a wrapped include); the repeat's from two
    a, b = _block("zh.md", 1, lines=(2, 2)), _block("en.md", 5, lines=(6, 7))
    assert _moved([_finding("zh.md", 2)], block_input("config", a)[1], 1, block_input("config", b)[1], 1) is None


def test_a_repeat_that_cannot_be_moved_is_checked_again() -> None:
    calls: list[str] = []
    repeats = Repeats()
    a, b = _block("zh.md", 1), _block("en.md", 5, lines=(6, 7))

    def check(block: CodeBlock) -> list[Finding]:
        calls.append(block.page)
        return [_finding(block.page, 9)]  # nowhere in the block: cannot be moved

    assert repeats.run(block_input("config", a), lambda: check(a)) == [_finding("zh.md", 9)]
    assert repeats.run(block_input("config", b), lambda: check(b)) == [_finding("en.md", 9)]
    assert calls == ["zh.md", "en.md"]
    assert repeats.reused == 0


def test_blocks_that_differ_in_what_a_check_reads_are_not_repeats() -> None:
    a = _block("zh.md", 1)
    b = _block("en.md", 5)
    b.attrs = {**b.attrs, "root": "trainer"}
    c = _block("en.md", 5)
    c.attrs = {**c.attrs, "title": "shown only"}
    d = _block("en.md", 5)
    d.code = "a: 1\nb: 3\n"
    assert block_input("config", a)[0] != block_input("config", b)[0]
    assert block_input("config", a)[0] != block_input("config", d)[0]
    assert block_input("config", a)[0] != block_input("shell", a)[0]
    assert block_input("config", a)[0] == block_input("config", c)[0]


def test_the_childs_share_keeps_a_page_with_its_mirror(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(runner, "CHILD_SHARE", 0.5)
    files = []
    for name, size in [("a.md", 300), ("a.en.md", 320), ("b.md", 250), ("b.en.md", 260), ("c.md", 400)]:
        f = tmp_path / name
        f.write_text("x" * size)
        files.append(f)
    share = {f.name for f in runner._child_share(files)}
    assert share in ({"a.md", "a.en.md"}, {"b.md", "b.en.md", "c.md"}), share
    assert ("a.md" in share) == ("a.en.md" in share) and ("b.md" in share) == ("b.en.md" in share)
