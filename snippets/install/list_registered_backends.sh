# Which checkpoint-engine backends register in this Python environment, and why the others did not.
# Run it on the node that hosts the driver process (TaskRunnerV1) and on every worker node.
python3 -c "
from verl.checkpoint_engine import CheckpointEngineRegistry as R
print('registered:', sorted(R._registry))
for module, error in sorted(getattr(R, '_import_errors', {}).items()):  # kept from 0.9.1 on
    print('not imported:', module, '->', error)
"
