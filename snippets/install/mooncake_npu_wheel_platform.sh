# Is there a mooncake-transfer-engine-npu wheel for THIS host? pip answers with the host's own
# glibc, Python and architecture (no --platform: forcing one answers for that tag, not this host).
if python3 -m pip install --dry-run --no-deps --only-binary=:all: --quiet \
    mooncake-transfer-engine-npu==0.3.13.post1; then
  echo "available for this host"
else
  echo "no wheel for this host (every 0.3.13.post1 wheel needs glibc >= 2.35): build from source"
fi
