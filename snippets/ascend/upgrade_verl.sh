# 0.9.1 runs the HCCL broadcast synchronously again (#7487/#7488).
python3 -m pip install --upgrade 'verl==0.9.1'
