"""Claims and commands about the Ascend stack beyond verl, judged against the snapshots of
:mod:`verl_cookbook.stack_facts` (Mooncake, checkpoint-engine, vllm-ascend, HCCL docs, hcomm, the wheels).

Claims (``<!-- check: KIND … -->`` beside the sentence):

- ``fact id= value= [cann=]``: the snapshot entry ``id`` has that value; with ``cann=`` the entry of the newest
  documented CANN release at or before it (``HCCL_IF_BASE_PORT`` took 16 ports in the 8.0 docs, 32 from 8.3.RC1).
- ``wheel dist="name==version"`` with any of ``record=`` (a path the wheel ships), ``absent=`` (one it does
  not; for a wheel whose snapshot keeps only named paths, one of those), ``requires=`` (a Requires-Dist line),
  ``tag=`` (a part of its platform tag), ``top_level=``, ``needs=`` (a library one of its shared objects loads,
  readelf NEEDED), ``shares="other==version" count=`` (paths the two wheels both install), ``min_glibc=`` (the
  lowest manylinux level the index has it for).
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
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from verl_cookbook import resolver
from verl_cookbook.checks import Context, claim_check, command_check
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, Directive
from verl_cookbook.releases import default_release
from verl_cookbook.rules.claims import CLAIM_MISSING_ATTR
from verl_cookbook.rules.stack import (
    CLAIM_BAD_ATTR,
    COMBO_CONFLICT,
    COMBO_NO_CONFLICT,
    COMBO_NOT_ON_INDEX,
    COMBO_UNRESOLVED,
    FACT_MISMATCH,
    FACT_NO_ENTRY,
    FACT_UNKNOWN,
    INSTALL_CHECKOUT_OTHER_RELEASE,
    INSTALL_UNINSTALL_SHARED_FILES,
    WHEEL_MISMATCH,
    WHEEL_UNKNOWN,
)
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
    return [CLAIM_MISSING_ATTR.at(d.page, d.line, 1, kind=d.kind, missing=missing)]


@claim_check("fact")
def check_fact(d: Directive, ctx: Context) -> list[Finding]:
    if bad := _need(d, "id", "value"):
        return bad
    fid, claimed, cann = d.attrs["id"], d.attrs["value"], d.attrs.get("cann")
    entries = stack_facts().get(fid)
    if not entries:
        close = difflib.get_close_matches(fid, sorted(stack_facts()), n=1)
        return [FACT_UNKNOWN.at(d.page, d.line, 1, id=fid, suggestion=close[0] if close else None)]
    fact = select(entries, cann)
    if fact is None:
        known = sorted(e.cann or "-" for e in entries)
        return [FACT_NO_ENTRY.at(d.page, d.line, 1, case="" if cann else "no-cann", id=fid, cann=cann, known=known)]
    if fact.value != claimed:
        return [
            FACT_MISMATCH.at(
                d.page,
                d.line,
                1,
                fact=fact.text,
                fact_source=fact.source,
                claimed=claimed,
                cann=cann,
                value=fact.value,
                id=fid,
            )
        ]
    return []


def _wheel_finding(d: Directive, entry: dict, case: str, **data: Any) -> Finding:
    source = wheel_source(entry)
    return WHEEL_MISMATCH.at(d.page, d.line, 1, fact=entry["spec"], fact_source=source, case=case, **data)


@claim_check("wheel")
def check_wheel(d: Directive, ctx: Context) -> list[Finding]:
    if bad := _need(d, "dist"):
        return bad
    spec = d.attrs["dist"]
    entry = wheel(spec)
    if entry is None:
        return [WHEEL_UNKNOWN.at(d.page, d.line, 1, spec=spec, known=sorted(wheel_facts()["wheels"]))]
    out: list[Finding] = []
    a = d.attrs
    if "record" in a and a["record"] not in entry.get("record", []):
        out.append(_wheel_finding(d, entry, "record", spec=spec, path=a["record"]))
    if "absent" in a:
        if a["absent"] in entry.get("record", []):
            out.append(_wheel_finding(d, entry, "absent", spec=spec, path=a["absent"]))
        elif "record_absent" in entry and a["absent"] not in entry["record_absent"]:
            # a big wheel keeps only the paths the pages name: one it was not read for proves nothing absent
            out.append(_wheel_finding(d, entry, "absent-unread", spec=spec, path=a["absent"]))
    if "requires" in a:
        try:
            want = Requirement(a["requires"])
        except InvalidRequirement as e:
            return [CLAIM_BAD_ATTR.at(d.page, d.line, 1, attr="requires", value=a["requires"], error=str(e))]
        have = [r for r in entry.get("requires_dist", []) if Requirement(r).name.lower() == want.name.lower()]
        if not any(Requirement(r).specifier == want.specifier for r in have):
            case = "requires" if have else "requires-none"
            out.append(_wheel_finding(d, entry, case, spec=spec, have=have, name=want.name, want=str(want)))
    if "tag" in a and not any(a["tag"] in t for t in entry.get("tags", [])):
        out.append(_wheel_finding(d, entry, "tag", spec=spec, tags=entry["tags"], tag=a["tag"]))
    if "top_level" in a and a["top_level"] not in entry.get("top_level", []):
        listed = entry.get("top_level") or []
        out.append(_wheel_finding(d, entry, "top-level", spec=spec, listed=listed, name=a["top_level"]))
    if "needs" in a:
        needs = entry.get("needs", {})
        if not any(a["needs"] in libs for libs in needs.values()):
            out.append(_wheel_finding(d, entry, "needs", spec=spec, lib=a["needs"]))
    if "shares" in a:
        other = wheel(a["shares"])
        if other is None:
            out.append(WHEEL_UNKNOWN.at(d.page, d.line, 1, spec=a["shares"]))
        else:
            n = len(shared_paths(entry, other))
            if str(n) != a.get("count", str(n)) or n == 0:
                claimed = a.get("count")
                out.append(_wheel_finding(d, entry, "shares", spec=spec, other=a["shares"], count=n, claimed=claimed))
    if "min_glibc" in a:
        levels = wheel_facts()["platforms"].get(entry["spec"], {})
        lowest = sorted({lvl for row in levels.values() for lvl, f in row.items() if f})
        below = sorted({lvl for row in levels.values() for lvl, f in row.items() if not f})
        claimed = f"manylinux_{a['min_glibc'].replace('.', '_')}"
        if not lowest or lowest[0] != claimed or not below:
            case = "min-glibc" if lowest else "min-glibc-none"
            out.append(_wheel_finding(d, entry, case, spec=spec, lowest=lowest, claimed=claimed))
    return out


def _pins(text: str) -> list[Requirement]:
    return [Requirement(p.strip()) for p in re.split(r"[;\n]", text) if p.strip()]


_VERDICTS = ("ok", "conflict", "missing")
_RULE_FOR_PIP = {"conflict": COMBO_CONFLICT, "ok": COMBO_NO_CONFLICT, "missing": COMBO_NOT_ON_INDEX}


@claim_check("combo")
def check_combo(d: Directive, ctx: Context) -> list[Finding]:
    """pip's own resolver answer (snapshots/resolver.json, scripts/refresh_resolver.py) for the pins, against the
    verdict the page gives: ok, conflict, or missing (a requirement the index does not have)."""
    if bad := _need(d, "pins", "verdict"):
        return bad
    try:
        pins = _pins(d.attrs["pins"])
    except InvalidRequirement as e:
        return [CLAIM_BAD_ATTR.at(d.page, d.line, 1, attr="pins", value=d.attrs["pins"], error=str(e))]
    verdict = d.attrs["verdict"]
    if verdict not in _VERDICTS:
        expected = list(_VERDICTS)
        return [CLAIM_BAD_ATTR.at(d.page, d.line, 1, case="choice", attr="verdict", value=verdict, expected=expected)]
    texts = [str(p) for p in pins]
    pip = resolver.answer(texts)
    if pip is None:
        return [COMBO_UNRESOLVED.at(d.page, d.line, 1, key=resolver.key(texts))]
    if pip.verdict == verdict:
        return []
    quoted = " / ".join(pip.lines) if pip.lines else f"{len(pip.installs)} distributions resolved"
    return [
        _RULE_FOR_PIP[pip.verdict].at(
            d.page,
            d.line,
            1,
            fact=quoted,
            fact_source=f"verl_cookbook/snapshots/resolver.json ({resolver.target_label()})",
            verdict=verdict,
            pip=" / ".join(pip.lines) or None,
            resolved=None if pip.lines else len(pip.installs),
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
                        INSTALL_UNINSTALL_SHARED_FILES.at(
                            page,
                            page_line,
                            1,
                            fact=f"{gone['spec']} and {kept['spec']} RECORD",
                            fact_source=f"{wheel_source(gone)}; {wheel_source(kept)}",
                            removed=removed,
                            kept=kept_name,
                            count=len(paths),
                            paths=paths[:2],
                        )
                    )
                    return out
    return out


_VERL_REPO = re.compile(r"verl-project/verl|volcengine/verl")


@command_check("git", page_only=True)  # a page about the pinned release checking out another
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
        INSTALL_CHECKOUT_OTHER_RELEASE.at(
            page,
            page_line,
            1,
            fact=f"pinned release {pinned}",
            fact_source="verl_cookbook/data/releases.yaml",
            ref=ref,
            pinned=pinned,
            release=m.group(1),
        )
    ]
