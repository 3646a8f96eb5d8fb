#!/bin/bash
# No hint of the device: a kwarg one of nccl's engines takes (on GPU) is not judged by the other's (NPU).
python3 -m verl.trainer.main_ppo \
    actor_rollout_ref.rollout.checkpoint_engine.backend=nccl \
    +actor_rollout_ref.rollout.checkpoint_engine.engine_kwargs.nccl.multi_sender=True
