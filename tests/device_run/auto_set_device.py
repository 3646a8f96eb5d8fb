"""Run verl's ``auto_set_device`` (what ``verl.trainer.main_ppo.main`` calls first) on ``trainer.device=ARGV[1]``
and print what it leaves, or what it raised, as JSON. The startup environment runs it for
tests/test_auto_set_device_run.py."""

import json
import sys

from omegaconf import OmegaConf
from verl.utils.device import auto_set_device

config = OmegaConf.create({"trainer": {"device": sys.argv[1]}})
try:
    auto_set_device(config)
    print(json.dumps({"device": config.trainer.device}))
except Exception as exc:  # reported for the test to judge
    print(json.dumps({"error": type(exc).__name__, "message": str(exc)}))
