"""Run verl's model merger (``python -m verl.model_merger merge --backend fsdp …``) on each checkpoint that
build_checkpoints.py wrote, and report what happened as JSON for the test to judge.

Runs in the isolated environment. Each case goes through verl's own command-line entry point (the module's
``__main__``, run with ``runpy`` and that case's ``sys.argv``), so argument parsing, the FSDP merger and the
output validation are verl's; one process serves every case so verl and torch are imported once.

For each case the report holds: the exception (type and message) if the merge raised, the warnings verl issued,
the files under the target directory, ``lora_adapter/adapter_config.json`` if written, the adapter's tensor names,
for every tensor of the output model whether it equals the base weights and whether it equals the weights
with the LoRA update folded in (``reference/`` from the builder), and, where an adapter was written, which of the
two the weights match once PEFT loads base and adapter and folds them (``merge_and_unload``). Run ``plain`` first:
an adapter without a merged base model is loaded onto ``plain``'s output, which holds the same base weights.

A case ``backend=<name>:<checkpoint>`` runs ``merge --backend <name>`` on ``<checkpoint>/actor`` (what argparse makes of
a backend the merger does not have). The case ``rank0-view`` calls verl's ``validate_hf_model_output`` on the output
folder as rank 0 of a two-node ``torchrun`` Megatron merge sees it on node-local storage: the config and the index
naming every rank's shards, but only rank 0's node's shards on its disk (the shards are the plain merge's weights).

A case ``torchrun-rank1:<checkpoint>`` runs the FSDP merge of ``<checkpoint>`` as ``torchrun --nproc_per_node 2``
starts its second process (``RANK=1``, ``LOCAL_RANK=1``, ``WORLD_SIZE=2`` and the rendezvous address in the
environment) and reports the files and weights it wrote, as for a plain case. A case ``truncated:<checkpoint>``
loads the first half of that checkpoint's merged ``model.safetensors`` with safetensors and reports the error.

A case ``<operation>:<checkpoint>:<reference>`` runs that subcommand on ``<checkpoint>/actor`` with
``--test_hf_dir <reference>/merged`` (so it comes after the merge of ``<reference>``), or without it when
``<reference>`` is empty; it reports only what verl printed and raised.

The case ``megatron-test`` calls the Megatron merger's ``_validate_state_dict`` (what ``test --backend megatron``
runs after merging) with the plain merge's weights as the reference: once with one weight left out of the merged
state dict, once with one weight added; and the merge's key check (``_check_megatron_state_key``) on a vision tower's
key. megatron-core is not installed here and that method does not use it, so
``megatron.*`` imports are answered by stand-in modules (``_stand_in_megatron``); the method itself is verl's.

A case ``unknown-model-type:<checkpoint>`` merges a copy of that checkpoint whose ``huggingface/config.json`` names a
model type transformers does not know.

Usage: python run_merger.py BUILD_DIR OUT_JSON CASE [CASE …]
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import runpy
import shutil
import sys
import traceback
import warnings
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file


def cli(*args: str) -> dict:
    """``python -m verl.model_merger <args>``: verl's ``__main__`` with this ``sys.argv``."""
    argv = ["verl.model_merger", *args]
    out, err = io.StringIO(), io.StringIO()
    result: dict = {"error": None}
    old_argv = sys.argv
    sys.argv = argv
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    runpy.run_module("verl.model_merger", run_name="__main__", alter_sys=True)
                except SystemExit as e:  # argparse refusing the command line
                    result["error"] = {"type": "SystemExit", "message": str(e.code)}
                except Exception as e:  # what the user sees is the point: record it
                    result["error"] = {"type": type(e).__name__, "message": str(e)}
                    result["traceback_tail"] = traceback.format_exc().splitlines()[-6:]
    finally:
        sys.argv = old_argv
    result["warnings"] = [str(w.message) for w in caught]
    result["stdout"] = out.getvalue()[-4000:]
    result["stderr"] = err.getvalue()[-2000:]
    return result


def compare(model_file: Path, refs: dict[str, dict[str, torch.Tensor]]) -> dict:
    tensors = load_file(model_file)
    report = {}
    for key, value in tensors.items():
        row = {"dtype": str(value.dtype).removeprefix("torch."), "shape": list(value.shape)}
        for name, ref in refs.items():
            row[f"equals_{name}"] = key in ref and ref[key].shape == value.shape and torch.equal(ref[key], value)
        report[key] = row
    return report


def reload(target: Path, refs: dict[str, dict[str, torch.Tensor]]) -> dict:
    """Load the output the way a user does (``from_pretrained``) and report which reference it equals."""
    from transformers import AutoModelForCausalLM

    state = AutoModelForCausalLM.from_pretrained(target, dtype=torch.bfloat16).state_dict()
    return {
        f"equals_{name}": set(ref) == set(state) and all(torch.equal(state[k], ref[k]) for k in ref)
        for name, ref in refs.items()
    }


def peft_fold(base_dir: Path, adapter: Path, refs: dict[str, dict[str, torch.Tensor]]) -> dict:
    """What a user does next (the page's advice): load the base model and the adapter with PEFT and call
    ``merge_and_unload()``; report which reference the folded weights match (bf16 tolerance)."""
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(base_dir, dtype=torch.float32)
    folded = PeftModel.from_pretrained(model, adapter).merge_and_unload().state_dict()
    report = {}
    for name, ref in refs.items():
        if name not in ("base", "lora_folded"):
            continue
        report[f"matches_{name}"] = all(
            torch.allclose(folded[k], ref[k].float(), atol=2e-2, rtol=2e-2) for k in ref if k in folded
        ) and set(ref) <= set(folded)
    return report


def rank0_view(build: Path) -> dict:
    """verl's output check on what rank 0 of a two-node merge finds in a node-local target folder."""
    from verl.model_merger.output_validation import validate_hf_model_output

    target = build / "rank0-view"
    target.mkdir()
    (target / "config.json").write_text((build / "plain" / "merged" / "config.json").read_text())
    weights = load_file(build / "plain" / "merged" / "model.safetensors")
    keys = sorted(weights)
    shards = {f"model-{i + 1:05d}-of-00004.safetensors": keys[i::4] for i in range(4)}
    weight_map = {k: name for name, ks in shards.items() for k in ks}
    (target / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": weight_map}))
    for name in list(shards)[:2]:  # node 0's ranks wrote these; node 1's are on node 1's disk
        save_file({k: weights[k].contiguous() for k in shards[name]}, target / name)
    try:
        validate_hf_model_output(target)
    except RuntimeError as e:
        return {"error": {"type": "RuntimeError", "message": str(e)}, "on_disk": sorted(os.listdir(target))}
    return {"error": None, "on_disk": sorted(os.listdir(target))}


def _stand_in_megatron() -> None:
    """Answer every ``megatron.*`` import with a module whose attributes are empty classes (subscriptable, usable as
    bases and in ``|``), so verl's Megatron merger module imports without megatron-core."""
    import importlib.abc
    import importlib.machinery
    import types

    class Anything(type):
        def __getattr__(cls, name: str) -> type:
            if name.startswith("__"):
                raise AttributeError(name)
            return Anything(name, (), {})

        def __getitem__(cls, item: object) -> type:
            return cls

        def __or__(cls, other: object) -> type:
            return cls

        __ror__ = __or__

    class StandIn(types.ModuleType):
        __path__: list[str] = []

        def __getattr__(self, name: str) -> type:
            if name.startswith("__"):
                raise AttributeError(name)
            return Anything(name, (), {})

    class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(
            self, fullname: str, path: object, target: object = None
        ) -> importlib.machinery.ModuleSpec | None:
            if fullname == "megatron" or fullname.startswith("megatron."):
                return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
            return None

        def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
            return StandIn(spec.name)

        def exec_module(self, module: types.ModuleType) -> None:
            pass

    sys.meta_path.insert(0, Finder())


def megatron_test(build: Path) -> dict:
    """verl's Megatron ``test`` comparison against the plain merge, with one weight dropped, then one added."""
    import types

    _stand_in_megatron()
    from verl.model_merger.megatron_model_merger import MegatronModelMerger

    reference = build / "plain" / "merged"
    merger = MegatronModelMerger.__new__(MegatronModelMerger)  # only the config is read by the comparison
    merger.config = types.SimpleNamespace(test_hf_dir=str(reference), is_value_model=False, tie_word_embedding=False)
    weights = load_file(reference / "model.safetensors")
    dropped = next(k for k in sorted(weights) if k.endswith(".weight") and "lm_head" not in k)
    report = {"dropped": dropped}
    for name, state in (
        ("missing", {k: v for k, v in weights.items() if k != dropped}),
        ("extra", {**weights, "model.extra.weight": torch.zeros(1)}),
    ):
        try:
            merger._validate_state_dict(state)
            report[name] = {"error": None}
        except Exception as e:
            report[name] = {"error": {"type": type(e).__name__, "message": str(e)}}
    try:  # the key check the merge runs on every checkpoint key: a vision tower's key
        merger._check_megatron_state_key("vision_model.patch_embed.proj.weight")
        report["vision_key"] = {"error": None}
    except Exception as e:
        report["vision_key"] = {"error": {"type": type(e).__name__, "message": str(e)}}
    return report


def main(build: Path, out_json: Path, cases: list[str]) -> None:
    refs = {p.stem: load_file(p) for p in sorted((build / "reference").glob("*.safetensors"))}
    report = {}
    for case in cases:
        if case.startswith("backend="):
            backend, actor = case.removeprefix("backend=").split(":")
            target = build / actor / f"merged-{backend}"
            report[case] = cli(
                "merge", "--backend", backend, "--local_dir", str(build / actor / "actor"), "--target_dir", str(target)
            )
            continue
        if case == "rank0-view":
            report[case] = rank0_view(build)
            continue
        if case.startswith("unknown-model-type:"):  # a copy of the checkpoint whose config names a model type
            # transformers does not have (a custom model without auto_map, as a user's fork writes)
            actor = build / "unknown-model-type" / "actor"
            shutil.copytree(build / case.split(":")[1] / "actor", actor)
            config_path = actor / "huggingface" / "config.json"
            config = json.loads(config_path.read_text())
            config["model_type"] = "multi_modality"
            config_path.write_text(json.dumps(config))
            report[case] = cli("merge", "--backend", "fsdp", "--local_dir", str(actor), "--target_dir",
                               str(build / "unknown-model-type" / "merged"))  # fmt: skip
            continue
        if case.startswith("local-dir="):  # --local_dir at another folder of the checkpoint than actor/:
            # local-dir=<step|hf>:<checkpoint case>, the global_step_N folder above actor/ or actor/huggingface
            where, actor = case.removeprefix("local-dir=").split(":")
            local_dir = build / actor if where == "step" else build / actor / "actor" / "huggingface"
            target = build / actor / f"merged-{where}"
            report[case] = cli("merge", "--backend", "fsdp", "--local_dir", str(local_dir), "--target_dir", str(target))
            report[case]["local_dir"] = str(local_dir)
            report[case]["files"] = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
            continue
        if case == "megatron-test":  # last: it puts stand-in megatron modules on the import path
            report[case] = megatron_test(build)
            continue
        if case.startswith("torchrun-rank1:"):
            actor = case.split(":")[1]
            target = build / actor / "merged-rank1"
            torchrun = {"RANK": "1", "LOCAL_RANK": "1", "WORLD_SIZE": "2", "LOCAL_WORLD_SIZE": "2",
                        "MASTER_ADDR": "127.0.0.1", "MASTER_PORT": "29555"}  # fmt: skip
            saved = {k: os.environ.get(k) for k in torchrun}
            os.environ.update(torchrun)
            try:
                res = cli("merge", "--backend", "fsdp", "--local_dir", str(build / actor / "actor"), "--target_dir",
                          str(target))  # fmt: skip
            finally:
                for k, v in saved.items():
                    os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
            res["files"] = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
            if (target / "model.safetensors").is_file():
                res["model"] = compare(target / "model.safetensors", refs)
            report[case] = res
            continue
        if case.startswith("truncated:"):  # a merged model.safetensors cut short, as a write another one overtook
            model = build / case.split(":")[1] / "merged" / "model.safetensors"
            cut = build / "truncated.safetensors"
            data = model.read_bytes()
            cut.write_bytes(data[: len(data) // 2])
            try:
                load_file(cut)
                report[case] = {"error": None}
            except Exception as e:
                report[case] = {"error": {"type": type(e).__name__, "message": str(e)}}
            continue
        if ":" in case:  # <operation>:<checkpoint case>:<case whose merged output is the reference, or nothing>
            operation, actor, reference = case.split(":")
            args = [operation, "--backend", "fsdp", "--local_dir", str(build / actor / "actor")]
            if reference:
                args += ["--test_hf_dir", str(build / reference / "merged")]
            if operation == "merge":
                args += ["--target_dir", str(build / actor / "merged-again")]
            report[case] = cli(*args)
            continue
        case_dir, target = build / case, build / case / "merged"
        args = ("merge", "--backend", "fsdp", "--local_dir", str(case_dir / "actor"), "--target_dir", str(target))
        res = cli(*args)
        res["files"] = sorted(str(p.relative_to(target)) for p in target.rglob("*") if p.is_file())
        adapter = target / "lora_adapter"
        if (adapter / "adapter_config.json").is_file():
            res["adapter_config"] = json.loads((adapter / "adapter_config.json").read_text())
        if (adapter / "adapter_model.safetensors").is_file():
            res["adapter_keys"] = sorted(load_file(adapter / "adapter_model.safetensors"))
        if (target / "model.safetensors").is_file():
            res["model"] = compare(target / "model.safetensors", refs)
            res["reloaded"] = reload(target, refs)
        if res.get("adapter_keys"):
            # the merged base model when the merge wrote one, else the base model of the full-model case
            base_dir = target if (target / "model.safetensors").is_file() else build / "plain" / "merged"
            res["peft_fold"] = peft_fold(base_dir, adapter, refs)
        report[case] = res
    out_json.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
