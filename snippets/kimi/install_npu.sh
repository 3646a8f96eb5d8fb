#!/usr/bin/env bash
# kimi_ckpt_engine on Ascend: checkpoint-engine without the [p2p] extra (that extra pulls the CUDA wheel),
# then Mooncake's Ascend wheel. Both Mooncake wheels ship the same mooncake/ files: remove whichever is
# installed first, so that the Ascend wheel is installed afresh with all its files.
set -euo pipefail

pip uninstall -y mooncake-transfer-engine mooncake-transfer-engine-npu
pip install 'checkpoint-engine>=0.4.0'
pip install mooncake-transfer-engine-npu==0.3.13.post1
python3 -c "import importlib.util as u; print(u.find_spec('mooncake.engine').origin)"
