# verl-cookbook is not on PyPI yet: install it from a clone of the repository
git clone https://github.com/verl-cookbook/verl-cookbook.git && cd verl-cookbook && pip install .
# once the release tag v0.1.0 is published: pip install "verl-cookbook @ git+https://github.com/verl-cookbook/verl-cookbook@v0.1.0"
