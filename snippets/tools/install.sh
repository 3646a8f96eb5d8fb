# verl-cookbook is not on PyPI yet: install a release tag straight from the repository
pip install "verl-cookbook @ git+https://github.com/verl-cookbook/verl-cookbook@v0.1.0"
# or, in a clone of the repository (what the tests install: a wheel built from the same files)
pip install .
