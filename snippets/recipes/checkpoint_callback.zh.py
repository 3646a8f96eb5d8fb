# 每保存完一个检查点，将其复制到共享存储、登记，并加入评测队列。
# 启用：trainer.checkpoint_callback_class=my_project.ckpt_callbacks.UploadRegisterEvaluate
# 训练结束后：python -m my_project.ckpt_callbacks CHECKPOINT_ROOT [--megatron]
# （发布回调未能发布的检查点：尽力而为模式下上传失败的检查点）

import json
import logging
import os
import shutil
import sys
import time

from verl.trainer.ppo.checkpoint_callback import CheckpointCallback

logger = logging.getLogger(__name__)

# Megatron 同步保存时，检查点管理器最后写入该文件；verl 0.9.1 中开启 async_save 后不写入，
# 此类检查点始终不视为已写完（见“使用约束：异步保存”）。
# FSDP、VeOmni、TorchTitan、Automodel 从不写入该文件：即使 async_save=True，它们也同步保存。
MEGATRON_MANIFEST = os.path.join("actor", "ckpt_contents.json")


def is_complete(ckpt_dir: str, megatron: bool) -> bool:
    # 判断 global_step_N 目录是否已写完：驱动进程在所有 worker 保存返回后写入 data.pt；
    # Megatron 以清单文件为准。max_actor_ckpt_to_keep 删除 actor/ 但保留 data.pt，
    # 因此还须有模型文件：actor/，或 TorchTitan 的 step-N/（torchtitan 只在 N 为 500 的整数倍时写入）。
    if megatron:
        return os.path.exists(os.path.join(ckpt_dir, MEGATRON_MANIFEST))
    if not os.path.exists(os.path.join(ckpt_dir, "data.pt")):
        return False
    return any(name == "actor" or name.startswith("step-") for name in os.listdir(ckpt_dir))


class Publisher:
    # 上传、登记、加入评测队列：回调与训练结束后的命令共用。

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
        shutil.copytree(ckpt_dir, dest, dirs_exist_ok=True)  # 上传
        record = {"global_step": step, "path": dest, "time": time.time()}
        os.makedirs(self.eval_queue, exist_ok=True)  # 评测：评测进程轮询该目录
        with open(os.path.join(self.eval_queue, f"step_{step}.json"), "w", encoding="utf-8") as f:
            json.dump(record, f)
        with open(self.registry, "a", encoding="utf-8") as f:  # 最后登记：该步处理完毕
            f.write(json.dumps(record) + "\n")
        logger.info("checkpoint of step %s uploaded to %s and queued for evaluation", step, dest)


class UploadRegisterEvaluate(CheckpointCallback):
    def __init__(self, config=None):
        super().__init__(config=config)  # verl 以 config= 传入完整的训练配置
        self.publisher = Publisher(os.environ.get("CKPT_UPLOAD_ROOT", "/mnt/shared/checkpoints"))
        self.best_effort = os.environ.get("CKPT_CALLBACK_BEST_EFFORT", "0") == "1"
        strategy = config.actor_rollout_ref.actor.strategy if config is not None else None
        self.megatron = strategy == "megatron"  # 唯一真正异步保存的后端
        self.pending = []  # 尚未发布的 (step, dir)：尚无清单文件的 Megatron 检查点、尽力而为模式下失败的上传

    def on_save(self, trainer, global_step: int, checkpoint_dir: str, async_save: bool = False, **kwargs) -> None:
        self.pending.append((global_step, checkpoint_dir))
        still_pending = []
        for step, ckpt_dir in self.pending:
            if not is_complete(ckpt_dir, self.megatron):
                if self.megatron:  # 尚无清单文件：不等待，不发布
                    still_pending.append((step, ckpt_dir))
                else:  # 同步保存已结束：此时没有模型文件即不会再有（TorchTitan 非保存间隔的步）
                    logger.warning("step %s saved no model files in %s; not published", step, ckpt_dir)
                continue
            try:
                self.publisher.publish(step, ckpt_dir)
            except Exception:
                if not self.best_effort:
                    raise  # verl 的默认行为：异常中止训练
                logger.exception("publishing step %s failed; retried at the next save", step)
                still_pending.append((step, ckpt_dir))
        self.pending = still_pending


def publish_remaining(checkpoint_root: str, megatron: bool) -> list:
    # 训练结束后运行（回调随训练进程结束）：发布所有已写完、尚未发布的检查点。
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
