"""Write synthetic verl FSDP checkpoints (world size 1) for a real run of ``python -m verl.model_merger``.

Runs in the isolated environment (torch, transformers, peft), never in pytest's process, and does not import
verl: the files are laid out the way verl 0.9.1's FSDPCheckpointManager.save_checkpoint lays them out
(verl/utils/checkpoint/fsdp_checkpoint_manager.py:316-417 at v0.9.1):

- ``model_world_size_{W}_rank_{r}.pt``: ``torch.save`` of the FSDP2 module's own ``state_dict()`` (for FSDP2
  verl's state-dict context is a no-op, fsdp_utils.py:445-449), so parameters are DTensors on a
  one-device mesh named ``("fsdp",)`` (verl/workers/engine/fsdp/utils.py:48);
- with ``save_lora_only`` only the keys holding ``lora_`` or ``.adapter_`` (fsdp_checkpoint_manager.py:322-326);
- ``huggingface/``: the model config and the tokenizer (``processing_class.save_pretrained``), written on rank 0
  whether or not an HF model is requested;
- ``fsdp_config.json``: ``{"FSDP_version": 2, "world_size": W}``;
- ``lora_train_meta.json``: ``r``, ``lora_alpha``, ``task_type`` of a PEFT model.

Checkpoints (one folder each, ``<case>/actor``): ``plain`` (a tiny dense Qwen2), ``no_fsdp_config`` (the same
without ``fsdp_config.json``, as older verl wrote), ``lora`` (a PEFT LoRA model with a trained, non-zero B),
``lora_no_meta`` (the same without ``lora_train_meta.json``), ``lora_only`` (``save_lora_only: true``) and ``moe``
(a tiny Qwen3-MoE whose experts transformers 5 holds fused).

Three more layouts that verl 0.9.1 does not write: ``plain_tensors`` (the dense model's weights as plain tensors, not
DTensors, world size 1) and ``plain_tensors_w2`` (the same weights as ``model_world_size_2_rank_0.pt`` with
``"world_size": 2`` and no rank 1 file), for what the merger does without DTensors; and ``v040_lora``, a LoRA
checkpoint laid out as verl v0.4.0's FSDPCheckpointManager wrote it by default (``git show
v0.4.0:verl/utils/checkpoint/fsdp_checkpoint_manager.py``, save_checkpoint): config.json, generation_config.json
and the tokenizer in ``actor/`` itself, no ``huggingface/`` folder (only written with ``hf_model`` in
checkpoint.contents), no ``fsdp_config.json`` (from v0.4.1) and no ``lora_train_meta.json`` (from 0.8.0).

Alongside, ``reference/`` holds what a correct merge is compared with: the base weights and the weights with the
LoRA update folded in (``W + alpha/r * B @ A``), and the MoE model's weights, all in bf16 as the merger writes them.

Usage: python build_checkpoints.py OUT_DIR
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist
from peft import LoraConfig, get_peft_model
from safetensors.torch import save_file
from tokenizers import Tokenizer, models, pre_tokenizers
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import fully_shard
from transformers import (
    AutoModelForCausalLM,
    GenerationConfig,
    PreTrainedTokenizerFast,
    Qwen2Config,
    Qwen3MoeConfig,
)

VOCAB = 64
LORA_R, LORA_ALPHA = 4, 8
TARGETS = ("q_proj", "v_proj")


def tiny_config() -> Qwen2Config:
    return Qwen2Config(
        vocab_size=VOCAB,
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=64,
        tie_word_embeddings=False,
        architectures=["Qwen2ForCausalLM"],
        eos_token_id=2,  # the tokenizer's <eos>, as a real model's config.json names its end token
    )


def tiny_moe_config() -> Qwen3MoeConfig:
    """Every layer sparse; transformers 5 builds the experts of a layer as fused 3-D parameters."""
    return Qwen3MoeConfig(
        vocab_size=VOCAB,
        hidden_size=16,
        intermediate_size=32,
        moe_intermediate_size=8,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=8,
        num_experts=4,
        num_experts_per_tok=2,
        decoder_sparse_step=1,
        mlp_only_layers=[],
        max_position_embeddings=64,
        tie_word_embeddings=False,
        architectures=["Qwen3MoeForCausalLM"],
    )


def tiny_tokenizer() -> PreTrainedTokenizerFast:
    words = ["<unk>", "<pad>", "<eos>"] + [f"w{i}" for i in range(VOCAB - 3)]
    tok = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    return PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", eos_token="<eos>")


def shard(model: torch.nn.Module, mesh) -> torch.nn.Module:
    """FSDP2 as verl applies it: each decoder layer, then the root."""
    for module in model.modules():
        if type(module).__name__.endswith("DecoderLayer"):
            fully_shard(module, mesh=mesh)
    fully_shard(model, mesh=mesh)
    return model


def write_actor(actor: Path, state: dict, config: Qwen2Config, *, fsdp_config: bool = True, meta=None) -> None:
    actor.mkdir(parents=True)
    torch.save(state, actor / "model_world_size_1_rank_0.pt")
    hf = actor / "huggingface"
    config.save_pretrained(hf)
    tiny_tokenizer().save_pretrained(hf)
    if fsdp_config:
        (actor / "fsdp_config.json").write_text(json.dumps({"FSDP_version": 2, "world_size": 1}, indent=4))
    if meta is not None:
        (actor / "lora_train_meta.json").write_text(json.dumps(meta, indent=4))


def local(state: dict) -> dict[str, torch.Tensor]:
    """The full tensors behind a world-size-1 state dict (DTensor or plain)."""
    return {k: (v.full_tensor() if hasattr(v, "full_tensor") else v).detach().clone() for k, v in state.items()}


def main(out: Path) -> None:
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", str(29500 + os.getpid() % 1000))
    dist.init_process_group("gloo", rank=0, world_size=1)
    mesh = init_device_mesh("cpu", (1,), mesh_dim_names=("fsdp",))
    torch.manual_seed(0)
    config = tiny_config()

    base = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    base_weights = local(base.state_dict())
    ref = out / "reference"
    ref.mkdir(parents=True)
    save_file({k: v.bfloat16().contiguous() for k, v in base_weights.items()}, ref / "base.safetensors")

    plain = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    plain.load_state_dict(base_weights)
    shard(plain, mesh)
    plain_state = plain.state_dict()
    write_actor(out / "plain" / "actor", plain_state, config)
    write_actor(out / "no_fsdp_config" / "actor", plain_state, config, fsdp_config=False)
    write_actor(out / "plain_tensors" / "actor", local(plain_state), config)
    w2 = out / "plain_tensors_w2" / "actor"  # rank 0's file of a two-rank save of plain tensors, rank 1's absent
    write_actor(w2, local(plain_state), config, fsdp_config=False)
    (w2 / "model_world_size_1_rank_0.pt").rename(w2 / "model_world_size_2_rank_0.pt")
    (w2 / "fsdp_config.json").write_text(json.dumps({"FSDP_version": 1, "world_size": 2}))

    lora_cfg = LoraConfig(r=LORA_R, lora_alpha=LORA_ALPHA, target_modules=list(TARGETS), task_type="CAUSAL_LM")
    inner = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    inner.load_state_dict(base_weights)
    peft_model = get_peft_model(inner, lora_cfg)
    with torch.no_grad():  # a trained adapter: B is not zero, so merged and base weights differ
        for name, p in peft_model.named_parameters():
            if "lora_B" in name:
                p.copy_(torch.randn_like(p))
    folded = dict(base_weights)
    for name, module in peft_model.named_modules():
        if hasattr(module, "lora_A") and "default" in getattr(module, "lora_A", {}):
            a, b = module.lora_A["default"].weight, module.lora_B["default"].weight
            key = name.replace("base_model.model.", "") + ".weight"
            folded[key] = base_weights[key] + (LORA_ALPHA / LORA_R) * (b @ a).detach()
    save_file({k: v.bfloat16().contiguous() for k, v in folded.items()}, ref / "lora_folded.safetensors")

    shard(peft_model, mesh)
    lora_state = peft_model.state_dict()
    meta = {"r": LORA_R, "lora_alpha": LORA_ALPHA, "task_type": "CAUSAL_LM"}
    write_actor(out / "lora" / "actor", lora_state, config, meta=meta)
    write_actor(out / "lora_no_meta" / "actor", lora_state, config)
    v040 = out / "v040_lora" / "actor"  # verl v0.4.0's default layout: HF files beside the shards
    v040.mkdir(parents=True)
    torch.save(lora_state, v040 / "model_world_size_1_rank_0.pt")
    GenerationConfig.from_model_config(config).save_pretrained(v040)
    config.save_pretrained(v040)
    tiny_tokenizer().save_pretrained(v040)
    lora_only = {k: v for k, v in lora_state.items() if "lora_" in k or ".adapter_" in k}
    write_actor(out / "lora_only" / "actor", lora_only, config, meta=meta)

    moe = AutoModelForCausalLM.from_config(tiny_moe_config(), dtype=torch.float32)
    moe_weights = local(moe.state_dict())
    save_file({k: v.bfloat16().contiguous() for k, v in moe_weights.items()}, ref / "moe_base.safetensors")
    shard(moe, mesh)
    moe_state = moe.state_dict()
    write_actor(out / "moe" / "actor", moe_state, tiny_moe_config())

    summary = {
        "lora_r": LORA_R,
        "lora_alpha": LORA_ALPHA,
        "plain_keys": {k: type(v).__name__ for k, v in plain_state.items()},
        "lora_keys": sorted(lora_state),
        "moe_keys": sorted(moe_state),
        "mesh_dim_names": list(mesh.mesh_dim_names),
    }
    (out / "built.json").write_text(json.dumps(summary, indent=1))
    dist.destroy_process_group()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
