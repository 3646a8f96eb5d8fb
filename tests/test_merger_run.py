"""The model-merger recipe (docs/recipes/model-merger.md) held by a real run of verl 0.9.1's merger.

``python -m verl.model_merger merge --backend fsdp`` runs on synthetic world-size-1 FSDP checkpoints of tiny
random models (a dense Qwen2, the same with a PEFT LoRA adapter, a Qwen3-MoE), laid out as verl 0.9.1's
FSDPCheckpointManager writes them (tests/merger_run/build_checkpoints.py says how). Everything that imports
torch, transformers, peft or verl runs in the isolated environment scripts/startup_env.sh builds (step 8 of
scripts/install.sh), in two subprocesses for the whole module: one builds the checkpoints, one runs the merger
on each (tests/merger_run/run_merger.py) and reports what happened as JSON. This process reads that JSON only.
The page's own snippets run too: its fix for a missing fsdp_config.json, and troubleshooting #merger-lora-base's
copy of a verl v0.4.0 checkpoint's HF files into huggingface/ (bash, here).

Statements on the page that a test here holds carry ``<!-- run: test_merger_run.py::<test> -->`` beside them
(CONTRIBUTING.md, "Statements held by a run"); the last tests keep those markers and the tests in step.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests import helpers
from tests.conftest import REPO

VERSION = "0.9.1"
RUN = Path(__file__).parent / "merger_run"
PAGES = (REPO / "docs" / "recipes" / "model-merger.md", REPO / "docs" / "recipes" / "model-merger.en.md")
CASES = ("plain", "no_fsdp_config", "fixed", "no_world_size", "lora", "lora_no_meta", "lora_only", "moe",  # plain 1st
         "plain_tensors", "plain_tensors_w2", "v040_lora", "v040_fsdp_only", "v040_fixed")  # fmt: skip
# the `test` subcommand, and command lines argparse refuses: <operation>:<checkpoint>:<reference merged output>
COMMANDS = (
    "test:plain:plain",
    "test:moe:moe",
    "test:plain:moe",
    "test:plain:",
    "merge:plain:plain",
    "backend=torchtitan:plain",  # after plain: rank0-view reads plain's merged output
    "backend=megatron:plain",  # before megatron-test, whose stand-ins would answer the megatron imports
    "rank0-view",
    "torchrun-rank1:plain",  # after plain: compared with plain's merged output
    "truncated:plain",
    "unknown-model-type:plain",
    "local-dir=step:plain",  # --local_dir at global_step_N (here the case folder), not its actor/
    "local-dir=hf:plain",  # --local_dir at actor/huggingface
    "megatron-test",  # last: the Megatron merger's comparison, with stand-in megatron modules
)
MARKER = re.compile(r"<!-- run: (test_merger_run\.py)::(\w+) -->")


def _env_python() -> str:
    return helpers.startup_python(VERSION)


def _run(python: str, script: str, *args: str) -> None:
    env = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    env.setdefault("OMP_NUM_THREADS", "1")
    r = subprocess.run([python, str(RUN / script), *args], capture_output=True, text=True, env=env, timeout=900)
    assert r.returncode == 0, f"{script} failed ({r.returncode}):\n{r.stderr[-4000:]}"


FIX_SNIPPET = REPO / "snippets" / "recipes" / "fsdp_config_json_write.sh"
SNIPPET_ACTOR = "checkpoints/my_project/my_run/global_step_100/actor"


def _apply_the_pages_fix(build: Path) -> str:
    """The page's fix for a checkpoint without fsdp_config.json, run as a user runs it: its own snippet on a copy
    of that checkpoint, with only the checkpoint's path filled in (the snippet reads W from the file names)."""
    actor = build / "fixed" / "actor"
    shutil.copytree(build / "no_fsdp_config" / "actor", actor)
    return _run_the_pages_fix(actor)


def _run_the_pages_fix(actor: Path) -> str:
    text = FIX_SNIPPET.read_text(encoding="utf-8")
    assert SNIPPET_ACTOR in text, f"{FIX_SNIPPET.name} changed: update this test"
    script = text.replace(SNIPPET_ACTOR, str(actor))
    r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    return r.stdout.strip()


TROUBLESHOOTING = tuple(REPO / "docs" / "recipes" / f"troubleshooting{lang}.md" for lang in ("", ".en"))
FENCE = re.compile(r'^ *``` \{ \.bash check="shell" \}\n(.*?)^ *```$', re.S | re.M)


def _copy_hf_files_fence() -> str:
    """troubleshooting #merger-lora-base step 1's fence, the same in both languages."""
    fences = []
    for page in TROUBLESHOOTING:
        text = page.read_text(encoding="utf-8")
        entry = text[text.index("{ #merger-lora-base }") :]
        entry = entry[: entry.index("\n### ")]
        found = [textwrap.dedent(f) for f in FENCE.findall(entry) if "huggingface" in f]
        assert len(found) == 1, f"{page.name}: expected one fence copying into huggingface/ in #merger-lora-base"
        fences.append(found[0])
    assert fences[0] == fences[1], "the two languages' fences differ"
    assert SNIPPET_ACTOR in fences[0], "the fence's checkpoint path changed: update this test"
    return fences[0]


def _v040_fixes(build: Path) -> None:
    """A verl v0.4.0 LoRA checkpoint after the fsdp_config.json fix only, and after the page's step 1 (copy the HF
    files into huggingface/, then that fix), each on its own copy."""
    for name, copy_hf in (("v040_fsdp_only", False), ("v040_fixed", True)):
        actor = build / name / "actor"
        shutil.copytree(build / "v040_lora" / "actor", actor)
        if copy_hf:
            script = _copy_hf_files_fence().replace(SNIPPET_ACTOR, str(actor))
            r = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
            assert r.returncode == 0, r.stderr
        assert _run_the_pages_fix(actor) == "world_size 1, shards present 1"


def _without_world_size(build: Path) -> None:
    actor = build / "no_world_size" / "actor"
    shutil.copytree(build / "plain" / "actor", actor, ignore=shutil.ignore_patterns("merged"))
    (actor / "fsdp_config.json").write_text(json.dumps({"FSDP_version": 2}))


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> dict:
    python = _env_python()
    build = tmp_path_factory.mktemp("merger-run")
    _run(python, "build_checkpoints.py", str(build))
    printed = _apply_the_pages_fix(build)
    _without_world_size(build)
    _v040_fixes(build)
    _run(python, "run_merger.py", str(build), str(build / "report.json"), *CASES, *COMMANDS)
    report = json.loads((build / "report.json").read_text())
    report["_built"] = json.loads((build / "built.json").read_text())
    report["_fix_printed"] = printed
    report["_build"] = str(build)
    return report


def _page_says(text: str) -> None:
    """The page states ``text`` in both languages (a quoted message, a file name): what the run is held to."""
    for page in PAGES:
        assert text in page.read_text(encoding="utf-8"), f"{page.name} no longer says {text!r}"


def _raised(case: dict) -> str:
    err = case["error"]
    return f"{err['type']}: {err['message']}" if err else "nothing raised"


# -- the FSDP layout the merger reads, and what it writes -----------------------------------------------------
def test_a_plain_fsdp_checkpoint_merges_into_config_weights_and_tokenizer(run):
    plain = run["plain"]
    assert plain["error"] is None, _raised(plain)
    for name in ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"):
        assert name in plain["files"], f"{name} missing from the output: {plain['files']}"
    assert set(plain["model"]) == set(run["_built"]["plain_keys"]), "keys changed on a dense model"
    assert all(row["equals_base"] for row in plain["model"].values()), "the merged weights are not the trained ones"
    assert plain["reloaded"]["equals_base"], "transformers does not load the output back to the trained weights"


def test_the_checkpoint_holds_dtensors_on_the_fsdp_mesh_as_verl_writes_them(run):
    """The input is what the page describes, not a shortcut: DTensor shards on a mesh named ("fsdp",)."""
    built = run["_built"]
    assert built["mesh_dim_names"] == ["fsdp"]
    assert set(built["plain_keys"].values()) == {"DTensor"}
    assert "mesh_dim_names ('fsdp',)" in run["plain"]["stdout"]


def test_without_a_generation_config_the_merger_writes_one_from_config_json_and_warns(run):
    """troubleshooting #merger-fsdp-no-stop (verl #1246): the checkpoint's huggingface/ folder has no
    generation_config.json (the FSDP manager writes none when it cannot read the trained model's), so the merged
    model's end tokens are only the eos_token_id of config.json."""
    build = Path(run["_build"])
    assert not (build / "plain" / "actor" / "huggingface" / "generation_config.json").exists()
    assert "generation_config.json" in run["plain"]["files"]
    merged = build / "plain" / "merged"
    generation = json.loads((merged / "generation_config.json").read_text())
    config = json.loads((merged / "config.json").read_text())
    assert generation.get("_from_model_config") is True, generation
    assert generation["eos_token_id"] == config["eos_token_id"], (generation, config)
    assert "Generation config file not found in" in run["plain"]["stdout"] + run["plain"]["stderr"]


def test_the_merged_weights_are_bf16(run):
    assert {row["dtype"] for row in run["plain"]["model"].values()} == {"bfloat16"}


def _as_quoted(quote: str, raised: str) -> bool:
    """``raised`` is what the page quotes, ``…`` standing for a path."""
    return re.fullmatch(".*".join(re.escape(part) for part in quote.split("…")), raised) is not None


NO_FSDP_CONFIG = "FileNotFoundError: Config file …/actor/fsdp_config.json does not exist."


def test_a_checkpoint_without_fsdp_config_json_fails_with_file_not_found(run):
    case = run["no_fsdp_config"]
    _page_says(NO_FSDP_CONFIG)
    assert _as_quoted(NO_FSDP_CONFIG, _raised(case)), _raised(case)
    assert case["files"] == [], "nothing is written before the world size is known"


def test_a_checkpoint_without_world_size_in_fsdp_config_json_fails_with_value_error(run):
    assert _raised(run["no_world_size"]) == "ValueError: World size not found in the config file."


def test_the_pages_fix_for_a_missing_fsdp_config_json_makes_the_checkpoint_merge(run):
    fixed = run["fixed"]
    assert run["_fix_printed"] == "world_size 1, shards present 1", run["_fix_printed"]
    assert fixed["error"] is None, _raised(fixed)
    assert "Processing model shards with 1 " in fixed["stdout"], "the log does not show the shard count to confirm"
    assert all(row["equals_base"] for row in fixed["model"].values())


def test_the_pages_fix_writes_nothing_for_a_checkpoint_missing_a_shard(tmp_path):
    """Rank 1 of 2 never saved: the snippet says so and leaves the checkpoint without fsdp_config.json."""
    (tmp_path / "model_world_size_2_rank_0.pt").write_bytes(b"")
    assert _run_the_pages_fix(tmp_path) == "world_size 2, shards present 1"
    assert not (tmp_path / "fsdp_config.json").exists()


# -- checkpoints without DTensors -------------------------------------------------------------------------------
def test_a_single_device_checkpoint_of_plain_tensors_merges(run):
    case = run["plain_tensors"]
    assert case["error"] is None, _raised(case)
    assert all(row["equals_base"] for row in case["model"].values())


def test_without_dtensors_the_merger_reads_only_rank_0s_file_whatever_the_world_size(run):
    """world_size 2 in fsdp_config.json, rank 0's file of plain tensors only: no error, one shard read, and rank
    0's tensors come out as the whole model."""
    case = run["plain_tensors_w2"]
    assert case["error"] is None, _raised(case)
    assert "Processing model shards with 1 (1,) in total" in case["stdout"], case["stdout"]
    assert all(row["equals_base"] for row in case["model"].values())


# -- LoRA -----------------------------------------------------------------------------------------------------
def test_lora_weights_go_to_lora_adapter_and_the_model_left_is_the_base(run):
    lora = run["lora"]
    assert lora["error"] is None, _raised(lora)
    _page_says("lora_adapter/")
    assert {"lora_adapter/adapter_config.json", "lora_adapter/adapter_model.safetensors"} <= set(lora["files"])
    assert lora["adapter_keys"] and all("lora_" in k for k in lora["adapter_keys"])
    keys = set(lora["model"])
    assert keys == set(run["_built"]["plain_keys"]), "PEFT prefixes or LoRA keys left in the base model"
    assert all(row["equals_base"] for row in lora["model"].values()), "the base weights changed"
    assert not all(row["equals_lora_folded"] for row in lora["model"].values()), "the LoRA update was folded in"
    assert lora["reloaded"]["equals_base"] and not lora["reloaded"]["equals_lora_folded"]


def test_peft_merge_and_unload_of_base_and_adapter_gives_the_trained_weights(run):
    _page_says("merge_and_unload()")
    assert run["lora"]["peft_fold"] == {"matches_base": False, "matches_lora_folded": True}


def test_lora_rank_and_alpha_come_from_lora_train_meta_json(run):
    lora, built = run["lora"], run["_built"]
    _page_says("lora_train_meta.json")
    assert (lora["adapter_config"]["r"], lora["adapter_config"]["lora_alpha"]) == (
        built["lora_r"],
        built["lora_alpha"],
    )
    assert not [w for w in lora["warnings"] if "LoRA alpha" in w]


ALPHA_WARNING = "LoRA alpha metadata is missing or equals 0; falling back to lora_alpha=0."


def test_without_lora_train_meta_json_rank_is_inferred_and_alpha_falls_back_to_zero_with_a_warning(run):
    case, built = run["lora_no_meta"], run["_built"]
    assert case["error"] is None, _raised(case)
    assert case["adapter_config"]["r"] == built["lora_r"], "r is not the rank of the adapter's weights"
    assert case["adapter_config"]["lora_alpha"] == 0
    assert [w for w in case["warnings"] if w.startswith(ALPHA_WARNING)], case["warnings"]


def test_an_adapter_with_alpha_zero_has_no_effect_once_loaded(run):
    assert run["lora_no_meta"]["peft_fold"] == {"matches_base": True, "matches_lora_folded": False}


NO_HF_FOLDER = "OSError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '…/actor/huggingface'…"


def test_a_v040_lora_checkpoint_fails_on_the_missing_huggingface_folder_even_with_fsdp_config_json(run):
    """troubleshooting #merger-lora-base: verl v0.4.0 wrote config and tokenizer into actor/, the merger reads
    actor/huggingface/ first, in its constructor, before it looks for fsdp_config.json."""
    for page in TROUBLESHOOTING:
        assert NO_HF_FOLDER in page.read_text(encoding="utf-8"), f"{page.name} no longer quotes the OSError"
    for name in ("v040_lora", "v040_fsdp_only"):
        case = run[name]
        assert _as_quoted(NO_HF_FOLDER, _raised(case)), (name, _raised(case))
        assert case["files"] == [], (name, case["files"])
    assert (Path(run["_build"]) / "v040_fsdp_only" / "actor" / "fsdp_config.json").is_file()


REPO_ID_ERROR = "OSError: Repo id must be in the form 'repo_name' or 'namespace/repo_name': '<local_dir>/huggingface'…"


def test_local_dir_at_the_step_folder_or_at_actor_huggingface_fails_in_autoconfig_on_the_huggingface_below_it(run):
    """troubleshooting #merger-local-dir-not-actor: --local_dir at global_step_N (the case folder stands for it) or at
    actor/huggingface; the merger reads <local_dir>/huggingface in its constructor and transformers takes the missing
    folder for a Hub repo id. No file is written to --target_dir."""
    for case in ("local-dir=step:plain", "local-dir=hf:plain"):
        got = run[case]
        missing = got["local_dir"] + "/huggingface"
        assert _as_quoted(REPO_ID_ERROR.replace("<local_dir>/huggingface", missing), _raised(got)), _raised(got)
        assert got["error"]["type"] == "OSError"
        assert got["files"] == [], got["files"]
    for page in TROUBLESHOOTING:
        assert REPO_ID_ERROR in page.read_text(encoding="utf-8"), f"{page.name} no longer quotes the OSError"


def test_the_pages_steps_make_a_v040_lora_checkpoint_merge(run):
    case = run["v040_fixed"]
    assert case["error"] is None, _raised(case)
    assert {"lora_adapter/adapter_config.json", "lora_adapter/adapter_model.safetensors"} <= set(case["files"])
    assert all(row["equals_base"] for row in case["model"].values()), "the base weights changed"
    assert case["adapter_config"]["lora_alpha"] == 0
    assert [w for w in case["warnings"] if w.startswith(ALPHA_WARNING)], case["warnings"]
    for page in TROUBLESHOOTING:
        assert ALPHA_WARNING in page.read_text(encoding="utf-8"), page.name


LORA_ONLY_ERROR = "RuntimeError: Incomplete Hugging Face model output"


def test_save_lora_only_writes_the_adapter_then_fails_on_incomplete_output(run):
    case = run["lora_only"]
    _page_says(LORA_ONLY_ERROR)
    assert _raised(case).startswith(LORA_ONLY_ERROR), _raised(case)
    assert "no complete model weights" in case["error"]["message"]
    assert {"lora_adapter/adapter_config.json", "lora_adapter/adapter_model.safetensors"} <= set(case["files"])
    assert "model.safetensors" not in case["files"]
    assert "config.json" in case["files"], "the check fails on the weights, not the config"


def test_the_adapter_of_a_lora_only_checkpoint_works_with_the_training_base_model(run):
    assert run["lora_only"]["peft_fold"] == {"matches_base": False, "matches_lora_folded": True}


# -- MoE under transformers 5 ---------------------------------------------------------------------------------
def test_fused_moe_experts_come_out_per_expert_and_load_back_unchanged(run):
    moe, built = run["moe"], run["_built"]
    assert moe["error"] is None, _raised(moe)
    fused = "model.layers.0.mlp.experts.gate_up_proj"
    assert fused in built["moe_keys"], "the trained model does not hold its experts fused"
    _page_says("mlp.experts.gate_up_proj")
    _page_says("mlp.experts.0.gate_proj.weight")
    assert fused not in moe["model"]
    for proj in ("gate_proj", "up_proj", "down_proj"):
        assert f"model.layers.0.mlp.experts.0.{proj}.weight" in moe["model"], sorted(moe["model"])
    assert moe["reloaded"]["equals_moe_base"], "transformers does not load the output back to the trained weights"


# -- the `test` subcommand ------------------------------------------------------------------------------------
def test_the_test_subcommand_passes_on_the_merged_output_and_reports_missing_keys_otherwise(run):
    same, other = run["test:plain:plain"], run["test:plain:moe"]
    assert same["error"] is None and "FSDP checks passed" in same["stdout"], _raised(same)
    assert other["error"] and other["error"]["type"] == "AssertionError", _raised(other)
    assert other["error"]["message"].startswith("Missing keys in collected state dict"), _raised(other)


def test_the_test_subcommand_passes_on_a_moe_merge_whose_keys_changed_on_disk(run):
    moe = run["test:moe:moe"]
    assert moe["error"] is None and "FSDP checks passed" in moe["stdout"], _raised(moe)


def test_the_megatron_test_comparison_misses_a_dropped_weight_and_refuses_an_extra_one(run):
    """Megatron's ``test`` looks up each merged key in the reference: a weight the merge lost goes unreported."""
    case = run["megatron-test"]
    assert case["missing"]["error"] is None, case
    refused = {"type": "RuntimeError", "message": "key: model.extra.weight not exist in state_dict"}
    assert case["extra"]["error"] == refused, case


def test_the_megatron_merge_refuses_a_vision_towers_key(run):
    """Only decoder, embedding and output-layer keys pass the Megatron merger's key check (verl #4498's error)."""
    error = run["megatron-test"]["vision_key"]["error"]
    assert error and error["type"] == "ValueError", error
    assert error["message"] == (
        "Invalid key vision_model.patch_embed.proj.weight in Megatron state_dict. "
        "Expected keys to start with 'decoder' in TransformerLayer."
    )
    _page_says("Expected keys to start with 'decoder' in TransformerLayer.")


def test_a_model_type_transformers_does_not_know_stops_the_merge_in_autoconfig(run):
    case = run["unknown-model-type:plain"]
    assert case["error"] and case["error"]["type"] == "ValueError", case
    assert "has model type `multi_modality` but Transformers does not recognize" in case["error"]["message"], case
    _page_says("but Transformers does not recognize this architecture")


def test_test_hf_dir_is_required_by_test_and_refused_by_merge(run):
    without, merge = run["test:plain:"], run["merge:plain:plain"]
    assert _raised(without) == "SystemExit: 2" and "required: --test_hf_dir" in without["stderr"]
    assert _raised(merge) == "SystemExit: 2" and "unrecognized arguments: --test_hf_dir" in merge["stderr"]


# -- what the merger cannot do ---------------------------------------------------------------------------------
def test_the_merger_has_no_torchtitan_backend(run):
    case = run["backend=torchtitan:plain"]
    assert _raised(case) == "SystemExit: 2", _raised(case)
    assert "invalid choice: 'torchtitan'" in case["stderr"] and "'fsdp'" in case["stderr"], case["stderr"]


def test_a_megatron_merge_without_megatron_core_stops_at_its_import(run):
    """rev50d-2: verl 0.9.1's base wheel does not require megatron-core (only its megatron and cpu extras do), and
    the Megatron merger imports it when the module loads, before it reads the checkpoint."""
    case = run["backend=megatron:plain"]
    assert _raised(case) == "ModuleNotFoundError: No module named 'megatron'", _raised(case)


def test_a_multi_node_merge_on_node_local_storage_fails_rank_0s_output_check(run):
    """Rank 0 writes the index of every rank's shards, then checks the folder it sees: shards written by the other
    node's ranks are missing there, and verl's check raises."""
    case = run["rank0-view"]
    assert case["error"] and case["error"]["type"] == "RuntimeError", case
    message = case["error"]["message"]
    assert message.startswith("Incomplete Hugging Face model output at ")
    assert "references missing or empty shards: ['model-00003-of-00004.safetensors'" in message, message
    _page_says("references missing or empty shards")


def test_an_fsdp_merge_under_torchrun_merges_the_whole_model_in_every_process(run):
    """The FSDP merger has no distributed mode: the process torchrun starts as rank 1 of 2 merges the whole model
    on its own and writes the same files as a single-process merge, so under torchrun every process writes the
    same files into one --target_dir at once."""
    one, rank1 = run["plain"], run["torchrun-rank1:plain"]
    assert rank1["error"] is None, _raised(rank1)
    assert rank1["files"] == one["files"] and "model.safetensors" in rank1["files"]
    assert rank1["model"] == one["model"]


def test_a_safetensors_file_cut_short_fails_to_load_with_incomplete_metadata(run):
    case = run["truncated:plain"]
    assert case["error"] and case["error"]["type"] == "SafetensorError", case
    assert case["error"]["message"] == "Error while deserializing header: incomplete metadata, file not fully covered"
    _page_says("incomplete metadata, file not fully covered")


# every safetensors release on the index from transformers' floor (0.4.3) on; there is no 0.6.0
OLD_MESSAGE = ("0.4.3", "0.4.4", "0.4.5", "0.5.0", "0.5.1", "0.5.2", "0.5.3")
NEW_MESSAGE = ("0.6.1", "0.6.2", "0.7.0", "0.8.0")


def test_which_message_a_file_cut_short_gives_depends_on_the_safetensors_release(tmp_path):
    """review41i-1: verl 0.9.1 pins no safetensors of its own, and both messages the page quotes come from the same
    file cut short: safetensors up to 0.5.3 (0.4.3 is the floor transformers asks for) say MetadataIncompleteBuffer,
    0.6.1 (the next release on the index) and later say "incomplete metadata, file not fully covered". Each release
    is installed on its own into a folder and reads the same truncated file in a subprocess."""
    header = json.dumps({"a": {"dtype": "F32", "shape": [64, 64], "data_offsets": [0, 64 * 64 * 4]}}).encode()
    whole = len(header).to_bytes(8, "little") + header + bytes(64 * 64 * 4)
    cut = tmp_path / "model.safetensors"
    cut.write_bytes(whole[: len(whole) // 2])
    read = textwrap.dedent("""
        import sys
        from safetensors import safe_open
        try:
            safe_open(sys.argv[1], framework="np")
        except Exception as e:
            print(type(e).__name__ + ": " + str(e))
    """)
    seen = {}
    for release in (*OLD_MESSAGE, *NEW_MESSAGE):
        target = tmp_path / release
        pip = [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--only-binary=:all:",
            "--target",
            str(target),
        ]
        subprocess.run([*pip, f"safetensors=={release}"], check=True, capture_output=True, timeout=600)
        env = dict(os.environ, PYTHONPATH=str(target))
        out = subprocess.run(
            [sys.executable, "-c", read, str(cut)], env=env, capture_output=True, text=True, timeout=60
        )
        seen[release] = out.stdout.strip()
    old = "SafetensorError: Error while deserializing header: MetadataIncompleteBuffer"
    new = "SafetensorError: Error while deserializing header: incomplete metadata, file not fully covered"
    assert seen == {**dict.fromkeys(OLD_MESSAGE, old), **dict.fromkeys(NEW_MESSAGE, new)}, seen
    _page_says("MetadataIncompleteBuffer")
    _page_says("incomplete metadata, file not fully covered")


# -- the page and the tests stay in step ----------------------------------------------------------------------
def _markers(page: Path) -> list[str]:
    return [name for _file, name in MARKER.findall(page.read_text(encoding="utf-8"))]


def _tests_here() -> set[str]:
    return {n for n in dir(sys.modules[__name__]) if n.startswith("test_")}


NOT_PAGE_STATEMENTS = {  # tests about the input or about the markers, not a statement of the page
    "test_the_checkpoint_holds_dtensors_on_the_fsdp_mesh_as_verl_writes_them",
    "test_every_run_marker_on_the_page_names_a_test_here",
    "test_both_languages_mark_the_same_statements_in_the_same_order",
    "test_every_test_that_holds_a_statement_is_marked_on_the_page",
}


def test_every_run_marker_on_the_page_names_a_test_here():
    for page in PAGES:
        markers = set(_markers(page))
        assert markers, f"{page.name}: no statement is marked as held by a run"
        assert markers <= _tests_here() - NOT_PAGE_STATEMENTS, f"{page.name}: no such test: {markers - _tests_here()}"


def test_both_languages_mark_the_same_statements_in_the_same_order():
    assert _markers(PAGES[0]) == _markers(PAGES[1])


def test_every_test_that_holds_a_statement_is_marked_on_the_page():
    marked = set(_markers(PAGES[0])) | set(_markers(REPO / "docs" / "recipes" / "troubleshooting.md"))
    unmarked = _tests_here() - NOT_PAGE_STATEMENTS - marked
    assert not unmarked, f"tests that hold no marked statement: {sorted(unmarked)}"
