# verl-cookbook is not on PyPI yet: install it from a clone of its repository
git clone https://github.com/verl-cookbook/verl-cookbook.git && (cd verl-cookbook && python3 -m pip install .)
