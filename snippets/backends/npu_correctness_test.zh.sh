# 从与已安装版本相同的 wheel 中取出测试
python3 -m pip download --no-deps -d /tmp/verl-wheel verl==0.9.1
# 只解压其中的测试：当前目录下若有 verl/ 目录，导入的将是它而不是已安装的 verl
python3 -c "import zipfile; z = zipfile.ZipFile('/tmp/verl-wheel/verl-0.9.1-py3-none-any.whl'); z.extractall('/tmp/verl-0.9.1', [n for n in z.namelist() if n.startswith('tests/')])"
cd /tmp/verl-0.9.1
# 确认模型已下载到测试读取的目录（~/models/Qwen/Qwen3-8B-Base）
ls ~/models/Qwen/Qwen3-8B-Base
# pytest 不是 verl 的基本依赖（只在部分 extra 中声明），需另行安装
python3 -m pip install pytest
python3 -m pytest -s -q tests/checkpoint_engine/test_correctness_on_npu.py -k test_hccl_checkpoint_engine
