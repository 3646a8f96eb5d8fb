"""The search query set: what a reader types, and the page that must be among the first three hits.

Single words, phrases, identifiers and file names as they appear in configs, pasted error strings, CLI
flags, and mixed 中文/English. Pages are site-relative (中文 at the root, English under en/). Run in
the browser by tests/browser/test_search.py; each entry is (query, page).
"""

from __future__ import annotations

ENGLISH: list[tuple[str, str]] = [
    ("resume", "en/recipes/async-resume/"),
    ("update weights", "en/backends/choosing/"),
    # "configuration" alone names the handbook (its title); every Ascend page has configuration steps
    ("configuration", "en/"),
    ("mooncake configuration", "en/backends/mooncake-kimi/"),
    ("registered backends", "en/backends/choosing/"),
    ("cupy", "en/backends/choosing/"),
    ("install", "en/install/"),
    ("hccn.conf", "en/install/mooncake-ascend-direct/"),
    # a pasted error line: its function words matched almost every section and buried hccn.conf (users39b)
    ("/etc/hccn.conf can not be found", "en/install/mooncake-ascend-direct/"),
    ("is not a valid data dimension", "en/recipes/troubleshooting/"),
    ("engine_kwargs", "en/backends/nccl-hccl/"),
    ("update_weights_bucket_megabytes", "en/backends/choosing/"),
    ("Checkpoint engine nccl not registered", "en/backends/nccl-hccl/"),
    ("Checkpoint engine nccl not registered", "en/install/"),  # the install page answers it too (issue 33)
    ("kwargs", "en/backends/nccl-hccl/"),
    ("bucket_megabytes", "en/backends/choosing/"),
    ("whitelist", "en/ascend/hccl-whitelist/"),
    ("HCCL_WHITELIST_FILE", "en/ascend/hccl-whitelist/"),
    ("HCCL_INTRA_ROCE_ENABLE", "en/ascend/hccl-whitelist/"),
    ("Ascend 950 whitelist", "en/ascend/hccl-whitelist/"),
    ("known issues", "en/ascend/known-issues/"),
    ("changelog", "en/ascend/known-issues/"),
    ("asynchronous HCCL broadcast", "en/ascend/known-issues/"),
    ("mooncake", "en/backends/mooncake-kimi/"),
    ("kimi_ckpt_engine", "en/backends/mooncake-kimi/"),
    ("mooncake device: npu", "en/backends/mooncake-kimi/"),
    ("ascend_direct", "en/install/mooncake-ascend-direct/"),
    ("CMake options", "en/install/mooncake-ascend-direct/"),
    ("delta_sharded", "en/recipes/delta-sync/"),
    ("sparse delta sync", "en/recipes/delta-sync/"),
    ("checkpoint_callback_class", "en/recipes/checkpoint-callback/"),
    ("on_save", "en/recipes/checkpoint-callback/"),
    ("model merger", "en/recipes/model-merger/"),
    ("python -m verl.model_merger", "en/recipes/model-merger/"),
    ("replicated tensors", "en/recipes/model-merger/"),
    ("warm-up submissions", "en/recipes/async-resume/"),
    ("separate_async", "en/recipes/async-resume/"),
    ("doctor", "en/tools/doctor/"),
    ("verl-cookbook stack", "en/tools/stack/"),
    ("exit codes", "en/tools/checker/"),
    ("--lenient", "en/tools/checker/"),
    ("dcmi module initialize failed. ret is -8005", "en/recipes/troubleshooting/"),
    ("HCCL error when update weights under fully async", "en/recipes/troubleshooting/"),  # verl #7416's title
    ("matmul_allreduce", "en/recipes/troubleshooting/"),
    ("nccl_parallel", "en/recipes/troubleshooting/"),
    ("waiting for requests to drain", "en/recipes/troubleshooting/"),  # verl PR #7511
    ("fully_async never saves at save_freq", "en/recipes/troubleshooting/"),  # verl PR #5677
    ("pre-commit", "en/tools/verl-ci/"),
    ("GitHub Actions", "en/tools/verl-ci/"),
    ("HCCLCheckpointEngine", "en/backends/nccl-hccl/"),
    ("CheckpointEngineRegistry", "en/reference/verl-api/"),
    ("multi_sender", "en/backends/nccl-hccl/"),
    ("rebuild_group", "en/backends/nccl-hccl/"),
    ("mermaid diagram", "en/contributing/"),
    # what users of the real reports in issue 11 typed (Ascend pages and recipes)
    ("destroyComm", "en/ascend/known-issues/"),
    ("not registered cupy", "en/install/"),
    ("TaskRunner", "en/install/"),
    ("torch_npu CANN versions", "en/install/version-matrix/"),
    ("HCCL_IF_BASE_PORT", "en/ascend/ports/"),
    ("Communication_Error_Bind_IP_Port", "en/ascend/ports/"),
    ("ASCEND_BUFFER_POOL", "en/ascend/ascend-direct-tuning/"),
    ("async_save resume starts from scratch", "en/recipes/async-resume/"),
    ("merge megatron checkpoint", "en/recipes/model-merger/"),
    ("trust-remote-code", "en/recipes/model-merger/"),
    ("parameter_sync_step", "en/recipes/delta-sync/"),
    ("checkpoint callback upload after training", "en/recipes/checkpoint-callback/"),
    ("SuperPoD", "en/glossary/"),
    # log lines pasted as printed (numbers and all): the page that explains them, not the pages that say "weights"
    ("send weights done", "en/backends/verify-sync/"),
    ("receive weights done, total_params", "en/backends/verify-sync/"),
    (
        "Rank 3 receive weights done, total_params: 1543503872, time cost: 2.87s, bandwidth: 4.3 GB/s",
        "en/backends/verify-sync/",
    ),
    # the troubleshooting page and the recipe sections added for issue 26, asked as in the upstream threads
    ("SFT resume at epoch boundary trains zero steps", "en/recipes/troubleshooting/"),
    ("resume with a different number of GPUs", "en/recipes/troubleshooting/"),
    ("first NCCL checkpoint engine sync hangs", "en/recipes/troubleshooting/"),
    ("MoE weight_loader fails during weight sync", "en/recipes/troubleshooting/"),
    ("shard_dim=0 weight_loader", "en/recipes/troubleshooting/"),
    ("megatron save checkpoint very slow", "en/recipes/troubleshooting/"),
    ("fully reshardable optimizer CPU memory OOM", "en/recipes/troubleshooting/"),
    ("huggingface folder no weights", "en/recipes/troubleshooting/"),
    ("base_model.model", "en/recipes/troubleshooting/"),
    ("merged LoRA model same as base model", "en/recipes/troubleshooting/"),
    ("is too large to fit in the bucket", "en/recipes/troubleshooting/"),
    ("Detected deprecated Megatron checkpoint layout", "en/recipes/troubleshooting/"),
    ("NPU out of memory resume kv cache", "en/recipes/troubleshooting/"),
    ("KeyError: 'kv_cache'", "en/recipes/troubleshooting/"),
    ("camem allocator is not available", "en/recipes/troubleshooting/"),
    # miner12's entries, asked with the reports' own wording
    ("libtbe_adapter.so undefined symbol", "en/recipes/troubleshooting/"),  # Ascend/pytorch #99
    ("Unsupported soc version: Ascend950PR", "en/recipes/troubleshooting/"),  # RLinf PR #1577
    ("RuntimeError: NCCL is not available.", "en/recipes/troubleshooting/"),  # verl #4651
    ("libatb.so: cannot open shared object file", "en/recipes/troubleshooting/"),
    ("OOM when save checkpoint with FSDP offload", "en/recipes/troubleshooting/"),  # verl #1964
    ("Mooncake official Docker image for Ascend NPU", "en/recipes/troubleshooting/"),  # Mooncake #4187
    ("The wait execution of the Notify register times out", "en/recipes/troubleshooting/"),
    ("Megatron merger does not preserve generation_config.json", "en/recipes/troubleshooting/"),  # verl #7198
    ("weight sync never delivers the LoRA adapter", "en/recipes/troubleshooting/"),  # verl #7495
    ("fsdp_config.json does not exist", "en/recipes/model-merger/"),
    ("Qwen3VLConfig object has no attribute num_hidden_layers", "en/recipes/model-merger/"),
    ("merge megatron LoRA adapter", "en/recipes/model-merger/"),
    ("save_lora_only Incomplete Hugging Face model output", "en/recipes/model-merger/"),
    ("FSDP checkpoint not uploaded to default_hdfs_dir", "en/recipes/checkpoint-callback/"),
    ("max_actor_ckpt_to_keep leaves data.pt", "en/recipes/checkpoint-callback/"),
    ("callback module not found PYTHONPATH runtime_env", "en/recipes/checkpoint-callback/"),
    # miner14's entries (users13's sample)
    ("wake up expert shape mismatch w13 w2", "en/recipes/troubleshooting/"),  # vllm-ascend #11548
    ("VLLM_SLEEP_LEVEL", "en/recipes/troubleshooting/"),  # verl PR #3461
    ("No module named 'transformer_engine'", "en/recipes/troubleshooting/"),  # verl #4399
    # miner15a's entries
    ("PytorchStreamWriter failed writing file data file write failed", "en/recipes/troubleshooting/"),  # verl #3346
    ("actor_rollout_save_checkpoint WORKER_DIED", "en/recipes/troubleshooting/"),  # verl #4332
    ("assert isinstance(weight, torch.distributed._tensor.DTensor)", "en/recipes/troubleshooting/"),  # verl #903
    ("LoRA on top of SFT merged model which base", "en/recipes/model-merger/"),  # verl #4948
    ("merged model gibberish tie-word-embedding lm_head missing", "en/recipes/model-merger/"),  # verl #2612
    # miner15b's entries
    ("Current node has no NPU available", "en/recipes/troubleshooting/"),  # vllm-ascend #3114
    ("Failed to import Triton kernels constexpr_function", "en/recipes/troubleshooting/"),  # verl #5468
    ("No module named 'vllm.lora.lora_model'", "en/recipes/troubleshooting/"),  # verl #5468
    ("lora.merge=False illegal memory access", "en/recipes/troubleshooting/"),  # verl #6454
    ("npu vllm data parallel expert parallel error", "en/recipes/troubleshooting/"),  # verl #4413
    ("transformers 5 qwen3 moe weight sync gate_up_proj", "en/recipes/troubleshooting/"),  # verl PR #6896
    ("HCCL_BUFFSIZE is too SMALL", "en/recipes/troubleshooting/"),  # vllm-ascend PR #5287
    # verl PR #6919
    ("view size is not compatible with input tensor's size and stride update weights", "en/recipes/troubleshooting/"),
    # miner16's fixes (users14)
    ("ApplyRotaryEmb vllm_ascend rollout init fails", "en/recipes/troubleshooting/"),  # verl #6224
    ("DeltaShardedCheckpointEngine object has no attribute 'rank'", "en/recipes/troubleshooting/"),  # verl PR #7870
    ("huggingface folder lm_head.weight.safetensors missing", "en/recipes/troubleshooting/"),  # verl #5357
    ("PPO resume at epoch boundary trains zero steps", "en/recipes/troubleshooting/"),  # verl PR #5725
    # verl #2752
    ("SafetensorError: Error while deserializing header: MetadataIncompleteBuffer", "en/recipes/troubleshooting/"),
    ("fully_async first weight sync stuck", "en/recipes/troubleshooting/"),  # verl #6967
    # miner17 (users15)
    ("vllm-ascend 0.13 wake_up MoE expert weights transposed", "en/recipes/troubleshooting/"),  # vllm-ascend #5915
    ("verl 0.7.1 nccl_timeout still works", "en/recipes/troubleshooting/"),  # verl #607
    ("one_step_off steps very fast from step 2 rollout aborted", "en/recipes/troubleshooting/"),  # verl PR #5698
    # verl #4338
    ("dense model megatron hf checkpoint missing shard use_dist_checkpointing", "en/recipes/troubleshooting/"),
    # verl #8000
    (
        "cannot import name async_calls from megatron.core.dist_checkpointing.strategies.base",
        "en/recipes/troubleshooting/",
    ),
    ("MTP drafter weight update NPU MoE weight_loader", "en/recipes/troubleshooting/"),  # vllm-ascend PR #13337
    ("resume training wandb creates a new run", "en/recipes/troubleshooting/"),  # verl #2783
    # miner18 (users16)
    # verl #4921
    ("ActorDiedError sleep", "en/recipes/troubleshooting/"),
    ("worker died sleep", "en/recipes/troubleshooting/"),
    # vllm-ascend #166
    ("No module named torch_npu", "en/recipes/troubleshooting/"),
    # vllm-ascend #9292
    ("HDK driver firmware version", "en/install/"),
    # vllm-ascend #11542
    ("hcclCommInitRootConfig error code 1", "en/recipes/troubleshooting/"),
    # review17 F5, F6
    ("mtp.enable mtp.enable_rollout weight_loader NPU", "en/recipes/troubleshooting/"),
    ("SFT output missing shards engine.use_dist_checkpointing", "en/recipes/troubleshooting/"),
    # review17 F7, F8
    ("uninstall triton_kernels constexpr_function vLLM 0.11", "en/recipes/troubleshooting/"),
    # miner19 (users17 classes)
    # verl PR #7507
    ("Invalid device ID error code is 107001 Set visible device failed", "en/recipes/troubleshooting/"),
    ("RuntimeError: Failed to infer device type", "en/recipes/troubleshooting/"),  # vllm-ascend #540
    # vllm-ascend PR #9242
    ("Expandable segments are not compatible with memory pool NPU", "en/recipes/troubleshooting/"),
    # miner20 (users17): verl #2356
    ("model merger FileNotFoundError model_world_size_16_rank_8.pt two nodes", "en/recipes/troubleshooting/"),
    # a file or folder name pasted from disk: the pages write it with placeholders ({W}, {r}, N) (users40a)
    ("model_world_size_2_rank_0.pt", "en/recipes/model-merger/"),
    ("global_step_37", "en/recipes/troubleshooting/"),
    # sweeps of session 14: errors of releases before 0.7.1 that users still paste
    ("Rollout mode 'sync' has been removed", "en/recipes/troubleshooting/"),  # verl #4495
    ("module 'torch_npu' has no attribute '_npu_rotary_embedding'", "en/recipes/troubleshooting/"),  # vllm-ascend #56
    ("spin recipe merge checkpoint", "en/recipes/model-merger/"),  # verl #2361
    ("resume trains same prompts again", "en/recipes/async-resume/"),  # verl #1875
    # miner20 (users17): vllm-ascend #977, #9563
    ("rollout sleep NPU memory not freed grows every sleep wake", "en/recipes/troubleshooting/"),
    # miner20 (users17): verl #3895
    ("fully async hang Parameter version updated from 0 to 0", "en/recipes/troubleshooting/"),
    # miner20 (users17): verl #4227, #6064
    ("DeepSeek V3.1 HF weights missing last safetensors files checkpoint mbridge", "en/recipes/troubleshooting/"),
    # miner20 (users17): verl #2860
    ("Megatron checkpoint save slow async_save", "en/recipes/troubleshooting/"),
    # miner20 (users17): verl #6225
    ("colocated weight sync slow update_weights_bucket_megabytes", "en/recipes/troubleshooting/"),
    # miner21 (users18): verl #3318
    ("hf_model checkpoint twice the size of the original model fp32", "en/recipes/troubleshooting/"),
    # miner21 (users18): verl #4449
    ("fully async staleness_threshold trigger_parameter_sync_step on-policy", "en/recipes/troubleshooting/"),
    # miner23: verl #7213
    ("del_local_ckpt_after_load checkpoint not deleted after resume", "en/recipes/troubleshooting/"),
    # miner23: Azure/azureml-assets PR #5288
    ("Could not override actor_rollout_ref.rollout.update_weights_bucket_megabytes", "en/recipes/troubleshooting/"),
    # miner23: verl #5684 (0.7.1 message without the failed imports)
    ("Checkpoint engine nccl not registered verl 0.7.1 import nccl_checkpoint_engine cupy", "en/install/"),
    # miner22 (users18): verl #270
    ("RayWorkerGroup object has no attribute load_checkpoint resume", "en/recipes/troubleshooting/"),
    # miner22 (users18): verl #1246
    ("merged model does not stop generating", "en/recipes/troubleshooting/"),
    # miner22 (users18): verl #6414
    ("check weight sync correct loaded weights", "en/backends/verify-sync/"),
    # miner22 (users18): verl #2995
    ("out of memory syncing weights colocated rollout MoE", "en/recipes/troubleshooting/"),
    # miner22 (users18): verl #831
    ("OOM one step after resuming from checkpoint", "en/recipes/troubleshooting/"),
    # miner24 (users19): verl #2306
    ("Error(s) in loading state_dict for FullyShardedDataParallel", "en/recipes/troubleshooting/"),
    # miner24 (users19): verl #2971
    ("RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES", "en/recipes/troubleshooting/"),
    # miner24 (users19): verl #3672
    ("update_weights called twice validation", "en/recipes/troubleshooting/"),
    # miner24 (users19): vllm-ascend #15463
    ("kv_b_proj", "en/recipes/troubleshooting/"),
    # miner24 (users19): verl #5827
    ("resume hangs load_state_dict NPU FSDP", "en/recipes/troubleshooting/"),
    # miner24 (users19): Ascend/pytorch #105
    ("vllm-ascend 0.14.0rc1 torch_npu", "en/install/version-matrix/"),
    ("vLLM version required by main branch is unclear", "en/install/version-matrix/"),  # vllm-ascend #11996's title
    ("vllm-main-verified.commit", "en/install/version-matrix/"),
    # verl #3292
    ("only have a common.pt file, and other expected .distcp files disappear", "en/recipes/troubleshooting/"),
    ("megatron checkpoint only common.pt distcp missing", "en/recipes/troubleshooting/"),
    ("Failed to update parameter online: start out of range", "en/recipes/troubleshooting/"),  # sglang #26032
    # sglang #26032's title
    (
        "process_weights_after_loading weight shape transformation breaks online weight update",
        "en/recipes/troubleshooting/",
    ),
    # sglang #14178's title
    ("Generate garbled answer after updating weights with small buckets", "en/recipes/troubleshooting/"),
    ("garbled output after update weights sglang", "en/recipes/troubleshooting/"),
    # miner25 (users20): verl PR #7366
    ("update_weights hang no error", "en/recipes/troubleshooting/"),
    # miner25 (users20): Mooncake #98
    ("Fail to register memory", "en/recipes/troubleshooting/"),
    # miner25 (users20): verl #1657, verl PR #4799
    ("Expects tensor to be on the compute device", "en/recipes/troubleshooting/"),
    # miner25 (users20): verl PR #7611
    ("TaskCancelledError", "en/recipes/troubleshooting/"),
    # miner26: verl #4541, verl #3919
    ("save_hf_weight_merge FileNotFoundError distributed_filesystem", "en/recipes/troubleshooting/"),
    # miner26: verl #967
    ("Gloo connectFullMesh failed", "en/recipes/troubleshooting/"),
    # miner27 (users21): verl #5011
    ("training stops before total_training_steps", "en/recipes/troubleshooting/"),
    # miner27 (users21): verl #3354
    ("Failed to acquire lock Read-only file system", "en/recipes/troubleshooting/"),
    # miner27 (users21): verl #3517
    ("KeyError master_param resume precision aware optimizer", "en/recipes/troubleshooting/"),
    # miner27 (users21): ms-swift #7948, vllm-ascend #3266
    ("vllm-ascend torch version conflict pip", "en/recipes/troubleshooting/"),
    # miner28 (users22): verl #2658
    ("FSDP save OSError does not appear to have a file named generation_config.json", "en/recipes/troubleshooting/"),
    # miner28 (users22): verl PR #4780, verl PR #5235
    ("DeepSeek V3 MLA transposed after update_weights process_weights_after_loading", "en/recipes/troubleshooting/"),
    # miner28 (users22): verl #6523, verl PR #6522
    ("multimodal encoder cache not reset after update_weights", "en/recipes/troubleshooting/"),
    # miner28 (users22): MoonshotAI/checkpoint-engine #3
    ("kimi_ckpt_engine AssertionError batch_transfer_sync_read", "en/backends/mooncake-kimi/"),
    # miner29 (users23): Agent-R1 #102
    ("where is the model saved", "en/recipes/troubleshooting/"),
    # miner29 (users23): verl #3792, verl #4281
    ("keep only the best checkpoint by validation score", "en/recipes/checkpoint-callback/"),
    # miner29 (users23): ray #55477
    ("NCCL seems unavailable. Please install Cupy one_step_off_policy", "en/recipes/troubleshooting/"),
    # miner29 (users23): vllm-ascend #1796 (pip's first error line, pasted)
    (
        "Could not find a version that satisfies the requirement torch-npu==2.5.1.post1.dev20250619",
        "en/recipes/troubleshooting/",
    ),
    # miner30 (users24): vllm-ascend #459
    ("PyNcclCommunicator npu weights not updated", "en/recipes/troubleshooting/"),
    # miner30 (users24): MoonshotAI/checkpoint-engine #31 (the project's names, not verl's backend name; a query
    # with "checkpoint-engine" still ranks nccl-hccl first, since the separator splits it into two common words)
    ("Moonshot Kimi", "en/backends/mooncake-kimi/"),
    # miner30 (users24): verl #767
    ("validation results unchanged after first step test_freq", "en/recipes/troubleshooting/"),
    # miner30 (users24): verl #496
    ("weight sync slow param_offload first step", "en/recipes/troubleshooting/"),
    # miner30 (users24): Mooncake #2385
    ("dependencies.sh Unsupported OS euleros", "en/recipes/troubleshooting/"),
    # fix28u (users25): Mooncake #2300
    ("not support connect with self device", "en/recipes/troubleshooting/"),
    # fix28u (users25): verl #2551, verl #3516 (the reporters' words)
    ("are the latest weights transferred to vllm servers in async rollout mode", "en/recipes/troubleshooting/"),
    ("lora VLLM_SLEEP_LEVEL=2 lora layers not updated", "en/recipes/troubleshooting/"),
    # fix28u (users25): verl #692
    ("Weights only load failed", "en/recipes/troubleshooting/"),
    # fix29u (users26): verl #7990
    ("max_concurrency", "en/recipes/troubleshooting/"),
    ("colocate_async weight sync hang no traceback", "en/recipes/troubleshooting/"),
    # fix29u (users26): verl #3400
    ("lora_adapter_path", "en/recipes/troubleshooting/"),
    ("continue training from saved LoRA adapter", "en/recipes/troubleshooting/"),
    # fix29u (users26): verl-tool #106
    ("checkpoint too large 100GB optimizer", "en/recipes/troubleshooting/"),
    # fix29u (users26): vllm-ascend #154
    ("import torch_npu Segmentation fault core dumped", "en/recipes/troubleshooting/"),
    # fix29u (users26): verl #3057
    ("distcp", "en/recipes/model-merger/"),
    ("distcp to huggingface", "en/recipes/model-merger/"),
    # miner32: vllm-ascend #527, #1747, #5497
    ("cannot import name 'LLM' from 'vllm' (unknown location)", "en/recipes/troubleshooting/"),
    # miner31: verl PR #4873
    ("max_ckpt_to_keep=1 two checkpoints on disk while saving", "en/recipes/troubleshooting/"),
    # miner31: verl #7953
    ("megatron resume learning rate warmup starts over", "en/recipes/troubleshooting/"),
    # users34 R4: vllm #16663
    ("cpu memory not released wake up", "en/recipes/troubleshooting/"),
    ("host memory keeps growing after sleep wake_up level 1", "en/recipes/troubleshooting/"),
    ("VLLM_SLEEP_MODE_RELEASE_HOST_MEMORY", "en/recipes/troubleshooting/"),
    # users34 R1: vllm-ascend #13086
    ("Unsupported soc_version", "en/recipes/troubleshooting/"),
    ("vllm-ascend 950 Unsupported soc_version select_moe_comm_method", "en/recipes/troubleshooting/"),
    # users34 R5: Megatron-LM #1517
    ("resume with different tensor parallel size megatron checkpoint", "en/recipes/troubleshooting/"),
    ("change parallelism on resume optimizer state reshard", "en/recipes/troubleshooting/"),
    # users34 R7: verl #2408
    ("KeyError experts.gate_proj.weight0", "en/recipes/model-merger/"),
    # users36a R5: vllm-ascend #3023
    ("pyhccl multi process one NPU", "en/ascend/ports/"),
    # users35 R3: NeMo-RL #2631
    ("Gemma-4 sleep level 2 garbage", "en/recipes/troubleshooting/"),
    ("vllm sleep level 2 corrupts rollouts", "en/recipes/troubleshooting/"),
    # users35 R4: Megatron-LM #4910
    ("optimizer_cpu_offload checkpoint save hangs", "en/recipes/troubleshooting/"),
    ("Megatron-FSDP fsdp_dtensor checkpoint hang", "en/recipes/troubleshooting/"),
    # users30 R5: verl #6185
    ("Ascend docker image", "en/install/"),
    ("verl container image", "en/install/"),
    # users31 R3: verl #4990
    ("ShardedTensor.flattened_range is not supported", "en/recipes/troubleshooting/"),
    ("CheckpointingException", "en/recipes/troubleshooting/"),
    # users31 R5: vllm-ascend #5635
    ("Failed to connect to target status: 103900", "en/recipes/troubleshooting/"),
    ("Failed to connect to segment", "en/recipes/troubleshooting/"),
    # users31 R6: vllm-ascend #7401
    (
        "Connect timeout to: 10.2:20033, you can increase the timeout duration to reduce the ASCEND_CONNECT_TIMEOUT"
        " environment variable.",
        "en/recipes/troubleshooting/",
    ),
    ("Transfer slice failed with status: 103902", "en/recipes/troubleshooting/"),
    # users31 R8: checkpoint-engine #34
    ("Failed to register memory Bad address", "en/recipes/troubleshooting/"),
    ("Memory region not registered by any active device", "en/recipes/troubleshooting/"),
    # users31 R9: verl #250
    ("NotImplementedError: load from hdfs is not implemented yet", "en/recipes/async-resume/"),
    # users32 R2: verl #7226
    ("model merger hf_upload every rank", "en/recipes/model-merger/"),
    # users32 R1: verl #5009
    ("Unable to meet other processes at the rendezvous store", "en/recipes/troubleshooting/"),
    ("rendezvous", "en/recipes/troubleshooting/"),
    # users32 R5: AReaL #1099
    ("EJ0001 Failed to initialize the HCCP process", "en/recipes/troubleshooting/"),
    ("hcclCommInitRootInfoConfig error code is 7", "en/recipes/troubleshooting/"),
    # users33 R1: verl #3457
    ("dataloader order after resume", "en/recipes/async-resume/"),
    ("resume data order differs", "en/recipes/async-resume/"),
    # users33 R2: verl #4896
    ("param_sync slow", "en/recipes/troubleshooting/"),
    ("fully async weight sync takes long", "en/recipes/troubleshooting/"),
    ("timing_s/param_sync", "en/recipes/troubleshooting/"),
    # users33 R6: vllm #57853
    ("weight update while asleep segfault", "en/recipes/troubleshooting/"),
    ("update weights before wake_up", "en/recipes/troubleshooting/"),
    ("sleep wake up weight sync", "en/recipes/troubleshooting/"),
    ("Segfault encountered cuMemcpyDtoDAsync_v2", "en/recipes/troubleshooting/"),
    # users36b R4: vllm #17272
    ("Attempted to load weight into parameter fp8", "en/recipes/troubleshooting/"),
    ("fp8 rollout quantization weight sync", "en/recipes/troubleshooting/"),
    # users36b R1: vllm #13941
    ("CUDA Error: out of memory at cumem_allocator.cpp", "en/recipes/troubleshooting/"),
    ("wake up OOM cumem_allocator", "en/recipes/troubleshooting/"),
    # users36b R2: sglang #6367
    ("release_memory_occupation resume_memory_occupation", "en/recipes/troubleshooting/"),
    ("enable_weights_cpu_backup", "en/recipes/troubleshooting/"),
    # users36b R6: vllm #42821
    ("load_weights corrupts MoE second call", "en/recipes/troubleshooting/"),
    ("MoE gibberish after weight sync", "en/recipes/troubleshooting/"),
    # users36a R2: verl #3199
    ("use_mbridge use_dist_checkpointing", "en/recipes/model-merger/"),
    # users37a side finding: Mooncake #1696
    ("mooncake protocol ascend rdma", "en/recipes/troubleshooting/"),
    # users37b R2: NeMo-RL #564
    ("NCCL error: unhandled cuda error", "en/recipes/troubleshooting/"),
    ("NCCL_CUMEM_ENABLE", "en/recipes/troubleshooting/"),
    ("nccl weight sync error disaggregated", "en/recipes/troubleshooting/"),
    # users37b R4: vllm #32714
    ("vllm 0.14 sleep level 1 does not free GPU memory", "en/recipes/troubleshooting/"),
    ("rollout sleep frees less GPU memory after vLLM upgrade", "en/recipes/troubleshooting/"),
    # users37a R5: verl #2086
    ("experts not saved expert parallel megatron checkpoint", "en/recipes/model-merger/"),
    # users37b R3: vllm #17915
    ("'Parameter' object has no attribute 'weight_loader'", "en/recipes/troubleshooting/"),
    # users37b R5: NeMo-RL #2618
    ("shard_dim=0 is not a valid data dimension for a 3D tensor", "en/recipes/troubleshooting/"),
    # engA: the vLLM rollout's start-up memory checks, enable_sleep_mode=False, vLLM's executor sleep tags
    ("Free memory on device on startup is less than desired GPU memory utilization", "en/recipes/troubleshooting/"),
    ("To serve at least one request with the model's max seq len", "en/recipes/troubleshooting/"),
    ("'NPUWorker' object has no attribute '_sleep_saved_buffers'", "en/recipes/troubleshooting/"),
    ("Executor is already sleeping", "en/recipes/troubleshooting/"),
    # users50 (gap50): the held-out reports' own words reach their entries
    ("free_cache_engine not works with sync trainer", "en/recipes/troubleshooting/"),  # verl #5738
    ("save model nccl timeout", "en/recipes/troubleshooting/"),  # OpenRLHF #1126
    ("ValueError: Cannot merge two lists with different lengths", "en/recipes/troubleshooting/"),  # ms-swift #8240
    ("load_quanted_weights RuntimeError", "en/recipes/troubleshooting/"),  # verl #6112
]

CHINESE: list[tuple[str, str]] = [
    ("model_world_size_2_rank_0.pt", "recipes/model-merger/"),  # a file name pasted from disk (users40a)
    ("续训后 SwanLab 生成新的实验", "recipes/troubleshooting/"),  # SwanLab-Docs #199
    ("can't open conf 文件：/etc/hccn.conf", "recipes/troubleshooting/"),  # Mooncake PR #502
    ("白名单", "ascend/hccl-whitelist/"),
    ("断点续训", "recipes/async-resume/"),
    ("hccn.conf", "install/mooncake-ascend-direct/"),
    ("HCCL_WHITELIST_FILE", "ascend/hccl-whitelist/"),
    ("昇腾 950 白名单", "ascend/hccl-whitelist/"),
    ("已知问题", "ascend/known-issues/"),
    ("变更记录", "ascend/known-issues/"),
    ("异步广播", "ascend/known-issues/"),
    ("检查点引擎后端", "backends/choosing/"),
    ("选择后端", "backends/choosing/"),
    # "选哪个后端" typed as is misses (4th): Material's worker splits a run of Han characters into terms of the index
    # but never takes the run's last word (its loop stops one character short), so it searches 选* 哪个* without 后端;
    # any wording whose last word carries little (选择哪个后端, 如何选择后端) ranks the page first.
    ("选择哪个后端", "backends/choosing/"),
    ("engine_kwargs", "backends/nccl-hccl/"),
    ("update_weights_bucket_megabytes", "backends/choosing/"),
    ("Checkpoint engine nccl not registered", "backends/nccl-hccl/"),
    ("Checkpoint engine nccl not registered", "install/"),
    ("nccl 就是 HCCL", "backends/nccl-hccl/"),
    ("kimi_ckpt_engine", "backends/mooncake-kimi/"),
    ("Mooncake 传输引擎", "install/mooncake-ascend-direct/"),
    ("源码编译", "install/mooncake-ascend-direct/"),
    ("安装", "install/"),
    ("cupy", "backends/choosing/"),
    ("稀疏增量同步", "recipes/delta-sync/"),
    ("delta_sharded", "recipes/delta-sync/"),
    ("检查点回调", "recipes/checkpoint-callback/"),
    ("on_save", "recipes/checkpoint-callback/"),
    ("模型合并", "recipes/model-merger/"),
    ("verl.model_merger", "recipes/model-merger/"),
    ("预热请求", "recipes/async-resume/"),
    ("启动前检查", "tools/doctor/"),
    ("哪些版本能一起装", "install/version-matrix/"),  # the page that lists them (the stack tool computes them)
    ("退出码", "tools/checker/"),
    ("--lenient", "tools/checker/"),
    ("ret is -8005", "recipes/troubleshooting/"),
    ("dcmi -8005", "recipes/troubleshooting/"),  # a negative code alone beside its word
    ("fully_async 更新权重 HCCL 报错", "recipes/troubleshooting/"),
    ("VLLM_ASCEND_ENABLE_NZ", "recipes/troubleshooting/"),
    ("pre-commit", "tools/verl-ci/"),
    ("参与贡献", "contributing/"),
    ("配置 multi_sender", "backends/nccl-hccl/"),
    ("HCCLCheckpointEngine", "backends/nccl-hccl/"),
    ("device: npu", "backends/mooncake-kimi/"),
    ("共卡部署", "backends/choosing/"),
    ("bucket_megabytes", "backends/choosing/"),
    ("HCCL 白名单格式", "ascend/hccl-whitelist/"),
    ("mooncake 源码编译", "install/mooncake-ascend-direct/"),
    ("delta_sharded 约束", "recipes/delta-sync/"),
    ("昇腾 kimi_ckpt_engine", "backends/mooncake-kimi/"),
    # what users of the real reports in issue 11 typed (Ascend pages and recipes)
    ("端口冲突", "ascend/ports/"),
    ("缓冲池", "ascend/ascend-direct-tuning/"),
    ("软件栈", "install/version-matrix/"),
    ("驱动进程", "install/"),
    ("同步是否成功", "backends/verify-sync/"),
    ("async_save 断点续训 从头开始", "recipes/async-resume/"),
    ("Megatron 检查点 合并", "recipes/model-merger/"),
    ("LoRA 适配器", "recipes/model-merger/"),
    ("train_batch_size parameter_sync_step ppo_mini_batch_size", "recipes/delta-sync/"),
    ("检查点回调 异步保存 上传", "recipes/checkpoint-callback/"),
    ("术语表", "glossary/"),
    ("receive weights done, total_params", "backends/verify-sync/"),
    (
        "Rank 3 receive weights done, total_params: 1543503872, time cost: 2.87s, bandwidth: 4.3 GB/s",
        "backends/verify-sync/",
    ),
    # users30 R5: verl #6185
    ("昇腾 镜像 verl docker", "install/"),
    ("容器镜像", "install/"),
    # users31 R3: verl #4990
    ("ShardedTensor.flattened_range is not supported", "recipes/troubleshooting/"),
    ("Megatron 保存检查点 flattened_range", "recipes/troubleshooting/"),
    # users31 R5: vllm-ascend #5635
    ("Failed to connect to target status: 103900", "recipes/troubleshooting/"),
    ("mooncake 传输失败 ascend_direct", "recipes/troubleshooting/"),
    # users31 R6: vllm-ascend #7401
    ("Connect timeout to ASCEND_CONNECT_TIMEOUT", "recipes/troubleshooting/"),
    ("Transfer slice failed with status: 103902", "recipes/troubleshooting/"),
    # users31 R8: checkpoint-engine #34
    ("Failed to register memory 0x7fe280000000: Bad address [14]", "recipes/troubleshooting/"),
    ("GPU 注册内存失败 Bad address", "recipes/troubleshooting/"),
    # users31 R9: verl #250
    ("load from hdfs is not implemented yet", "recipes/async-resume/"),
    # users32 R2: verl #7226
    ("模型合并 hf_upload 每个 rank 都上传", "recipes/model-merger/"),
    # users32 R1: verl #5009
    ("RuntimeError: Unable to meet other processes at the rendezvous store", "recipes/troubleshooting/"),
    ("首次同步 rendezvous 报错", "recipes/troubleshooting/"),
    # users32 R5: AReaL #1099
    ("hcclCommInitRootInfoConfig error code is 7 EJ0001", "recipes/troubleshooting/"),
    ("共卡部署 创建通信域失败 EJ0001", "recipes/troubleshooting/"),
    # users33 R1: verl #3457
    ("断点续训 dataloader 顺序", "recipes/async-resume/"),
    ("随机 采样 续训 复现", "recipes/async-resume/"),
    ("断点重训 dataloader 顺序不一致", "recipes/async-resume/"),
    # users33 R2: verl #4896
    ("timing_s/param_sync 耗时很长", "recipes/troubleshooting/"),
    ("fully_async 同步权重 耗时 逐次增长", "recipes/troubleshooting/"),
    # users33 R6: vllm #57853
    ("休眠 权重更新 段错误", "recipes/troubleshooting/"),
    ("Segfault encountered cuMemcpyDtoDAsync_v2", "recipes/troubleshooting/"),
    # users34 R4: vllm #16663
    ("唤醒后 主机内存 未释放", "recipes/troubleshooting/"),
    ("VLLM_SLEEP_MODE_RELEASE_HOST_MEMORY", "recipes/troubleshooting/"),
    # users34 R1: vllm-ascend #13086
    ("Unsupported soc_version", "recipes/troubleshooting/"),
    ("950 vllm-ascend 报错 Unsupported soc_version", "recipes/troubleshooting/"),
    # users34 R5: Megatron-LM #1517
    ("Megatron 续训 更改 TP PP 优化器 加载失败", "recipes/troubleshooting/"),
    # users34 R7: verl #2408
    ("KeyError experts.gate_proj.weight0 合并", "recipes/model-merger/"),
    # users36a R5: vllm-ascend #3023
    ("pyhccl 多进程 同一张 NPU", "ascend/ports/"),
    # users35 R3: NeMo-RL #2631
    ("level 2 休眠 唤醒后 乱码", "recipes/troubleshooting/"),
    # users35 R4: Megatron-LM #4910
    ("Megatron-FSDP 优化器 CPU 卸载 保存检查点 卡住", "recipes/troubleshooting/"),
    # users36b R4: vllm #17272
    ("fp8 量化 权重同步", "recipes/troubleshooting/"),
    # users36b R1: vllm #13941
    ("唤醒 cumem_allocator 内存不足", "recipes/troubleshooting/"),
    # users36b R2: sglang #6367
    ("SGLang resume_memory_occupation 输出随机", "recipes/troubleshooting/"),
    # users36b R6: vllm #42821
    ("MoE 重新加载权重 乱码", "recipes/troubleshooting/"),
    # users36a R2: verl #3199
    ("use_mbridge use_dist_checkpointing", "recipes/model-merger/"),
    # users37a side finding: Mooncake #1696
    ("Mooncake 昇腾 rdma 协议", "recipes/troubleshooting/"),
    # users37b R2: NeMo-RL #564
    ("NCCL error: unhandled cuda error", "recipes/troubleshooting/"),
    ("NCCL_CUMEM_ENABLE 同步权重 报错", "recipes/troubleshooting/"),
    # users37b R4: vllm #32714
    ("vLLM 0.14 休眠 显存 未释放", "recipes/troubleshooting/"),
    # users37a R5: verl #2086
    ("EP 专家 权重 没有保存", "recipes/model-merger/"),
    # users37b R3: vllm #17915
    ("'Parameter' object has no attribute 'weight_loader'", "recipes/troubleshooting/"),
    # users37b R5: NeMo-RL #2618
    ("shard_dim=0 is not a valid data dimension", "recipes/troubleshooting/"),
    # engA: the vLLM rollout's start-up memory checks, enable_sleep_mode=False
    ("推理端启动 less than desired GPU memory utilization", "recipes/troubleshooting/"),
    ("max_model_len KV Cache 不足 推理端启动失败", "recipes/troubleshooting/"),
    ("enable_sleep_mode=False 休眠 不释放内存", "recipes/troubleshooting/"),
    # users50 (gap50): the held-out reports' own words reach their entries
    # vllm-ascend #4621
    (
        "Failed to build 'file:///vllm-workspace/vllm-ascend' when installing build dependencies",
        "recipes/troubleshooting/",
    ),
    ("fp8量化训练报错 runtimeerror load_quanted_weights", "recipes/troubleshooting/"),  # verl #6112
    ("async_save=True 异步保存ckpt 不会保存", "recipes/troubleshooting/"),  # verl #4237
]

# Questions as readers ask them in issue threads: whole questions with question words (能否, 怎么, 吗), phrases,
# Latin letters inside Chinese without spaces, colloquial verbs (能用, 装), and the pages' own headings.
# (Searched in the 中文 site with CHINESE: QUERY_SETS in test_search.py.)
CHINESE_QUESTIONS: list[tuple[str, str]] = [
    ("能否支持断点续训", "recipes/async-resume/"),
    ("支持断点续训", "recipes/async-resume/"),
    ("怎么断点续训", "recipes/async-resume/"),
    # users28 R4' (verl #579): a reader who says 恢复训练, not 续训
    ("如何从检查点恢复训练", "recipes/async-resume/"),
    ("恢复训练", "recipes/async-resume/"),
    ("从检查点恢复", "recipes/async-resume/"),
    ("怎么设置 HCCL 白名单", "ascend/hccl-whitelist/"),
    ("端口和ip占用冲突", "ascend/ports/"),
    ("昇腾上能用哪些后端", "backends/choosing/"),
    ("backend 写 hccl 报错", "backends/nccl-hccl/"),
    ("为什么 nccl 后端在昇腾上实际是 HCCL", "backends/nccl-hccl/"),
    ("怎么确认权重同步成功了", "backends/verify-sync/"),
    ("日志里看不到 send weights done", "backends/verify-sync/"),
    ("rebuild_group 设为 true 报错", "ascend/known-issues/"),
    ("destroyComm 报 AttributeError", "ascend/known-issues/"),
    ("mooncake 在 npu 上怎么配置", "backends/mooncake-kimi/"),
    ("kimi_ckpt_engine 昇腾上怎么安装", "backends/mooncake-kimi/"),
    ("mooncake-transfer-engine-npu", "backends/mooncake-kimi/"),
    ("multi_sender 报 TypeError", "backends/nccl-hccl/"),
    ("分离部署用哪个后端", "backends/choosing/"),
    ("separate_async 能不能用 naive", "backends/choosing/"),
    ("推理端扩缩容", "backends/choosing/"),
    ("白名单文件格式报错", "ascend/hccl-whitelist/"),
    ("Address already in use", "ascend/ports/"),
    ("Communication_Error_Bind_IP_Port(EI0019)", "ascend/ports/"),
    ("同一台机器跑两个训练任务端口冲突", "ascend/ports/"),
    ("ascend direct 传输超时", "ascend/ascend-direct-tuning/"),
    ("模型合并成 huggingface 格式", "recipes/model-merger/"),
    ("FSDP 检查点转成 HF 模型", "recipes/model-merger/"),
    ("保存检查点后上传到对象存储", "recipes/checkpoint-callback/"),
    ("异步训练恢复后从头开始训练", "recipes/async-resume/"),
    ("增量同步能在昇腾上用吗", "recipes/delta-sync/"),
    ("CANN 版本对应关系", "install/version-matrix/"),
    ("vllm-ascend 版本对应", "install/version-matrix/"),
    ("训练前检查启动脚本", "tools/doctor/"),
    ("在 CI 里检查文档", "tools/verl-ci/"),
    ("通信域 英文", "glossary/"),
    ("mooncake 需要源码编译吗", "install/mooncake-ascend-direct/"),
    ("昇腾 950 白名单怎么配", "ascend/hccl-whitelist/"),
    ("权重传输路径", "backends/choosing/"),
    ("后端名 nccl 在昇腾上的解析", "backends/nccl-hccl/"),
    ("中文排版与术语", "contributing/"),
    ("kimi 数据传输路径", "backends/mooncake-kimi/"),
    # 为 issue 26 新增的常见问题页和实践指南各节，按上游讨论中用户的问法
    ("SFT 断点续训 epoch 结束后 0 步", "recipes/troubleshooting/"),
    ("断点续训 卡数不一样", "recipes/troubleshooting/"),
    ("换了卡数续训找不到 model_world_size", "recipes/troubleshooting/"),
    ("NCCL 第一次同步卡住", "recipes/troubleshooting/"),
    ("MoE weight_loader 同步报错", "recipes/troubleshooting/"),
    ("megatron 保存检查点很慢怎么办", "recipes/troubleshooting/"),
    ("保存检查点 CPU 内存 OOM", "recipes/troubleshooting/"),
    ("MindSpeed 保存检查点失败", "recipes/troubleshooting/"),
    ("huggingface 目录 没有权重", "recipes/troubleshooting/"),
    ("合并 LoRA 后模型和基座模型一样", "recipes/troubleshooting/"),
    ("Weight too large to fit in bucket", "recipes/troubleshooting/"),
    ("升级 verl 后 Megatron 续训失败", "recipes/troubleshooting/"),
    ("migrate_megatron_checkpoint_layout", "recipes/troubleshooting/"),
    ("恢复 KV cache 时 NPU 内存不足", "recipes/troubleshooting/"),
    ("sglang KeyError kv_cache", "recipes/troubleshooting/"),
    ("推理端启动失败 camem", "recipes/troubleshooting/"),
    ("libtbe_adapter.so undefined symbol", "recipes/troubleshooting/"),
    ("Unsupported soc version: Ascend950PR", "recipes/troubleshooting/"),
    ("libatb.so 找不到", "recipes/troubleshooting/"),
    ("FSDP 保存检查点 主机内存不足", "recipes/troubleshooting/"),
    ("Mooncake 昇腾 官方镜像", "recipes/troubleshooting/"),
    ("EI0002 notify 等待超时", "recipes/troubleshooting/"),
    ("合并后生成不停止 generation_config.json", "recipes/troubleshooting/"),
    ("LoRA 分离部署 推理端使用初始模型", "recipes/troubleshooting/"),
    ("更新权重 TimeoutError 等待请求排空", "recipes/troubleshooting/"),
    ("fully_async 不按 save_freq 保存检查点", "recipes/troubleshooting/"),
    ("fsdp_config.json 找不到", "recipes/model-merger/"),
    ("VL 模型合并报 num_hidden_layers", "recipes/model-merger/"),
    ("megatron lora 怎么合并", "recipes/model-merger/"),
    ("save_lora_only 合并报错", "recipes/model-merger/"),
    ("FSDP 检查点没有上传到 default_hdfs_dir", "recipes/checkpoint-callback/"),
    ("max_actor_ckpt_to_keep 删除后还剩 data.pt", "recipes/checkpoint-callback/"),
    ("唤醒后 专家权重 形状不一致", "recipes/troubleshooting/"),  # vllm-ascend #11548
    ("休眠唤醒后 推理端 权重不对", "recipes/troubleshooting/"),  # verl #7904
    # miner15a's entries
    ("保存检查点报错 PytorchStreamWriter file write failed", "recipes/troubleshooting/"),  # verl #3346
    ("保存检查点时 worker 退出 WORKER_DIED", "recipes/troubleshooting/"),  # verl #4332
    ("单卡检查点合并 AssertionError DTensor", "recipes/troubleshooting/"),  # verl #903
    ("SFT 合并后的模型上做 LoRA 合并结果基于哪个模型", "recipes/model-merger/"),  # verl #4948
    ("megatron 合并后输出乱码", "recipes/model-merger/"),  # verl #2612
    # miner15b's entries
    ("ray 资源里没有 NPU Current node has no NPU available", "recipes/troubleshooting/"),  # vllm-ascend #3114
    ("Failed to import Triton kernels 报错", "recipes/troubleshooting/"),  # verl #5468
    ("LoRA 不合并 第二步 illegal memory access", "recipes/troubleshooting/"),  # verl #6454
    ("vllm开启dp和ep在npu上报错", "recipes/troubleshooting/"),  # verl #4413
    ("transformers 5 MoE 同步权重 报错", "recipes/troubleshooting/"),  # verl PR #6896
    ("MoE 推理 HCCL_BUFFSIZE 太小", "recipes/troubleshooting/"),  # vllm-ascend PR #5287
    ("同步权重 view size is not compatible", "recipes/troubleshooting/"),  # verl PR #6919
    # miner16's fixes (users14)
    ("ApplyRotaryEmb", "recipes/troubleshooting/"),  # verl #6224
    ("检查点引擎 报错 has no attribute rank", "recipes/troubleshooting/"),  # verl PR #7870
    ("lm_head.weight.safetensors 文件不存在", "recipes/troubleshooting/"),  # verl #5357
    ("PPO 从 epoch 末尾续训 训练步数为 0", "recipes/troubleshooting/"),  # verl PR #5725
    ("MetadataIncompleteBuffer", "recipes/troubleshooting/"),  # verl #2752
    ("fully_async 第一次 权重同步 卡住", "recipes/troubleshooting/"),  # verl #6967
    # miner17 (users15)
    ("vllm-ascend 0.13 唤醒后 专家权重 转置", "recipes/troubleshooting/"),  # vllm-ascend #5915
    ("verl 0.7.1 调大 nccl_timeout 有没有用", "recipes/troubleshooting/"),  # verl #607
    ("one_step_off 第二步开始 训练变快 回答被截断", "recipes/troubleshooting/"),  # verl PR #5698
    ("稠密模型 megatron 保存 hf 权重 缺少分片", "recipes/troubleshooting/"),  # verl #4338
    ("megatron SFT 异步保存 async_calls 报错", "recipes/troubleshooting/"),  # verl #8000
    ("MTP 推测解码 昇腾 同步权重 报错", "recipes/troubleshooting/"),  # vllm-ascend PR #13337
    ("续训后 wandb 新建了一个 run 曲线断开", "recipes/troubleshooting/"),  # verl #2783
    # miner18 (users16)
    # verl #4921
    ("推理端休眠时 worker 退出 ActorDiedError", "recipes/troubleshooting/"),
    # vllm-ascend #166
    ("vllm serve 报 No module named torch_npu", "recipes/troubleshooting/"),
    # vllm-ascend #9292
    ("驱动和固件要装什么版本 HDK", "install/"),
    # vllm-ascend #1363 (users20)
    ("npu-smi 显示驱动 23.0.3 能装 vllm-ascend 吗", "install/version-matrix/"),
    # vllm-ascend #11542
    ("hcclCommInitRootConfig error code 1", "recipes/troubleshooting/"),
    # review17 F5, F6
    ("推理端开启 MTP 需要 mtp.enable 和 enable_rollout 吗", "recipes/troubleshooting/"),
    ("SFT 输出的 HF 权重缺少分片 use_dist_checkpointing", "recipes/troubleshooting/"),
    # review17 F7, F8
    ("vllm 0.11 constexpr_function 报错 要卸载 triton_kernels 吗", "recipes/troubleshooting/"),
    # miner19 (users17 classes)
    ("NPU 初始化 报错 Invalid device ID 107001", "recipes/troubleshooting/"),  # verl PR #7507
    ("昇腾 vllm 启动报错 Failed to infer device type", "recipes/troubleshooting/"),  # vllm-ascend #540
    ("PYTORCH_NPU_ALLOC_CONF expandable_segments 推理端启动报错", "recipes/troubleshooting/"),  # vllm-ascend PR #9242
    # miner20 (users17): verl #2356
    ("两机训练 合并 FSDP 检查点 缺少 rank 分片 FileNotFoundError", "recipes/troubleshooting/"),
    # miner20 (users17): vllm-ascend #977, #9563
    ("推理端 休眠后 NPU 内存 没有释放 每次 唤醒 增长", "recipes/troubleshooting/"),
    # miner20 (users17): verl #3895
    ("fully_async 启动后 卡住 Parameter version updated from 0 to 0", "recipes/troubleshooting/"),
    # miner20 (users17): verl #4227, #6064
    ("DeepSeek 保存 HF 权重 缺少 最后几个 safetensors MTP", "recipes/troubleshooting/"),
    # miner20 (users17): verl #2860
    ("megatron 保存检查点 慢 async_save 异步保存", "recipes/troubleshooting/"),
    # miner20 (users17): verl #6225
    ("共卡 同步权重 耗时长 update_weights 很慢", "recipes/troubleshooting/"),
    # miner21 (users18): verl #3318
    ("保存的 huggingface 权重 比原模型大一倍 135GB 68GB", "recipes/troubleshooting/"),
    # miner21 (users18): verl #4449
    ("fully_async staleness_threshold 什么时候同步参数", "recipes/troubleshooting/"),
    # miner23: verl #7213
    ("del_local_ckpt_after_load 设置了 续训后 检查点 没有删除", "recipes/troubleshooting/"),
    # miner23: Azure/azureml-assets PR #5288
    ("按报错提示设置 rollout.update_weights_bucket_megabytes 报 Could not override", "recipes/troubleshooting/"),
    # miner23: verl #5684 (0.7.1 message without the failed imports)
    ("0.7.1 报 Checkpoint engine nccl not registered 怎么看缺什么包", "install/"),
    # miner22 (users18): verl #270
    ("续训 报错 RayWorkerGroup 没有 load_checkpoint", "recipes/troubleshooting/"),
    # miner22 (users18): verl #1246
    ("FSDP 合并后的模型 生成不停止", "recipes/troubleshooting/"),
    # miner22 (users18): verl #6414
    ("推理端加载的权重是否正确", "backends/verify-sync/"),
    ("检查权重同步是否正确", "backends/verify-sync/"),  # reader's wording, ranked 4th in session 16
    # miner22 (users18): verl #2995
    ("共卡 大型 MoE 同步权重 内存不足 张量并行跨节点", "recipes/troubleshooting/"),
    # miner22 (users18): verl #831
    ("续训后 下一步就 设备内存不足 OOM", "recipes/troubleshooting/"),
    # miner24 (users19): verl #2306
    ("续训 报错 Error(s) in loading state_dict size mismatch 换了模型", "recipes/troubleshooting/"),
    # miner24 (users19): verl #2971
    ("one-step-off 训练和推理 调度到同一批 GPU NOSET_CUDA_VISIBLE_DEVICES", "recipes/troubleshooting/"),
    # miner24 (users19): verl #3672
    ("验证时 重复 同步权重 update_weights 两次", "recipes/troubleshooting/"),
    # miner24 (users19): vllm-ascend #15463
    ("DeepSeek-V3.2 SFA 同步权重 kv_b_proj", "recipes/troubleshooting/"),
    # miner24 (users19): verl #5827
    ("续训 加载 检查点 卡住 load_state_dict npu", "recipes/troubleshooting/"),
    # miner24 (users19): Ascend/pytorch #105
    ("vllm-ascend 0.15 候选版本 torch_npu 版本", "install/version-matrix/"),
    # vllm-ascend #9672's title, the question #11996 asks
    ("使用main分支最新代码编译的vllm-ascend 适配的vllm版本是哪个", "install/version-matrix/"),
    ("megatron 保存的 dist_ckpt 目录只有 common.pt 没有 distcp", "recipes/troubleshooting/"),  # verl #3292
    ("昇腾 SGLang MoE 模型更新权重报 start out of range", "recipes/troubleshooting/"),  # sglang #26032
    ("SGLang 更新权重后输出乱码 桶很小", "recipes/troubleshooting/"),  # sglang #14178
    # miner25 (users20): verl PR #7366
    ("update_weights 卡住 没有报错", "recipes/troubleshooting/"),
    # miner25 (users20): Mooncake #98
    ("mooncake rdma NPU 内存 注册失败", "recipes/troubleshooting/"),
    # miner25 (users20): verl #1657, verl PR #4799
    ("保存检查点 Parent directory does not exist", "recipes/troubleshooting/"),
    # miner25 (users20): verl PR #7611
    ("partial_rollout 参数同步 Rollouter 崩溃", "recipes/troubleshooting/"),
    # miner26: verl #4541, verl #3919
    ("megatron 保存检查点 distributed_filesystem 找不到 safetensors", "recipes/troubleshooting/"),
    # miner26: verl #967
    ("多机 训练 Gloo connectFullMesh failed 网卡", "recipes/troubleshooting/"),
    # miner27 (users21): verl #5011
    ("total_training_steps 没跑完 训练提前结束", "recipes/troubleshooting/"),
    # miner27 (users21): verl #3354
    ("保存检查点 Failed to acquire lock 只读文件系统", "recipes/troubleshooting/"),
    # miner27 (users21): verl #3517
    ("Megatron 续训 KeyError master_param", "recipes/troubleshooting/"),
    # miner27 (users21): ms-swift #7948, vllm-ascend #3266 (the pip torch conflict, as users word it)
    ("vllm-ascend 版本冲突", "recipes/troubleshooting/"),
    ("pip 安装 torch 冲突", "recipes/troubleshooting/"),
    # miner28 (users22): verl #2658
    ("旧版 FSDP 保存检查点 没有 generation_config.json OSError", "recipes/troubleshooting/"),
    # miner28 (users22): verl PR #4780, verl PR #5235
    ("DeepSeek-V3 MLA 同步权重后 转置 process_weights_after_loading", "recipes/troubleshooting/"),
    # miner28 (users22): verl #6523, verl PR #6522
    ("多模态 同步权重后 编码器缓存 没有重置", "recipes/troubleshooting/"),
    # miner28 (users22): MoonshotAI/checkpoint-engine #3
    ("kimi_ckpt_engine 同步权重 AssertionError batch_transfer_sync_read", "backends/mooncake-kimi/"),
    # miner29 (users23): Agent-R1 #102
    ("checkpoint 保存在哪里", "recipes/troubleshooting/"),
    ("模型保存路径", "recipes/troubleshooting/"),
    # miner29 (users23): verl #3792, verl #4281
    ("只保留验证分数最好的检查点", "recipes/checkpoint-callback/"),
    # miner29 (users23): ray #55477
    ("昇腾 one-step-off NCCL seems unavailable Cupy", "recipes/troubleshooting/"),
    # miner29 (users23): vllm-ascend #1796
    ("pip 安装卡住 软件源无法访问", "recipes/troubleshooting/"),
    # miner30 (users24): vllm-ascend #459
    ("npu PyNcclCommunicator 广播 推理端 权重没有更新", "recipes/troubleshooting/"),
    # miner30 (users24): MoonshotAI/checkpoint-engine #31 (the project's name, not verl's backend name)
    ("Kimi checkpoint-engine", "backends/mooncake-kimi/"),
    # miner30 (users24): verl #767
    ("第 1 步后 验证结果 没有变化 test_freq", "recipes/troubleshooting/"),
    # miner30 (users24): verl #496 (the reporter's words)
    ("参数更新时间超长", "recipes/troubleshooting/"),
    # miner30 (users24): Mooncake #2385
    ("mooncake dependencies.sh 不支持 EulerOS", "recipes/troubleshooting/"),
    # fix28u (users25): Mooncake #2300
    ("Ascend Direct 建链失败 not support connect with self device", "recipes/troubleshooting/"),
    # fix28u (users25): verl #2551
    ("异步推理模式 vLLM 推理服务 没有获得新权重", "recipes/troubleshooting/"),
    # fix28u (users25): verl #692
    ("weights_only torch 2.6 续训 加载检查点 失败", "recipes/troubleshooting/"),
    # fix29u (users26): verl #7990
    ("max_concurrency", "recipes/troubleshooting/"),
    ("colocate_async 同步权重 停止不动 没有调用栈", "recipes/troubleshooting/"),
    # fix29u (users26): verl #3400
    ("lora_adapter_path", "recipes/troubleshooting/"),
    ("LoRA 适配器 继续训练", "recipes/troubleshooting/"),
    # fix29u (users26): verl-tool #106
    ("checkpoint 太大", "recipes/troubleshooting/"),
    ("保存的检查点很大 优化器", "recipes/troubleshooting/"),
    # fix29u (users26): vllm-ascend #154
    ("import torch_npu 段错误", "recipes/troubleshooting/"),
    # fix29u (users26): verl #3057
    ("distcp 转 huggingface", "recipes/model-merger/"),
    # miner32: vllm-ascend #527, #5497
    ("导入 vllm 报错 unknown location", "recipes/troubleshooting/"),
    # miner31: verl PR #4873
    ("max_actor_ckpt_to_keep=1 保存时 两个检查点 磁盘空间不足", "recipes/troubleshooting/"),
    # miner31: verl #7953
    ("Megatron 续训 学习率 重新预热", "recipes/troubleshooting/"),
]
