"""The checkpoint recipes (docs/recipes/): both languages, zero findings on the pinned verl, and the same
claims in 中文 and English, so a constraint is never checked in one language only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import REPO
from verl_cookbook.facts import Facts
from verl_cookbook.markdown import code_spans, parse_page
from verl_cookbook.releases import default_release
from verl_cookbook.runner import applies, check_paths

RECIPES = REPO / "docs" / "recipes"
PAGES = ("delta-sync", "checkpoint-callback", "model-merger", "async-resume", "troubleshooting")
ANCHOR = re.compile(r"^#{1,6} .*\{ *#([\w-]+) *\}\s*$", re.M)


def _pair(name: str) -> tuple[Path, Path]:
    return RECIPES / f"{name}.md", RECIPES / f"{name}.en.md"


@pytest.mark.parametrize("name", PAGES)
def test_recipe_exists_in_both_languages(name: str) -> None:
    zh, en = _pair(name)
    assert zh.is_file() and en.is_file(), f"{name}: both {zh.name} and {en.name} are needed"


def test_recipes_have_no_findings_on_the_pinned_release(facts: Facts) -> None:
    report = check_paths([RECIPES], facts, root=REPO)
    assert [f"{f.path}:{f.line}: {f.rule} {f.message}" for f in report.findings] == []
    assert report.pages == 2 * len(PAGES)
    declared_tables = sum(
        1
        for p in RECIPES.glob("*.md")
        for t in parse_page(p, REPO).tables
        if t.directive is not None and t.directive.kind != "skip"  # a skipped table's rows carry their own claims
    )
    # blocks and claims for other releases only (until="0.8.0" in a version note) are left out on the pinned one
    pages = {p.name: parse_page(p, REPO) for p in RECIPES.glob("*.md")}
    elsewhere = {
        name: sum(1 for item in [*page.blocks, *page.directives] if not applies(dict(item.attrs), facts))
        for name, page in pages.items()
    }
    other_releases = sum(elsewhere.values())
    # items bounded to other releases (since=/until=) belong to the troubleshooting entries and the merger's and
    # delta-sync's and async-resume's version notes that say which releases they affect (delta_sharded's SGLang-only
    # 0.9.0, 0.9.0's full warm-up on a resume); a small share of all items, so a mistake that turns everything
    # "other release" cannot pass
    bounded = {"troubleshooting.md", "troubleshooting.en.md", "model-merger.md", "model-merger.en.md"}
    bounded |= {"delta-sync.md", "delta-sync.en.md", "async-resume.md", "async-resume.en.md"}
    assert {n for n, k in elsewhere.items() if k} <= bounded, elsewhere
    everything = sum(len(page.blocks) + len(page.directives) for page in pages.values())
    assert other_releases * 10 <= everything, (other_releases, everything)
    checked = report.blocks - other_releases + declared_tables + report.claims
    assert report.checked == checked, "something was left unjudged"


@pytest.mark.parametrize("name", PAGES)
def test_recipe_states_the_pinned_release_in_an_info_admonition(name: str) -> None:
    for path in _pair(name):
        text = path.read_text(encoding="utf-8")
        head = text.split("\n## ", 1)[0]
        assert re.search(r'^!!! info "', head, re.M), f"{path.name}: no info admonition before the first section"
        versions = re.findall(r'<!-- check: verl-version version="([^"]+)" -->', head)
        assert versions == [default_release()], f"{path.name}: the admonition must state verl {default_release()}"


@pytest.mark.parametrize("name", PAGES)
def test_both_languages_declare_the_same_claims_in_the_same_order(name: str) -> None:
    zh, en = (parse_page(p, REPO) for p in _pair(name))
    claims = [[(d.kind, d.attrs) for d in page.directives] for page in (zh, en)]
    assert claims[0] == claims[1]
    assert claims[0], f"{name}: a recipe without claims states nothing checkable"
    assert ANCHOR.findall(zh_text := _pair(name)[0].read_text(encoding="utf-8")) == ANCHOR.findall(
        _pair(name)[1].read_text(encoding="utf-8")
    ), f"{name}: headings differ"
    assert zh_text.count("<!-- check:") == len(claims[0])


def test_delta_kwargs_table_lists_every_argument_a_user_can_set(facts: Facts) -> None:
    """Derived from verl: the delta engine's constructor minus what verl injects itself."""
    (engine,) = facts.engines_for("delta_sharded", "cuda")
    injected = {k for call in facts.data["engines"]["injected_kwargs"] for k in call["kwargs"]}
    settable = [p["name"] for p in engine["constructor"]["params"] if p["name"] not in injected]
    for path in _pair("delta-sync"):
        tables = [t for t in parse_page(path, REPO).tables if t.directive and t.directive.kind == "params"]
        (table,) = [t for t in tables if t.directive.attrs.get("engine") == "delta_sharded"]
        listed = [code_spans(cells[0])[0] for _line, cells in table.rows]
        assert sorted(listed) == sorted(settable), f"{path.name}: table rows vs verl's settable kwargs"


@pytest.mark.parametrize("path", sorted(RECIPES.glob("*.md")), ids=lambda p: p.name)
def test_every_upstream_figure_links_its_source(path: Path) -> None:
    """Rows that quote measured speed-ups (a "10.3×" figure) name their public source with a link; a support
    table's bare "×" (not supported) is no figure."""
    for table in parse_page(path, REPO).tables:
        for line, cells in table.rows:
            if any(re.search(r"\d×", c) for c in cells):
                assert any("](https://" in c for c in cells), f"{path.name}:{line}: a figure without a source link"


def test_callback_snippet_is_a_verl_checkpoint_callback() -> None:
    # the 中文 page includes the variant with 中文 comments, the English page the original
    snippets = ("checkpoint_callback.zh.py", "checkpoint_callback.py")
    for page, snippet in zip(_pair("checkpoint-callback"), snippets, strict=True):
        blocks = [b for b in parse_page(page, REPO).blocks if b.attrs.get("check") == "python"]
        assert [b.includes for b in blocks] == [[f"snippets/recipes/{snippet}"]]
        code = blocks[0].code
        assert "from verl.trainer.ppo.checkpoint_callback import CheckpointCallback" in code
        assert re.search(r"class \w+\(CheckpointCallback\):", code) and "def on_save(" in code


# Each correction issue 26 asked for: the page must keep the claim that holds the corrected statement and must not
# say the old, wrong thing again (in either language). A revert of the page text brings the old sentence back and
# drops the claim, so the test fails; `verl-cookbook check` alone cannot see it, the old claims held too.
CORRECTIONS = {
    "delta-sync": (
        ("Please set at least one of 'actor.ppo_micro_batch_size' or",),
        (
            "passes every check verl runs at startup",
            "能通过 verl 启动时的全部检查",
            "adjust the other two",
            "相应调整另外两个",
        ),
    ),
    "model-merger": (
        (
            '"model" in self.checkpoint_save_contents and not self.use_dist_checkpointing',
            "model.save_pretrained(self.config.target_dir, state_dict=state_dict)",
            'hf_adapter_ckpt_path = os.path.join(hf_ckpt_path, "adapter")',
            'if "lora_" in k or ".adapter_" in k',
        ),
        ("the merger does not interpret key names", "合并工具不解析具体的键名"),
    ),
    "checkpoint-callback": (
        (
            "async_requests[-1].add_finalize_fn(finalize_save_fn)",
            "parent_dir = os.path.dirname(local_path)",
            "if config.trainer.use_v1:",
        ),
        ("Once every asynchronous write has finished", "所有异步写入完成后", "at a read-only folder", "指向只读目录"),
    ),
    "async-resume": (
        ("test_torchtitan_save_run.py::test_resuming_from_a_step_torchtitan_did_not_write_fails_with_file_not_found",),
        (
            "only ever picks a completely written checkpoint",
            "只会选中已经写完的检查点",
            "starts again from step 0",
            "从第 0 步开始",
        ),
    ),
    # issue 33's corrections on these pages
    "troubleshooting": (
        # the 0.7.1 default fence sits in the 版本说明 list, so it is indented
        ("dist_ckpt_optim_fully_reshardable: true\n    ```", "test_retention_run.py::"),
        ("0.7.x", "in under two minutes. To find", "维护者报告 671B 模型的保存耗时在 2 分钟以内"),
    ),
}
# the Megatron merge snippet leaves --tie-word-embedding out (it drops lm_head of untied models); the pages say
# `hf auth login`, never `huggingface-cli login` as the thing to run
CORRECTIONS["model-merger"] = (
    CORRECTIONS["model-merger"][0]
    + (
        'choices=["fsdp", "megatron"]',
        "test_merger_run.py::test_a_multi_node_merge_on_node_local_storage_fails",
        "hf_auth_login",
    ),
    CORRECTIONS["model-merger"][1] + ("run `huggingface-cli login` first", "先执行 `huggingface-cli login`"),
)
CORRECTIONS["checkpoint-callback"] = (
    CORRECTIONS["checkpoint-callback"][0] + ("test_torchtitan_save_run.py::test_a_torchtitan_save_writes_only",),
    CORRECTIONS["checkpoint-callback"][1] + ("所以文件落在", "so the files land in"),
)


def corrections_missing(name: str, texts: list[str]) -> list[str]:
    required, forbidden = CORRECTIONS[name]
    out = [f"{name}: no claim matching {m!r}" for m in required for t in texts if m not in t]
    return out + [f"{name}: says {old!r} again" for old in forbidden for t in texts if old in t]


@pytest.mark.parametrize("name", sorted(CORRECTIONS))
def test_corrected_statements_stay_corrected(name: str) -> None:
    assert corrections_missing(name, [p.read_text(encoding="utf-8") for p in _pair(name)]) == []


def test_the_megatron_merge_snippet_passes_tie_word_embedding_only_in_its_tied_variant() -> None:
    snippets = REPO / "snippets" / "recipes"
    for name in ("model_merger_megatron", "model_merger_megatron_torchrun", "model_merger_cpu_init"):
        for path in (snippets / f"{name}.sh", snippets / f"{name}.zh.sh"):
            assert "--tie-word-embedding" not in path.read_text(encoding="utf-8"), path.name
    assert "--tie-word-embedding" in (snippets / "model_merger_megatron_tied.sh").read_text(encoding="utf-8")


def test_reverting_a_correction_is_caught() -> None:
    zh, en = (p.read_text(encoding="utf-8") for p in _pair("checkpoint-callback"))
    claim = next(line for line in en.splitlines() if "async_requests[-1].add_finalize_fn" in line)
    reverted = en.replace(claim, "") + "\nOnce every asynchronous write has finished, rank 0 writes the tracker.\n"
    assert len(corrections_missing("checkpoint-callback", [zh, reverted])) == 2


def test_nothing_in_the_pinned_verl_runs_megatrons_async_finalize(facts: Facts) -> None:
    """What the callback page says about Megatron async_save rests on an absence: no caller of Megatron's
    maybe_finalize_async_calls and no worker method async_calls_finalize_fn_exec (only hasattr tests for it)."""
    package = facts.tree.package
    sources = {p: p.read_text(encoding="utf-8", errors="replace") for p in package.rglob("*.py")}
    assert not [p for p, s in sources.items() if "maybe_finalize_async_calls" in s]
    assert not [p for p, s in sources.items() if "def async_calls_finalize_fn_exec" in s]
    assert any("add_finalize_fn(finalize_save_fn)" in s for s in sources.values()), "the finalize hook moved"


UNCHECKED = re.compile(r'<sup class="unchecked" title="([^"]+)">※</sup>')


@pytest.mark.parametrize("name", PAGES)
def test_unchecked_marks_carry_a_basis_and_match_across_languages(name: str) -> None:
    zh, en = (p.read_text(encoding="utf-8") for p in _pair(name))
    marks = [UNCHECKED.findall(t) for t in (zh, en)]
    assert len(marks[0]) == len(marks[1]), f"{name}: ※ marks differ between languages"
    assert zh.count('class="unchecked"') == len(marks[0]) and en.count('class="unchecked"') == len(marks[1])
    basis = r"report|reading|thread|message|guide|inferred|declared|报告|阅读|讨论|报错信息|指南|推断|声明"
    without = [t for t in marks[0] + marks[1] if not re.search(basis, t)]
    assert not without, without


def test_unchecked_mark_check_fires_on_a_mark_without_basis() -> None:
    assert UNCHECKED.findall('x<sup class="unchecked">※</sup>') == []


def _override_findings(tmp_path: Path, facts: Facts, entry: str, override: str) -> list[str]:
    page = tmp_path / "launch.md"
    page.write_text(f'# launch\n\n```bash {{ check="shell" }}\npython3 -m {entry} {override}\n```\n', encoding="utf-8")
    report = check_paths([page], facts, root=tmp_path)
    return [f.rule for f in report.findings]


def test_the_sft_trainer_rejects_the_callback_override_unless_it_is_added_with_a_plus(
    tmp_path: Path, facts: Facts
) -> None:
    """checkpoint-callback's prerequisites: the SFT config has no ``trainer.checkpoint_callback_class``, so Hydra
    stops an SFT launch that sets it without ``+`` (review10a F4), while ``+`` composes and the PPO config takes it."""
    value = "my_project.ckpt_callbacks.UploadRegisterEvaluate"
    sft = "verl.trainer.sft_trainer"
    assert _override_findings(tmp_path, facts, sft, f"trainer.checkpoint_callback_class={value}") == [
        "config/unknown-key"
    ]
    assert _override_findings(tmp_path, facts, sft, f"+trainer.checkpoint_callback_class={value}") == []
    ppo = "verl.trainer.main_ppo"
    assert _override_findings(tmp_path, facts, ppo, f"trainer.checkpoint_callback_class={value}") == []


def test_save_lora_only_needs_a_plus_on_the_ppo_command_line(tmp_path: Path, facts: Facts) -> None:
    """troubleshooting #save-lora-only: ``save_lora_only`` is a field of CheckpointConfig (verl 0.9.0 on) but not a key
    of the shipped ppo_trainer.yaml, so Hydra refuses the plain override and composes it with ``+``: the checker says
    so, and Hydra's own ``compose`` on that YAML (as in test_config_differential, no verl import) gives the text the
    page quotes."""
    key = "actor_rollout_ref.actor.checkpoint.save_lora_only"
    ppo = "verl.trainer.main_ppo"
    assert _override_findings(tmp_path, facts, ppo, f"{key}=true") == ["config/unknown-key"]
    assert _override_findings(tmp_path, facts, ppo, f"+{key}=true") == []
    # Hydra's own compose on the same release's YAML (review48a-4: the checker's finding says nothing of Hydra's
    # text): the plain override fails with the two sentences the page quotes, the ``+`` one composes with the value
    from hydra import compose, initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    from verl_cookbook.facts.compose import searchpath

    folder = facts.config_dir("ppo_trainer")
    sp = searchpath(facts.tree, folder, "ppo_trainer")
    extra = ["hydra.searchpath=[" + ",".join(f"'{e}'" for e in sp) + "]"] if sp else []
    GlobalHydra.instance().clear()
    try:
        with initialize_config_dir(config_dir=str(folder), version_base=None):
            with pytest.raises(Exception) as err:
                compose(config_name="ppo_trainer", overrides=[f"{key}=true", *extra])
            assert f"Could not override '{key}'." in str(err.value)
            assert f"To append to your config use +{key}=true" in str(err.value)
            cfg = compose(config_name="ppo_trainer", overrides=[f"+{key}=true", *extra])
            assert cfg.actor_rollout_ref.actor.checkpoint.save_lora_only is True
    finally:
        GlobalHydra.instance().clear()


_TROUBLESHOOTING = ("troubleshooting.md", "troubleshooting.en.md")
_OVERRIDE = re.compile(r"^\+{0,2}~?[\w.@/-]+=\S.*$")


@pytest.mark.parametrize("name", _TROUBLESHOOTING)
def test_trainer_command_blocks_on_troubleshooting_list_only_the_overrides_a_fix_needs(name: str) -> None:
    """The page's intro tells readers to add a trainer block's lines to their own launch command (review22c: read as
    whole commands they start a run on the default config). That holds while every such block is the entry point
    followed by Hydra overrides and nothing else: no data paths, no other command."""
    page = parse_page(REPO / "docs" / "recipes" / name, REPO)
    blocks = [b for b in page.blocks if b.code.lstrip().startswith("python3 -m verl.trainer.main_ppo")]
    assert len(blocks) >= 3, "the page has fewer trainer blocks than when this test was written"
    for b in blocks:
        words = b.code.replace("\\\n", " ").split()
        assert words[:3] == ["python3", "-m", "verl.trainer.main_ppo"], (b.line, words[:3])
        rest = [w for w in words[3:] if not w.startswith("#")]
        bad = [w for w in rest if not _OVERRIDE.match(w)]
        assert not bad, f"{name}:{b.line}: not an override: {bad}"
        # a model path is the fix only when it points the run at a checkpoint's weights (a new run from them)
        assert not any(
            w.startswith(("data.train_files", "data.val_files"))
            or (w.startswith("actor_rollout_ref.model.path") and "/global_step_" not in w)
            for w in rest
        ), f"{name}:{b.line}: a run-specific path in a fix block"
