"""The Ascend pages show things the checker cannot judge by kind: an invalid JSON on purpose, a diff, a table of
affected releases, a shell check users run. Each must stay what the page says it is."""

from __future__ import annotations

import ast
import difflib
import errno
import json
import os
import re
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from verl_cookbook.markdown import CodeBlock, Table, parse_page
from verl_cookbook.releases import covered_releases
from verl_cookbook.verl_source import VerlTree, from_release

REPO = Path(__file__).resolve().parent.parent
WHITELIST_PAGES = [REPO / "docs/ascend/hccl-whitelist.md", REPO / "docs/ascend/hccl-whitelist.en.md"]
KNOWN_ISSUES_PAGES = [REPO / "docs/ascend/known-issues.md", REPO / "docs/ascend/known-issues.en.md"]
HCCL_ENGINE = "verl/checkpoint_engine/hccl_checkpoint_engine.py"
CHECK_SCRIPT = REPO / "snippets/ascend/check_async_broadcast.sh"


@pytest.fixture(scope="module")
def trees() -> dict[str, VerlTree]:
    """Every covered verl release, unpacked from its (cached) wheel; nothing is imported."""
    return {r: from_release(r) for r in covered_releases()}


def _blocks(page: Path, lang: str) -> list[CodeBlock]:
    return [b for b in parse_page(page, REPO).blocks if b.lang == lang]


def _one(items: list, what: str, page: Path):
    assert len(items) == 1, f"{page.relative_to(REPO)}: expected one {what}, found {len(items)}"
    return items[0]


def _broadcast_is_async(tree: VerlTree) -> bool:
    """Whether BroadcastOperation.__init__ hands _run to an executor instead of calling it (read with ast)."""
    module = ast.parse(tree.read(HCCL_ENGINE))
    cls = next(n for n in module.body if isinstance(n, ast.ClassDef) and n.name == "BroadcastOperation")
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    calls = [n for n in ast.walk(init) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)]
    return any(c.func.attr == "run_in_executor" for c in calls)


# -- the HCCL whitelist page ---------------------------------------------------------------------------------


@pytest.mark.parametrize("page", WHITELIST_PAGES, ids=lambda p: p.name)
def test_readme_whitelist_example_is_invalid_json_where_the_page_says(page: Path) -> None:
    shown = _one(
        [b for b in _blocks(page, "json") if b.attrs.get("reason", "").startswith("deliberately invalid")],
        "deliberately invalid JSON block",
        page,
    )
    with pytest.raises(json.JSONDecodeError) as err:
        json.loads(shown.code)
    text = page.read_text(encoding="utf-8")
    sentence = next((s for s in re.split(r"(?<=[。.])\s*", text) if err.value.msg in s), None)
    assert sentence, f"{page.name} does not quote the parser's message {err.value.msg!r}"
    assert re.search(rf"\b{err.value.colno}\b", sentence), (
        f"{page.name} gives the wrong position: Python reports line {err.value.lineno}, column {err.value.colno}"
    )


@pytest.mark.parametrize("page", WHITELIST_PAGES, ids=lambda p: p.name)
def test_whitelist_snippet_holds_every_ip_in_one_host_ip_array(page: Path) -> None:
    block = _one([b for b in _blocks(page, "json") if b.attrs.get("check") == "json"], "checked JSON block", page)
    data = json.loads(block.code)
    assert list(data) == ["host_ip"], "the page recommends host_ip only (device_ip is reserved by HCCL)"
    assert len(data["host_ip"]) >= 2, "the fix shown must list several IPs in the one array"


# -- the known-issues page -----------------------------------------------------------------------------------


def _diff_lines(before: str, after: str) -> tuple[set[str], set[str]]:
    removed, added = set(), set()
    for line in difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0):
        if line.startswith(("---", "+++", "@@")):
            continue
        if line.startswith("-") and line[1:].strip():
            removed.add(line[1:].strip())
        elif line.startswith("+") and line[1:].strip():
            added.add(line[1:].strip())
    return removed, added


@pytest.mark.parametrize("page", KNOWN_ISSUES_PAGES, ids=lambda p: p.name)
def test_shown_diff_is_exactly_the_change_between_090_and_091(page: Path, trees: dict[str, VerlTree]) -> None:
    block = _one(_blocks(page, "diff"), "diff block", page)
    shown_removed, shown_added = set(), set()
    for line in block.code.splitlines():
        if line.startswith(("---", "+++", "@@")):
            continue
        if line.startswith("-"):
            shown_removed.add(line[1:].strip())
        elif line.startswith("+"):
            shown_added.add(line[1:].strip())
    removed, added = _diff_lines(trees["0.9.0"].read(HCCL_ENGINE), trees["0.9.1"].read(HCCL_ENGINE))
    assert (shown_removed, shown_added) == (removed, added), (
        f"{page.name}: the diff shown is not the wheels' diff of {HCCL_ENGINE}:\n"
        f"removed in the wheels: {sorted(removed)}\nadded in the wheels: {sorted(added)}"
    )


def _affected_table(page: Path) -> Table:
    return _one(
        [t for t in parse_page(page, REPO).tables if any("0.9.0" in row[0] for _, row in t.rows)],
        "table of affected releases",
        page,
    )


@pytest.mark.parametrize("page", KNOWN_ISSUES_PAGES, ids=lambda p: p.name)
def test_affected_releases_table_matches_each_wheel(page: Path, trees: dict[str, VerlTree]) -> None:
    table = _affected_table(page)
    stated: dict[str, bool] = {}
    for _, row in table.rows:
        affected = row[-1].strip("* ").lower() in ("是", "yes")
        for version in re.findall(r"\d+\.\d+\.\d+", row[0]):
            stated[version] = affected
    assert set(stated) == set(trees), f"{page.name}: the table covers {sorted(stated)}, the site {sorted(trees)}"
    actual = {r: _broadcast_is_async(t) for r, t in trees.items()}
    assert stated == actual, f"{page.name}: affected releases stated {stated}, found in the wheels {actual}"


def test_the_kimi_engine_file_is_the_same_in_090_and_091(trees: dict[str, VerlTree]) -> None:
    """rev50b-7: the whitelist page says 0.9.0's "kimi_ckpt_engine does not support Ascend 950" is a README-only
    restriction because the engine file did not change from 0.9.0 to 0.9.1 (read from both wheels)."""
    kimi = "verl/checkpoint_engine/kimi_checkpoint_engine.py"
    assert trees["0.9.0"].read(kimi) == trees["0.9.1"].read(kimi)


def test_verl_090_and_091_declare_the_same_base_requirements() -> None:
    """rev50b-2: "Fix one" upgrades 0.9.0 to 0.9.1 with --no-deps; that leaves nothing unmet only while the two wheels'
    requirements outside extras are the same (snapshots/wheel_facts.json, read from the index)."""
    from verl_cookbook.stack_facts import wheel

    def base(spec: str) -> list[str]:
        entry = wheel(spec)
        assert entry is not None and entry["requires_dist"], spec
        return sorted(r for r in entry["requires_dist"] if "extra ==" not in r)

    assert base("verl==0.9.0") == base("verl==0.9.1")
    upgrade = (REPO / "snippets/ascend/upgrade_verl.sh").read_text(encoding="utf-8")
    assert "python3 -m pip install --no-deps --upgrade 'verl==0.9.1'" in upgrade


@pytest.mark.parametrize("release", covered_releases())
def test_check_script_reports_what_the_table_says(release: str, trees: dict[str, VerlTree]) -> None:
    # the script locates verl with importlib.util.find_spec, which does not import it
    env = {**os.environ, "PYTHONPATH": str(trees[release].root)}
    out = subprocess.run(["bash", str(CHECK_SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    table = _affected_table(KNOWN_ISSUES_PAGES[1])
    affected = next(
        row[-1].strip("* ").lower() == "yes" for _, row in table.rows if release in re.findall(r"\d+\.\d+\.\d+", row[0])
    )
    assert out.stdout.startswith("affected") == affected, f"verl {release}: the script printed {out.stdout!r}"


VERIFY_SCRIPT = REPO / "snippets/hccl/whitelist_verify.sh"
README_EXAMPLE = '{ "host_ip": ["ip1"], ["ip2"] }'


def _verify(whitelist: Path, ip: str, **nic: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("HCCL_IF_IP", "HCCL_SOCKET_IFNAME")}
    env.update({"HCCL_WHITELIST_FILE": str(whitelist), **({"HCCL_IF_IP": ip} if ip else {}), **nic})
    return subprocess.run(["bash", str(VERIFY_SCRIPT)], env=env, capture_output=True, text=True, timeout=60)


def test_whitelist_verify_prints_ok_on_a_listed_node_and_names_what_is_missing_otherwise(tmp_path: Path) -> None:
    """The page's verification step, run on its own whitelist.json: each listed IP passes, another is named."""
    whitelist = REPO / "snippets/hccl/whitelist.json"
    for ip in json.loads(whitelist.read_text())["host_ip"]:
        out = _verify(whitelist, ip)
        assert (out.returncode, out.stdout.strip()) == (0, "whitelist ok"), out.stderr
    out = _verify(whitelist, "10.0.0.99")
    assert out.stdout.strip() == f"10.0.0.99 missing from {whitelist}"
    for page in WHITELIST_PAGES:
        assert "`whitelist ok`" in page.read_text(encoding="utf-8") and "`missing from`" in page.read_text("utf-8")


def test_whitelist_verify_takes_the_ip_of_the_nic_hccl_socket_ifname_selects(tmp_path: Path) -> None:
    """A node set up the other way step 1 offers (HCCL_SOCKET_IFNAME, no HCCL_IF_IP): the check reads the IPv4
    address of the NIC the variable selects (here the loopback NIC, 127.0.0.1, which every machine has)."""
    listed, other = tmp_path / "listed.json", tmp_path / "other.json"
    listed.write_text('{"host_ip": ["127.0.0.1"]}')
    other.write_text('{"host_ip": ["192.168.1.10"]}')
    for ifname in ("=lo", "lo", "=nosuchnic,lo"):
        out = _verify(listed, "", HCCL_SOCKET_IFNAME=ifname)
        assert (out.returncode, out.stdout.strip()) == (0, "whitelist ok"), (ifname, out.stderr)
    assert _verify(other, "", HCCL_SOCKET_IFNAME="=lo").stdout.strip() == f"127.0.0.1 missing from {other}"
    # HCCL matches the names against the NICs left after the whitelist filter (hcomm bootstrap_ip.cc): one listed NIC
    # among those the variable matches is enough, whichever name comes first (review10b H6)
    out = _verify(listed, "", HCCL_SOCKET_IFNAME="nosuchnic,lo")
    assert (out.returncode, out.stdout.strip()) == (0, "whitelist ok"), out.stderr
    out = _verify(listed, "", HCCL_SOCKET_IFNAME="^=eth0")  # an exclusion: which NIC HCCL picks is not known here
    assert out.returncode != 0 and "set HCCL_IF_IP" in out.stderr
    out = _verify(listed, "")
    assert out.returncode != 0 and "set HCCL_IF_IP" in out.stderr
    for page in WHITELIST_PAGES:
        verification = page.read_text(encoding="utf-8").split("{ #verify }")[1].split("{ #constraints }")[0]
        assert "HCCL_SOCKET_IFNAME" in verification


def test_whitelist_verify_asks_for_the_variables_when_this_shell_has_none(tmp_path: Path) -> None:
    """A reader who passed the step-4 variables through runtime_env has neither in the shell: the check names the
    variable to set instead of a FileNotFoundError traceback (review35b-6)."""
    env = {k: v for k, v in os.environ.items() if k not in ("HCCL_IF_IP", "HCCL_SOCKET_IFNAME", "HCCL_WHITELIST_FILE")}
    env["HCCL_IF_IP"] = "192.168.1.10"
    out = subprocess.run(["bash", str(VERIFY_SCRIPT)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode != 0 and "set HCCL_WHITELIST_FILE" in out.stderr and "Traceback" not in out.stderr, out.stderr
    for page in WHITELIST_PAGES:
        verification = page.read_text(encoding="utf-8").split("{ #verify }")[1].split("{ #constraints }")[0]
        assert "`HCCL_WHITELIST_FILE`" in verification


def test_whitelist_verify_fails_with_a_json_error_on_the_readme_example(tmp_path: Path) -> None:
    bad = tmp_path / "whitelist.json"
    bad.write_text(README_EXAMPLE)
    out = _verify(bad, "192.168.1.10")
    assert out.returncode != 0 and "json.decoder.JSONDecodeError" in out.stderr, out.stderr
    for page in WHITELIST_PAGES:
        assert "`json.decoder.JSONDecodeError`" in page.read_text(encoding="utf-8")


# -- the port-planning page ----------------------------------------------------------------------------------
PORTS_PAGES = [REPO / "docs/ascend/ports.md", REPO / "docs/ascend/ports.en.md"]


def test_ports_check_reads_the_kernel_ranges_without_privileges_and_changes_nothing() -> None:
    """The page's check runs here as any user would run it: two reads under /proc/sys, then ss; nothing in it writes
    a setting, and it needs nothing from /sbin or /usr/sbin (not on a non-root user's PATH on Debian)."""
    script = REPO / "snippets/ascend/ports_check.sh"
    assert "sysctl" not in script.read_text(encoding="utf-8")
    env = {**os.environ, "PATH": "/usr/bin:/bin"}
    out = subprocess.run(["bash", "-e", str(script)], capture_output=True, text=True, timeout=60, env=env)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert re.fullmatch(r"\d+\s+\d+", lines[0]), lines[0]  # ip_local_port_range: low, high
    assert re.fullmatch(r"[\d,\-]*", lines[1]), lines[1]  # ip_local_reserved_ports: empty or a list
    assert sum(line.startswith("State") for line in lines) == 2, "ss printed its two headers"


def test_a_second_listener_on_a_taken_port_fails_with_address_already_in_use_and_ports_check_names_the_holder() -> None:
    """The ports page's common problem, run: a port of HCCL's default host range held by one socket refuses a
    second bind with EADDRINUSE ("Address already in use"), and step 1's read-only commands show the holder."""
    held = socket.socket()
    for port in range(60000, 60032):
        try:
            held.bind(("127.0.0.1", port))
            break
        except OSError:
            continue
    else:
        raise AssertionError("every port of 60000-60031 is taken on this machine")
    held.listen()
    try:
        with socket.socket() as second, pytest.raises(OSError) as refused:
            second.bind(("127.0.0.1", port))
        assert refused.value.errno == errno.EADDRINUSE
        assert refused.value.strerror == "Address already in use"
        script = REPO / "snippets/ascend/ports_check.sh"
        out = subprocess.run(["bash", "-e", str(script)], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        holder = [line for line in out.stdout.splitlines() if f"127.0.0.1:{port} " in line]
        assert holder and f"pid={os.getpid()}," in holder[0], out.stdout
    finally:
        held.close()


def _ports_check_line(port: int, prefix: list[str]) -> str:
    """Step 1's read-only commands run under ``prefix``; the line of ``ss`` that lists 127.0.0.1:``port``."""
    script = REPO / "snippets/ascend/ports_check.sh"
    out = subprocess.run([*prefix, "bash", "-e", str(script)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if f"127.0.0.1:{port} " in line]
    assert len(lines) == 1, out.stdout
    return lines[0]


def test_ports_check_shows_a_holder_it_may_not_inspect_without_users() -> None:
    """The ports page, step 1: ``ss -p`` names only the processes whose file descriptors the caller may read.
    A port held by a process of another PID namespace (another job's container on the host network) or, run as
    another user than root, by another user's process is listed without ``users:``; root on the host sees the
    holder of another user."""
    root = os.geteuid() == 0
    namespace = (
        ["unshare", "--pid", "--fork", "--mount-proc"] if root else ["unshare", "-r", "--pid", "--fork", "--mount-proc"]
    )
    nobody = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
    holder_cmd = (
        "import socket, sys, time\n"
        "s = socket.socket()\n"
        "for p in range(60000, 60032):\n"
        "    try:\n"
        "        s.bind(('127.0.0.1', p)); break\n"
        "    except OSError:\n"
        "        continue\n"
        "else:\n"
        "    sys.exit(3)\n"
        "s.listen(); print(p, flush=True); time.sleep(60)\n"
    )
    # as root the holder runs as another user (nobody), so the unprivileged and the root views can both be shown
    holder = subprocess.Popen(
        [*(nobody if root else []), "python3", "-c", holder_cmd], stdout=subprocess.PIPE, text=True
    )
    try:
        first = holder.stdout.readline().strip() if holder.stdout else ""
        assert first.isdigit(), "every port of 60000-60031 is taken on this machine"
        port = int(first)
        assert "users:" not in _ports_check_line(port, namespace)
        if not root:
            assert "users:" in _ports_check_line(port, [])
        else:
            assert f"pid={holder.pid}," in _ports_check_line(port, [])
            # the same process of another user, seen by a user who is not root
            other = subprocess.Popen(["python3", "-c", holder_cmd], stdout=subprocess.PIPE, text=True)
            try:
                other_port = int((other.stdout.readline() if other.stdout else "").strip())
                assert "users:" not in _ports_check_line(other_port, nobody)
            finally:
                other.kill()
                other.wait()
    finally:
        holder.kill()
        holder.wait()


PROC_RESERVED = "/proc/sys/net/ipv4/ip_local_reserved_ports"


def _reserve_with(current: str | None, tmp_path: Path, script: str = "snippets/ascend/ports_reserve.sh") -> str:
    """Run the snippet as a user whose PATH has no sbin (Debian's default for non-root users): ``sudo`` runs its
    command, ``sysctl`` records what would be written. ``current`` replaces the kernel's list (the snippet's /proc path
    pointed at a file holding it); None reads the real one."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    log = tmp_path / "written"
    log.unlink(missing_ok=True)
    (bin_dir / "sudo").write_text(f'#!/bin/sh\n[ "$1" = sysctl ] && [ "$2" = -w ] && printf "%s" "$3" > {log}\n')
    (bin_dir / "sudo").chmod(0o755)
    text = (REPO / script).read_text(encoding="utf-8")
    assert PROC_RESERVED in text
    if current is not None:
        kernel = tmp_path / "ip_local_reserved_ports"
        kernel.write_text(current + "\n")
        text = text.replace(PROC_RESERVED, str(kernel))
    copy = tmp_path / "ports_reserve.sh"
    copy.write_text(text, encoding="utf-8")
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    out = subprocess.run(["bash", "-e", str(copy)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return log.read_text() if log.exists() else ""


@pytest.mark.parametrize("script", ["snippets/ascend/ports_reserve.sh", "snippets/ascend/ports_reserve.zh.sh"])
def test_ports_reserve_appends_hccl_range_to_the_ports_already_reserved(tmp_path: Path, script: str) -> None:
    assert _reserve_with("", tmp_path, script) == "net.ipv4.ip_local_reserved_ports=60000-60031"
    assert (
        _reserve_with("8080,50000-50031", tmp_path, script)
        == "net.ipv4.ip_local_reserved_ports=8080,50000-50031,60000-60031"
    )
    for page in PORTS_PAGES:
        assert "snippets/ascend/ports_reserve." in page.read_text(encoding="utf-8")


def test_ports_reserve_reads_the_kernels_list_as_a_user_without_sysctl_on_path(tmp_path: Path) -> None:
    """With PATH=/usr/bin:/bin there is no sysctl to read with; the snippet reads /proc, so what it writes keeps
    what this machine's kernel has reserved (an earlier version read nothing here and replaced the list)."""
    reserved = Path(PROC_RESERVED).read_text().strip()
    written = _reserve_with(None, tmp_path)
    assert written == f"net.ipv4.ip_local_reserved_ports={reserved + ',' if reserved else ''}60000-60031"


@pytest.mark.parametrize("script", ["snippets/ascend/ports_reserve.sh", "snippets/ascend/ports_reserve.zh.sh"])
def test_ports_reserve_runs_sysctl_itself_in_a_root_shell_without_sudo(tmp_path: Path, script: str) -> None:
    """Many containers run as root with no sudo installed: there the snippet calls sysctl directly instead of failing
    with 'sudo: command not found' (review10b P1). PATH holds only cat and a recording sysctl, so no real sudo or
    sysctl of the machine can run."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "cat").symlink_to(shutil.which("cat") or "/bin/cat")
    log = tmp_path / "written"
    (bin_dir / "sysctl").write_text(f'#!/bin/sh\n[ "$1" = -w ] && printf "%s" "$2" > {log}\n')
    (bin_dir / "sysctl").chmod(0o755)
    kernel = tmp_path / "ip_local_reserved_ports"
    kernel.write_text("8080\n")
    text = (REPO / script).read_text(encoding="utf-8").replace(PROC_RESERVED, str(kernel))
    out = subprocess.run([shutil.which("bash") or "/bin/bash", "-e", "-c", text], env={"PATH": str(bin_dir)},
                         capture_output=True, text=True, timeout=60)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert log.read_text() == "net.ipv4.ip_local_reserved_ports=8080,60000-60031"


def test_ports_reserve_writes_nothing_when_the_list_cannot_be_read(tmp_path: Path) -> None:
    text = (REPO / "snippets/ascend/ports_reserve.sh").read_text(encoding="utf-8")
    (tmp_path / "bin").mkdir()
    log = tmp_path / "written"
    (tmp_path / "bin" / "sudo").write_text(f'#!/bin/sh\necho "$@" > {log}\n')
    (tmp_path / "bin" / "sudo").chmod(0o755)
    copy = tmp_path / "r.sh"
    copy.write_text(text.replace(PROC_RESERVED, str(tmp_path / "missing")), encoding="utf-8")
    env = {"PATH": f"{tmp_path / 'bin'}:/usr/bin:/bin"}
    subprocess.run(["bash", str(copy)], env=env, capture_output=True, text=True, timeout=60)
    assert not log.exists(), "a failed read must not lead to a write that replaces the reserved ports"


# -- the Ascend Direct tuning page ---------------------------------------------------------------------------


def _fact(fact_id: str) -> str:
    from verl_cookbook.stack_facts import stack_facts

    (entry,) = [e for e in stack_facts()[fact_id] if e.cann is None]
    return entry.value


def test_the_transfer_timeout_shown_lies_above_the_rdma_retransmission_time_and_mooncakes_default() -> None:
    """The NIC gives up after the first send plus HCCL_RDMA_RETRY_CNT retries (HIXL's guide counts retries + 1,
    review35b-1): with HCCL's A2/A3 defaults (4.096 us * 2^20, 7 retries) that is about 34 s. The snippet's
    ASCEND_TRANSFER_TIMEOUT must sit a little above it, and above Mooncake's 10000 ms default."""
    text = (REPO / "snippets/ascend/ascend_direct_timeouts.sh").read_text(encoding="utf-8")
    (value,) = re.findall(r"^export ASCEND_TRANSFER_TIMEOUT=(\d+)$", text, re.M)
    assert _fact("hccl.rdma_timeout.formula") == "4.096μs"
    assert _fact("hixl.doc.rdma_timeout_formula") == "HCCL_RDMA_RETRY_CNT + 1"
    retransmit_ms = (
        4.096e-3 * 2 ** int(_fact("hccl.rdma_timeout.a2_default")) * (int(_fact("hccl.rdma_retry_cnt.default")) + 1)
    )
    assert retransmit_ms < int(value) < 1.2 * retransmit_ms, (value, retransmit_ms)
    assert int(value) > int(_fact("mooncake.ascend_timeout.code_transfer"))
    assert "HCCL_RDMA_TIMEOUT" not in text, "the snippet leaves HCCL's retransmission settings alone"


def test_the_alignment_check_sees_the_two_buffers_verl_logs(tmp_path: Path) -> None:
    """verl's prepare() logs ptr= and magic_buf_ptr= (mooncake_checkpoint_engine.py:97-100), not magic_recv: the
    script reports the two it can see, each with its 2 MiB alignment."""
    logs = tmp_path / "tmp" / "ray" / "session_latest" / "logs"
    logs.mkdir(parents=True)
    line = "INFO:2026-12-04 10:00:00,000:prepare ptr=0x12c0200000 len=4294967296 magic_buf_ptr=0x12c0201000\n"
    (logs / "worker-1.err").write_text(line * 2)
    script = (REPO / "snippets/ascend/check_buffer_alignment.sh").read_text(encoding="utf-8")
    script = script.replace("/tmp/ray/", f"{tmp_path}/tmp/ray/")
    out = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    # each address keeps its own name: the flag buffer's is not read as a second data buffer (review10b A2)
    lines = sorted(out.stdout.splitlines())
    assert lines == ["magic_buf_ptr=0x12c0201000 aligned_2MiB=0", "ptr=0x12c0200000 aligned_2MiB=1"]


def test_check_script_stops_with_an_error_when_its_python_cannot_find_verl(tmp_path: Path) -> None:
    """A python3 without verl (the wrong venv, or verl only inside a container) used to fall through to "not
    affected", the dangerous answer for a 0.9.0 user (review-s7b P6)."""
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONNOUSERSITE": "1"}
    bare = subprocess.run(["python3", "-c", "import importlib.util as u; print(u.find_spec('verl') is None)"], env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert bare.stdout.strip() == "True", "this test needs a python3 that has no verl"
    for script in (CHECK_SCRIPT, CHECK_SCRIPT.with_name("check_async_broadcast.zh.sh")):
        out = subprocess.run(["bash", str(script)], env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 1 and "not affected" not in out.stdout and out.stdout == "", (script.name, out)
        assert "verl not found by this python3" in out.stderr


@pytest.mark.parametrize(
    "script", [CHECK_SCRIPT, CHECK_SCRIPT.with_name("check_async_broadcast.zh.sh")], ids=lambda p: p.name
)
def test_check_script_reads_the_installed_verl_not_a_verl_tree_in_the_current_directory(
    script: Path, tmp_path: Path, trees: dict[str, VerlTree]
) -> None:
    """rev50b-6: ``python3 -c`` puts the current directory first on sys.path, so run inside a verl source tree (or
    an unpacked wheel) the check read that tree's engine file, not the installed one."""
    for installed, here, verdict in (("0.9.1", "0.9.0", "not affected"), ("0.9.0", "0.9.1", "affected")):
        cwd = tmp_path / f"{here}-tree"
        engine = cwd / "verl" / "checkpoint_engine"
        engine.mkdir(parents=True)
        (cwd / "verl" / "__init__.py").write_text("", encoding="utf-8")
        (engine / "hccl_checkpoint_engine.py").write_text(trees[here].read(HCCL_ENGINE), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(trees[installed].root), "PYTHONNOUSERSITE": "1"}
        out = subprocess.run(["bash", str(script)], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and out.stdout.startswith(verdict), (installed, here, out)


REBUILD_SCRIPT = REPO / "snippets/ascend/check_rebuild_group.sh"


def _fake_packages(root: Path, destroy: bool | None) -> None:
    """A verl with the HCCL engine file and, unless ``destroy`` is None, a vllm_ascend whose PyHcclCommunicator has
    (or lacks) destroyComm: what the script reads, without importing either."""
    engine = root / "verl" / "checkpoint_engine"
    engine.mkdir(parents=True)
    (root / "verl" / "__init__.py").write_text("")
    (engine / "hccl_checkpoint_engine.py").write_text("self.pyhccl.destroyComm(self.pyhccl.comm)\n")
    if destroy is None:
        return
    comm = root / "vllm_ascend" / "distributed" / "device_communicators"
    comm.mkdir(parents=True)
    (root / "vllm_ascend" / "__init__.py").write_text("")
    (comm / "pyhccl.py").write_text(
        "class PyHcclCommunicator:\n" + ("    def destroyComm(self, comm): ...\n" if destroy else "    pass\n")
    )


@pytest.mark.parametrize(
    "script", [REBUILD_SCRIPT, REBUILD_SCRIPT.with_name("check_rebuild_group.zh.sh")], ids=lambda p: p.name
)
def test_rebuild_group_check_gives_its_verdict_and_stops_when_vllm_ascend_is_not_found(
    script: Path, tmp_path: Path
) -> None:
    """review12b: with a python3 that has no vllm_ascend the check printed a traceback, then 'keep rebuild_group=False',
    and exited 0."""
    for destroy, verdict in ((True, "has destroyComm"), (False, "has no destroyComm")):
        root = tmp_path / str(destroy)
        _fake_packages(root, destroy)
        env = {**os.environ, "PYTHONPATH": str(root), "PYTHONNOUSERSITE": "1"}
        out = subprocess.run(["bash", str(script)], env=env, capture_output=True, text=True, timeout=60)
        assert out.returncode == 0 and verdict in out.stdout, out
    root = tmp_path / "no_vllm_ascend"
    _fake_packages(root, None)
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONNOUSERSITE": "1"}
    out = subprocess.run(["bash", str(script)], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and out.stdout == "" and "vllm_ascend not found by this python3" in out.stderr, out


@pytest.mark.parametrize(
    "script", [REBUILD_SCRIPT, REBUILD_SCRIPT.with_name("check_rebuild_group.zh.sh")], ids=lambda p: p.name
)
def test_rebuild_group_check_reads_the_installed_packages_not_those_in_the_current_directory(
    script: Path, tmp_path: Path
) -> None:
    """rev50b-6: a vllm_ascend (or verl) tree in the current directory is not what the rollout imports."""
    installed, here = tmp_path / "installed", tmp_path / "checkout"
    _fake_packages(installed, destroy=False)
    _fake_packages(here, destroy=True)
    env = {**os.environ, "PYTHONPATH": str(installed), "PYTHONNOUSERSITE": "1"}
    out = subprocess.run(["bash", str(script)], cwd=here, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "has no destroyComm" in out.stdout, out


@pytest.mark.parametrize(
    "name",
    ["check_async_broadcast.sh", "check_async_broadcast.zh.sh", "check_rebuild_group.sh", "check_rebuild_group.zh.sh"],
)
def test_a_check_pasted_into_a_shell_stops_itself_not_the_shell(name: str, tmp_path: Path) -> None:
    """review13b: pasted into an interactive shell, the checks' `exit 1` (no verl found) closed the reader's own shell
    or SSH session before the message could be read; the commands that follow the paste must still run."""
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "PYTHONNOUSERSITE": "1"}
    pasted = (REPO / "snippets/ascend" / name).read_text(encoding="utf-8") + "echo the-shell-is-still-here\n"
    out = subprocess.run(["bash", "-c", pasted], env=env, capture_output=True, text=True, timeout=60)
    assert "not found by this python3" in out.stderr
    assert "the-shell-is-still-here" in out.stdout, out


@pytest.mark.parametrize("name", ["host_ip.sh", "host_ip.zh.sh"])
def test_the_host_ip_listing_prints_addresses_in_the_form_hccl_if_ip_takes(name: str) -> None:
    """review24b F4: `ip -4 -o addr show` gives `192.0.2.2/24`; HCCL_IF_IP and the whitelist take the plain address,
    so the page's listing (its first command, run here as written) drops the prefix length."""
    lines = (REPO / "snippets" / "hccl" / name).read_text(encoding="utf-8").splitlines()
    first = next(line for line in lines if line.startswith("ip "))
    out = subprocess.run(["bash", "-c", first], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0 and out.stdout.strip(), out.stderr
    for line in out.stdout.splitlines():
        _, address = line.split()
        socket.inet_aton(address)  # a dotted IPv4 address with nothing after it
        assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", address), line
