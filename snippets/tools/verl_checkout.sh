git clone --depth 1 https://github.com/verl-project/verl.git
cd verl
# record what verl's docs already have, once; commit the file
verl-cookbook check --verl-src . --lenient --write-baseline .verl-cookbook-baseline.json docs/ verl/checkpoint_engine/README.md
# from then on only new findings fail (exit 1)
verl-cookbook check --verl-src . --lenient --baseline .verl-cookbook-baseline.json docs/ verl/checkpoint_engine/README.md
