"""``verl-cookbook doctor FILE ...``: check a user's launch script or verl config before it burns cluster hours.

A launch script (shell: exports plus ``python3 -m verl.trainer.main_ppo key=value ...``) or a YAML
config (a full or partial verl trainer config; Hydra ``defaults:`` lists are tolerated) goes through the
same config rules as the site's own snippets (unknown keys, types, backend names, ``engine_kwargs``
under the backend in effect, constructor kwargs, ``device: npu``) plus doctor's own rules (HCCL env on
Ascend, ``delta_sharded`` constraints read from verl's ``raise`` statements). Each finding says how to
fix it and links to the page that explains it. The files are only read, never modified.

Exit codes (the contract of every verl-cookbook command, see ``verl-cookbook doctor --help``): 0 no
findings, 1 findings, 2 usage or environment error (an input missing or not a script or config, verl's
source out of reach).

The command is split by concern: :mod:`.inputs` (reading a file, its kind, the units in it), :mod:`.guesses`
(device, CANN, product), :mod:`.judgement` (:func:`diagnose`), :mod:`.command` (:func:`run`, the formats).
"""

from verl_cookbook.doctor.command import run, valid_cann
from verl_cookbook.doctor.inputs import InputError
from verl_cookbook.doctor.judgement import diagnose

__all__ = ["InputError", "diagnose", "run", "valid_cann"]
