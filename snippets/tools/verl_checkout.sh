git clone --depth 1 https://github.com/verl-project/verl.git
cd verl
pip install verl-cookbook
verl-cookbook check --verl-src . --lenient docs/ verl/checkpoint_engine/README.md
