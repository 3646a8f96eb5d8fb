# verl-cookbook 尚未发布到 PyPI：从其仓库的克隆目录安装
git clone https://github.com/verl-cookbook/verl-cookbook.git && (cd verl-cookbook && python3 -m pip install .)
