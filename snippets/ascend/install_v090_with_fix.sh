# Stay on 0.9.0: release/v0.9.0 at this commit is the v0.9.0 tag plus the HCCL broadcast fix, which changes only
# verl/checkpoint_engine/hccl_checkpoint_engine.py, so the installed dependencies stay as they are.
python3 -m pip install --no-deps --force-reinstall \
  'verl @ git+https://github.com/verl-project/verl.git@88512193628b95f24916c0898d51a8a877d09203'
