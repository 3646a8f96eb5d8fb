# 从与已安装版本相同的 wheel 中取出测试
python3 -m pip download --no-deps -d /tmp/verl-wheel verl==0.9.1
python3 -m zipfile -e /tmp/verl-wheel/verl-0.9.1-py3-none-any.whl /tmp/verl-0.9.1
cd /tmp/verl-0.9.1
# 确认模型已下载到测试读取的目录（~/models/Qwen/Qwen3-8B-Base）
ls ~/models/Qwen/Qwen3-8B-Base
# pytest 不是 verl 的基本依赖（只在部分 extra 中声明），需另行安装
python3 -m pip install pytest
python3 -m pytest -s -q tests/checkpoint_engine/test_correctness_on_npu.py -k test_hccl_checkpoint_engine
