from verl_cookbook.cli import run

run()
