# 当前 Python 环境中注册了哪些检查点引擎后端，以及其余后端未注册的原因。
# 在驱动进程（TaskRunnerV1）所在节点和每个 worker 节点上分别执行。
python3 -c "
from verl.checkpoint_engine import CheckpointEngineRegistry as R
print('registered:', sorted(R._registry))
for module, error in sorted(getattr(R, '_import_errors', {}).items()):  # 0.9.1 起才记录
    print('not imported:', module, '->', error)
"
