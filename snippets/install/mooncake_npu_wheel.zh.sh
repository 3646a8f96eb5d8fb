# 安装 Mooncake 传输引擎的昇腾预编译 wheel（由 Mooncake 的 release-npu 工作流构建）
python3 -m pip index versions mooncake-transfer-engine-npu
python3 -m pip install mooncake-transfer-engine-npu==0.3.13.post1
