# Run on every node that hosts a trainer or rollout worker.
test -f /etc/hccn.conf || echo "missing /etc/hccn.conf (mount it into the container)"
python3 -c "from mooncake.engine import TransferEngine; TransferEngine()"
python3 -m pip list 2>/dev/null | grep -i '^mooncake'
