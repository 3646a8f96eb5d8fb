# Prebuilt Mooncake Transfer Engine for Ascend (built by Mooncake's release-npu workflow).
python3 -m pip index versions mooncake-transfer-engine-npu
python3 -m pip install mooncake-transfer-engine-npu==0.3.13.post1
