# Copy each finished checkpoint to shared storage, register it, and queue an evaluation.
# Enable with: trainer.checkpoint_callback_class=my_project.ckpt_callbacks.UploadRegisterEvaluate
# After the job: python -m my_project.ckpt_callbacks CHECKPOINT_ROOT [--megatron]
# (publishes what the callback could not: uploads that failed in best-effort mode)

import json
import logging
import os
import shutil
import sys
import time

from verl.trainer.ppo.checkpoint_callback import CheckpointCallback

logger = logging.getLogger(__name__)

# Megatron's checkpoint manager writes this file last on a synchronous save; with async_save on,
# verl 0.9.1 never writes it, so such checkpoints never count as complete (see Constraints: async save).
# FSDP, VeOmni, TorchTitan and Automodel never write it: they save synchronously, even with async_save=True.
MEGATRON_MANIFEST = os.path.join("actor", "ckpt_contents.json")


def is_complete(ckpt_dir: str, megatron: bool) -> bool:
    # A global_step_N folder whose files are all written. The driver writes data.pt after every
    # worker save has returned; for Megatron the manifest decides.
    # max_actor_ckpt_to_keep deletes actor/ but leaves data.pt, so the model files must be there too:
    # actor/, or for TorchTitan step-N/, which torchtitan writes only when N is a multiple of 500.
    if megatron:
        return os.path.exists(os.path.join(ckpt_dir, MEGATRON_MANIFEST))
    if not os.path.exists(os.path.join(ckpt_dir, "data.pt")):
        return False
    return any(name == "actor" or name.startswith("step-") for name in os.listdir(ckpt_dir))


class Publisher:
    # Upload, register, evaluate: shared by the callback and the after-the-job command.

    def __init__(self, upload_root: str) -> None:
        self.upload_root = upload_root
        self.registry = os.path.join(upload_root, "registry.jsonl")
        self.eval_queue = os.path.join(upload_root, "eval_queue")

    def published_steps(self) -> set:
        if not os.path.exists(self.registry):
            return set()
        with open(self.registry, encoding="utf-8") as f:
            return {json.loads(line)["global_step"] for line in f if line.strip()}

    def publish(self, step: int, ckpt_dir: str) -> None:
        dest = os.path.join(self.upload_root, os.path.basename(ckpt_dir))
        shutil.copytree(ckpt_dir, dest, dirs_exist_ok=True)  # upload
        record = {"global_step": step, "path": dest, "time": time.time()}
        os.makedirs(self.eval_queue, exist_ok=True)  # evaluate: an eval worker polls this folder
        with open(os.path.join(self.eval_queue, f"step_{step}.json"), "w", encoding="utf-8") as f:
            json.dump(record, f)
        with open(self.registry, "a", encoding="utf-8") as f:  # register last: the step is done
            f.write(json.dumps(record) + "\n")
        logger.info("checkpoint of step %s uploaded to %s and queued for evaluation", step, dest)


class UploadRegisterEvaluate(CheckpointCallback):
    def __init__(self, config=None):
        super().__init__(config=config)  # verl passes the full trainer config as config=
        self.publisher = Publisher(os.environ.get("CKPT_UPLOAD_ROOT", "/mnt/shared/checkpoints"))
        self.best_effort = os.environ.get("CKPT_CALLBACK_BEST_EFFORT", "0") == "1"
        strategy = config.actor_rollout_ref.actor.strategy if config is not None else None
        self.megatron = strategy == "megatron"  # the only engine whose async_save is really async
        self.pending = []  # (step, dir) not published yet: Megatron saves without a manifest, best-effort failures

    def on_save(self, trainer, global_step: int, checkpoint_dir: str, async_save: bool = False, **kwargs) -> None:
        self.pending.append((global_step, checkpoint_dir))
        still_pending = []
        for step, ckpt_dir in self.pending:
            if not is_complete(ckpt_dir, self.megatron):
                if self.megatron:  # no manifest yet: never wait, do not publish
                    still_pending.append((step, ckpt_dir))
                else:  # a synchronous save is over: no model files now means none ever (TorchTitan off its interval)
                    logger.warning("step %s saved no model files in %s; not published", step, ckpt_dir)
                continue
            try:
                self.publisher.publish(step, ckpt_dir)
            except Exception:
                if not self.best_effort:
                    raise  # verl's default: the exception aborts training
                logger.exception("publishing step %s failed; retried at the next save", step)
                still_pending.append((step, ckpt_dir))
        self.pending = still_pending


def publish_remaining(checkpoint_root: str, megatron: bool) -> list:
    # Run after the job (the callback dies with it): publish every complete, unpublished checkpoint.
    publisher = Publisher(os.environ.get("CKPT_UPLOAD_ROOT", "/mnt/shared/checkpoints"))
    done = publisher.published_steps()
    published = []
    for name in sorted(os.listdir(checkpoint_root)):
        ckpt_dir = os.path.join(checkpoint_root, name)
        if not name.startswith("global_step_") or not name[len("global_step_") :].isdigit():
            continue
        step = int(name[len("global_step_") :])
        if step in done:
            continue
        if not is_complete(ckpt_dir, megatron):
            logger.warning("%s is incomplete (an unfinished save); not published", ckpt_dir)
            continue
        publisher.publish(step, ckpt_dir)
        published.append(step)
    return published


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    print(publish_remaining(sys.argv[1], megatron="--megatron" in sys.argv[2:]))
