"""Run in the environment that has verl (tests/test_unconverted_type.py): what verl 0.9.1 makes of an optimizer's
``betas`` given as the string "[0.9,0.95]" (a quoted list that kept its quotes) and as the list [0.9, 0.95], on the
two paths of ``omega_conf_to_dataclass``. Prints one JSON object."""

import json

import torch
from omegaconf import OmegaConf
from verl.utils.config import omega_conf_to_dataclass
from verl.workers.config.optimizer import FSDPOptimizerConfig, build_optimizer

TARGET = "verl.workers.config.FSDPOptimizerConfig"
out = {}
for name, betas in (("string", "[0.9,0.95]"), ("list", [0.9, 0.95])):
    node = OmegaConf.create({"_target_": TARGET, "lr": 1e-5, "betas": betas})
    config = omega_conf_to_dataclass(node)  # no dataclass_type: hydra.utils.instantiate
    result = {"held": type(config.betas).__name__}
    try:
        result["built"] = type(build_optimizer([torch.nn.Parameter(torch.zeros(2))], config)).__name__
    except Exception as e:  # noqa: BLE001 - what verl's own code raises is the answer
        result["built"] = f"{type(e).__name__}: {e}"
    try:
        typed = omega_conf_to_dataclass(OmegaConf.create({"lr": 1e-5, "betas": betas}), FSDPOptimizerConfig)
        result["typed"] = type(typed.betas).__name__
    except Exception as e:  # noqa: BLE001
        result["typed"] = type(e).__name__
    out[name] = result
print(json.dumps(out))
