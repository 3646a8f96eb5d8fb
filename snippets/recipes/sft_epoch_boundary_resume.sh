# resuming SFT from a checkpoint saved at the end of an epoch (global_step = k x steps_per_epoch):
# set the exhausted dataloader state aside so the loader starts the next epoch afresh
# (replace CKPT with your checkpoint: trainer.default_local_dir/global_step_N)
CKPT=checkpoints/my_project/my_sft/global_step_500
mkdir -p "$CKPT/dataloader_state_set_aside"
mv "$CKPT"/data_*.pt "$CKPT/dataloader_state_set_aside/"
