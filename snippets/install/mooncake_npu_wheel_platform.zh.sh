# pip 按本机的 glibc、Python 版本和架构判断是否有可安装的 wheel，没有时在上方打印原因
if python3 -m pip install --dry-run --no-deps --only-binary=:all: \
    mooncake-transfer-engine-npu==0.3.13.post1 >&2; then
  echo "available for this host"
else
  echo "no wheel for this host (pip's reason is above): build from source"
fi
