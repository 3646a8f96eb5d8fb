# from PyPI
pip install verl-cookbook
# or straight from the repository (any tag or commit)
pip install "verl-cookbook @ git+https://github.com/verl-cookbook/verl-cookbook@main"
