"""The version-matrix pages: their tables are the plans ``verl-cookbook stack`` prints (``stack_pages``), filled in
by the mkdocs hook ``scripts/hooks/stack_tables.py`` in both languages; wheel dates are the index's upload times."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name

from verl_cookbook import stack_pages
from verl_cookbook.releases import covered_releases
from verl_cookbook.stack_plan import build
from verl_cookbook.stack_resolve import PRODUCTS, Ask, covered, plans_snapshot, recorded

ROOT = Path(__file__).resolve().parents[1]


def test_every_covered_release_and_product_has_a_committed_resolution_for_each_backend() -> None:
    missing = [a.key for a in covered() if recorded(a) is None]
    assert missing == [] and {a.product for a in covered()} == set(PRODUCTS)


def test_the_version_matrix_tables_are_the_plans_in_both_languages() -> None:
    for lang in ("zh", "en"):
        md = stack_pages.plans_markdown(covered_releases(), lang)
        for release in covered_releases():  # a section per release, a table per product line
            assert f"### verl {release} {{ #verl-{release.replace('.', '-')} }}" in md
        assert md.count("| CANN | `9.1.0` |") == 2  # verl 0.9.1 on the Atlas A2 and on the Atlas A3
        ask = Ask("0.9.1", "A3")
        record = recorded(ask)
        assert record is not None
        p = build(ask, record)
        torch_npu = next(x for x in p.pins if canonicalize_name(x.name) == "torch-npu")
        assert f"| `{torch_npu.name}` | `{torch_npu.version}` |" in md
    for page in MATRIX:  # the command that prints the plans, with every pin's reasons, is named on the page once
        assert "`verl-cookbook stack --verl " in (ROOT / page).read_text(encoding="utf-8")


def test_both_version_matrix_pages_carry_the_markers_the_hook_fills() -> None:
    for page in ("version-matrix.md", "version-matrix.en.md"):
        text = (ROOT / "docs" / "install" / page).read_text(encoding="utf-8")
        assert "<!-- stack: plans -->" in text and "<!-- stack: uploads -->" in text


def test_the_hook_fills_the_markers_and_stops_on_one_it_does_not_know() -> None:
    sys.path.insert(0, str(ROOT / "scripts" / "hooks"))
    from mkdocs.exceptions import PluginError
    from stack_tables import fill

    assert "<!-- stack:" not in fill("<!-- stack: plans -->\n<!-- stack: uploads -->\n", "en")
    with pytest.raises(PluginError, match="unknown marker"):
        fill("<!-- stack: plan -->", "zh")


def test_wheel_dates_come_from_upload_times_not_tags() -> None:
    md = stack_pages.uploads_markdown(covered_releases(), "en")
    row_080 = next(line for line in md.splitlines() if line.startswith("| 0.8.0 |"))
    assert "none yet" in row_080  # the first Mooncake NPU wheel reached the index 2026-06-10, after verl 0.8.0
    row_091 = next(line for line in md.splitlines() if line.startswith("| 0.9.1 |"))
    assert "`0.3.13.post1` (2026-08-31)" in row_091


def test_a_release_without_a_guide_for_the_product_has_no_plan_and_says_so() -> None:
    md = stack_pages.plans_markdown(["0.8.0"], "en")
    assert "verl 0.8.0 has no Ascend install guide for this product" in md
    # A2/A3: pip's conflict, said as the two requirements that clash and what to install instead
    assert "vllm-ascend 0.18.0 requires `opencv-python-headless<=4.11.0.86`" in md
    assert "vLLM 0.18.0 requires `opencv-python-headless>=4.13.0`" in md and "Use verl " in md
    assert "The user requested" not in md and "Requires-Dist" not in md  # pip's raw lines stay in the command's output


# -- the sentences of the version-matrix pages that no claim can hold ------------------------------------------------
MATRIX = ("docs/install/version-matrix.md", "docs/install/version-matrix.en.md")


def test_the_verl_wheel_requires_none_of_the_ascend_packages() -> None:
    from verl_cookbook.stack_facts import wheel

    entry = wheel("verl==0.9.1")
    assert entry is not None and entry["requires_dist"]  # the metadata was read: it names other requirements
    names = {canonicalize_name(re.split(r"[ ;<>=!~\[@(]", r, maxsplit=1)[0]) for r in entry["requires_dist"]}
    ascend = {"torch-npu", "vllm-ascend", "checkpoint-engine", "mooncake-transfer-engine", "cann", "triton-ascend"}
    assert names & ascend == set()
    assert not [n for n in names if "mooncake" in n or "ascend" in n or "npu" in n]


@pytest.mark.parametrize("page", MATRIX)
def test_each_vllm_ascend_row_is_read_from_the_policy_at_the_tag_and_line_its_source_links(page: str) -> None:
    import yaml

    facts = yaml.safe_load((ROOT / "verl_cookbook" / "snapshots" / "stack_facts.yaml").read_text(encoding="utf-8"))
    by_id = {f["id"]: f for f in facts["facts"]}
    rows = re.findall(
        r"^\| (v[\d.]+) \|.*?fact id=\"vllm_ascend\.\1\.table\.(?:python|cann).*?"
        r"\(https://github\.com/vllm-project/vllm-ascend/blob/(v[\d.]+)/docs/source/community/versioning_policy\.md#L(\d+)\)",
        (ROOT / page).read_text(encoding="utf-8"),
        re.M,
    )
    assert [r[0] for r in rows] == ["v0.13.0", "v0.18.0", "v0.23.0"]
    for release, tag, line in rows:
        held = [f for i, f in by_id.items() if i.startswith(f"vllm_ascend.{release}.table.")]
        assert len(held) >= 4, release  # Python, CANN, torch and torch_npu at least
        assert {(f["ref"], f["line"]) for f in held} == {(tag, int(line))}, release


def test_the_resolver_runs_the_command_the_matrix_page_names_and_a_weekly_job_checks_its_answers() -> None:
    from verl_cookbook import resolver

    cmd = resolver.command(["verl==0.9.1"], "/t", "/r")
    assert {"install", "--dry-run", "--report", "--only-binary=:all:"} <= set(cmd)
    assert cmd[cmd.index("--python-version") + 1] == "3.11"
    assert resolver.platforms()[0] == "manylinux_2_35_x86_64"
    for page in MATRIX:
        text = (ROOT / page).read_text(encoding="utf-8")
        assert "`pip install --dry-run --report --only-binary=:all:`" in text
    workflow = (ROOT / ".github" / "workflows" / "stack-facts.yml").read_text(encoding="utf-8")
    assert re.search(r'cron: "\d+ \d+ \* \* \d"', workflow)  # once a week
    assert "python scripts/refresh_resolver.py --check" in workflow
    # the plans: pip still answers as recorded, and pip still takes each plan's requirements file for its target
    assert "python scripts/refresh_stack_plans.py --check" in workflow
    assert "python scripts/refresh_stack_plans.py --accepts" in workflow


def test_the_matrix_names_each_sdist_only_pin_of_the_tables_with_its_version() -> None:
    """review39g-2: antlr4-python3-runtime and arctic-inference have wheels on PyPI, only the versions the tables need
    are sdists; the overview names those versions (and hydra-core's ``==4.9.*``), not the projects as sdist-only."""
    sdists: dict[str, str] = {}
    for ask in covered():
        record = recorded(ask)
        assert record is not None
        for sd in record.get("sdists", []):  # recorded where pip, wheels only, found no file of the pinned version
            req = sd["requirement"]
            name, version = req.split("==")
            assert sd["file"].endswith(".tar.gz") and version in sd["file"], sd
            sdists[name] = version
    assert sdists == {"arctic-inference": "0.1.1", "antlr4-python3-runtime": "4.9.3"}
    dists = plans_snapshot()["dists"]
    hydra = [d for d in dists.values() if canonicalize_name(d["name"]) == "hydra-core"]
    assert hydra and all("antlr4-python3-runtime==4.9.*" in d["requires_dist"] for d in hydra)
    for page in MATRIX:
        overview = (ROOT / page).read_text(encoding="utf-8").split("{ #overview }", 1)[1].split("\n## ", 1)[0]
        for name, version in sdists.items():
            assert f"{name} {version}" in overview, (page, name)
        assert "`==4.9.*`" in overview, page


@pytest.mark.parametrize("page", MATRIX)
def test_the_install_overview_section_the_matrix_points_to_has_a_row_for_each_backend_verl_registers(facts, page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "(index.md#what-to-install)" in text
    overview = (ROOT / page.replace("version-matrix", "index")).read_text(encoding="utf-8")
    section = overview.split("{ #what-to-install }", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    named = {name for row in rows for name in re.findall(r"`([a-z_]+)`", row.split("|")[1])}
    assert set(facts.backends()) <= named


def test_a_product_name_before_chinese_text_is_spaced_only_after_a_latin_ending() -> None:
    md = stack_pages.plans_markdown(covered_releases(), "zh")
    notes = [line for line in md.splitlines() if "在该产品的节点上源码编译" in line]
    assert notes and all("只能在 Atlas A2 训练系列产品上运行" in line for line in notes)
    assert not any("产品 上" in line or "950DT上" in line or "在Atlas" in line for line in notes)


@pytest.mark.parametrize("page", MATRIX)
def test_the_version_matrix_links_to_the_install_steps_and_carries_no_commands_of_its_own(page: str) -> None:
    """One install command set: the install page's steps. The matrix links to them and shows no commands, neither in
    its text nor in the tables the hook fills in."""
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "(index.md#install-steps)" in text and "```" not in text
    for lang in ("zh", "en"):
        md = stack_pages.plans_markdown(covered_releases(), lang)
        assert "pip install" not in md and "git clone" not in md and "(index.md#nccl-backend)" in md


def test_the_091_tables_say_verls_guide_and_readme_were_read_on_main_not_at_a_091_tag() -> None:
    """review15a F1/F7, review18b #1: our copy of verl's repository predates 0.9.1; what the site follows for 0.9.1 is
    main at 1dda039 (version file 0.10.0.dev). The 0.9.1 tables say so where they link the guide or the README,
    0.9.0's (read at v0.9.0) do not."""
    from verl_cookbook.stack_pages import table

    for lang, said in (
        ("en", "read on main at commit 1dda039: our copy of verl's repository predates 0.9.1"),
        ("zh", "本手册所读的 verl 仓库副本早于 0.9.1 发布"),
    ):
        a3 = "\n".join(table("0.9.1", "A3", lang))
        assert said in next(line for line in a3.splitlines() if line.startswith("| CANN"))
        kimi = [line for line in table("0.9.1", "950", lang) if "README.md" in line]
        assert kimi and all(said in line for line in kimi)
        assert "v0.9.0 tag" not in "\n".join(table("0.9.0", "A3", lang)) and "1dda039" not in "\n".join(
            table("0.9.0", "A3", lang)
        )


def test_every_version_in_the_tables_is_what_verl_cookbook_stack_pins_for_each_backend_the_row_is_for(capsys) -> None:
    """The tables and the command render the same snapshot separately: each row's version is the pin of that
    distribution in ``verl-cookbook stack --format json`` for every backend the row applies to (all with a plan,
    or those it names), and the glibc row is each backend's ``glibc_floor``; a backend whose plan pins another
    version of a row's distribution would need a row of its own."""
    import json

    from verl_cookbook.cli import main
    from verl_cookbook.stack_resolve import BACKENDS

    row = re.compile(r"^\| `([^`]+)`(?: \((.+) only\))? \| `([^`]+)` \|")
    glibc = re.compile(r"(\d+\.\d+) or later \(([^;]+);")
    checked = 0
    for release in covered_releases():
        for product in stack_pages.PRODUCT_TABLES:
            stack = {}
            for backend in BACKENDS:
                args = ["--verl", release, "--product", product, "--backend", backend, "--format", "json"]
                code = main(["stack", *args])
                said = capsys.readouterr().out
                if code == 0:
                    out = json.loads(said)
                    pins = {canonicalize_name(p["name"]): p["version"] for p in [*out["pins"], *out["after"]]}
                    stack[backend] = (pins, out["glibc_floor"])
            for line in stack_pages.table(release, product, "en"):
                if m := row.match(line):
                    name, only, version = m.groups()
                    backends = re.findall(r"`(\w+)`", only) if only else list(stack)
                    for backend in backends:
                        pinned = stack[backend][0].get(canonicalize_name(name))
                        assert pinned == version, (release, product, backend, line)
                        checked += 1
                elif line.startswith("| glibc |"):
                    for floor, backends in glibc.findall(line):
                        for backend in re.findall(r"`(\w+)`", backends):
                            assert stack[backend][1] == floor, (release, product, backend, line)
                            checked += 1
    assert checked > 100


def test_only_verl_0_9_0_and_later_have_an_ascend_950_table() -> None:
    """The unsupported-soc-version entry sends 0.7.1 and 0.8.0 users to upgrade: their guides have no 950 table."""
    verdicts = {v: (recorded(Ask(v, "950")) or {}).get("verdict") for v in covered_releases()}
    assert verdicts == {"0.7.1": "unsupported", "0.8.0": "unsupported", "0.9.0": "ok", "0.9.1": "ok"}


# -- sentences of the install overview (docs/install/index.md) that the committed index snapshots hold -----------------
INSTALL = ("docs/install/index.md", "docs/install/index.en.md")


def test_the_first_mooncake_npu_release_on_the_index_is_0_3_11_post1() -> None:
    """rev50a-7: "since mooncake-transfer-engine-npu 0.3.11.post1, PyPI carries prebuilt Ascend wheels": the first
    upload of that distribution (snapshots/index_uploads.json, every file the index lists, refreshed weekly)."""
    from verl_cookbook.stack_resolve import uploads

    releases = uploads()["dists"]["mooncake-transfer-engine-npu"]
    assert min(releases.items(), key=lambda kv: kv[1])[0] == "0.3.11.post1"
    for page in INSTALL:
        assert "`mooncake-transfer-engine-npu` 0.3.11.post1" in (ROOT / page).read_text(encoding="utf-8"), page


def test_vllm_built_for_an_empty_target_device_declares_no_torch() -> None:
    """rev50a-7: with ``VLLM_TARGET_DEVICE=empty`` vLLM takes its requirements from ``requirements/common.txt`` of its
    sdist (what the committed 0.9.1 plans read), and that file names no torch, so ``pip check`` has no torch
    requirement of vLLM to report."""
    from packaging.requirements import Requirement

    for product in PRODUCTS:
        record = recorded(Ask("0.9.1", product))
        if record is None or record.get("vllm_sdist") is None:
            continue
        roots = [r for r in record["roots"] if r["why"].startswith("vLLM 0.23.0 built with VLLM_TARGET_DEVICE=empty")]
        assert roots and all("vllm-0.23.0.tar.gz requirements/common.txt" in r["why"] for r in roots), product
        names = {canonicalize_name(Requirement(r["requirement"]).name) for r in roots}
        assert len(names) > 20 and not names & {"torch", "torchvision", "torchaudio"}, (product, sorted(names))
        return
    pytest.fail("no committed 0.9.1 plan read vLLM's sdist")
