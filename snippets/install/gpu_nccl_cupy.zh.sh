# GPU：NCCL 引擎在模块顶层导入 cupy、ray.util.collective 和 zmq
python3 -c "import cupy, ray.util.collective, zmq; print('cupy', cupy.__version__)"
# 安装与 CUDA 主版本匹配的 cupy：verl 0.9.1 的各后端 extra 固定 torch 2.11.0（CUDA 13 版本），
# verl 自身的 cupy-cu130 extra 固定下面的 cupy 版本（CUDA 12.x 环境改为 cupy-cuda12x）
python3 -m pip install cupy-cuda13x==14.0.1
