python3 -m pip install "verl[cupy-cu130]==0.9.1" "vllm>=0.29,<0.32"
