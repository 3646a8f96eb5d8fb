# take the test from the wheel of the installed release
python3 -m pip download --no-deps -d /tmp/verl-wheel verl==0.9.1
# unpack only its tests: a verl/ folder in the current directory would be imported instead of the installed verl
python3 -c "import zipfile; z = zipfile.ZipFile('/tmp/verl-wheel/verl-0.9.1-py3-none-any.whl'); z.extractall('/tmp/verl-0.9.1', [n for n in z.namelist() if n.startswith('tests/')])"
cd /tmp/verl-0.9.1
# the test loads the model from here
ls ~/models/Qwen/Qwen3-8B-Base
# pytest is not a base requirement of verl (only of some of its extras)
python3 -m pip install pytest
python3 -m pytest -s -q tests/checkpoint_engine/test_correctness_on_npu.py -k test_hccl_checkpoint_engine
