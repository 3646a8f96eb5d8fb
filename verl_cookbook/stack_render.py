"""``verl-cookbook stack``'s output: a :class:`~verl_cookbook.stack_plan.Plan` as text, as a requirements file pip
accepts (pins with their reasons as comments, the steps after it as comments), or as JSON. Pure functions."""

from __future__ import annotations

import json

from verl_cookbook.stack_plan import Pin, Plan, source_build
from verl_cookbook.stack_resolve import release_fact

MAX_WHY = 3  # reasons shown a pin in text (JSON has them all)


def glibc_text(plan: Plan) -> str:
    floor = plan.glibc_floor
    return f"glibc {floor[0]}.{floor[1]}" if floor else "no platform wheel"


def glibc_why(plan: Plan) -> str:
    """The pin that sets the glibc floor and its oldest file for the target ("" when no wheel sets one)."""
    decider = plan.glibc_decider
    if decider is None:
        return ""
    p = decider[1]
    return f"{p.name} {p.version} has no file for an older glibc (oldest: {p.lowest or p.file})"


def cann_lines(plan: Plan) -> list[str]:
    """CANN and the driver (HDK) the guide names, with their sources; the user's CANN against them."""
    out = []
    for key, label in (("cann", "CANN"), ("hdk", "HDK (driver and firmware)")):
        f = plan.facts.get(key)
        if f is None:
            out.append(f"{label}: not stated in verl's guide")
        elif not f.value[:1].isdigit():
            out.append(f"{label}: not stated in verl's guide (it says “{f.value}…”, {f.source})")
        else:
            copy = f"our copy of verl's repository predates {plan.ask.verl}"
            at = "" if f.read_at_tag(plan.ask.verl) else f"; read on main at {f.ref}: {copy}"
            out.append(f"{label} {f.value} ({f.source}{at})")
    asked = plan.ask.cann
    cann = plan.facts.get("cann")
    if asked and cann is not None and cann.value != asked:
        out.append(f"your CANN {asked} is not the {cann.value} verl's guide names for this stack")
    return out


def steps(plan: Plan, requirements: str = "stack.txt") -> list[str]:
    """The install order, as commands."""
    ask = plan.ask
    out = [f"pip install -r {requirements} --index-url {ask.index_url}"]
    for p in plan.extra:
        if p.how == "elsewhere":
            index = next((w.split(" ")[1] for w in p.why if w.startswith("index ")), "")
            out.append(f"pip install --no-deps {p.spec} --extra-index-url {index}")
        elif p.how == "sdist":
            out.append(f"pip install --no-deps --no-binary {p.name} {p.spec}  # only an sdist: needs a compiler")
        elif p.how == "sdist-pure":
            out.append(f"pip install --no-deps {p.spec}  # only an sdist, pure Python: pip builds it, no compiler")
        elif p.how == "build":
            flag = release_fact(ask, "script", "vllm_build") or release_fact(ask, "guide", "vllm_build")
            env = flag.value if flag else "VLLM_TARGET_DEVICE=empty"
            out.append(f"git clone --depth 1 --branch v{p.version} https://github.com/vllm-project/vllm.git")
            out.append(f"{env} pip install --no-deps -v -e vllm")
        elif p.how == "no-deps":
            out.append(f"pip install --no-deps {p.spec}")
        elif p.how == "source":
            out.append(f"git clone --depth 1 --branch v{p.version} https://github.com/vllm-project/vllm-ascend.git")
            built = source_build(ask, p.version)
            soc = (
                f"; without npu-smi: SOC_VERSION={built.soc.value} ({built.soc_product})" if built and built.soc else ""
            )
            # as verl's install script builds it: the submodules (csrc/third_party), the build tools, and no build
            # isolation, since an isolated build would fetch triton-ascend from PyPI, which does not have it
            subs = release_fact(ask, "script", "vllm_ascend_submodules")
            tools = release_fact(ask, "script", "build_tools")
            flag = release_fact(ask, "script", "vllm_ascend_build")
            out.append(f"git -C vllm-ascend {(subs.value if subs else 'git submodule update --init --recursive')[4:]}")
            out.append(f"pip install {tools.value if tools else 'setuptools-scm'}")
            isolation = flag.value if flag else "--no-build-isolation"
            where = f" (as verl's install script does: {flag.source})" if flag else ""
            out.append(f"pip install --no-deps {isolation} -v -e vllm-ascend  # on the {ask.product} node{soc}{where}")
    out.append("pip check")
    if ask.arch == "x86_64":
        idx = release_fact(ask, "guide", "x86_torch_index")
        if idx is not None:
            out.insert(0, f"# x86_64: torch, torchvision, torchaudio from {idx.value} ({idx.source})")
    return out


def _why_text(p: Pin) -> list[str]:
    shown = list(p.why[:MAX_WHY])
    if len(p.why) > MAX_WHY:
        shown.append(f"… and {len(p.why) - MAX_WHY} more")
    return shown or ["(no requirement names it: a dependency pip chose)"]


def header(plan: Plan) -> str:
    ask = plan.ask
    return (
        f"verl {ask.verl} on Ascend {ask.product}, backend {ask.backend}; CPython {ask.python}, {ask.arch}, "
        f"glibc {ask.glibc} (pip's resolver, {plan.target or 'target'})"
    )


def text(plan: Plan) -> str:
    lines = [header(plan)]
    if plan.verdict != "ok":
        what = {"conflict": "cannot install: pip finds no set of versions", "missing": "cannot install: the index "
                "lacks a requirement", "unsupported": "no plan"}[plan.verdict]  # fmt: skip
        return "\n".join([*lines, what, *(f"  {line}" for line in plan.pip_says)])
    lines.append("")
    lines.append("CANN and driver (installed on the host, outside pip):")
    lines += [f"  {c}" for c in cann_lines(plan)]
    why = glibc_why(plan)
    lines.append(f"  the wheels below need {glibc_text(plan)} or newer" + (f": {why}" if why else ""))
    lines.append("")
    lines.append(f"From the index ({len(plan.pins)} pins; pip install -r, see --format requirements):")
    for p in plan.pins:
        lines.append(f"  {p.spec}")
        lines += [f"      {w}" for w in _why_text(p)]
    lines.append("")
    lines.append("Installed after, in this order:")
    for p in plan.extra:
        lines.append(f"  {p.spec}  [{p.how}]")
        lines += [f"      {w}" for w in p.why]
    lines.append("")
    lines.append("Install order:")
    lines += [f"  {i}. {s}" for i, s in enumerate(steps(plan), 1)]
    if plan.notes or plan.pruned:
        lines.append("")
        lines.append("Notes:")
        lines += [f"  - {n}" for n in plan.notes]
        if plan.pruned:
            lines.append(
                f"  - left out {len(plan.pruned)} distributions pip adds only for markers of the machine that "
                f"resolved (pip evaluates platform_machine there): {', '.join(plan.pruned)}"
            )
    return "\n".join(lines)


def requirements(plan: Plan) -> str:
    """A requirements file pip accepts: every pin from the index, each with its reasons as comments; what comes
    after (other index, sdist builds, vLLM, vllm-ascend) as commented steps."""
    lines = [f"# {header(plan)}", "# generated by verl-cookbook stack; install: pip install -r THIS_FILE"]
    lines += [f"# {c}" for c in cann_lines(plan)]
    why = glibc_why(plan)
    lines.append(f"# the wheels need {glibc_text(plan)} or newer" + (f": {why}" if why else ""))
    for p in plan.pins:
        lines.append(p.spec)
        lines += [f"    # {w}" for w in _why_text(p)]
    lines.append("# then, in this order:")
    lines += [f"#   {s}" for s in steps(plan, "THIS_FILE")[1:]]
    return "\n".join(lines)


def as_json(plan: Plan) -> str:
    ask = plan.ask

    def pin(p: Pin) -> dict:
        out = {"name": p.name, "version": p.version, "file": p.file, "how": p.how, "why": list(p.why)}
        return {**out, "oldest_glibc_file": p.lowest} if p.lowest else out

    out = {
        "verl": ask.verl,
        "product": ask.product,
        "backend": ask.backend,
        "python": ask.python,
        "arch": ask.arch,
        "glibc": ask.glibc,
        "verdict": plan.verdict,
        "pip_says": plan.pip_says,
        "cann": cann_lines(plan) if plan.verdict == "ok" else [],
        "glibc_floor": ".".join(map(str, plan.glibc_floor)) if plan.glibc_floor else None,
        "glibc_floor_why": glibc_why(plan) or None,
        "pins": [pin(p) for p in plan.pins],
        "after": [pin(p) for p in plan.extra],
        "steps": steps(plan) if plan.verdict == "ok" else [],
        "notes": plan.notes,
        "left_out": plan.pruned,
        "sources": {k: {"value": f.value, "source": f.source} for k, f in sorted(plan.facts.items())},
    }
    return json.dumps(out, indent=1, ensure_ascii=False)
