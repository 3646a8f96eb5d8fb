"""``verl-cookbook facts`` as text: one line per fact, with its source."""

from __future__ import annotations

from verl_cookbook.facts import Facts


def render(facts: Facts) -> str:
    lines = [f"verl {facts.tree.label} ({facts.tree.root})", "", "checkpoint-engine backends:"]
    for backend, by_dev in sorted(facts.data["engines"]["resolution"].items()):
        for dev, cls in sorted(by_dev.items()):
            reg = next(r for r in facts.registrations if r["backend"] == backend and r["class"] == cls)
            params = ", ".join(
                p["name"] + ("" if p["required"] else f"={p['default']!r}") for p in reg["constructor"]["params"]
            )
            lines.append(f"  {backend:<17} on {dev:<4} -> {cls}({params})  [{reg['source']}]")
    injected = facts.data["engines"].get("injected_kwargs", [])
    for i in injected:
        lines.append(f"  verl passes {', '.join(i['kwargs'])} itself  [{i['source']}]")
    dc = facts.data["config"].get("checkpoint_engine_config")
    if dc:
        lines += ["", f"CheckpointEngineConfig  [{dc['source']}]:"]
        for name, f in dc["fields"].items():
            lines.append(f"  {name}: {f['annotation']} = {f['default']!r}  [{f['source']}]")
    env = (facts.family("env") or {}).get("vars", {})
    others = [name for name in ("trainer", "merger") if facts.family(name)]
    lines += [
        "",
        f"{len(env)} environment variables verl reads; {', '.join(others) or 'no other'} facts; "
        "the curated catalog (HCCL/Ascend env, Mooncake CMake options, schemas): see --format json",
    ]
    return "\n".join(lines)
