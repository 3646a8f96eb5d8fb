# resuming SFT from a checkpoint saved at the end of an epoch (global_step = k x steps_per_epoch):
# set the exhausted dataloader state aside so the loader starts the next epoch afresh
CKPT=checkpoints/my_sft/global_step_500
mkdir -p "$CKPT/dataloader_state_set_aside"
mv "$CKPT"/data_*.pt "$CKPT/dataloader_state_set_aside/"
