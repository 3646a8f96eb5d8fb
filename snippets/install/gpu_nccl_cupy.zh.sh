# GPU：NCCL 引擎在模块顶层导入 cupy、ray.util.collective 和 zmq
python3 -c "import cupy, ray.util.collective, zmq; print('cupy', cupy.__version__)"
# 安装与 CUDA 主版本匹配的 cupy（此处为 CUDA 12.x；CUDA 13.x 使用 cupy-cuda13x）
python3 -m pip install cupy-cuda12x
