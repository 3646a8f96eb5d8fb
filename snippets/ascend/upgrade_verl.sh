# 0.9.1 runs the HCCL broadcast synchronously again (#7488; #7487 is the same revert on release/v0.9.0).
# --no-deps: 0.9.1 declares the same requirements as 0.9.0, so the packages installed beside verl stay as they are
python3 -m pip install --no-deps --upgrade 'verl==0.9.1'
