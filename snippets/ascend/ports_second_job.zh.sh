# 第二个训练任务使用的端口范围：在运行 main_ppo 的 shell 中及每个节点启动 Ray 之前导出
# HCCL（基于 root 节点信息创建的通信域）：Host 侧与 NPU 侧
export HCCL_HOST_SOCKET_PORT_RANGE=61000-61099
export HCCL_NPU_SOCKET_PORT_RANGE=61100-61199
# Mooncake 传输引擎的 RPC 监听端口，须在 32768~60999 之外
export MC_MIN_RPC_PORT=17100
export MC_MAX_RPC_PORT=17999
# Ascend Direct 的 ADXL/HIXL 监听端口：每张物理卡从 ASCEND_BASE_PORT + 100 × 物理卡号 起 101 个（相邻两张卡共用边界端口）
export ASCEND_BASE_PORT=22000
