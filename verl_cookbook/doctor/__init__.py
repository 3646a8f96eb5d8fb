"""``verl-cookbook doctor FILE ...``: check a user's launch script or verl config before it burns cluster hours.

A launch script (shell: exports plus ``python3 -m verl.trainer.main_ppo key=value ...``) or a YAML
config (a full or partial verl trainer config; Hydra ``defaults:`` lists are tolerated) goes through the
same config rules as the site's own snippets (unknown keys, types, backend names, ``engine_kwargs``
under the backend in effect, constructor kwargs, ``device: npu``) plus doctor's own rules (HCCL env on
Ascend, ``delta_sharded`` constraints read from verl's ``raise`` statements). Each finding says how to
fix it and links to the page that explains it. The files are only read, never modified.

Exit codes: the one contract of every verl-cookbook command, stated in :mod:`verl_cookbook.cli` and printed by
``verl-cookbook doctor --help`` (a file that cannot be read as text is a finding on it, exit 1; a file that is
missing or a folder is exit 2).

The command is split by concern: :mod:`.inputs` (reading a file, its kind, the units in it), :mod:`.guesses`
(device, CANN, product), :mod:`.judgement` (:func:`diagnose`), :mod:`.command` (:func:`run`, the formats).
"""

from verl_cookbook.doctor.command import run, valid_cann
from verl_cookbook.doctor.inputs import InputError
from verl_cookbook.doctor.judgement import diagnose

__all__ = ["InputError", "diagnose", "run", "valid_cann"]
