"""HCCL environment that verl's Ascend backends need, checked on a launch script's exports. A YAML config exports
nothing, so on one the rules report what the environment that runs it must export (the user who passes ``--cann``
or ``--product`` for a config expects them to apply).

Sources (see docs/tools/doctor.md for the full discussion):

- verl ``verl/checkpoint_engine/README.md`` (main @ 1dda039), "Important Configuration for Ascend
  Devices", in the ``kimi_ckpt_engine`` section: on Ascend 950 kimi needs ``HCCL_WHITELIST_DISABLE=0``
  and ``HCCL_WHITELIST_FILE`` (PR #7452); with CANN >= 8.5.0 set ``HCCL_INTRA_ROCE_ENABLE=1`` (PR #5546,
  "otherwise H2D transfers default to HCCS, which leads to execution timeouts").
- HCCL ``docs/zh/user_guide/hccl_env/HCCL_INTRA_ROCE_ENABLE.md`` (github.com/hicann/hccl): not supported
  on Ascend 950PR/950DT; on Atlas A3 it only acts on LLM-DataDist traffic.
- Mooncake ``docs/source/design/transfer-engine/ascend_direct_transport.md``: inside an A2 server / A3
  supernode Ascend Direct (ADXL, built on LLM-DataDist) uses HCCS unless ``HCCL_INTRA_ROCE_ENABLE=1``.
- HCCL ``HCCL_WHITELIST_FILE.md``: ``{"host_ip": ["ip1", "ip2"]}``, host NIC IPv4 addresses in dotted
  decimal; ``device_ip`` is reserved and not supported.
- ``rebuild_group`` on the HCCL engine: its ``finalize()`` calls ``self.pyhccl.destroyComm(self.pyhccl.comm)``
  (read from verl's source, so the rule goes quiet once verl changes that line), and ``self.pyhccl`` is
  vllm-ascend's ``PyHcclCommunicator``, whose class defines only ``__init__``, ``all_reduce`` and
  ``broadcast`` in every tag from v0.9.1 to v0.25.1rc1 (``vllm_ascend/distributed/device_communicators/pyhccl.py``).
"""

from __future__ import annotations

import ipaddress
import json
import re
from pathlib import Path
from typing import Any

from verl_cookbook.doctor_rules import DoctorFinding, Target, with_fix
from verl_cookbook.rules.ascend import (
    ASCEND_INTRA_ROCE,
    ASCEND_KIMI_950_UNSUPPORTED,
    ASCEND_REBUILD_GROUP_NPU,
    ASCEND_WHITELIST_FILE,
    ASCEND_WHITELIST_REQUIRED,
)
from verl_cookbook.stack_facts import UNSUPPORTED, StackFact, fact

KIMI = "kimi_ckpt_engine"
ROCE_SINCE = (8, 5, 0)
README = "verl/checkpoint_engine/README.md (verl main, PRs #5546 and #7452)"
HCCL_ROCE_DOC = "hicann/hccl docs/zh/user_guide/hccl_env/HCCL_INTRA_ROCE_ENABLE.md"
HCCL_WL_DOC = "hicann/hccl docs/zh/user_guide/hccl_env/HCCL_WHITELIST_FILE.md"
HCCL_ENGINE = "verl/checkpoint_engine/hccl_checkpoint_engine.py"
PYHCCL = (
    "https://github.com/vllm-project/vllm-ascend/blob/182b75ea84ff13ece27b57391331ef8935410aea/"
    "vllm_ascend/distributed/device_communicators/pyhccl.py#L37-L171"
)


def cann_key(version: str) -> tuple[int, int, int] | None:
    """(major, minor, patch) of a CANN version; an RC of x.y counts as before x.y.0 ("8.3.RC1" -> (8, 3, -1))."""
    m = re.match(r"^(\d+)\.(\d+)(?:\.(\d+|rc\d*))?", version.strip(), re.I)
    if not m:
        return None
    third = m.group(3)
    patch = 0 if third is None else (-1 if third.lower().startswith("rc") else int(third))
    return (int(m.group(1)), int(m.group(2)), patch)


def _env(t: Target, name: str) -> tuple[str | None, int] | None:
    return t.env.get(name)


def _anchor(t: Target) -> tuple[int, int]:
    return t.line_of((*t.ckpt_prefix, "backend")) or (t.anchor_line, 1)


# How verl's README words kimi_ckpt_engine on the 950: the lines the snapshot facts verl.readme.<release>.kimi_950
# were read from (v0.9.0: ruled out; main from PRs #5546 and #7452: the whitelist), matched in a checkout's own README.
_README_PATH = "verl/checkpoint_engine/README.md"
_README_950 = (
    (re.compile(r"kimi-checkpoint-engine hasn't been supported in Ascend 950"), UNSUPPORTED),
    (re.compile(r"In Ascend 950, you need enable whitelist to support kimi-checkpoint-engine"), "enable whitelist"),
)


def _checkout_readme_950(t: Target) -> tuple[bool, StackFact | None]:
    """What a checkout's own README says of kimi on the 950 (review39j-1): (whether the checkout has the README,
    the line that says it, as a fact with its file:line; None when the README says nothing of it)."""
    tree = t.facts.tree
    if not tree.whole or not tree.exists(_README_PATH):
        return False, None
    for n, text in enumerate(tree.read(_README_PATH).splitlines(), 1):
        for pattern, value in _README_950:
            if pattern.search(text):
                return True, StackFact(
                    "verl.checkout.readme.kimi_950", value, text.strip(), f"{tree.root / _README_PATH}:{n}"
                )
    return True, None


def check_whitelist(t: Target) -> list[DoctorFinding]:
    """kimi_ckpt_engine on Ascend 950PR/950DT: HCCL's whitelist must be on, with a valid file. Judged by what the
    README of the release says (review36j-1): a release whose README rules the backend out there gets that finding
    instead, and one whose README says nothing of the 950 is not judged. A checkout is judged by its own README
    (review39j-1); one without that README (a bare package) follows main's."""
    if t.device != "npu" or t.backend != KIMI or t.product != "950":
        return []
    out: list[DoctorFinding] = []
    line, col = _anchor(t)
    release = t.facts.release
    said: StackFact | None = None
    source = README  # where the whitelist finding's fact comes from: main's README unless a checkout says it itself
    if release is not None:
        said = fact(f"verl.readme.{release}.kimi_950")  # what that release's README says of kimi on the 950
        if said is None:
            return []
    else:
        has_readme, said = _checkout_readme_950(t)
        if has_readme and said is None:
            return []
        if said is not None:
            source = said.source
    if said is not None and said.value == UNSUPPORTED:
        finding = ASCEND_KIMI_950_UNSUPPORTED.at(
            t.file,
            line,
            col,
            fact=said.text,
            fact_source=said.source,
            release=release or t.facts.tree.version or t.facts.tree.label,
            backend=KIMI,
        )
        return [with_fix(finding, t)]
    disable = _env(t, "HCCL_WHITELIST_DISABLE")
    wl_file = _env(t, "HCCL_WHITELIST_FILE")
    missing = []
    if disable is None or (disable[0] or "").strip() != "0":
        missing.append("HCCL_WHITELIST_DISABLE=0")
    if wl_file is None or not (wl_file[0] or "").strip():
        missing.append("HCCL_WHITELIST_FILE=/path/to/whitelist.json")
    if missing:
        where = disable[1] if disable and disable[0] != "0" else line
        out.append(
            with_fix(
                ASCEND_WHITELIST_REQUIRED.at(
                    t.file,
                    where,
                    col if where == line else 1,
                    fact="verl's README: on Ascend 950 kimi_ckpt_engine needs HCCL_WHITELIST_DISABLE=0 and "
                    "HCCL_WHITELIST_FILE",
                    fact_source=source,
                    backend=KIMI,
                    missing=missing,
                ),
                t,
            )
        )
    if wl_file and wl_file[0]:
        out.extend(_check_whitelist_file(t, wl_file[0], wl_file[1]))
    return out


def whitelist_file_note(t: Target) -> str | None:
    """The summary's note when ascend/whitelist-file would apply but the file cannot be read here: the path names a
    variable, or no such file exists beside the script (it may live on the cluster); silence would read as checked."""
    if t.device != "npu" or t.backend != KIMI or t.product != "950":
        return None
    wl_file = _env(t, "HCCL_WHITELIST_FILE")
    value = (wl_file[0] or "").strip() if wl_file else ""
    if not value or resolve_beside(t, value) is not None:
        return None
    why = "names a variable" if "$" in value or "`" in value else "is not a file here"
    return f"HCCL_WHITELIST_FILE={value} {why}: its content was not checked (ascend/whitelist-file)"


def resolve_beside(t: Target, value: str) -> Path | None:
    """A path from the script, if it names a file here: absolute, or relative to the script's folder."""
    if "$" in value or "`" in value:
        return None
    p = Path(value).expanduser()
    candidates = [p] if p.is_absolute() else [Path(t.file).resolve().parent / p]
    return next((c for c in candidates if c.is_file()), None)


def whitelist_problems(text: str) -> list[dict[str, Any]]:
    """What is wrong with a whitelist file's content ([] when it is valid), each problem as the data of one part of
    ascend/whitelist-file's message (``{"case": "not-ipv4", "where": …, "value": …}``).

    The shape comes from the catalog's ``hccl_whitelist`` JSON Schema (the one the site's ``check="json"``
    blocks use), when the catalog is installed; a built-in copy of the same rules stands in otherwise.
    On top of the schema: a non-empty ``device_ip`` is reported, since HCCL reserves it and ignores it.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return [{"case": "not-json", "error": e.msg, "line": e.lineno, "column": e.colno}]
    problems = _schema_problems(data)
    if problems is None:
        problems = _builtin_problems(data)
    if isinstance(data, dict) and data.get("device_ip"):
        problems.append({"case": "device-ip"})
    return problems


def _schema_problems(data: object) -> list[dict[str, Any]] | None:
    try:
        import jsonschema

        from verl_cookbook.catalog import schema
    except ImportError:
        return None
    sch = schema("hccl_whitelist")
    if sch is None:
        return None
    validator = jsonschema.Draft202012Validator(sch, format_checker=jsonschema.FormatChecker())
    out = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path)):
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in err.absolute_path).lstrip(".")
        if err.validator == "required":
            out.append({"case": "no-host-ip"})
        elif err.validator == "format":
            out.append({"case": "not-ipv4", "where": where, "value": str(err.instance)})
        elif err.validator == "minItems":
            out.append({"case": "empty-list", "where": where})
        elif err.validator == "additionalProperties":
            out.append({"case": "extra-key", "message": err.message})
        elif err.validator == "type" and not where:
            out.append({"case": "not-object"})
        else:
            out.append({"case": "other", "where": where, "message": err.message})
    return out


def _builtin_problems(data: object) -> list[dict[str, Any]]:
    if not isinstance(data, dict):
        return [{"case": "not-object"}]
    problems: list[dict[str, Any]] = []
    hosts = data.get("host_ip")
    if "host_ip" not in data:
        problems.append({"case": "no-host-ip"})
    elif not isinstance(hosts, list) or not hosts:
        problems.append({"case": "empty-list", "where": "host_ip"})
    else:
        for i, ip in enumerate(hosts):
            try:
                ipaddress.IPv4Address(ip if isinstance(ip, str) else "")
            except ValueError:
                problems.append({"case": "not-ipv4", "where": f"host_ip[{i}]", "value": str(ip)})
    return problems


def _check_whitelist_file(t: Target, value: str, line: int) -> list[DoctorFinding]:
    path = resolve_beside(t, value)
    if path is None:
        return []  # the file lives on the cluster; nothing to read here
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        problems = [{"case": "unreadable", "error": str(e)}]
    else:
        problems = whitelist_problems(text)
    if not problems:
        return []
    return [
        with_fix(
            ASCEND_WHITELIST_FILE.at(
                t.file,
                line,
                1,
                fact='HCCL reads {"host_ip": ["ip1", "ip2"]}: host NIC IPv4 addresses',
                fact_source=HCCL_WL_DOC,
                value=value,
                problems=problems,
            ),
            t,
        )
    ]


def check_intra_roce(t: Target) -> list[DoctorFinding]:
    """kimi_ckpt_engine with CANN >= 8.5.0 needs HCCL_INTRA_ROCE_ENABLE=1 — except on Ascend 950PR/950DT."""
    if t.device != "npu" or t.backend != KIMI or not t.cann:
        return []
    key = cann_key(t.cann)
    if key is None or key < ROCE_SINCE or t.product == "950":
        return []
    given = _env(t, "HCCL_INTRA_ROCE_ENABLE")
    if given is not None and (given[0] or "").strip() == "1":
        return []
    line, col = (given[1], 1) if given else _anchor(t)
    product = t.product if t.product in ("A2", "A3") else None
    return [
        with_fix(
            ASCEND_INTRA_ROCE.at(
                t.file,
                line,
                col,
                backend=KIMI,
                cann=t.cann,
                product=product,
                fact="verl README: 'If you are using CANN version >= 8.5.0 on Ascend devices, you must set "
                "HCCL_INTRA_ROCE_ENABLE=1'; HCCL: not supported on Ascend 950PR/950DT, on A3 it acts on LLM-DataDist, "
                "on A2 it is documented only for the Atlas 200T A2 Box16",
                fact_source=f"{README}; {HCCL_ROCE_DOC}",
            ),
            t,
        )
    ]


def _truthy(value: object) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("true", "1", "yes", "on")
    return bool(value)


def destroy_comm_line(t: Target) -> int | None:
    """Line of the HCCL engine's ``.destroyComm(`` call in the verl release checked, or None."""
    try:
        text = t.facts.tree.read(HCCL_ENGINE)
    except OSError:
        return None
    return next((i for i, line in enumerate(text.splitlines(), 1) if ".destroyComm(" in line), None)


def check_rebuild_group(t: Target) -> list[DoctorFinding]:
    """``engine_kwargs.nccl.rebuild_group=True`` on Ascend: the HCCL engine's finalize() calls a method
    vllm-ascend's communicator does not have, so the first weight sync is expected to fail."""
    if t.device != "npu" or t.backend != "nccl":
        return []
    path = ("engine_kwargs", "nccl", "rebuild_group")
    if not _truthy(t.setting(*path)):
        return []
    verl_line = destroy_comm_line(t)
    if verl_line is None:
        return []
    line, col = t.line_of((*t.ckpt_prefix, *path)) or _anchor(t)
    return [
        with_fix(
            ASCEND_REBUILD_GROUP_NPU.at(
                t.file,
                line,
                col,
                fact="finalize() calls self.pyhccl.destroyComm(self.pyhccl.comm); PyHcclCommunicator defines only "
                f"__init__, all_reduce and broadcast ({PYHCCL})",
                fact_source=f"{HCCL_ENGINE}:{verl_line}",
            ),
            t,
        )
    ]
