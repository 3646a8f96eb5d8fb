# resuming from a checkpoint saved at the end of an epoch (global_step = k x steps_per_epoch):
# set the exhausted dataloader state aside so the loader starts the next epoch afresh
# (replace CKPT with your checkpoint: trainer.default_local_dir/global_step_N)
# data*.pt matches SFT's data_{rank}.pt and the data.pt of verl 0.7.1's PPO trainer
CKPT=checkpoints/my_project/my_experiment/global_step_500
mkdir -p "$CKPT/dataloader_state_set_aside"
mv "$CKPT"/data*.pt "$CKPT/dataloader_state_set_aside/"
