# 1. CANN environment: source the set_env.sh of your install, e.g. /usr/local/Ascend/cann/set_env.sh
#    (Mooncake's docs) or /usr/local/Ascend/ascend-toolkit/set_env.sh (verl's Ascend install guide)
source /usr/local/Ascend/cann/set_env.sh
echo "$ASCEND_HOME_PATH"
# 2. CANN runtime and the HIXL library (libllm_datadist.so) the Ascend Direct transport links against
for lib in libascendcl.so libllm_datadist.so; do
  test -e "$ASCEND_HOME_PATH/$(uname -m)-linux/lib64/$lib" && echo "found $lib" || echo "missing $lib"
done
# 3. Sources and common build dependencies
git clone https://github.com/kvcache-ai/Mooncake.git
cd Mooncake
git checkout 3b5a594133958449a1feaf1c9e0fc1b553e34a28  # the commit everything on this page was read at (a newer main may differ)
git submodule update --init --recursive
sudo bash dependencies.sh -y
sudo bash scripts/ascend/dependencies_ascend_installation.sh
