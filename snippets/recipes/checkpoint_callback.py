"""Copy each finished checkpoint to shared storage, register it, and queue an evaluation.

Enable with: trainer.checkpoint_callback_class=my_project.ckpt_callbacks.UploadRegisterEvaluate
"""

import json
import logging
import os
import shutil
import time

from verl.trainer.ppo.checkpoint_callback import CheckpointCallback

logger = logging.getLogger(__name__)

# Megatron's rank 0 writes this file last, once every (async) shard write has finished.
MANIFEST = os.path.join("actor", "ckpt_contents.json")


class UploadRegisterEvaluate(CheckpointCallback):
    def __init__(self, config=None):
        super().__init__(config=config)  # verl passes the full trainer config as config=
        self.upload_root = os.environ.get("CKPT_UPLOAD_ROOT", "/mnt/shared/checkpoints")
        self.registry = os.path.join(self.upload_root, "registry.jsonl")
        self.eval_queue = os.path.join(self.upload_root, "eval_queue")
        self.best_effort = os.environ.get("CKPT_CALLBACK_BEST_EFFORT", "0") == "1"
        self.pending = []  # async saves whose files were still being written

    def on_save(self, trainer, global_step: int, checkpoint_dir: str, async_save: bool = False, **kwargs) -> None:
        self.pending.append((global_step, checkpoint_dir, async_save))
        try:
            self.handle_finished()
        except Exception:
            if not self.best_effort:
                raise  # verl's default: the exception aborts training
            logger.exception("checkpoint callback failed at step %s; training goes on", global_step)

    def handle_finished(self) -> None:
        """Process every saved checkpoint whose files are complete; keep the others for the next call."""
        waiting = []
        try:
            while self.pending:
                step, ckpt_dir, was_async = self.pending.pop(0)
                # never block the trainer on an async save: retry at the next save
                if was_async and not os.path.exists(os.path.join(ckpt_dir, MANIFEST)):
                    waiting.append((step, ckpt_dir, was_async))
                    continue
                self._upload_register_evaluate(step, ckpt_dir)
        finally:
            self.pending = waiting + self.pending

    def _upload_register_evaluate(self, step: int, ckpt_dir: str) -> None:
        dest = os.path.join(self.upload_root, os.path.basename(ckpt_dir))
        shutil.copytree(ckpt_dir, dest, dirs_exist_ok=True)  # upload
        record = {"global_step": step, "path": dest, "time": time.time()}
        with open(self.registry, "a", encoding="utf-8") as f:  # register
            f.write(json.dumps(record) + "\n")
        os.makedirs(self.eval_queue, exist_ok=True)  # evaluate: an eval worker polls this folder
        with open(os.path.join(self.eval_queue, f"step_{step}.json"), "w", encoding="utf-8") as f:
            json.dump(record, f)
        logger.info("checkpoint of step %s uploaded to %s and queued for evaluation", step, dest)
