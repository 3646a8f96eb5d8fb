# Prebuilt Mooncake Transfer Engine for Ascend (built by Mooncake's release-npu workflow).
python3 -m pip index versions mooncake-transfer-engine-npu
# the CUDA and NPU dists install the same mooncake package over each other: remove both, then install the NPU one
python3 -m pip uninstall -y mooncake-transfer-engine mooncake-transfer-engine-npu
python3 -m pip install mooncake-transfer-engine-npu==0.3.13.post1
