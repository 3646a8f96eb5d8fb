# 安装 Mooncake 传输引擎的昇腾预编译 wheel（由 Mooncake 的 release-npu 工作流构建）
python3 -m pip index versions mooncake-transfer-engine-npu
# CUDA 版与 NPU 版安装同一个 mooncake 包、文件互相覆盖：先卸载两者，再安装 NPU 版
python3 -m pip uninstall -y mooncake-transfer-engine mooncake-transfer-engine-npu
python3 -m pip install mooncake-transfer-engine-npu==0.3.13.post1
