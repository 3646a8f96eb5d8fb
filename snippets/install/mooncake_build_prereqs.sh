# 1. CANN environment: use the set_env.sh of your install
#    (CANN 9.x: /usr/local/Ascend/cann/set_env.sh; CANN 8.x: /usr/local/Ascend/ascend-toolkit/set_env.sh)
source /usr/local/Ascend/cann/set_env.sh
echo "$ASCEND_HOME_PATH"
# 2. ADXL/HIXL library that the ascend_direct transport links against
ls "$ASCEND_HOME_PATH/$(uname -m)-linux/lib64/" | grep -E 'libllm_datadist|libascendcl'
# 3. Sources and common build dependencies
git clone https://github.com/kvcache-ai/Mooncake.git
cd Mooncake
git submodule update --init --recursive
sudo bash dependencies.sh -y
sudo bash scripts/ascend/dependencies_ascend_installation.sh
