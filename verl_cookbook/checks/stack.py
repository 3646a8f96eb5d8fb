"""Claims and commands about the Ascend stack beyond verl, judged against the snapshots of
:mod:`verl_cookbook.stack_facts` (Mooncake, checkpoint-engine, vllm-ascend, HCCL docs, hcomm, the wheels).

Claims (``<!-- check: KIND … -->`` beside the sentence):

- ``fact id= value= [cann=]``: the snapshot entry ``id`` has that value; with ``cann=`` the entry of the newest
  documented CANN release at or before it (``HCCL_IF_BASE_PORT`` took 16 ports in the 8.0 docs, 32 from 8.3.RC1).
- ``wheel dist="name==version"`` with any of ``record=`` (a path the wheel ships), ``absent=`` (one it does
  not), ``requires=`` (a Requires-Dist line), ``tag=`` (a part of its platform tag), ``top_level=``,
  ``needs=`` (a library one of its shared objects loads, readelf NEEDED), ``shares="other==version" count=``
  (paths the two wheels both install), ``min_glibc=`` (the lowest manylinux level the index has it for).
- ``combo pins="a==1; b<2" verdict="ok|conflict|missing"``: pip's own resolver answer for the pins
  (``pip install --dry-run --report``, committed in ``snapshots/resolver.json`` by ``scripts/refresh_resolver.py``):
  a rejected combination is quoted in pip's words ("vllm-ascend 0.23.0 depends on torch-npu==2.10.0.post4").

Commands in shell blocks (the default check, no install run):

- ``pip uninstall X`` after ``pip install Y`` where the wheels of X and Y ship the same paths: uninstalling X
  deletes Y's files while pip still lists Y (``install/uninstall-shared-files``).
- ``git checkout vA.B.C`` of verl in a block on a page about another release (``install/checkout-other-release``).
"""

from __future__ import annotations

import difflib
import re

from packaging.requirements import InvalidRequirement, Requirement

from verl_cookbook import resolver
from verl_cookbook.checks import Context, claim_check, command_check
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, Directive
from verl_cookbook.releases import default_release
from verl_cookbook.shell.evaluate import parse_script
from verl_cookbook.stack_facts import (
    select,
    shared_paths,
    stack_facts,
    wheel,
    wheel_facts,
    wheel_source,
    wheels_installing,
)


def _need(d: Directive, *names: str) -> list[Finding]:
    missing = [n for n in names if not d.attrs.get(n, "").strip()]
    if not missing:
        return []
    return [Finding(d.page, d.line, 1, "claim/missing-attr", f"`check: {d.kind}` needs {', '.join(missing)}=…")]


@claim_check("fact")
def check_fact(d: Directive, ctx: Context) -> list[Finding]:
    if bad := _need(d, "id", "value"):
        return bad
    fid, claimed, cann = d.attrs["id"], d.attrs["value"], d.attrs.get("cann")
    entries = stack_facts().get(fid)
    if not entries:
        close = difflib.get_close_matches(fid, sorted(stack_facts()), n=1)
        hint = f"; did you mean `{close[0]}`?" if close else ""
        return [Finding(d.page, d.line, 1, "fact/unknown", f"no fact `{fid}` in the stack snapshot{hint}")]
    fact = select(entries, cann)
    if fact is None:
        known = ", ".join(sorted(e.cann or "-" for e in entries))
        what = f"for CANN {cann}" if cann else "without cann=…"
        msg = f"fact `{fid}` has no entry {what} (documented for CANN {known})"
        return [Finding(d.page, d.line, 1, "fact/no-entry", msg)]
    if fact.value != claimed:
        version = f" for CANN {cann}" if cann else ""
        return [
            Finding(
                d.page,
                d.line,
                1,
                "fact/mismatch",
                f"the page says `{claimed}`{version}, the source says `{fact.value}` (fact `{fid}`)",
                fact=fact.text,
                fact_source=fact.source,
            )
        ]
    return []


def _wheel_finding(d: Directive, entry: dict, msg: str) -> Finding:
    return Finding(d.page, d.line, 1, "wheel/mismatch", msg, fact=entry["spec"], fact_source=wheel_source(entry))


@claim_check("wheel")
def check_wheel(d: Directive, ctx: Context) -> list[Finding]:
    if bad := _need(d, "dist"):
        return bad
    spec = d.attrs["dist"]
    entry = wheel(spec)
    if entry is None:
        known = ", ".join(sorted(wheel_facts()["wheels"]))
        return [Finding(d.page, d.line, 1, "wheel/unknown", f"no snapshot of `{spec}` (snapshot has {known})")]
    out: list[Finding] = []
    a = d.attrs
    if "record" in a and a["record"] not in entry.get("record", []):
        out.append(_wheel_finding(d, entry, f"{spec} does not ship `{a['record']}` (RECORD)"))
    if "absent" in a and a["absent"] in entry.get("record", []):
        out.append(_wheel_finding(d, entry, f"{spec} does ship `{a['absent']}` (RECORD)"))
    if "requires" in a:
        try:
            want = Requirement(a["requires"])
        except InvalidRequirement as e:
            return [Finding(d.page, d.line, 1, "claim/bad-attr", f"requires=`{a['requires']}`: {e}")]
        have = [r for r in entry.get("requires_dist", []) if Requirement(r).name.lower() == want.name.lower()]
        if not any(Requirement(r).specifier == want.specifier for r in have):
            said = ", ".join(f"`{r}`" for r in have) or "nothing"
            out.append(_wheel_finding(d, entry, f"{spec} requires {said} for {want.name}, not `{want}`"))
    if "tag" in a and not any(a["tag"] in t for t in entry.get("tags", [])):
        out.append(_wheel_finding(d, entry, f"{spec} is tagged {', '.join(entry['tags'])}, not `{a['tag']}`"))
    if "top_level" in a and a["top_level"] not in entry.get("top_level", []):
        listed = entry.get("top_level")
        out.append(_wheel_finding(d, entry, f"{spec}'s top_level.txt lists {listed}, not `{a['top_level']}`"))
    if "needs" in a:
        needs = entry.get("needs", {})
        if not any(a["needs"] in libs for libs in needs.values()):
            out.append(_wheel_finding(d, entry, f"no shared object in {spec} needs `{a['needs']}` (readelf NEEDED)"))
    if "shares" in a:
        other = wheel(a["shares"])
        if other is None:
            out.append(Finding(d.page, d.line, 1, "wheel/unknown", f"no snapshot of `{a['shares']}`"))
        else:
            n = len(shared_paths(entry, other))
            if str(n) != a.get("count", str(n)) or n == 0:
                out.append(_wheel_finding(d, entry, f"{spec} and {a['shares']} share {n} paths, not {a.get('count')}"))
    if "min_glibc" in a:
        levels = wheel_facts()["platforms"].get(entry["spec"], {})
        lowest = sorted({lvl for row in levels.values() for lvl, f in row.items() if f})
        below = sorted({lvl for row in levels.values() for lvl, f in row.items() if not f})
        claimed = f"manylinux_{a['min_glibc'].replace('.', '_')}"
        if not lowest or lowest[0] != claimed or not below:
            out.append(
                _wheel_finding(d, entry, f"{spec}: the index has it from {lowest or ['nothing']}, not from {claimed}")
            )
    return out


def _pins(text: str) -> list[Requirement]:
    return [Requirement(p.strip()) for p in re.split(r"[;\n]", text) if p.strip()]


_VERDICTS = ("ok", "conflict", "missing")
_RULE_FOR_PIP = {"conflict": "combo/conflict", "ok": "combo/no-conflict", "missing": "combo/not-on-index"}


@claim_check("combo")
def check_combo(d: Directive, ctx: Context) -> list[Finding]:
    """pip's own resolver answer (snapshots/resolver.json, scripts/refresh_resolver.py) for the pins, against the
    verdict the page gives: ok, conflict, or missing (a requirement the index does not have)."""
    if bad := _need(d, "pins", "verdict"):
        return bad
    try:
        pins = _pins(d.attrs["pins"])
    except InvalidRequirement as e:
        return [Finding(d.page, d.line, 1, "claim/bad-attr", f"pins=`{d.attrs['pins']}`: {e}")]
    verdict = d.attrs["verdict"]
    if verdict not in _VERDICTS:
        msg = f'verdict="{verdict}": expected one of {", ".join(_VERDICTS)}'
        return [Finding(d.page, d.line, 1, "claim/bad-attr", msg)]
    texts = [str(p) for p in pins]
    pip = resolver.answer(texts)
    if pip is None:
        msg = (
            f"pip's resolver has not answered for `{resolver.key(texts)}`: add it with "
            f"python scripts/refresh_resolver.py"
        )
        return [Finding(d.page, d.line, 1, "combo/unresolved", msg)]
    if pip.verdict == verdict:
        return []
    said = {
        "conflict": "pip cannot install them together",
        "ok": "pip installs them together",
        "missing": "pip cannot finish: the index lacks a requirement",
    }[pip.verdict]
    quoted = " / ".join(pip.lines) if pip.lines else f"{len(pip.installs)} distributions resolved"
    return [
        Finding(
            d.page,
            d.line,
            1,
            _RULE_FOR_PIP[pip.verdict],
            f"the page says {verdict}; {said}: {quoted}",
            fact=quoted,
            fact_source=f"verl_cookbook/snapshots/resolver.json ({resolver.target_label()})",
        )
    ]


# -- commands ------------------------------------------------------------------------------------------------

_SPEC = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*")


def _pip_steps(code: str) -> list[tuple[int, str, list[str]]]:
    """(line, install|uninstall, distribution names) for each pip command of a script."""
    steps = []
    for cmd in parse_script(code).commands:
        if cmd.module != "pip":
            continue
        args = cmd.argv[cmd.args_start :]
        verb = next((a for a in args if not a.startswith("-")), None)
        if verb not in ("install", "uninstall"):
            continue
        names = []
        skip_next = False
        for a in args[args.index(verb) + 1 :]:
            if skip_next:
                skip_next = False
                continue
            if a in ("-r", "-c", "-e", "-t", "--target", "-i", "--index-url", "--extra-index-url", "-f"):
                skip_next = True
                continue
            if a.startswith("-"):
                continue
            if m := _SPEC.match(a):
                names.append(m.group(0).split("[")[0])
        steps.append((cmd.line, verb, names))
    return steps


@command_check("pip")
def check_pip(argv: list[str], block: CodeBlock, line: int, ctx: Context) -> list[Finding]:
    steps = _pip_steps(block.code)
    here = [s for s in steps if s[0] == line and s[1] == "uninstall"]
    if not here:
        return []
    out = []
    installed = [n for ln, verb, names in steps if ln < line and verb == "install" for n in names]
    for removed in here[0][2]:
        for gone in wheels_installing(removed):
            for kept_name in installed:
                for kept in wheels_installing(kept_name):
                    paths = shared_paths(gone, kept)
                    if not paths:
                        continue
                    page, page_line = block.where(line)
                    out.append(
                        Finding(
                            page,
                            page_line,
                            1,
                            "install/uninstall-shared-files",
                            f"`pip uninstall {removed}` after installing {kept_name}: both wheels install the same "
                            f"{len(paths)} paths ({', '.join(paths[:2])} …), so the uninstall deletes "
                            f"{kept_name}'s files while pip still lists it; uninstall first, or reinstall "
                            f"{kept_name} with --force-reinstall afterwards",
                            fact=f"{gone['spec']} and {kept['spec']} RECORD",
                            fact_source=f"{wheel_source(gone)}; {wheel_source(kept)}",
                        )
                    )
                    return out
    return out


_VERL_REPO = re.compile(r"verl-project/verl|volcengine/verl")


@command_check("git")
def check_git(argv: list[str], block: CodeBlock, line: int, ctx: Context) -> list[Finding]:
    args = argv[1:]
    if not args or args[0] not in ("checkout", "switch") or not _VERL_REPO.search(block.code):
        return []
    ref = next((a for a in args[1:] if not a.startswith("-")), "")
    m = re.fullmatch(r"v(\d+\.\d+\.\d+)", ref)
    pinned = default_release()
    if not m or m.group(1) == pinned:
        return []
    page, page_line = block.where(line)
    return [
        Finding(
            page,
            page_line,
            1,
            "install/checkout-other-release",
            f"`git checkout {ref}` on a page checked against verl {pinned}: the code run is {m.group(1)}'s, "
            f"not the release the page describes",
            fact=f"pinned release {pinned}",
            fact_source="verl_cookbook/data/releases.yaml",
        )
    ]
