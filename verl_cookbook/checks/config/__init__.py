"""Rules for config assignments, shared by YAML fragments and Hydra overrides, one concern a module:

- :mod:`.model`: assignments, paths in a config tree, merging a fragment into verl's defaults;
- :mod:`.hydra_apply`: overrides parsed, composed and applied by Hydra itself;
- :mod:`.field_types`: the types of verl's dataclass fields and engine keyword arguments;
- :mod:`.engines`: backend names, ``engine_kwargs``, the engine's device;
- :mod:`.delta`: verl's ``delta_sharded`` run-time guards;
- :mod:`.checker`: :class:`~.checker.ConfigChecker`, which applies them all to one set of assignments.
"""
