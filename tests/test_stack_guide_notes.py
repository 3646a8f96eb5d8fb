"""The version-matrix page promises that where verl's Ascend install guide names another version than a table gives,
the difference and its reason are under the table. Checked for every row the guide names, not only the ones
``guide_differences`` resolves with a --pin: triton-ascend (review18a F1) and a guide that names no version yet
(review18a F2: the 950PR/950DT guide's torch_npu)."""

from __future__ import annotations

import re

import pytest
from packaging.utils import canonicalize_name

from verl_cookbook.releases import covered_releases
from verl_cookbook.stack_pages import PRODUCT_TABLES, TEXT, _pin, plans_for, table
from verl_cookbook.stack_resolve import release_fact

# guide key -> the distribution of the table's row (python, CANN and the driver are rows of their own)
ROWS = {
    "torch": "torch",
    "torch_npu": "torch-npu",
    "torchvision": "torchvision",
    "torchaudio": "torchaudio",
    "transformers": "transformers",
    "triton_ascend": "triton-ascend",
    "vllm": "vllm",
    "vllm_ascend": "vllm-ascend",
}


def _cases() -> list[tuple[str, str]]:
    return [(r, p) for r in covered_releases() for p in PRODUCT_TABLES]


@pytest.mark.parametrize(("release", "product"), _cases())
def test_every_version_the_guide_names_that_a_table_does_not_give_has_a_note_under_it(release: str, product: str):
    base = plans_for(release, product)["nccl"]
    if base.verdict != "ok":
        return
    for lang in ("en", "zh"):
        lines = table(release, product, lang)
        notes = [line for line in lines if line.startswith("- ")]
        for key, dist in ROWS.items():
            f, pin = base.facts.get(key), _pin(base, dist)
            if f is None or pin is None:
                continue
            if re.fullmatch(r"\d[\w.]*", f.value):
                if f.value == pin.version:
                    continue
                said = f"names {dist} {f.value}" if lang == "en" else f"中 {dist} 的版本为 {f.value}"
                assert any(said in n for n in notes), (release, product, lang, dist, f.value, pin.version)
            else:  # the guide names none yet: the row points to the note, the note names the guide and the decider
                row = next(line for line in lines if line.startswith(f"| `{pin.name}` |"))
                assert TEXT[lang]["see_note"] in row, row
                said = f"names no {pin.name} version yet" if lang == "en" else f"尚未给出 {pin.name} 版本"
                note = next(n for n in notes if said in n)
                assert f.source in note and f"`{canonicalize_name(pin.name)}=={pin.version}`" in note, note


def test_the_090_tables_name_the_guides_triton_ascend_and_the_950_tables_its_missing_torch_npu():
    """The two cases review18a found: verl 0.9.0's guide names triton-ascend 3.2.1, vllm-ascend 0.23.0 requires
    3.2.2; the 950PR/950DT guide names no torch_npu (待Q2 …), the table gives vllm-ascend 0.23.0's 2.10.0.post4."""
    for product in ("A2", "A3"):
        notes = "\n".join(table("0.9.0", product, "en"))
        assert "names triton-ascend 3.2.1; vllm-ascend 0.23.0 requires `triton-ascend==3.2.2`" in notes
    for release in ("0.9.0", "0.9.1"):
        md = "\n".join(table(release, "950", "en"))
        assert "| `torch_npu` | `2.10.0.post4` | from PyPI (see the note below the table) |" in md
        assert "install_guidance_A5.rst#L11" in md and "requires `torch-npu==2.10.0.post4`" in md
    assert "names triton-ascend" not in "\n".join(table("0.9.1", "A3", "en"))  # 1dda039's guide names 3.2.2 too


# guide rows that are no row of any table, each with the note that says why: how the note names the row and the fact
# (kind, name) whose source it links (review24g F4: mainline triton, which verl's script uninstalls; review25g F1:
# Megatron-LM and MindSpeed, which verl checks out from git at the guide's branch or commit)
NOT_ROWS = {
    "triton": ("`triton` {value}", ("script", "uninstall_triton")),
    "megatron_lm": ("Megatron-LM `{value}`", ("checkout", "{family}.megatron_lm")),
    "mindspeed": ("MindSpeed `{value}`", ("checkout", "{family}.mindspeed")),
}
# guide rows the table shows as rows of their own or in its header (python: the table's Python)
OWN_ROWS = {"cann", "hdk", "python"}


@pytest.mark.parametrize(("release", "product"), _cases())
def test_every_row_of_the_guide_is_a_row_of_the_table_or_a_note_under_it(release: str, product: str):
    """A row verl's guide gains (a new key in the guide facts) fails here until the page either shows it or says why
    not, so the tables cannot fall silent on it again."""
    base = plans_for(release, product)["nccl"]
    if base.verdict != "ok":
        return
    extra = set(base.facts) - set(ROWS) - set(NOT_ROWS) - OWN_ROWS
    assert not extra, extra
    for lang in ("en", "zh"):
        notes = [line for line in table(release, product, lang) if line.startswith("- ")]
        for key in NOT_ROWS.keys() & set(base.facts):
            f, (named, (kind, name)) = base.facts[key], NOT_ROWS[key]
            note = next((n for n in notes if named.format(value=f.value) in n), None)
            assert note is not None, (release, product, lang, key)
            why = release_fact(base.ask, kind, name.format(family=base.ask.family))
            assert why is not None and f.source in note, note
            if key == "triton":  # no package of the plan requires it; the uninstall is the A2/A3 script's only
                assert _pin(base, "triton") is None
                assert (why.source in note) == (base.ask.family == "a3"), (product, note)  # review26g M1
            else:
                assert why.source in note, note


def test_the_triton_note_is_absent_where_the_guide_names_no_mainline_triton():
    """verl 0.7.1's guide lists triton-ascend only: no note about mainline Triton under its tables."""
    for product in ("A2", "A3"):
        assert "triton" not in plans_for("0.7.1", product)["nccl"].facts
        assert "mainline Triton" not in "\n".join(table("0.7.1", product, "en"))
        assert "主线 Triton" not in "\n".join(table("0.7.1", product, "zh"))


def test_the_megatron_note_names_the_branch_or_commit_verl_checks_out():
    """review25g F1: verl 0.9.x's guides name Megatron-LM and MindSpeed (core_r0.16.0 on A2/A3, core_r0.12.0 and a
    MindSpeed commit on 950PR/950DT); the note links where verl checks them out; 0.7.1's guide table names neither."""
    for release in ("0.9.0", "0.9.1"):
        md = "\n".join(table(release, "A3", "en"))
        assert "Megatron-LM `core_r0.16.0`](" in md and "MindSpeed `core_r0.16.0`](" in md
        assert "install_vllm_mcore_npu.sh#L32" in md
        md = "\n".join(table(release, "950", "zh"))
        assert "Megatron-LM `core_r0.12.0`](" in md
        assert "MindSpeed `0c6c0ceaa523a96032dee1539a52032155e6404e`](" in md
        assert "install_guidance_A5.rst#L61" in md
    for product in ("A2", "A3"):
        assert "megatron_lm" not in plans_for("0.7.1", product)["nccl"].facts
        assert "Megatron-LM `" not in "\n".join(table("0.7.1", product, "en"))
