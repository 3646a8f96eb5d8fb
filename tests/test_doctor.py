"""``verl-cookbook doctor``: each listed mistake fires its rule on the right line, correct scripts pass,
the machine is guessed from the file, output formats, and bad input exits 2 without a traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import helpers
from verl_cookbook import cli
from verl_cookbook.doctor import InputError, diagnose
from verl_cookbook.doctor.guesses import guess_cann, guess_product
from verl_cookbook.doctor_rules import SITE_URL, ascend_env, site_url
from verl_cookbook.facts import load_facts
from verl_cookbook.verl_source import from_release

DATA = Path(__file__).resolve().parent / "data" / "doctor"
REPO = Path(__file__).resolve().parent.parent
PAGES = ("backends/nccl-hccl/", "backends/mooncake-kimi/", "ascend/hccl-whitelist/", "recipes/delta-sync/")


line_of = helpers.line_of


MISTAKES = [
    # (fixture, rule, text on the line the finding must point at, page the link must name)
    ("hccl_backend.sh", "engine/unknown-backend", "backend=hccl", "backends/nccl-hccl/"),
    ("kwargs_wrong_key.sh", "engine/kwargs-ignored", "engine_kwargs.hccl.", "backends/nccl-hccl/"),
    ("multi_sender_npu.sh", "engine/unknown-kwarg", "multi_sender", "backends/nccl-hccl/"),
    ("mooncake_no_device.sh", "engine/npu-device", "backend=mooncake", "backends/mooncake-kimi/"),
    ("kimi_950_no_whitelist.sh", "ascend/whitelist-required", "backend=kimi_ckpt_engine", "ascend/hccl-whitelist/"),
    ("kimi_950_bad_whitelist.sh", "ascend/whitelist-file", "HCCL_WHITELIST_FILE=", "ascend/hccl-whitelist/"),
    ("kimi_a3_cann85_no_roce.sh", "ascend/intra-roce", "backend=kimi_ckpt_engine", "backends/mooncake-kimi/"),
    ("delta_npu.sh", "engine/not-on-device", "backend=delta_sharded", "recipes/delta-sync/"),
    ("delta_trtllm.sh", "delta/rejected", "rollout.name=trtllm", "recipes/delta-sync/"),
    ("delta_vllm_dp2.sh", "delta/rejected", "data_parallel_size=2", "recipes/delta-sync/"),
    ("delta_vllm_pd.sh", "delta/rejected", "disaggregation.enabled=True", "recipes/delta-sync/"),
    ("delta_vllm_verify.yaml", "delta/rejected", "verify_every: 10", "recipes/delta-sync/"),
    ("delta_vllm_verify.yaml", "delta/rejected", "pipeline_parallel_size: 2", "recipes/delta-sync/"),
]


@pytest.mark.parametrize(("name", "rule", "needle", "page"), MISTAKES, ids=[f"{m[0]}-{m[2]}" for m in MISTAKES])
def test_each_listed_mistake_fires_its_rule_on_its_line_with_a_fix_and_link(facts, name, rule, needle, page):
    path = DATA / name
    report = diagnose(path, facts)
    hits = [d for d in report.findings if d.finding.rule == rule and d.finding.line == line_of(path, needle)]
    assert hits, [(d.finding.rule, d.finding.line, d.finding.message) for d in report.findings]
    assert hits[0].fix
    assert hits[0].link == site_url() + "latest/" + page  # the published site: mike's `latest` alias


def test_delta_findings_cite_the_raise_in_verls_source(facts):
    report = diagnose(DATA / "delta_vllm_dp2.sh", facts)
    (hit,) = [d.finding for d in report.findings if d.finding.rule == "delta/rejected"]
    file, line = hit.fact_source.rsplit(":", 1)
    source_line = facts.tree.read(file).splitlines()[int(line) - 1]
    assert "raise NotImplementedError" in source_line
    assert "data_parallel_size=1" in hit.message


def test_a_delta_rule_disappears_when_verl_lifts_the_constraint(verl_copy):
    rel = "verl/workers/rollout/vllm_rollout/vllm_async_server.py"
    p = verl_copy.root / rel
    text = p.read_text()
    lifted = re.sub(
        r"if self\.config\.data_parallel_size != 1:\n\s+raise NotImplementedError\([^)]*\)",
        "pass",
        text,
        count=1,
    )
    assert lifted != text
    p.write_text(lifted)
    report = diagnose(DATA / "delta_vllm_dp2.sh", load_facts(verl_copy, use_cache=False))
    assert not [d for d in report.findings if "data_parallel_size" in d.finding.message]


def test_guards_whose_condition_cannot_be_known_statically_are_left_out(facts):
    guards = facts.delta_guards()
    moe = [g for g in guards if "is_moe_model" in g.condition_text]
    assert moe, "expected verl's MoE guards (is_moe_model) in the vLLM server"
    report = diagnose(DATA / "delta_vllm_dp2.sh", facts)
    assert not [d for d in report.findings if "MoE" in d.finding.message]


@pytest.mark.parametrize("name", ["npu_nccl_ok.sh", "npu_mooncake_ok.yaml", "kimi_950_ok.sh"])
def test_correct_files_pass_with_exit_0(name, capsys):
    assert cli.main(["doctor", str(DATA / name)]) == 0
    assert capsys.readouterr().out == ""


def test_intra_roce_is_not_asked_on_atlas_950(facts):
    report = diagnose(DATA / "kimi_950_ok.sh", facts, cann="8.5.0")
    assert report.product.value == "950"
    assert not report.findings


@pytest.mark.parametrize(("cann", "fires"), [("8.3.RC1", False), ("8.5.0", True), ("9.0.0", True)])
def test_intra_roce_applies_from_cann_8_5_0(facts, cann, fires):
    report = diagnose(DATA / "kimi_a3_cann85_no_roce.sh", facts, cann=cann)
    assert any(d.finding.rule == "ascend/intra-roce" for d in report.findings) is fires


def _kimi_cann85(tmp_path: Path, *exports: str) -> Path:
    text = (DATA / "kimi_a3_cann85_no_roce.sh").read_text()
    text = text.replace("export ASCEND_RT", "".join(f"export {e}\n" for e in exports) + "export ASCEND_RT")
    p = tmp_path / "run.sh"
    p.write_text(text)
    return p


@pytest.mark.parametrize("product", ["A2", "A3"])
def test_a_buffer_pool_does_not_stand_in_for_intra_roce_with_kimi_as_verls_readme_gives_no_other_choice(
    facts, tmp_path, product
):
    """verl's README says kimi_ckpt_engine with CANN >= 8.5.0 must set the variable; the buffer pool is Mooncake's
    advice for its own transport, which no source gives for checkpoint-engine (review15b)."""
    report = diagnose(_kimi_cann85(tmp_path, "ASCEND_BUFFER_POOL=4:8"), facts, product=product)
    (found,) = [d for d in report.findings if d.finding.rule == "ascend/intra-roce"]
    assert "HCCL_INTRA_ROCE_ENABLE=1" in found.fix and "ASCEND_BUFFER_POOL" not in found.fix
    assert "ASCEND_BUFFER_POOL" not in found.fix_text("zh")


def test_intra_roce_set_to_1_satisfies_the_rule(facts, tmp_path):
    text = (
        (DATA / "kimi_a3_cann85_no_roce.sh")
        .read_text()
        .replace("export ASCEND_RT", "export HCCL_INTRA_ROCE_ENABLE=1\nexport ASCEND_RT")
    )
    p = tmp_path / "run.sh"
    p.write_text(text)
    assert not diagnose(p, facts).findings


# -- guessing the machine -------------------------------------------------------------------------
TRAINER = "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm {extra}\n"


@pytest.mark.parametrize(
    ("head", "extra", "expected", "why"),
    [
        ("export ASCEND_RT_VISIBLE_DEVICES=0,1\n", "", "npu", "ASCEND_RT_VISIBLE_DEVICES"),
        ("source /usr/local/Ascend/ascend-toolkit/set_env.sh\n", "", "npu", "set_env.sh"),
        ("python3 -c 'import torch_npu'\n", "", "npu", "torch_npu"),
        ("export CUDA_VISIBLE_DEVICES=0,1\n", "", "gpu", "CUDA_VISIBLE_DEVICES"),
        ("export CUDA_VISIBLE_DEVICES=0,1\n", "trainer.device=npu", "npu", "trainer.device=npu"),
        ("# export ASCEND_RT_VISIBLE_DEVICES=0\n", "", None, "--device"),
    ],
)
def test_device_is_guessed_from_the_script_and_says_why(facts, tmp_path, head, extra, expected, why):
    p = tmp_path / "run.sh"
    p.write_text("#!/bin/bash\n" + head + TRAINER.format(extra=extra))
    guess = diagnose(p, facts).device
    assert guess.value == expected
    assert why in guess.why


RECIPE = "python3 -m recipe.segment_rollout.main_segment \\\n    data.train_batch_size=8 \\\n    {extra}\n"


@pytest.mark.parametrize(
    ("head", "extra", "expected"),
    [
        ("", "trainer.device=npu", "npu"),
        ("", "trainer.device=cuda", "gpu"),
        ("export VLLM_ASCEND_ENABLE_NZ=0\n", "trainer.total_epochs=1", "npu"),
        ("", "trainer.total_epochs=1", None),
        ("# trainer.device=npu was the old setting\n", "trainer.total_epochs=1", None),
    ],
)
def test_a_command_doctor_does_not_judge_still_tells_the_device(facts, tmp_path, head, extra, expected):
    """scripts12: a recipe's trainer with trainer.device=npu drew 'device unknown: no hint in the file'."""
    p = tmp_path / "run.sh"
    p.write_text("#!/bin/bash\n" + head + RECIPE.format(extra=extra))
    assert diagnose(p, facts).device.value == expected


def test_without_a_verl_command_no_config_is_named_and_no_cann_or_product_note_is_given(facts, tmp_path):
    """scripts12: the header named config ppo_trainer for a script passing --config-name=dance_ppo_trainer to a recipe,
    and the CANN and product notes spoke of rules that judge a verl command's engine, with none there."""
    from verl_cookbook.doctor.command import _context

    p = tmp_path / "run.sh"
    p.write_text("#!/bin/bash\n" + RECIPE.format(extra="--config-name=dance_ppo_trainer trainer.device=npu"))
    report = diagnose(p, facts)
    assert not any("config" in part.split()[0] for part in _context(report))
    assert not [n for n in report.notes if "CANN version unknown" in n or "Ascend product unknown" in n]
    assert any("is not an entry point" in n for n in report.notes)  # it says what was not checked, once
    q = tmp_path / "verl.sh"
    q.write_text("#!/bin/bash\n" + TRAINER.format(extra="trainer.device=npu"))
    judged = diagnose(q, facts)
    assert "config ppo_trainer" in _context(judged)
    assert not any("CANN version unknown" in n for n in judged.notes)  # the default backend is not kimi_ckpt_engine
    k = tmp_path / "kimi.sh"
    kimi = "actor_rollout_ref.rollout.checkpoint_engine.backend=kimi_ckpt_engine"
    k.write_text(q.read_text().replace("=npu", f"=npu {kimi}"))
    assert any("CANN version unknown" in n for n in diagnose(k, facts).notes)


def test_device_given_on_the_command_line_wins(facts):
    assert diagnose(DATA / "delta_vllm_dp2.sh", facts, device="npu").device.how == "given"


def test_cann_and_product_are_guessed_from_paths_and_comments():
    assert guess_cann(None, {}, "source /usr/local/Ascend/cann-8.5.0/set_env.sh\n").value == "8.5.0"
    assert guess_cann(None, {}, "source /usr/local/Ascend/ascend-toolkit/8.3.RC1/set_env.sh\n").value == "8.3.RC1"
    assert guess_cann(None, {}, "echo hi\n").value is None
    assert guess_product(None, "# runs on Atlas 800T A3\n").value == "A3"
    assert guess_product(None, "# Ascend 950PR cluster\n").value == "950"
    assert guess_product(None, "image=quay.io/ascend/verl:8.3-910b\n").value == "A2"
    assert guess_product(None, "echo hi\n").value is None


def test_cann_versions_order_release_candidates_before_the_release():
    assert ascend_env.cann_key("8.5.0") >= ascend_env.ROCE_SINCE
    assert ascend_env.cann_key("8.5.RC1") < ascend_env.ROCE_SINCE
    assert ascend_env.cann_key("8.3.0") < ascend_env.ROCE_SINCE
    assert ascend_env.cann_key("banana") is None


# -- whitelist content ----------------------------------------------------------------------------
def _whitelist_message(content: str) -> str:
    """What doctor says about a whitelist file with ``content`` (the rule's message, its problems rendered)."""
    from verl_cookbook.rules.ascend import ASCEND_WHITELIST_FILE

    return ASCEND_WHITELIST_FILE.render({"value": "wl.json", "problems": ascend_env.whitelist_problems(content)})


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('{ "host_ip": ["ip1"], ["ip2"] }', "not valid JSON"),
        ('{"device_ip": ["10.0.0.1"]}', "no `host_ip`"),
        ('{"host_ip": ["node-1"]}', "not a dotted-decimal IPv4"),
        ('{"host_ip": []}', "non-empty"),
        ('{"host_ip": ["10.0.0.1"], "device_ip": ["10.0.0.2"]}', "`device_ip` is reserved"),
    ],
)
def test_whitelist_problems_name_what_hccl_rejects(content, problem):
    assert problem in _whitelist_message(content)


def test_whitelist_shape_comes_from_the_catalog_schema():
    # only the catalog's schema (additionalProperties: false) rejects keys HCCL does not read
    assert "'extra' was unexpected" in _whitelist_message('{"host_ip": ["10.0.0.1"], "extra": 1}')


def test_a_valid_whitelist_has_no_problems():
    assert ascend_env.whitelist_problems((DATA / "whitelist.json").read_text()) == []


# -- output formats and exit codes ------------------------------------------------------------------
def test_json_output_lists_findings_with_fix_link_and_the_guesses(capsys):
    assert cli.main(["doctor", str(DATA / "hccl_backend.sh"), "--format", "json"]) == 1
    out = json.loads(capsys.readouterr().out)
    (f,) = out["findings"]
    assert f["rule"] == "engine/unknown-backend"
    assert f["line"] == line_of(DATA / "hccl_backend.sh", "backend=hccl")
    assert f["link"].endswith("backends/nccl-hccl/") and f["fix"]
    (info,) = out["files"]
    assert info["device"]["value"] == "npu" and "ASCEND_RT_VISIBLE_DEVICES" in info["device"]["why"]


def test_github_output_is_one_annotation_per_finding(capsys):
    assert cli.main(["doctor", str(DATA / "kwargs_wrong_key.sh"), "--format", "github"]) == 1
    lines = capsys.readouterr().out.splitlines()
    line = line_of(DATA / "kwargs_wrong_key.sh", "engine_kwargs.hccl.")
    assert lines and all(ln.startswith("::error file=") for ln in lines)
    assert any(f",line={line}," in ln and "title=engine/kwargs-ignored" in ln for ln in lines)


def test_text_output_says_what_was_guessed(capsys):
    cli.main(["doctor", str(DATA / "kimi_a3_cann85_no_roce.sh")])
    err = capsys.readouterr().err
    assert "device npu (guessed from line" in err
    assert "CANN 8.5.0 (guessed from line" in err
    assert "product A3 (guessed from line" in err


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.sh", "no such file"),
        (lambda d: d, "is a folder"),
    ],
)
def test_a_missing_file_or_a_folder_exits_2_with_a_message(tmp_path, capsys, make, message):
    path = make(tmp_path)
    assert cli.main(["doctor", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def _write(p: Path, data: bytes) -> Path:
    p.write_bytes(data)
    return p


def test_bad_cann_option_exits_2(capsys):
    assert cli.main(["doctor", str(DATA / "npu_nccl_ok.sh"), "--cann", "latest"]) == 2
    assert "--cann" in capsys.readouterr().err


def test_invalid_yaml_is_a_finding_with_its_line(facts, tmp_path):
    p = tmp_path / "c.yaml"
    p.write_text("actor_rollout_ref:\n  rollout:\n    name: [vllm\n")
    report = diagnose(p, facts)
    assert [d.finding.rule for d in report.findings] == ["yaml/syntax"]


def test_the_users_files_are_never_modified(tmp_path):
    files = sorted(DATA.iterdir())
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in files}
    cli.main(["doctor", *map(str, files), "--format", "json"])
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in files} == before


def test_input_error_is_raised_for_a_missing_file(facts, tmp_path):
    with pytest.raises(InputError):
        diagnose(tmp_path / "nope.sh", facts)


# -- links --------------------------------------------------------------------------------------------
def test_the_packaged_site_url_matches_mkdocs_yml():
    mk = REPO / "mkdocs.yml"
    m = re.search(r"^site_url:\s*['\"]?([^'\"\s#]+)", mk.read_text(), re.M) if mk.is_file() else None
    if m is None:
        pytest.skip("mkdocs.yml sets no site_url")
    assert SITE_URL.rstrip("/") == m.group(1).rstrip("/")


def test_every_linked_page_is_one_of_the_sites_pages():
    import verl_cookbook.doctor_rules as rules

    pages = {v for k, v in vars(rules).items() if k.startswith("PAGE_")}
    assert pages - {"tools/doctor/"} == set(PAGES)


# -- the page -----------------------------------------------------------------------------------------
def _console_blocks(page: Path) -> list[tuple[str, str]]:
    """(arguments, shown output) of each ``$ verl-cookbook doctor [OPTIONS] FILE`` console block on ``page``."""
    text = page.read_text(encoding="utf-8")
    out = []
    for m in re.finditer(r"```[^\n]*console output[^\n]*\n\$ verl-cookbook doctor ([^\n]+)\n(.*?)\n```", text, re.S):
        out.append((m.group(1), m.group(2)))
    return out


@pytest.mark.parametrize("page", ["doctor.md", "doctor.en.md"])
def test_the_output_shown_on_the_page_is_what_doctor_prints(page, capsys, monkeypatch):
    blocks = _console_blocks(REPO / "docs" / "tools" / page)
    assert len(blocks) == 4
    monkeypatch.chdir(REPO / "snippets" / "doctor")
    for args, shown in blocks:
        cli.main(["doctor", *args.split()])
        got = capsys.readouterr()
        assert (got.out + got.err).rstrip("\n") == shown, args


# -- scripts in the wild ------------------------------------------------------------------------------
def _script(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "run.sh"
    p.write_text("#!/bin/bash\nexport ASCEND_RT_VISIBLE_DEVICES=0\n" + body)
    return p


def test_a_value_from_a_shell_variable_is_not_judged_but_its_key_is(facts, tmp_path):
    p = _script(
        tmp_path,
        "python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.checkpoint_engine.backend=$BACKEND "
        "actor_rollout_ref.rollout.checkpoint_engin.backend=$BACKEND\n",
    )
    report = diagnose(p, facts)
    assert [d.finding.rule for d in report.findings] == ["config/unknown-key"]
    assert any("not known statically" in n and "their keys were checked" in n for n in report.notes)


def test_config_name_on_the_command_line_selects_verls_config(facts, tmp_path):
    p = _script(
        tmp_path,
        "python3 -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer "
        "actor_rollout_ref.rollout.checkpoint_engine.backend=nccl\n",
    )
    assert diagnose(p, facts).config == "ppo_megatron_trainer"


def test_an_experimental_entry_point_is_checked_against_the_config_hydra_composes_for_it(facts, tmp_path):
    cmd = (
        "python3 -m verl.experimental.fully_async_policy.fully_async_main async_training.staleness_threshold=1 "
        "actor_rollout_ref.rollout.checkpoint_engine.backend=hccl\n"
    )
    report = diagnose(_script(tmp_path, cmd), facts)
    assert [d.finding.rule for d in report.findings] == ["engine/unknown-backend"]
    assert report.config == "fully_async_ppo_trainer"
    typo = diagnose(_script(tmp_path, cmd.replace("staleness_threshold", "staleness")), facts)
    assert [d.finding.rule for d in typo.findings] == ["config/unknown-key", "engine/unknown-backend"]


def test_a_script_without_a_verl_command_says_so(facts, tmp_path):
    report = diagnose(_script(tmp_path, "echo hello\n"), facts)
    assert not report.findings and any("no verl trainer command" in n for n in report.notes)


def test_overrides_given_to_a_trainer_outside_verl_are_named_as_not_checked(facts, tmp_path):
    # a recipe's own trainer takes Hydra overrides too: say which command was left unchecked, and how much of it
    recipe = (
        "python3 -m recipe.dapo.main_dapo \\\n"
        "    algorithm.filter_groups.enable=True \\\n"
        "    +reward_model.overlong_buffer.len=4096 \\\n"
        "    trainer.device=npu\n"
    )
    report = diagnose(_script(tmp_path, recipe), facts)
    (note,) = [n for n in report.notes if "not an entry point" in n]
    assert note.startswith("line 3: `recipe.dapo.main_dapo`") and "3 override(s) were not checked" in note
    # scripts15: "no verl trainer command … found" after it said the same again
    assert not report.findings and not any("no verl trainer command" in n for n in report.notes)


def test_other_python_modules_and_verls_own_entry_points_get_no_such_note(facts, tmp_path):
    script = (
        "python3 -m pip install --upgrade verl\n"  # no override: a module of another kind
        "python3 -m verl.trainer.main_ppo trainer.total_epochs=2\n"  # verl's own: judged, not noted
        "python3 -m vllm.entrypoints.openai.api_server --model /models/qwen --port 8000\n"
    )
    report = diagnose(_script(tmp_path, script), facts)
    assert not [n for n in report.notes if "not an entry point" in n]


# -- notes: one file, several files, --quiet ------------------------------------------------------------------
def _doctor_text(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(["doctor", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_one_file_gets_each_of_its_notes(capsys, tmp_path):
    _code, _out, err = _doctor_text(capsys, str(_yaml(tmp_path)))
    assert "kimi_npu.yaml: note: CANN version unknown" in err
    assert "kimi_npu.yaml: note: Ascend product unknown" in err
    # both rules the product decides are named (review39j-3)
    assert "ascend/whitelist-required" in err and "ascend/kimi-950-unsupported" in err
    assert "notes by kind" not in err


def test_a_config_of_another_backend_gets_no_note_about_the_kimi_rules_it_could_not_meet(capsys):
    """The product and CANN rules judge kimi_ckpt_engine only: asking a mooncake config for them changes nothing."""
    _code, _out, err = _doctor_text(capsys, str(DATA / "npu_mooncake_ok.yaml"))
    assert "CANN version unknown" not in err and "Ascend product unknown" not in err
    assert "--cann" not in err and "--product" not in err  # nor does the line of guesses ask for them


def test_several_files_get_their_notes_counted_by_kind(capsys, tmp_path):
    kimi = [tmp_path / f"kimi_{n}.yaml" for n in (1, 2, 3)]
    for k in kimi:
        k.write_text(KIMI_YAML)
    files = [*kimi, DATA / "kwargs_wrong_key.sh"]
    code, out, err = _doctor_text(capsys, *map(str, files))
    assert ": note: " not in err
    assert "doctor: notes by kind" in err
    kinds = [ln for ln in err.splitlines() if re.match(r"doctor: +\d+ in \d+ files?: ", ln)]
    assert kinds and len(kinds) == len(set(kinds))
    # every file lacks its CANN version: one line for the three notes of that kind
    assert any(re.match(r"doctor: +\d+ in \d+ files?: CANN version unknown", ln) for ln in kinds)
    # the file with findings keeps its line of guesses; the findings themselves are unchanged
    assert f"doctor: {DATA / 'kwargs_wrong_key.sh'}: shell;" in err
    assert code == 1 and "engine/kwargs-ignored" in out


def test_quiet_prints_only_the_findings(capsys):
    argv = [str(DATA / "kwargs_wrong_key.sh"), str(DATA / "npu_mooncake_ok.yaml")]
    code, out, _err = _doctor_text(capsys, *argv)
    quiet_code, quiet_out, quiet_err = _doctor_text(capsys, *argv, "--quiet")
    assert (quiet_code, quiet_out) == (code, out)
    assert quiet_err == ""


def test_note_kind_leaves_out_lines_names_and_counts():
    from verl_cookbook.doctor.command import note_kind

    a = "line 12: 3 override(s) take their value from something not known statically (`a.b`, `c`): keys checked"
    b = "line 40: 1 override(s) take their value from something not known statically (`x`): keys checked"
    assert note_kind(a) == note_kind(b)
    assert note_kind("CANN version unknown (--cann VERSION): the CANN >= 8.5.0 rule was not applied") != note_kind(a)
    assert "8.5.0" in note_kind("the CANN >= 8.5.0 rule was not applied")


# -- --cann and --product on a YAML config ------------------------------------------------------------------------
KIMI_YAML = (
    "trainer:\n  device: npu\nactor_rollout_ref:\n  rollout:\n    name: vllm\n"
    "    checkpoint_engine:\n      backend: kimi_ckpt_engine\n"
)


def _yaml(tmp_path: Path, text: str = KIMI_YAML) -> Path:
    p = tmp_path / "kimi_npu.yaml"
    p.write_text(text)
    return p


def test_cann_given_for_a_yaml_config_applies_the_intra_roce_rule_at_its_backend_line(facts, tmp_path):
    config = _yaml(tmp_path)
    report = diagnose(config, facts, cann="8.5.0", product="A3")
    found = [d.finding for d in report.findings if d.finding.rule == "ascend/intra-roce"]
    assert [f.line for f in found] == [line_of(config, "backend: kimi_ckpt_engine")]
    assert not any("CANN version unknown" in n for n in report.notes)


def test_product_950_given_for_a_yaml_config_applies_the_whitelist_rule_and_not_intra_roce(facts, tmp_path):
    report = diagnose(_yaml(tmp_path), facts, cann="8.5.0", product="950")
    assert [d.finding.rule for d in report.findings] == ["ascend/whitelist-required"]


@pytest.mark.parametrize(
    ("cann", "product"), [("8.3.RC1", "A3"), ("8.5.0", None), ("8.5.0", "A2"), ("8.5.0", "A3"), (None, "A2")]
)
def test_a_yaml_config_below_cann_8_5_or_off_950_gets_neither_rule_it_does_not_meet(facts, tmp_path, cann, product):
    report = diagnose(_yaml(tmp_path), facts, cann=cann, product=product)
    rules = {d.finding.rule for d in report.findings}
    assert ("ascend/intra-roce" in rules) is (cann == "8.5.0")
    assert "ascend/whitelist-required" not in rules


@pytest.mark.parametrize("product", ["950", "A3"])
def test_cann_and_product_for_a_yaml_config_of_another_backend_report_nothing(facts, product):
    report = diagnose(REPO / "snippets" / "doctor" / "mooncake_npu.yaml", facts, cann="8.5.0", product=product)
    assert report.findings == []
    assert not report.notes


def test_a_yaml_config_is_judged_over_verls_default_config_and_its_defaults_list_is_ignored(facts, tmp_path):
    config = tmp_path / "my_config.yaml"
    config.write_text(
        "defaults:\n  - ppo_trainer\n  - _self_\n"
        "trainer:\n  device: npu\n  total_epochs: 2\n"
        "actor_rollout_ref:\n  rollout:\n    checkpoint_engine:\n      backend: nccl\n      bukcet_size_mb: 512\n"
    )
    report = diagnose(config, facts)
    assert [(d.finding.rule, d.finding.line) for d in report.findings] == [
        ("config/unknown-key", line_of(config, "bukcet_size_mb"))
    ]


@pytest.mark.parametrize(
    ("value", "read"),
    [
        ("bad_whitelist.json", True),  # next to the script
        ("{dir}/bad_whitelist.json", True),  # an absolute path
        ("missing_whitelist.json", False),  # not there: it lives on the cluster
        ("$WL_DIR/bad_whitelist.json", False),  # a variable: not known statically
    ],
)
def test_the_whitelist_file_is_read_only_when_it_exists_here_and_its_path_has_no_variable(facts, tmp_path, value, read):
    shutil.copy(DATA / "bad_whitelist.json", tmp_path / "bad_whitelist.json")
    script = tmp_path / "run.sh"
    text = (DATA / "kimi_950_bad_whitelist.sh").read_text()
    script.write_text(
        text.replace("HCCL_WHITELIST_FILE=bad_whitelist.json", f"HCCL_WHITELIST_FILE={value.format(dir=tmp_path)}")
    )
    report = diagnose(script, facts)
    rules = [d.finding.rule for d in report.findings]
    assert ("ascend/whitelist-file" in rules) is read
    # a file not read here is named in the summary, so that silence does not read as "checked"
    unread = [n for n in report.notes if "its content was not checked (ascend/whitelist-file)" in n]
    assert bool(unread) is not read
    if "$" in value:
        assert "names a variable" in unread[0]


def _kimi_script(tmp_path, product_comment: str, exports: str):
    text = (DATA / "kimi_a3_cann85_no_roce.sh").read_text().replace("# Atlas A3 supernode", product_comment)
    p = tmp_path / "run.sh"
    p.write_text(text.replace("export ASCEND_RT", exports + "export ASCEND_RT"))
    return p


@pytest.mark.parametrize("pool", ["4:8", "8:16", "0:0", ""])
def test_on_atlas_a2_any_buffer_pool_setting_leaves_intra_roce_asked_for_kimi(facts, tmp_path, pool):
    """An earlier page offered the buffer pool as the Atlas A2 alternative; verl's README gives none (review15b)."""
    p = _kimi_script(tmp_path, "# Atlas A2", f"export ASCEND_BUFFER_POOL={pool}\n")
    report = diagnose(p, facts, cann="8.5.0", product="A2")
    (found,) = [d.finding for d in report.findings if d.finding.rule == "ascend/intra-roce"]
    assert "verl's README asks for HCCL_INTRA_ROCE_ENABLE=1" in found.message
    assert "ASCEND_BUFFER_POOL" not in (found.rule.fix_text(found.data, "en") or "")


def test_on_atlas_a3_the_buffer_pool_does_not_replace_intra_node_roce(facts, tmp_path):
    p = _kimi_script(tmp_path, "# Atlas A3 supernode", "export ASCEND_BUFFER_POOL=4:8\n")
    report = diagnose(p, facts, cann="8.5.0", product="A3")
    (found,) = [d.finding for d in report.findings if d.finding.rule == "ascend/intra-roce"]
    assert "HCCS and time out" not in found.message  # the rule says what verl's README says, no more


# -- the doctor page's sentences about reading and output ------------------------------------------------------------
def test_the_findings_go_to_stdout_and_the_summary_lines_to_stderr(capsys, monkeypatch):
    monkeypatch.chdir(REPO / "snippets" / "doctor")
    code, out, err = _doctor_text(capsys, "run_grpo_npu_wrong.sh")
    assert code == 1
    assert out.startswith("run_grpo_npu_wrong.sh:13:5: engine/kwargs-ignored") and "doctor:" not in out
    assert err.splitlines()[-2] == "verl 0.9.1: 1 file checked, 3 findings"
    assert err.splitlines()[-1].startswith("doctor: startup stage not run: ")
    assert "run_grpo_npu_wrong.sh:" not in err.replace("doctor: run_grpo_npu_wrong.sh:", "")


def test_json_output_keeps_each_files_notes_which_text_counts_by_kind(capsys, tmp_path):
    files = [str(_yaml(tmp_path)), str(DATA / "npu_mooncake_ok.yaml")]
    cli.main(["doctor", *files, "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    notes = {Path(f["path"]).name: f["notes"] for f in doc["files"]}
    assert set(notes) == {"kimi_npu.yaml", "npu_mooncake_ok.yaml"}
    assert any(n.startswith("CANN version unknown") for n in notes["kimi_npu.yaml"])
    # no kimi_ckpt_engine: nothing the product or CANN would change
    assert not [n for n in notes["npu_mooncake_ok.yaml"] if n.startswith(("CANN", "Ascend product"))]


def test_a_launch_scripts_exports_and_each_hydra_override_form_are_read_as_hydra_reads_them(facts, tmp_path):
    cmd = (
        "python3 -m verl.trainer.main_ppo +trainer.total_epochs=2 ++trainer.save_freq=3 ~trainer.nope trainer.nope2=3"
        " actor_rollout_ref.rollout.name=vllm actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=1"
        " actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=1"
        " actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=1 critic.ppo_micro_batch_size_per_gpu=1\n"
    )
    p = tmp_path / "run.sh"
    p.write_text("#!/bin/bash\nexport HCCL_CONECT_TIMEOUT=1200\n" + cmd)
    got = [(d.finding.rule, d.finding.line, d.finding.col) for d in diagnose(p, facts, device="npu").findings]
    col = cmd.index
    assert got == [
        ("env/unknown-name", 2, len("export ") + 1),  # the export, by the site's catalog of variables
        ("override/plus-on-existing", 3, col("+trainer.total_epochs") + 1),  # `+` on a key verl has
        ("override/delete-missing", 3, col("~trainer.nope") + 1),  # `~` on a key verl lacks
        ("config/unknown-key", 3, col("trainer.nope2") + 1),  # a plain key=value verl lacks
    ]  # `++trainer.save_freq=3` sets a key verl has: nothing to report


@pytest.mark.parametrize(
    ("head", "expected", "why"),
    [
        ("export HCCL_CONNECT_TIMEOUT=1200\n", "npu", "HCCL_CONNECT_TIMEOUT"),
        ("export ASCEND_GLOBAL_LOG_LEVEL=3\n", "npu", "ASCEND_GLOBAL_LOG_LEVEL"),
        ("export NCCL_DEBUG=INFO\n", "gpu", "NCCL_DEBUG"),
        # the variables come last: a hint of an earlier rank wins over them
        ("export CUDA_VISIBLE_DEVICES=0\nexport HCCL_CONNECT_TIMEOUT=1200\n", "gpu", "CUDA_VISIBLE_DEVICES"),
        # hints of the same rank that disagree: no guess
        ("export HCCL_CONNECT_TIMEOUT=1200\nexport NCCL_DEBUG=INFO\n", None, "conflicting hints"),
        ("export ASCEND_RT_VISIBLE_DEVICES=0\nexport CUDA_VISIBLE_DEVICES=0\n", None, "conflicting hints"),
    ],
)
def test_hccl_ascend_and_nccl_variables_are_the_last_hint_and_disagreeing_hints_give_no_guess(
    facts, tmp_path, head, expected, why
):
    p = tmp_path / "run.sh"
    p.write_text("#!/bin/bash\n" + head + TRAINER.format(extra=""))
    guess = diagnose(p, facts).device
    assert (guess.value, why in guess.why) == (expected, True), guess.why


def test_on_a_yaml_config_doctor_adds_only_the_ascend_rules_to_what_check_reports_for_the_same_config_block(
    facts, write_page
):
    # the page's two groups of rules: check="config" on a page runs the first group and `delta/rejected`; the
    # `ascend/` rules are doctor's alone
    from helpers import fence, findings_for

    seen: set[str] = set()
    for path in sorted(DATA.glob("*.yaml")):
        # doctor ignores a Hydra defaults list (see the test above); a config block on a page has none
        text = re.sub(r"^defaults:\n(?:\s+- .*\n)*", "", path.read_text(encoding="utf-8"), flags=re.M)
        page = write_page("# p\n\n" + fence(text, '{ .yaml check="config" device="npu" }'))
        on_page = sorted(f.rule for f in findings_for(page, facts))
        in_doctor = [d.finding.rule for d in diagnose(path, facts, device="npu").findings]
        assert on_page == sorted(r for r in in_doctor if not r.startswith("ascend/")), path.name
        seen.update(in_doctor)
    assert {"delta/rejected", "engine/not-on-device", "ascend/rebuild-group-npu"} <= seen


def _fake_python(path: Path, log: Path, has_verl: bool) -> Path:
    """A stand-in interpreter that records that it was asked and answers whether verl can be found."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho {path.name} >> {log}\nexit {0 if has_verl else 1}\n")
    path.chmod(0o755)
    return path


def test_the_startup_python_is_sought_in_the_order_the_doctor_page_gives(tmp_path, monkeypatch):
    from verl_cookbook import startup

    log = tmp_path / "asked"
    _fake_python(tmp_path / "bin" / "python3", log, False)
    _fake_python(tmp_path / "bin" / "python", log, False)
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    monkeypatch.setenv(startup.PYTHON_ENV, str(_fake_python(tmp_path / "from_env", log, False)))
    monkeypatch.setattr("sys.executable", str(_fake_python(tmp_path / "running_doctor", log, False)))
    isolated = _fake_python(tmp_path / "isolated", log, True)
    monkeypatch.setattr(startup, "built_env_python", lambda version: isolated)
    assert startup.find_python(version="0.9.1") == str(isolated)
    assert log.read_text().split() == ["from_env", "python3", "python", "running_doctor", "isolated"]
    log.unlink()  # --startup-python is the one asked for: nothing else is tried, and its lack of verl is said
    given = _fake_python(tmp_path / "given", log, False)
    with pytest.raises(startup.StageUnavailable, match="given \\(no verl\\)"):
        startup.find_python(str(given), version="0.9.1")
    assert log.read_text().split() == ["given"]
    log.unlink()
    good = _fake_python(tmp_path / "good", log, True)
    assert startup.find_python(str(good), version="0.9.1") == str(good)


def test_a_python_is_asked_for_verl_outside_the_working_directory_so_a_verl_clone_does_not_count(tmp_path, monkeypatch):
    """In a verl clone, `python -c` finds the clone's verl/ folder first on sys.path and then fails on its
    dependencies: the probe runs in an empty folder, so only an installed verl counts (review8c F10)."""
    from verl_cookbook import startup

    clone = tmp_path / "clone"
    (clone / "verl").mkdir(parents=True)
    probe = tmp_path / "bin" / "python3"
    probe.parent.mkdir()
    probe.write_text("#!/bin/sh\ntest -d verl\n")  # "has verl" only where a verl/ folder is in the working directory
    probe.chmod(0o755)
    monkeypatch.chdir(clone)
    monkeypatch.delenv(startup.PYTHON_ENV, raising=False)
    monkeypatch.setenv("PATH", str(probe.parent))
    monkeypatch.setattr("sys.executable", str(probe))
    isolated = _fake_python(tmp_path / "isolated", tmp_path / "asked", True)
    monkeypatch.setattr(startup, "built_env_python", lambda version: isolated)
    assert startup.find_python(version="0.9.1") == str(isolated)


def test_startup_python_implies_startup_and_a_python_without_verl_is_named_in_the_summary(
    tmp_path, monkeypatch, capsys
):
    from verl_cookbook import startup

    monkeypatch.delenv(startup.PYTHON_ENV, raising=False)
    monkeypatch.setattr(startup, "built_env_python", lambda version: None)
    given = _fake_python(tmp_path / "no_verl", tmp_path / "asked", False)
    monkeypatch.chdir(REPO / "snippets" / "doctor")
    code, out, err = _doctor_text(capsys, "run_grpo_npu.sh", "--startup-python", str(given))
    assert (code, out) == (0, "")
    last = err.splitlines()[-1]
    assert last.startswith("doctor: startup stage not run: no Python with verl installed: tried ")
    assert str(given) in last


def test_startup_on_a_lone_script_without_a_command_says_so_once(capsys, tmp_path):
    """A script with no verl trainer command: the summary line says the stage did not run, and no per-file note
    repeats it beside doctor's own "no verl trainer command" note."""
    script = tmp_path / "prepare.sh"
    script.write_text("#!/bin/bash\nset -e\necho preparing data\n")
    code, out, err = _doctor_text(capsys, "--startup", str(script))
    assert (code, out) == (0, "")
    assert err.splitlines()[-1].startswith("doctor: startup stage not run: no verl trainer command in the file(s)")
    assert err.count("startup stage not run") == 1


def test_startup_names_the_file_it_did_not_run_on_when_others_had_commands(tmp_path, monkeypatch, capsys):
    from verl_cookbook import startup

    monkeypatch.delenv(startup.PYTHON_ENV, raising=False)
    monkeypatch.setattr(startup, "built_env_python", lambda version: None)
    given = _fake_python(tmp_path / "no_verl", tmp_path / "asked", False)
    script = tmp_path / "prepare.sh"
    script.write_text("#!/bin/bash\nset -e\necho preparing data\n")
    launch = REPO / "snippets" / "doctor" / "run_grpo_npu.sh"
    _code, _out, err = _doctor_text(capsys, "--startup-python", str(given), str(script), str(launch))
    assert "doctor:     1 in 1 file: startup stage not run: no verl trainer command in this file" in err
    code, out, err = _doctor_text(capsys, "--startup-python", str(given), str(script), str(launch), "--format", "json")
    notes = {Path(f["path"]).name: f["notes"] for f in json.loads(out)["files"]}
    assert "startup stage not run: no verl trainer command in this file" in notes["prepare.sh"]
    assert not any("no verl trainer command in this file" in n for n in notes["run_grpo_npu.sh"])


def test_startup_on_a_yaml_config_says_the_stage_did_not_run_and_why(capsys, monkeypatch):
    """A YAML config has no command for verl to start: with --startup, a clean result must not read as verl's own
    startup having accepted it (review42j-2); without --startup nothing about the stage is said for a config."""
    monkeypatch.chdir(REPO / "snippets" / "doctor")
    code, out, err = _doctor_text(capsys, "--startup", "mooncake_npu.yaml")
    assert (code, out) == (0, "")
    assert "mooncake_npu.yaml: note: startup stage not run: a YAML config has no command for verl to start" in err
    assert err.splitlines()[-1].startswith("doctor: startup stage not run: no verl trainer command in the file(s)")
    code, out, err = _doctor_text(capsys, "mooncake_npu.yaml")
    assert (code, out) == (0, "") and "startup stage" not in err


def test_a_link_goes_to_the_published_latest_version_in_the_readers_language(monkeypatch):
    """The site is deployed with mike (scripts/deploy_docs.sh: each release in its folder, `latest` its alias,
    English under en/): a page's address without them is a 404 on the published site."""
    from verl_cookbook.doctor_rules import in_language, link

    monkeypatch.delenv("VERL_COOKBOOK_SITE_URL", raising=False)
    zh = link("backends/nccl-hccl/#rebuild-group-npu")
    assert zh == site_url() + "latest/backends/nccl-hccl/#rebuild-group-npu"
    assert in_language(zh, "en") == site_url() + "latest/en/backends/nccl-hccl/#rebuild-group-npu"
    assert in_language(zh, "zh") == zh and in_language(None, "en") is None
    deploy = (Path(__file__).resolve().parents[1] / "scripts" / "deploy_docs.sh").read_text(encoding="utf-8")
    assert '--update-aliases "$version" latest' in deploy


def test_a_site_url_from_the_environment_is_used_as_given_for_a_local_serve(monkeypatch):
    from verl_cookbook.doctor_rules import in_language, link

    monkeypatch.setenv("VERL_COOKBOOK_SITE_URL", "http://127.0.0.1:8000/verl-cookbook/")
    assert link("tools/doctor/") == "http://127.0.0.1:8000/verl-cookbook/tools/doctor/"
    assert in_language(link("tools/doctor/"), "en") == "http://127.0.0.1:8000/verl-cookbook/en/tools/doctor/"


def test_intra_roce_is_asked_for_kimi_ckpt_engine_only_as_verls_readme_does(facts, tmp_path):
    """The whitelist page's table asks it of `mooncake` on Atlas A3 too, from Mooncake's docs; doctor follows verl's
    README, which states it in the kimi_ckpt_engine section only (review10b D1: the two pages now say so)."""
    text = (DATA / "kimi_a3_cann85_no_roce.sh").read_text()
    mooncake = tmp_path / "mooncake.sh"
    mooncake.write_text(text.replace("backend=kimi_ckpt_engine", "backend=mooncake"))
    assert not [d for d in diagnose(mooncake, facts, product="A3").findings if d.finding.rule == "ascend/intra-roce"]
    kimi = [d for d in diagnose(DATA / "kimi_a3_cann85_no_roce.sh", facts, product="A3").findings]
    assert [d.finding.rule for d in kimi if d.finding.rule == "ascend/intra-roce"] == ["ascend/intra-roce"]


@pytest.mark.parametrize("snippet", ["ci_step.sh", "ci_step.zh.sh"])
def test_the_ci_step_runs_in_a_repository_without_a_configs_folder(tmp_path, snippet):
    """review20b: without nullglob, bash passed `configs/*.yaml` on as a file name and doctor exited 2 on a repository
    whose scripts were clean."""
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "run.sh").write_text((REPO / "snippets" / "doctor" / "run_grpo_npu.sh").read_text())
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    assert shutil.which("verl-cookbook", path=env["PATH"])
    r = subprocess.run(["bash", str(REPO / "snippets" / "doctor" / snippet)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "configs/*.yaml" not in r.stderr
    # the same step without its nullglob line: the unmatched pattern reaches doctor
    plain = (REPO / "snippets" / "doctor" / snippet).read_text().replace("shopt -s nullglob\n", "")
    r = subprocess.run(["bash", "-c", plain], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                       check=False)  # fmt: skip
    assert r.returncode == 2 and "configs/*.yaml" in r.stderr


@pytest.mark.parametrize("snippet", ["ci_step.sh", "ci_step.zh.sh"])
def test_the_ci_step_warns_instead_of_a_usage_error_when_nothing_matches(tmp_path, snippet):
    """review29b: in a repository with neither scripts/*.sh nor configs/*.yaml, nullglob left doctor without a FILE
    and the step failed with argparse's usage error (exit 2); the step now skips doctor with a warning annotation."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    r = subprocess.run(["bash", str(REPO / "snippets" / "doctor" / snippet)], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300, check=False)  # fmt: skip
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert r.stdout.startswith("::warning::") and "scripts/*.sh" in r.stdout and "configs/*.yaml" in r.stdout
    # the old step, doctor called on the empty list: the usage error the review saw
    old = "shopt -s nullglob\nverl-cookbook doctor scripts/*.sh configs/*.yaml --format github\n"
    r = subprocess.run(["bash", "-c", old], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
                       check=False)  # fmt: skip
    assert r.returncode == 2 and "required: FILE" in r.stderr


@pytest.mark.parametrize(
    ("release", "expected"),
    [
        ("0.9.0", ["ascend/kimi-950-unsupported"]),  # its README: "kimi-checkpoint-engine hasn't been supported"
        ("0.9.1", ["ascend/whitelist-required"]),  # main's README (read for 0.9.1): turn the whitelist on
        ("0.8.0", []),  # its README says nothing of the 950: not judged
    ],
)
def test_kimi_on_the_950_is_judged_by_what_the_releases_readme_says(tmp_path, release, expected):
    """review36j-1: doctor told a verl 0.9.0 user on the 950 to turn HCCL's whitelist on, a fix from a later README,
    while 0.9.0's own README rules kimi_ckpt_engine out there."""
    script = tmp_path / "run.sh"
    script.write_text(
        "export ASCEND_RT_VISIBLE_DEVICES=0,1\npython3 -m verl.trainer.main_ppo \\\n"
        "    actor_rollout_ref.rollout.checkpoint_engine.backend=kimi_ckpt_engine\n",
        encoding="utf-8",
    )
    report = diagnose(script, load_facts(from_release(release)), cann="8.5.0", product="950")
    found = [d for d in report.findings if d.finding.rule.startswith("ascend/")]
    assert [d.finding.rule for d in found] == expected
    if release == "0.9.0":
        assert "hasn't been supported" in found[0].finding.fact and found[0].fix


README_950_UNSUPPORTED = "1. kimi-checkpoint-engine hasn't been supported in Ascend 950.\n"  # v0.9.0's line 35
README_950_WHITELIST = "1. In Ascend 950, you need enable whitelist to support kimi-checkpoint-engine. you should set\n"


@pytest.mark.parametrize(
    ("readme", "expected"),
    [
        (README_950_UNSUPPORTED, ["ascend/kimi-950-unsupported"]),  # a v0.9.0 checkout: its own README rules it out
        (README_950_WHITELIST, ["ascend/whitelist-required"]),  # a main checkout: turn the whitelist on
        ("# Checkpoint engine\n\nNothing about the 950.\n", []),  # silent: not judged, as for a release
        (None, ["ascend/whitelist-required"]),  # no README (a bare package): main's is followed
    ],
)
def test_a_checkout_on_the_950_is_judged_by_its_own_readme(verl_copy, tmp_path, readme, expected):
    """review39j-1: a v0.9.0 checkout was told to turn the whitelist on, from main's README, while its own README
    says kimi_ckpt_engine is not supported on the 950."""
    path = verl_copy.root / "verl" / "checkpoint_engine" / "README.md"
    path.unlink(missing_ok=True)
    if readme is not None:
        path.write_text("# Checkpoint engine\n\n## Ascend\n\n" + readme, encoding="utf-8")
    script = tmp_path / "run.sh"
    script.write_text(
        "export ASCEND_RT_VISIBLE_DEVICES=0,1\npython3 -m verl.trainer.main_ppo \\\n"
        "    actor_rollout_ref.rollout.checkpoint_engine.backend=kimi_ckpt_engine\n",
        encoding="utf-8",
    )
    report = diagnose(script, load_facts(verl_copy, use_cache=False), cann="8.5.0", product="950")
    found = [d for d in report.findings if d.finding.rule.startswith("ascend/")]
    assert [d.finding.rule for d in found] == expected
    if readme is not None and expected:
        assert found[0].finding.fact_source == f"{path}:5"  # the checkout's own line, not main's
