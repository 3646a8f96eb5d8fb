"""The shell reader: a launch script read statically, the way bash would run it, and never run.

Its layers, each importing only the ones listed after it (``tests/test_layers.py`` and the import-linter contract
in ``pyproject.toml`` hold them):

- ``hydra_cli``: the arguments of a verl entry point as Hydra reads its command line: its own flags
  (``--config-name``, ``-m``), config-value overrides (parsed by Hydra, ``hydra_overrides``), group and
  ``hydra.*`` overrides, and what is malformed. Data only: the checks (``checks.command_line``) turn it into
  config assignments and findings.
- ``evaluate``: tree-sitter-bash's syntax tree walked as bash would execute it (assignments, declarations,
  commands, function calls) into a ``model.Script``; ``parse_script``.
- ``control_flow``: ``if``/``case`` on known values, the branch bash would take; ``for`` over known words, with
  ``continue`` and ``break``.
- ``expansion``: one word expanded as bash would (variables, arrays, defaults, ``~``, ``$(( … ))``, ``${x/a/b}``,
  ``${x#a}``, ``${x%a}``).
- ``patterns``: bash's glob patterns (``[[ x == *y* ]]``, ``${x/pat/rep}``) on values that may hold unknown parts.
- ``words``: the source as tree-sitter reads it: positions of nodes, nodes grouped into bash's words, where
  ``~`` expands.
- ``values``: what a word expands to (segments that remember where each character was written), word splitting.
- ``commands``: what a command line runs: the Python module behind ``python -m``, ``torchrun``, ``uv run``,
  ``ray job submit --``, ``env``/``nohup`` and the other wrappers.
- ``model``: the data the reader returns (``Script``, ``Command``, ``Word``, ``Export``), with where each
  character was written.

The reader returns data and never judges: no module here imports ``checks``, ``facts`` or ``findings``.
This ``__init__`` imports nothing, so importing one layer does not load tree-sitter.
"""
