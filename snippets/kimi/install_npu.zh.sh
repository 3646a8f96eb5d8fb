#!/usr/bin/env bash
# 昇腾上的 kimi_ckpt_engine：先安装不带 [p2p] 的 checkpoint-engine（[p2p] 会引入 CUDA 版 wheel），再安装 Mooncake 的昇腾版 wheel。
# 两个 Mooncake wheel 提供相同的 mooncake/ 文件：先卸载已安装的版本，使昇腾版 wheel 完整地重新安装。
set -euo pipefail

pip uninstall -y mooncake-transfer-engine mooncake-transfer-engine-npu
pip install 'checkpoint-engine>=0.4.0'
pip install mooncake-transfer-engine-npu==0.3.13.post1
# 确认 mooncake 来自昇腾版 wheel 包
python3 -c "import importlib.util as u; print(u.find_spec('mooncake.engine').origin)"
