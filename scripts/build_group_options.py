#!/usr/bin/env python3
"""Derive the config-group options and primary configs that older verl releases had and a covered release lacks.

    python scripts/build_group_options.py [--mirror PATH] [--cache PATH]

Lists the YAML files under ``verl/trainer/config`` (a primary config is a file there, an option of a config group is
a file ``<group>/<option>.yaml`` below it, the way Hydra finds them) at every release tag of a git mirror of verl
(v0.5.0 on) and, for covered releases the mirror has no tag for, in the checker's release cache. For each covered
release (the target), every option and primary config an older release had and the target lacks is recorded with
the last release that had it and the file there; so are those the mirror's newest ``main`` commit has and the target
lacks (a script written for verl's development branch). Written to ``verl_cookbook/data/group_options.json``; the
checker only reads that file (:mod:`verl_cookbook.facts.history`).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verl_cookbook.releases import covered_releases, version_key  # noqa: E402

OUT = REPO / "verl_cookbook" / "data" / "group_options.json"
FOLDER = "verl/trainer/config"
GIT_TIMEOUT = 60  # seconds for one git command on a local mirror


def layout(files: list[str]) -> tuple[dict[str, set[str]], set[str]]:
    """(group -> its options, primary configs) of the YAML files ``files`` (paths relative to the config folder);
    ``_generated_*`` files and folders starting with ``_`` are verl's own bookkeeping, not choices."""
    groups: dict[str, set[str]] = {}
    configs: set[str] = set()
    for rel in files:
        if not rel.endswith(".yaml"):
            continue
        parts = rel[: -len(".yaml")].split("/")
        if any(p.startswith(("_", ".")) for p in parts):
            continue
        if len(parts) == 1:
            configs.add(parts[0])
        else:
            groups.setdefault("/".join(parts[:-1]), set()).add(parts[-1])
    return groups, configs


def _git(mirror: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(mirror), *args], capture_output=True, text=True, timeout=GIT_TIMEOUT)


def read_layouts(mirror: Path, cache: Path) -> dict[str, tuple[dict[str, set[str]], set[str], str]]:
    """release (or ``main``) -> (groups, primary configs, where they were read)."""
    out: dict[str, tuple[dict[str, set[str]], set[str], str]] = {}
    for tag in _git(mirror, "tag").stdout.split():
        if not tag.startswith("v") or not tag[1:2].isdigit() or "rc" in tag or "post" in tag:
            continue
        if version_key(tag[1:]) < version_key("0.5.0"):
            continue
        r = _git(mirror, "ls-tree", "-r", "--name-only", tag, FOLDER + "/")
        if r.returncode == 0 and r.stdout:
            files = [p[len(FOLDER) + 1 :] for p in r.stdout.split()]
            out[tag[1:]] = (*layout(files), f"at tag {tag} (github.com/verl-project/verl)")
    for rel in covered_releases():
        folder = cache / rel / FOLDER
        if rel not in out and folder.is_dir():
            files = [p.relative_to(folder).as_posix() for p in folder.rglob("*.yaml")]
            out[rel] = (*layout(files), f"in the verl {rel} wheel (pypi.org/project/verl/{rel})")
    head = _git(mirror, "rev-parse", "--short=9", "main")
    if head.returncode == 0:
        sha = head.stdout.strip()
        listed = _git(mirror, "ls-tree", "-r", "--name-only", "main", FOLDER + "/").stdout.split()
        files = [p[len(FOLDER) + 1 :] for p in listed]
        out["main"] = (*layout(files), f"on verl's main branch at commit {sha} (github.com/verl-project/verl)")
    return out


def gone_for(target: str, layouts: dict[str, tuple[dict[str, set[str]], set[str], str]]) -> dict[str, dict]:
    """What releases before ``target`` (and ``main``) had and ``target`` lacks: ``{"options": {group: {option:
    entry}}, "configs": {name: entry}}``, each entry naming the last release that had it (``main`` for the
    development branch only) and the file there."""
    groups, configs, _where = layouts[target]
    others = sorted((r for r in layouts if r != "main" and version_key(r) < version_key(target)), key=version_key)
    if "main" in layouts:
        others.append("main")
    options: dict[str, dict[str, dict]] = {}
    gone_configs: dict[str, dict] = {}
    for rel in others:
        r_groups, r_configs, where = layouts[rel]
        for group, opts in r_groups.items():
            for opt in opts - groups.get(group, set()):
                entry = {"last": rel, "source": f"{FOLDER}/{group}/{opt}.yaml {where}"}
                if rel != "main" or opt not in options.get(group, {}):
                    options.setdefault(group, {})[opt] = entry
        for name in r_configs - configs:
            if rel != "main" or name not in gone_configs:
                gone_configs[name] = {"last": rel, "source": f"{FOLDER}/{name}.yaml {where}"}
    return {
        "options": {g: dict(sorted(o.items())) for g, o in sorted(options.items())},
        "configs": dict(sorted(gone_configs.items())),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", default="/work/.mirror/verl-project+verl/repo")
    ap.add_argument("--cache", default=str(Path.home() / ".cache" / "verl-cookbook" / "releases"))
    a = ap.parse_args()
    layouts = read_layouts(Path(a.mirror), Path(a.cache))
    data = {
        "about": "config-group options and primary configs of verl/trainer/config that older verl releases (or verl's "
        "main branch) had and each covered release lacks; written by scripts/build_group_options.py",
        "read": {r: layouts[r][2] for r in layouts},
        "gone": {t: gone_for(t, layouts) for t in covered_releases() if t in layouts},
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    n = sum(len(o) for g in data["gone"].values() for o in g["options"].values())
    print(f"{OUT}: {n} options for {len(data['gone'])} releases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
