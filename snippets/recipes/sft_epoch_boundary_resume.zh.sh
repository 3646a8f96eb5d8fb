# 从 epoch 末尾保存的检查点续训（global_step = k × steps_per_epoch）：
# 将已遍历完的数据加载器状态移出，数据加载器从下一个 epoch 的起点开始
# （将 CKPT 替换为实际检查点路径：trainer.default_local_dir/global_step_N）
# data*.pt 同时匹配 SFT 的 data_{rank}.pt 与 verl 0.7.1 PPO 训练器的 data.pt
CKPT=checkpoints/my_project/my_experiment/global_step_500
mkdir -p "$CKPT/dataloader_state_set_aside"
mv "$CKPT"/data*.pt "$CKPT/dataloader_state_set_aside/"
