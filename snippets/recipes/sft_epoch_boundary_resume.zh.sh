# 从 epoch 末尾保存的 SFT 检查点续训（global_step = k × steps_per_epoch）：
# 将已遍历完的数据加载器状态移出，数据加载器从下一个 epoch 的起点开始
# （将 CKPT 替换为实际检查点路径：trainer.default_local_dir/global_step_N）
CKPT=checkpoints/my_project/my_sft/global_step_500
mkdir -p "$CKPT/dataloader_state_set_aside"
mv "$CKPT"/data_*.pt "$CKPT/dataloader_state_set_aside/"
