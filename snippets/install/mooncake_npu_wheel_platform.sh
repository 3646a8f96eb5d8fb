# Is there a mooncake-transfer-engine-npu wheel for this machine? (downloads it without installing;
# set the version, and the Python version and architecture you install for)
python3 -m pip download --no-deps --only-binary=:all: -d /tmp/mooncake-npu-wheel \
  --python-version 3.11 --platform "manylinux_2_35_$(uname -m)" \
  mooncake-transfer-engine-npu==0.3.13.post1
