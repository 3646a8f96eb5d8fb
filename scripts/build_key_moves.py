#!/usr/bin/env python3
"""Derive the config keys that moved or went away between verl releases, from the releases' own generated configs.

    python scripts/build_key_moves.py [--mirror PATH] [--cache PATH]

Reads ``verl/trainer/config/_generated_ppo_trainer.yaml`` and ``_generated_ppo_megatron_trainer.yaml`` (verl writes
them from its Hydra configs, one per release) at every release tag of a git mirror of verl that has them (v0.5.0 on),
and, for releases the mirror has no tag for, from the checker's release cache. For each covered release (the target),
every key path an older release had and the target lacks is recorded with the last release that had it and, where
exactly one path of the target ends with the same last components, that path (the key moved there).

A section renamed is found by the dataclass verl builds it into: when a section the target lacks has a ``_target_``
and exactly one section of the target under the same top-level section has the same ``_target_`` and was not in the
last release that had the old one (it appeared as the old one went), every key under the old section moves to the
same key under the new one, where the target has it (``critic.model.fsdp_config.param_offload`` ->
``critic.fsdp.param_offload``: ``FSDPEngineConfig`` at both places); the entry's ``proof`` cites both places
(file:line). Written to
``verl_cookbook/data/key_moves.json``; the checker only reads that file.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from verl_cookbook.releases import covered_releases, version_key  # noqa: E402

OUT = REPO / "verl_cookbook" / "data" / "key_moves.json"
FILES = ("verl/trainer/config/_generated_ppo_trainer.yaml", "verl/trainer/config/_generated_ppo_megatron_trainer.yaml")


def paths(node: object, prefix: tuple[str, ...] = ()) -> set[str]:
    out = set()
    if isinstance(node, dict):
        for k, v in node.items():
            p = (*prefix, str(k))
            out.add(".".join(p))
            out |= paths(v, p)
    return out


Targets = dict[str, tuple[str, str]]  # section path -> (its `_target_`, file:line of the section key (where read))


def targets(text: str, file: str, where: str) -> Targets:
    """Every section of a YAML text that has a ``_target_``, with where the section's key is written."""
    out: Targets = {}

    def walk(node: yaml.Node, prefix: tuple[str, ...]) -> None:
        if not isinstance(node, yaml.MappingNode):
            return
        for k, v in node.value:
            p = (*prefix, str(k.value))
            if isinstance(v, yaml.MappingNode):
                target = next((str(vv.value) for kk, vv in v.value if kk.value == "_target_"), None)
                if target:
                    out[".".join(p)] = (target, f"{file}:{k.start_mark.line + 1} ({where})")
                walk(v, p)

    root = yaml.compose(text)
    if root is not None:
        walk(root, ())
    return out


TARGETS: dict[str, Targets] = {}  # release -> its sections' targets (filled by release_keys)
# release -> config name (`ppo_trainer`, `ppo_megatron_trainer`) -> key path -> "file:line (where read)"
LINES: dict[str, dict[str, dict[str, str]]] = {}


def key_lines(text: str) -> dict[str, int]:
    """The line each key path of a YAML text is written on."""
    out: dict[str, int] = {}

    def walk(node: yaml.Node, prefix: tuple[str, ...]) -> None:
        if not isinstance(node, yaml.MappingNode):
            return
        for k, v in node.value:
            p = (*prefix, str(k.value))
            out[".".join(p)] = k.start_mark.line + 1
            walk(v, p)

    root = yaml.compose(text)
    if root is not None:
        walk(root, ())
    return out


def _config_name(file: str) -> str:
    return file.rsplit("/", 1)[-1].removeprefix("_generated_").removesuffix(".yaml")


def _record_lines(release: str, file: str, text: str, where: str) -> None:
    LINES.setdefault(release, {})[_config_name(file)] = {k: f"{file}:{n} {where}" for k, n in key_lines(text).items()}


def release_keys(mirror: Path, cache: Path) -> dict[str, tuple[set[str], str]]:
    """release -> (key paths of its generated trainer configs, where they were read); each release's sections'
    ``_target_`` go to ``TARGETS``."""
    git = ["git", "-C", str(mirror)]
    tags = subprocess.run([*git, "tag"], capture_output=True, text=True, check=True, timeout=120).stdout.split()
    out: dict[str, tuple[set[str], str]] = {}
    for tag in tags:
        if not tag.startswith("v") or not tag[1:2].isdigit() or "rc" in tag or "post" in tag:
            continue
        keys: set[str] = set()
        for f in FILES:
            r = subprocess.run([*git, "show", f"{tag}:{f}"], capture_output=True, text=True, timeout=120)
            if r.returncode == 0:
                keys |= paths(yaml.safe_load(r.stdout))
                _record_lines(tag[1:], f, r.stdout, f"at tag {tag} (github.com/verl-project/verl)")
                TARGETS.setdefault(tag[1:], {}).update(
                    {k: v for k, v in targets(r.stdout, f, f"tag {tag}").items() if k not in TARGETS.get(tag[1:], {})}
                )
        if keys:
            out[tag[1:]] = (keys, f"{FILES[0]} at tag {tag} (github.com/verl-project/verl)")
    for rel in covered_releases():
        if rel in out:
            continue
        keys = set()
        for f in FILES:
            p = cache / rel / f
            if p.is_file():
                keys |= paths(yaml.safe_load(p.read_text()))
                _record_lines(rel, f, p.read_text(), f"in the verl {rel} wheel (pypi.org/project/verl/{rel})")
                found = targets(p.read_text(), f, f"verl {rel} wheel")
                TARGETS.setdefault(rel, {}).update({k: v for k, v in found.items() if k not in TARGETS[rel]})
        if keys:
            out[rel] = (keys, f"{FILES[0]} in the verl {rel} wheel (pypi.org/project/verl/{rel})")
    return out


# Renames the generated configs cannot show (the key changed its name, or moved into another top-level section), from
# verl's git history: old key -> (new key, the change, with the first release tag that contains it). Followed as a
# chain to a key the target has (`skip_rollout` -> `actor_rollout_ref.rollout.skip.enable` -> `skip.rollout.enable`).
HISTORY_MOVES: dict[str, tuple[str, str]] = {
    "actor_rollout_ref.rollout.skip_rollout": (
        "actor_rollout_ref.rollout.skip.enable",
        "commit 01a2bd385 (verl PR #5556, first in v0.8.0) replaces `skip_rollout` with the `skip` section",
    ),
    "actor_rollout_ref.rollout.skip_dump_dir": (
        "actor_rollout_ref.rollout.skip.dump_dir",
        "commit 01a2bd385 (verl PR #5556, first in v0.8.0) replaces `skip_dump_dir` with `skip.dump_dir`",
    ),
    **{
        f"actor_rollout_ref.rollout.skip.{name}": (
            f"skip.rollout.{name}",
            "commit 266fdceda (verl PR #6097, first in v0.9.0) moves rollout skipping to the top-level `skip` "
            "section (`SkipManagerConfig`)",
        )
        for name in ("enable", "dump_dir", "action")
    },
}


def add_history_moves(moves: dict[str, dict], have: set[str]) -> None:
    """Give each entry of ``moves`` (one target's) that found no new place the one ``HISTORY_MOVES`` leads to, when the
    target has it; the entry's ``proof`` names every change on the way."""
    for key, entry in moves.items():
        if entry.get("new") or key not in HISTORY_MOVES:
            continue
        new, proofs = key, []
        while new in HISTORY_MOVES and new not in have:
            new, why = HISTORY_MOVES[new]
            proofs.append(why)
        if new in have:
            entry["new"], entry["proof"] = new, "; then ".join(proofs)


def moves_for(target: str, keys: dict[str, tuple[set[str], str]]) -> dict[str, dict]:
    have = keys[target][0]
    older = sorted((r for r in keys if version_key(r) < version_key(target)), key=version_key)
    out: dict[str, dict] = {}
    for rel in older:
        for k in keys[rel][0] - have:
            parent = k.rsplit(".", 1)[0] if "." in k else None
            if parent is not None and parent not in have and parent in keys[rel][0]:
                pass  # recorded for the section too; the key keeps its own entry for a precise message
            out[k] = {"last": rel, "source": keys[rel][1], **_sources(rel, k)}
    by_suffix: dict[str, list[str]] = {}
    for k in have:
        parts = k.split(".")
        for n in range(1, len(parts)):
            by_suffix.setdefault(".".join(parts[n:]), []).append(k)
    for k, entry in out.items():
        parts = k.split(".")
        for n in range(0, len(parts)):
            suffix = ".".join(parts[n:])
            cands = [c for c in by_suffix.get(suffix, []) if c != k]
            if n and suffix.count(".") == 0 and len(parts) > 1:
                # a lone last component is a weak match for a nested key: only within the same top-level section
                cands = [c for c in cands if c.split(".")[0] == parts[0]]
            if len(cands) == 1:
                entry["new"] = cands[0]
                break
            if len(cands) > 1:
                break
        renamed = _renamed_section(k, entry["last"], target, keys)
        if renamed is not None:
            entry["new"], entry["proof"] = renamed
        first_without = next(r for r in sorted(keys, key=version_key) if version_key(r) > version_key(entry["last"]))
        entry["since"] = first_without
    add_history_moves(out, have)
    return dict(sorted(out.items()))


def _sources(release: str, key: str) -> dict:
    """``sources``: config name (`ppo_trainer`, `ppo_megatron_trainer`) -> the file and line of ``release`` that has
    ``key`` in that generated config. ``source`` names the release read, this says where: the checker cites the config
    the command composes (a megatron key lives only in `_generated_ppo_megatron_trainer.yaml`)."""
    found = {c: lines[key] for c, lines in LINES.get(release, {}).items() if key in lines}
    return {"sources": found} if found else {}


def _renamed_section(key: str, last: str, target: str, keys: dict) -> tuple[str, str] | None:
    """(new key, both facts) when ``key`` lies in a section that ``last`` builds into a dataclass and the target
    builds, under a new name in the same top-level section, into the same dataclass (see the module's docstring)."""
    have = keys[target][0]
    old_t, new_t = TARGETS.get(last, {}), TARGETS.get(target, {})
    parts = key.split(".")
    for n in range(len(parts), 1, -1):
        section = ".".join(parts[:n])
        if section in have or section not in old_t:
            continue
        cls, old_at = old_t[section]
        cands = [
            s for s, (c, _at) in new_t.items()
            if c == cls and s.split(".")[0] == parts[0] and s not in keys[last][0]
        ]  # fmt: skip
        if len(cands) != 1:
            return None
        new = ".".join((cands[0], *parts[n:]))
        if new not in have:
            return None
        return new, (f"`{section}` at {old_at} and `{cands[0]}` at {new_t[cands[0]][1]} are both built into `{cls}`")
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", default="/work/.mirror/verl-project+verl/repo")
    ap.add_argument("--cache", default=str(Path.home() / ".cache" / "verl-cookbook" / "releases"))
    ap.add_argument(
        "--history-only",
        action="store_true",
        help="only add HISTORY_MOVES to the existing file (reads the covered releases' generated configs from --cache)",
    )
    a = ap.parse_args()
    if a.history_only:
        data = json.loads(OUT.read_text())
        for target, moves in data["moves"].items():
            have: set[str] = set()
            for f in FILES:
                have |= paths(yaml.safe_load((Path(a.cache) / target / f).read_text()))
            add_history_moves(moves, have)
        OUT.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
        return 0
    keys = release_keys(Path(a.mirror), Path(a.cache))
    data = {
        "about": "config keys older verl releases had and each covered release lacks, with where they moved; "
        "written by scripts/build_key_moves.py from the releases' generated trainer configs",
        "releases_read": {r: keys[r][1] for r in sorted(keys, key=version_key)},
        "moves": {t: moves_for(t, keys) for t in covered_releases() if t in keys},
    }
    OUT.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n")
    print(f"{OUT}: {sum(len(v) for v in data['moves'].values())} entries for {len(data['moves'])} releases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
