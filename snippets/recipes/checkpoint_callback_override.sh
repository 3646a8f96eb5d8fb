# Only the overrides of this recipe: add them to your whole training command (data, model, micro-batch sizes, ...).
python3 -m verl.trainer.main_ppo \
    trainer.save_freq=100 \
    trainer.checkpoint_callback_class=my_project.ckpt_callbacks.UploadRegisterEvaluate
