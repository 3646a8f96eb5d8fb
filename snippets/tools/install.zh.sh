# verl-cookbook 尚未发布到 PyPI：在仓库的克隆目录中安装
git clone https://github.com/verl-cookbook/verl-cookbook.git && cd verl-cookbook && pip install .
# v0.1.0 标签发布后，也可执行：pip install "verl-cookbook @ git+https://github.com/verl-cookbook/verl-cookbook@v0.1.0"
