# 与 python -m verl.model_merger 相同，但合并结果中的张量不与其他张量共享存储。
# 用法：python merge_without_aliasing.py merge --backend fsdp --local_dir ... --target_dir ...

from verl.model_merger.base_model_merger import generate_config_from_args, parse_args
from verl.model_merger.fsdp_model_merger import FSDPModelMerger


class NoAliasFSDPModelMerger(FSDPModelMerger):
    def _load_and_merge_state_dicts(self, world_size, total_shards, mesh_shape, mesh_dim_names):
        state_dict = super()._load_and_merge_state_dicts(world_size, total_shards, mesh_shape, mesh_dim_names)
        for key, tensor in state_dict.items():
            # 张量只是更大存储的一部分视图时（例如直接取自 rank 0 文件的复制型条目），
            # 为其创建副本；新生成的张量不处理
            if tensor.untyped_storage().nbytes() != tensor.numel() * tensor.element_size():
                state_dict[key] = tensor.clone()
        return state_dict


def main() -> None:
    config = generate_config_from_args(parse_args())
    if config.backend != "fsdp":
        raise SystemExit("this script only changes the FSDP merger; use python -m verl.model_merger")
    merger = NoAliasFSDPModelMerger(config)
    merger.merge_and_save()
    merger.cleanup()


if __name__ == "__main__":
    main()
