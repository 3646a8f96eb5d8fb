# 0.9.1 runs the HCCL broadcast synchronously again (#7488; #7487 is the same revert on release/v0.9.0).
python3 -m pip install --upgrade 'verl==0.9.1'
