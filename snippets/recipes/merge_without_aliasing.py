# `python -m verl.model_merger`, except that no merged tensor shares storage with another one.
# Usage: python merge_without_aliasing.py merge --backend fsdp --local_dir ... --target_dir ...

from verl.model_merger.base_model_merger import generate_config_from_args, parse_args
from verl.model_merger.fsdp_model_merger import FSDPModelMerger


class NoAliasFSDPModelMerger(FSDPModelMerger):
    def _load_and_merge_state_dicts(self, world_size, total_shards, mesh_shape, mesh_dim_names):
        state_dict = super()._load_and_merge_state_dicts(world_size, total_shards, mesh_shape, mesh_dim_names)
        for key, tensor in state_dict.items():
            # a tensor that is a view into a larger storage (e.g. a replicated entry taken as is
            # from rank 0's file) gets its own copy; fresh tensors are left alone
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
