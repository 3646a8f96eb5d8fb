#!/usr/bin/env bash
# kimi_ckpt_engine on Ascend: checkpoint-engine without the [p2p] extra
# (that extra pulls the CUDA wheel), plus Mooncake's Ascend wheel.
set -euo pipefail

pip install 'checkpoint-engine>=0.4.0'
pip install mooncake-transfer-engine-npu
