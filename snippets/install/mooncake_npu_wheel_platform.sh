# pip answers for this host's glibc, Python and architecture, and prints its reason above when it finds none
if python3 -m pip install --dry-run --no-deps --only-binary=:all: \
    mooncake-transfer-engine-npu==0.3.13.post1 >&2; then
  echo "available for this host"
else
  echo "no wheel for this host (pip's reason is above): build from source"
fi
