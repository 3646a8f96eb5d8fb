git clone --depth 1 https://github.com/verl-project/verl.git
cd verl
# not on PyPI yet: a release tag from the repository
pip install "verl-cookbook @ git+https://github.com/verl-cookbook/verl-cookbook@v0.1.0"
# record what verl's docs already have, once; commit the file
verl-cookbook check --verl-src . --lenient --write-baseline .verl-cookbook-baseline.json docs/ verl/checkpoint_engine/README.md
# from then on only new findings fail (exit 1)
verl-cookbook check --verl-src . --lenient --baseline .verl-cookbook-baseline.json docs/ verl/checkpoint_engine/README.md
