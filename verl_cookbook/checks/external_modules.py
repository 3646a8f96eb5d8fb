"""Config a launch script may get from outside verl: ``VERL_USE_EXTERNAL_MODULES=a,b`` makes verl import those
modules when it is imported (verl/__init__.py:38-41 at v0.9.0, ``import_external_libs``), before Hydra composes the
config, and such a module can register config groups and files of its own (a recipe's ``model_engine=mindspeed``
with its own YAML). What it adds cannot be read without running it, so keys it could supply are not judged."""

from __future__ import annotations

from pathlib import Path


def _module_folder(module: str, script: Path) -> Path | None:
    """The folder of ``module`` when it sits beside the script (in the script's folder or one of its parents)."""
    rel = Path(*module.split("."))
    for base in [script.parent, *script.parent.parents][:4]:
        for cand in (base / rel, base / rel.parent):
            if (cand / "__init__.py").is_file() or (base / rel).with_suffix(".py").is_file():
                return cand if cand.is_dir() else None
    return None


def external_modules_note(env: dict[str, tuple[str | None, int]], script: str) -> str | None:
    """A note for a command run with ``VERL_USE_EXTERNAL_MODULES`` set (``env``: name -> (value, line)), naming the
    modules and any config folder of theirs found beside ``script``; None when it is not set."""
    value, line = env.get("VERL_USE_EXTERNAL_MODULES", (None, 0))
    if "VERL_USE_EXTERNAL_MODULES" not in env:
        return None
    modules = [m.strip() for m in (value or "").split(",") if m.strip()]
    found = []
    for m in modules:
        folder = _module_folder(m, Path(script))
        if folder is not None:
            yamls = sorted(p for p in folder.rglob("*.yaml") if "config" in p.parts)
            if yamls:
                found.append(f"`{m}` keeps {len(yamls)} config file(s) under {folder}")
    named = ", ".join(f"`{m}`" for m in modules) if modules else "a module not known statically"
    return (
        f"line {line}: VERL_USE_EXTERNAL_MODULES makes verl import {named} before Hydra composes the config; "
        "it may add config groups and keys, so unknown keys and groups are not reported"
        + (f" ({'; '.join(found)})" if found else "")
    )
