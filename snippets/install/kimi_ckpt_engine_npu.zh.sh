# 昇腾上的 kimi_ckpt_engine：安装不带 [p2p] extra 的 checkpoint-engine（>= 0.4.0），
# 该 extra 会安装 CUDA 版 wheel mooncake-transfer-engine；再安装 Mooncake 的 NPU 版 wheel。
# 两种 Mooncake wheel 安装同一组 mooncake/ 文件：先卸载已安装的版本，再重新安装 NPU 版，保证其文件完整
# （未安装的包名，pip 给出警告后跳过）。
python3 -m pip uninstall -y mooncake-transfer-engine mooncake-transfer-engine-npu
python3 -m pip install 'checkpoint-engine>=0.4.0'
python3 -m pip install mooncake-transfer-engine-npu==0.3.13.post1    # 也可源码编译，见 Mooncake 源码编译页面
# 输出 mooncake/engine.so 的路径；模块文件缺失时报错
python3 -c "import importlib.util as u; print(u.find_spec('mooncake.engine').origin)"
python3 -c "import mooncake, checkpoint_engine.distributed, checkpoint_engine.ps"
python3 -c "from mooncake.engine import TransferEngine"    # 需要本机的 CANN 库
python3 -c "from checkpoint_engine.distributed.vllm_hccl import DistributedHccl"    # 需要 vllm 与 vllm_ascend
