"""``verl-cookbook stack``: the plans pip resolved (snapshots/stack_plans.json) are consistent on their own terms,
the command answers offline with the exit codes it promises, and the version-matrix tables are the plans'.

Offline tests read the committed resolutions; the install run (``install_run`` mark) installs the plan's
pure-Python wheels into a throwaway venv and asks ``pip check``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.tags import compatible_tags, cpython_tags
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import Version

from verl_cookbook import resolver, stack_render
from verl_cookbook.cli import main
from verl_cookbook.stack_plan import Plan, build, wheel_glibc
from verl_cookbook.stack_resolve import BACKENDS, Ask, add_lowest_files, covered, lowest_file, recorded, target_env

ROOT = Path(__file__).resolve().parents[1]


def plan(verl: str = "0.9.1", product: str = "A3", backend: str = "nccl", pins: tuple[str, ...] = ()) -> Plan:
    ask = Ask(verl, product, backend=backend, pins=pins)
    record = recorded(ask)
    assert record is not None, f"no committed resolution for {ask.key}"
    return build(ask, record)


def unmet(p: Plan) -> list[str]:
    """Every Requires-Dist among the plan's distributions (markers for the target, extras asked) that the pinned
    versions do not satisfy; vllm-ascend's own (installed --no-deps) included."""
    record = recorded(p.ask)
    assert record is not None
    env = target_env(p.ask)
    version = {canonicalize_name(x.name): Version(x.version) for x in [*p.pins, *p.extra]}
    items = {canonicalize_name(i["name"]): i for i in record["installs"]}
    items[canonicalize_name(record["vllm_ascend"]["name"])] = record["vllm_ascend"]
    out = []
    for name, item in items.items():
        if name not in version:
            continue
        for line in item.get("requires_dist", []):
            r = Requirement(line)
            if r.marker is not None and not r.marker.evaluate({**env, "extra": ""}):
                continue
            have = version.get(canonicalize_name(r.name))
            if have is None or not r.specifier.contains(have, prereleases=True):
                out.append(f"{item['name']} {item['version']}: {line} (plan: {have})")
    return out


# -- the plans, on their own terms ------------------------------------------------------------------------------


def test_the_0_9_1_a3_plan_satisfies_every_requires_dist_among_its_pins() -> None:
    p = plan()
    assert p.verdict == "ok" and unmet(p) == []
    pins = {canonicalize_name(x.name): x.version for x in [*p.pins, *p.extra]}
    # the requirements the issue names, each met by pip's choice
    assert Version(pins["numpy"]) >= Version("2.0.0")  # verl 0.9.1: numpy>=2.0.0
    assert Version("5.5.3") <= Version(pins["transformers"]) < Version("5.11")  # verl 0.9.1's range
    assert pins["torch-npu"] == "2.10.0.post4"  # vllm-ascend 0.23.0: torch-npu==2.10.0.post4
    assert pins["torch"] == "2.10.0"  # torch-npu 2.10.0.post4: torch==2.10.0
    assert "transferqueue" in pins and "pyzmq" in pins  # what the v1 trainer and the HCCL engine import


def test_every_covered_plan_that_resolves_meets_its_own_requirements() -> None:
    bad = {}
    for ask in covered():
        p = plan(ask.verl, ask.product, ask.backend)
        if p.verdict == "ok" and (problems := unmet(p)):
            bad[ask.key] = problems
    assert bad == {}


def test_a_plan_with_an_unmet_requirement_is_caught_by_the_consistency_check() -> None:
    p = plan()
    p.pins = [x if canonicalize_name(x.name) != "numpy" else type(x)(x.name, "1.26.4", x.file, x.why) for x in p.pins]
    assert any("numpy>=2.0.0" in line for line in unmet(p))


def test_every_platform_wheel_of_the_plan_installs_on_the_target_platform() -> None:
    """Tags against the plan's platform: CPython 3.11 on aarch64 with glibc 2.35 (pip's own tag list)."""
    ask = Ask("0.9.1", "A3")
    platforms = resolver.platforms(ask.target.glibc, ask.arch)
    accepted = {*cpython_tags((3, 11), platforms=platforms), *compatible_tags((3, 11), "cp311", platforms)}
    for backend in BACKENDS:
        p = plan(backend=backend)
        for x in [*p.pins, *p.extra]:
            if x.file.endswith(".whl"):
                assert parse_wheel_filename(x.file)[3] & accepted, f"{x.file} does not install on {ask.target.label}"


def test_a_backend_verls_readme_says_is_unsupported_on_the_product_has_no_plan(capsys) -> None:
    code, out, _ = run(capsys, "--verl", "0.9.0", "--product", "950", "--backend", "kimi_ckpt_engine")
    assert code == 1 and "hasn't been supported in Ascend 950" in out
    code, out, _ = run(capsys, "--verl", "0.9.1", "--product", "950", "--backend", "kimi_ckpt_engine")
    assert code == 0 and "enable whitelist" in out  # 0.9.1 (main's README): supported with the HCCL whitelist


def test_a_wheels_glibc_is_the_lowest_manylinux_level_among_its_tags() -> None:
    assert wheel_glibc("a-1-cp311-cp311-manylinux_2_27_aarch64.manylinux_2_28_aarch64.whl") == (2, 27)
    assert wheel_glibc("a-1-cp311-cp311-manylinux2014_aarch64.whl") == (2, 17)
    assert wheel_glibc("a-1-py3-none-any.whl") is None
    assert plan(backend="mooncake").glibc_floor == (2, 35)  # every Mooncake NPU wheel is manylinux_2_35


CRYPTOGRAPHY = [  # cryptography 51.0.1 ships one file per manylinux level; pip takes the newest the host allows
    "cryptography-51.0.1-cp311-abi3-manylinux_2_34_aarch64.whl",
    "cryptography-51.0.1-cp311-abi3-manylinux_2_28_aarch64.whl",
    "cryptography-51.0.1-cp311-abi3-manylinux2014_aarch64.manylinux_2_17_aarch64.whl",
    "cryptography-51.0.1-cp311-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
    "cryptography-51.0.1-cp311-abi3-musllinux_1_2_aarch64.whl",
    "cryptography-51.0.0-cp311-abi3-manylinux2014_aarch64.whl",
    "cryptography-51.0.1.tar.gz",
]


def test_a_pinned_versions_oldest_glibc_file_is_its_lowest_manylinux_file_for_the_target() -> None:
    target = Ask("0.9.1", "A3").target
    low = lowest_file("cryptography", "51.0.1", CRYPTOGRAPHY, target)
    assert low == "cryptography-51.0.1-cp311-abi3-manylinux2014_aarch64.manylinux_2_17_aarch64.whl"
    pure = [*CRYPTOGRAPHY, "cryptography-51.0.1-py3-none-any.whl"]
    assert lowest_file("cryptography", "51.0.1", pure, target) == "cryptography-51.0.1-py3-none-any.whl"
    assert lowest_file("cryptography", "51.0.2", CRYPTOGRAPHY, target) is None  # no file of that version
    record = {"installs": [{"name": "cryptography", "version": "51.0.1", "file": CRYPTOGRAPHY[0]}]}
    add_lowest_files(record, target, lambda name: CRYPTOGRAPHY)
    assert record["installs"][0]["lowest_file"] == low


def test_the_glibc_floor_is_each_pins_oldest_file_not_the_file_pip_picked() -> None:
    """review15a F3: pip, resolving for glibc 2.35, picks cryptography 51.0.1's manylinux_2_34 file, but the version
    also ships a manylinux_2_17 one, so it does not raise the floor to 2.34. The floor is, per pinned version, the
    lowest level among its files for the target, and the highest of those over the pins."""
    p = plan()
    crypto = next(x for x in p.pins if x.name == "cryptography")
    assert wheel_glibc(crypto.file) == (2, 34) and wheel_glibc(crypto.lowest) == (2, 17)
    assert p.glibc_floor == (2, 31) and p.glibc_decider[1].name == "llguidance"  # type: ignore[index]
    assert plan(product="950").glibc_floor == (2, 31)
    assert plan("0.9.0").glibc_floor == (2, 31)
    assert plan(product="A2").glibc_floor == (2, 34)  # the vllm-ascend 0.23.0 wheel is manylinux_2_34 only
    assert plan("0.7.1").glibc_floor == plan("0.7.1", "A2").glibc_floor == (2, 28)
    old = Plan(p.ask, p.verdict, [], pins=[type(x)(x.name, x.version, x.file, x.why, x.how) for x in p.pins])
    assert old.glibc_floor == (2, 34)  # the old rule, by the files pip picked, fires


def test_every_platform_wheel_the_snapshot_pins_records_its_oldest_glibc_file_of_the_same_version() -> None:
    ask = Ask("0.9.1", "A3")
    platforms = resolver.platforms(ask.target.glibc, ask.arch)
    accepted = {*cpython_tags((3, 11), platforms=platforms), *compatible_tags((3, 11), "cp311", platforms)}
    for a in covered():
        record = recorded(a)
        if record is None or record["verdict"] != "ok":
            continue
        for item in [*record["installs"], record["vllm_ascend"]]:
            if wheel_glibc(item["file"]) is None:
                continue
            low = item.get("lowest_file")
            assert low, f"{a.key}: {item['file']} has no lowest_file: scripts/refresh_stack_plans.py --lowest"
            assert str(parse_wheel_filename(low)[1]) == str(parse_wheel_filename(item["file"])[1])
            assert parse_wheel_filename(low)[3] & accepted
            assert (wheel_glibc(low) or (0, 0)) <= wheel_glibc(item["file"])  # type: ignore[operator]


def test_pip_evaluates_the_requirements_markers_for_the_target_not_the_resolving_machine() -> None:
    """torch lists CUDA wheels and triton for x86_64 only: the aarch64 plan has none of them, though it was resolved on
    an x86_64 machine."""
    p = plan()
    names = {canonicalize_name(x.name) for x in p.pins}
    assert "torch" in names and "triton" not in names and not any(n.startswith("nvidia-") for n in names)
    assert p.pruned == []


def test_the_guide_versions_the_wheels_reject_are_named_with_the_requirement_that_decides() -> None:
    notes = " ".join(plan().notes)
    assert "transformers 5.10.4" in notes and "transformers==5.5.4" in notes


# -- the command ----------------------------------------------------------------------------------------------


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["stack", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_stack_prints_the_plan_offline_and_exits_0(capsys) -> None:
    code, out, _ = run(capsys, "--verl", "0.9.1", "--product", "A3")
    assert code == 0
    assert "torch_npu==2.10.0.post4" in out and "VLLM_TARGET_DEVICE=empty" in out and "pip check" in out
    assert "triton-ascend==3.2.2  [elsewhere]" in out and "https://triton-ascend.osinfra.cn/pypi/simple/" in out
    assert "arctic-inference==0.1.1  [sdist]" in out and "vllm-0.23.0.tar.gz requirements/common.txt" in out


def test_a_cann_other_than_the_guides_is_named_and_the_guides_own_is_not(capsys) -> None:
    code, out, _ = run(capsys, "--verl", "0.9.1", "--product", "A3", "--cann", "8.5.0")
    assert code == 0 and "your CANN 8.5.0 is not the 9.1.0 verl's guide names" in out
    code, out, _ = run(capsys, "--verl", "0.9.1", "--product", "A3", "--cann", "9.1.0")
    assert code == 0 and "your CANN" not in out


def test_requirements_format_is_a_file_of_pins_pip_reads(capsys, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "--verl", "0.9.1", "--product", "A3", "--format", "requirements")
    assert code == 0
    path = tmp_path / "stack.txt"
    path.write_text(out, encoding="utf-8")
    reqs = [Requirement(line) for line in out.splitlines() if line and not line.lstrip().startswith("#")]
    assert reqs and all(len(r.specifier) == 1 and next(iter(r.specifier)).operator == "==" for r in reqs)
    # the stack page: the requirements behind a pin are indented comments below it (a review read "above" on the page)
    lines = [line for line in out.splitlines() if line]
    pinned = [n for n, line in enumerate(lines) if not line.lstrip().startswith("#")]
    assert any(n + 1 < len(lines) and lines[n + 1].startswith((" ", "\t")) and "#" in lines[n + 1] for n in pinned)
    # pip's own parser reads the file (no index: it fails on the first download, after parsing every line)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--no-index", "--no-deps", "-r", str(path)],
        capture_output=True,
        text=True,
        env=resolver.isolated_env(),
    )
    assert "Invalid requirement" not in done.stderr and "No matching distribution found for" in done.stderr


def test_a_pin_verl_rejects_exits_1_quoting_both_requirements(capsys) -> None:
    code, out, _ = run(capsys, "--verl", "0.9.1", "--product", "A3", "--pin", "transformers==4.57.6")
    assert code == 1
    assert "The user requested transformers==4.57.6" in out
    assert "rejects transformers 4.57.6: verl 0.9.1 Requires-Dist: transformers!=5.6.0,<5.11,>=5.5.3" in out


def test_the_guides_transformers_with_vllm_ascend_exits_1_and_names_vllm_ascend(capsys) -> None:
    code, out, _ = run(capsys, "--verl", "0.9.1", "--product", "A3", "--pin", "transformers==5.10.4")
    assert code == 1 and "transformers==5.5.4" in out and "vllm-ascend 0.23.0 Requires-Dist" in out


@pytest.mark.parametrize(
    "args, says",
    [
        (["--verl", "0.9.1", "--product", "A3", "--pin", "transformers>=5"], "expected NAME==VERSION"),
        (["--verl", "latest", "--product", "A3"], "expected a release"),
        (["--verl", "0.9.1", "--product", "A3", "--python", "3"], "expected X.Y"),
        (["--verl", "0.9.1", "--product", "A3", "--python", "3.12"], "--refresh resolves it"),
    ],
)
def test_usage_errors_exit_2_with_what_was_expected(capsys, args: list[str], says: str) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2 and says in err and out == ""


def test_an_unknown_product_is_a_usage_error(capsys) -> None:
    with pytest.raises(SystemExit) as e:
        main(["stack", "--verl", "0.9.1", "--product", "A9"])
    assert e.value.code == 2


def test_json_format_carries_every_pin_with_its_reasons(capsys) -> None:
    args = ["--verl", "0.9.1", "--product", "A3", "--backend", "kimi_ckpt_engine", "--format", "json"]
    code, out, _ = run(capsys, *args)
    data = json.loads(out)
    names = {canonicalize_name(p["name"]) for p in data["pins"]}
    assert code == 0 and {"checkpoint-engine", "mooncake-transfer-engine-npu"} <= names
    assert all(p["why"] for p in data["pins"])
    assert data["glibc_floor"] == "2.35"


def test_text_and_requirements_say_the_same_pins() -> None:
    p = plan()
    req = stack_render.requirements(p)
    text = stack_render.text(p)
    for x in p.pins:
        assert f"\n{x.spec}\n" in req and f"  {x.spec}\n" in text


# -- held by a run: the plan's pure-Python part installs and pip check passes -------------------------------------


def _pip(python: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run([python, "-m", "pip", *args], capture_output=True, text=True, env=env)


@pytest.mark.install_run
def test_verl_and_its_pure_python_requirements_install_from_the_plan_and_pip_check_finds_no_conflict(
    tmp_path: Path,
) -> None:
    """verl 0.9.1 and the pure-Python (``py3-none-any``) pins of the 0.9.1 A3 plan that verl requires (TransferQueue
    from verl-core too), fetched from the index and installed with ``--no-deps`` into a throwaway venv: ``pip check``
    finds no requirement a pinned version violates; what it lists as not installed is in the plan (the platform wheels
    left out of the run). After a pin verl rejects (packaging 19.2), it reports that one. 14 wheels (the plan's 156
    pure-Python pins took 3-8 minutes here, over the suite's budget)."""
    from verl_cookbook import install_run
    from verl_cookbook.install_manifest import Run

    p = plan()
    record = recorded(p.ask)
    assert record is not None
    verl = next(i for i in record["installs"] if i["name"] == "verl")
    wanted = {canonicalize_name(Requirement(line).name) for line in verl["requires_dist"] if "extra" not in line}
    wanted |= {"verl", "transferqueue"}
    pure = [x for x in p.pins if x.file.endswith("-none-any.whl") and canonicalize_name(x.name) in wanted]
    assert len(pure) >= 10 and any(x.name == "verl" for x in pure)
    house = tmp_path / "house"
    for specs in ([x.spec for x in pure], ["packaging==19.2"]):  # pip download takes one version of a name a run
        fetched = _pip(sys.executable, "download", "-q", "--no-deps", "--only-binary=:all:", "-d", str(house),
                       "--index-url", resolver.INDEX_URL, *specs, env=resolver.isolated_env())  # fmt: skip
        assert fetched.returncode == 0, fetched.stderr[-2000:]
    elsewhere = {canonicalize_name(x.name) for x in [*p.pins, *p.extra] if x not in pure}
    with install_run.sandbox(Run(snippet="stack", line=0), house) as (venv, env):
        python = str(venv / "bin" / "python")
        done = _pip(python, "install", "--no-deps", "-q", *(x.spec for x in pure), env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        check = _pip(python, "check", env=env).stdout.splitlines()
        conflicts = [line for line in check if " has requirement " in line]
        absent = {
            canonicalize_name(line.split("requires ", 1)[1].split(",")[0]) for line in check if "not installed" in line
        }
        assert conflicts == [] and absent and absent <= elsewhere, (conflicts, absent - elsewhere)
        _pip(python, "install", "--no-deps", "-q", "packaging==19.2", env=env)
        check = _pip(python, "check", env=env).stdout
        assert "verl 0.9.1 has requirement packaging>=20.0, but you have packaging 19.2" in check


def test_a_bug_in_stack_is_exit_3_in_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    from verl_cookbook import stack_command

    def boom(args) -> int:
        raise KeyError("a bug planted by the test")

    monkeypatch.delenv("VERL_COOKBOOK_DEBUG", raising=False)
    monkeypatch.setattr(stack_command, "run", boom)
    code, out, err = run(capsys, "--verl", "0.9.1", "--product", "A3")
    assert code == 3 and err.startswith("verl-cookbook: internal error") and "Traceback" not in err


def test_no_committed_plan_pins_a_release_below_a_floor_verls_own_code_sets() -> None:
    """pip, taking wheels only for the foreign target, fell back silently to hydra-core 0.11.3 (hydra-core 1.3.2 needs
    antlr4-python3-runtime 4.9.*, which the index has only as an sdist); 0.11.3's hydra.main has no config_name, so
    verl could not start. Every committed plan now meets each floor, or builds the sdist it needs."""
    from packaging.specifiers import SpecifierSet

    from verl_cookbook.stack_resolve import FLOORS, plans_snapshot, recorded_in

    below = []
    snap = plans_snapshot()
    for key in snap["plans"]:
        record = recorded_in(snap, key) or {}
        pinned = {canonicalize_name(i["name"]): i["version"] for i in record.get("installs", [])}
        for floor, *_ in FLOORS:
            r = Requirement(floor)
            version = pinned.get(canonicalize_name(r.name))
            if version is not None and not SpecifierSet(str(r.specifier)).contains(version):
                below.append((key, r.name, version))
    assert below == []


def test_the_floors_meet_the_plan_that_fell_back_and_leave_one_that_did_not() -> None:
    from packaging.specifiers import SpecifierSet

    from verl_cookbook.stack_resolve import FLOORS

    floor = Requirement(FLOORS[0][0])
    assert not SpecifierSet(str(floor.specifier)).contains("0.11.3") and floor.specifier.contains("1.3.2")


def test_each_floors_reason_is_in_the_source_of_every_covered_release() -> None:
    from verl_cookbook.releases import covered_releases
    from verl_cookbook.stack_resolve import FLOORS
    from verl_cookbook.verl_source import from_release

    for release in covered_releases():
        tree = from_release(release)
        for _, _, path, match in FLOORS:
            assert match in tree.read(path), (release, path)


def test_an_sdist_only_requirement_with_a_wildcard_takes_the_newest_sdist_it_allows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from packaging.specifiers import SpecifierSet

    files = [
        {"filename": f"antlr4-python3-runtime-{v}.tar.gz", "url": f"u/{v}"} for v in ("4.8", "4.9.2", "4.9.3", "4.10")
    ]
    monkeypatch.setattr(resolver, "index_files", lambda name, index_url=resolver.INDEX_URL: files)
    found = resolver.sdist_for("antlr4-python3-runtime", SpecifierSet("==4.9.*"))
    assert found is not None and found["url"] == "u/4.9.3"
    assert resolver.sdist_for("antlr4-python3-runtime", SpecifierSet("==5.*")) is None


def test_a_conflict_names_the_requirement_the_index_has_only_as_an_sdist_and_not_one_with_a_wheel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    files = {
        "antlr4-python3-runtime": [{"filename": "antlr4-python3-runtime-4.9.3.tar.gz", "url": "u"}],
        "omegaconf": [
            {"filename": "omegaconf-2.3.0.tar.gz", "url": "u"},
            {"filename": "omegaconf-2.3.0-py3-none-any.whl", "url": "u"},
        ],
    }
    monkeypatch.setattr(resolver, "index_files", lambda name, index_url=resolver.INDEX_URL: files.get(name, []))
    lines = (
        "The user requested hydra-core>=1.2",
        "hydra-core 1.3.8 depends on antlr4-python3-runtime==4.9.*",
        "hydra-core 1.3.7 depends on antlr4-python3-runtime==4.9.*",
        "hydra-core 1.3.8 depends on omegaconf<2.4,>=2.2",
    )
    found = resolver.sdist_only_dependencies(lines)
    assert [(str(r), who) for r, who in found] == [("antlr4-python3-runtime==4.9.*", "hydra-core 1.3.8")]


@pytest.mark.parametrize(("tag", "kept"), [("py3-none-any", True), ("cp311-cp311-linux_x86_64", False)])
def test_a_wheel_built_from_an_sdist_is_kept_only_when_it_is_pure_python(tmp_path, monkeypatch, tag, kept) -> None:
    """build_pure_wheel keeps what pip built only when one file serves every target; a platform wheel built on this
    machine would be wrong for the aarch64 plan, so it is refused (pip's build is stood in for)."""
    import subprocess

    def fake_run(cmd, **kwargs):
        (tmp_path / f"antlr4_python3_runtime-4.9.3-{tag}.whl").write_bytes(b"")
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(resolver, "run", fake_run)
    built = resolver.build_pure_wheel("antlr4-python3-runtime", "4.9.3", tmp_path)
    assert (built is not None) is kept
    assert built is None or built.name.endswith("-py3-none-any.whl")


def test_a_readme_fact_read_at_main_is_not_called_the_releases_readme() -> None:
    """review10b S1: 0.9.1's README facts were read at main 1dda039 (no v0.9.1 tag in the history read)."""
    from verl_cookbook.stack_facts import stack_facts
    from verl_cookbook.stack_plan import readme_label

    at_main = stack_facts()["verl.readme.0.9.1.kimi_950"][0]
    at_tag = stack_facts()["verl.readme.0.9.0.kimi_950"][0]
    assert readme_label("0.9.1", at_main).startswith("the README of verl main at 1dda039")
    assert readme_label("0.9.0", at_tag) == "verl 0.9.0's README"


# -- refresh_stack_plans.py --accepts: pip takes each plan's requirements file for the target ----------------------


def _stub_wheel(path: Path, name: str, version: str, requires: list[str], requires_python: str | None) -> None:
    """A wheel file that holds only its metadata (what pip's dry run reads), named ``path``."""
    import zipfile

    stem = "-".join(path.name.split("-")[:2])
    meta = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
    meta += [f"Requires-Python: {requires_python}"] if requires_python else []
    meta += [f"Requires-Dist: {r}" for r in requires]
    wheel = "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{stem}.dist-info/METADATA", "\n".join(meta) + "\n")
        z.writestr(f"{stem}.dist-info/WHEEL", wheel)
        z.writestr(f"{stem}.dist-info/RECORD", "")


def _stub_index(root: Path, record: dict, sdists: tuple[str, ...] = ()) -> str:
    """A PEP 503 index on disk (``file://``) with a stub of every wheel the record's resolution installed, under its
    own file name (so its platform tags are the real ones) and with its recorded Requires-Dist, plus ``sdists``
    (file names; pip, taking wheels only, never opens them): the index the plan was resolved over, offline."""
    simple = root / "simple"
    files: dict[str, list[str]] = {}
    for item in record["installs"]:
        name = canonicalize_name(item["name"])
        (simple / name).mkdir(parents=True, exist_ok=True)
        reqs = item.get("requires_dist", [])
        _stub_wheel(simple / name / item["file"], item["name"], item["version"], reqs, item.get("requires_python"))
        files.setdefault(name, []).append(item["file"])
    for sdist in sdists:
        name = canonicalize_name(sdist.rsplit("-", 1)[0])
        (simple / name).mkdir(parents=True, exist_ok=True)
        (simple / name / sdist).write_bytes(b"")
        files.setdefault(name, []).append(sdist)
    for name, names in files.items():
        links = "".join(f'<a href="{f}">{f}</a>\n' for f in names)
        (simple / name / "index.html").write_text(f"<html><body>\n{links}</body></html>\n", encoding="utf-8")
    return simple.as_uri() + "/"


def _accepts_offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: dict, built: bool = True) -> list[str]:
    """``stack_plan.accepts`` for the committed 0.9.1 A3 plan over a stub of its index: pip's real resolver, with the
    sdist build stood in for (``built``: a pure wheel of the recorded Requires-Dist, else pip's build failing)."""
    from verl_cookbook import stack_plan

    committed = recorded(Ask("0.9.1", "A3"))
    assert committed is not None
    sdists = tuple(sd["file"] for sd in committed["sdists"] if sd.get("built"))
    index = _stub_index(tmp_path / "index", committed, sdists)

    def build_pure_wheel(name: str, version: str, dest: Path, index_url: str = "") -> Path | None:
        sd = next(sd for sd in committed["sdists"] if sd.get("built") and sd["requirement"] == f"{name}=={version}")
        if not built:
            return None
        whl = dest / sd["built"]
        _stub_wheel(whl, name, version, sd["requires"], None)
        return whl

    monkeypatch.setattr(resolver, "build_pure_wheel", build_pure_wheel)
    house = tmp_path / "house"
    house.mkdir()
    return stack_plan.accepts(Ask("0.9.1", "A3", index_url=index), record, house)


def test_pip_accepts_the_committed_plans_requirements_file_with_its_sdist_only_pin_built_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """antlr4-python3-runtime 4.9.3 (hydra-core 1.3.x: ``==4.9.*``) is an sdist only: pip's dry run for a foreign
    platform takes wheels only, so it is built first and pip may take it from that folder (``--find-links``)."""
    record = recorded(Ask("0.9.1", "A3"))
    assert record is not None
    assert any(sd.get("built", "").endswith("-py3-none-any.whl") for sd in record["sdists"])
    assert _accepts_offline(tmp_path, monkeypatch, record) == []


def test_accepts_fails_when_a_plan_pins_a_version_the_index_does_not_have(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = recorded(Ask("0.9.1", "A3"))
    assert record is not None
    item = next(i for i in record["installs"] if i["name"] == "cachetools")
    ghost = {**item, "version": "8.0.99", "file": item["file"].replace(item["version"], "8.0.99")}
    changed = {**record, "installs": [ghost if i is item else i for i in record["installs"]]}
    problems = _accepts_offline(tmp_path, monkeypatch, changed)
    assert len(problems) == 1 and "pip does not accept the requirements file: missing" in problems[0]
    assert "cachetools==8.0.99" in problems[0]


def test_accepts_fails_when_the_sdist_only_pin_does_not_build_as_pure_python(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = recorded(Ask("0.9.1", "A3"))
    assert record is not None
    problems = _accepts_offline(tmp_path, monkeypatch, record, built=False)
    assert problems == [
        f"{Ask('0.9.1', 'A3').key}: antlr4-python3-runtime==4.9.3: pip did not build the index's sdist into a "
        "pure-Python wheel"
    ]


def test_the_weekly_workflow_checks_the_plans_and_that_pip_takes_them_and_the_test_command_stays_offline() -> None:
    """The network steps are the weekly stack-facts workflow's, each run even after another failed; the README's
    test command (scripts/test.sh) reads the committed snapshot only."""
    import yaml

    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "stack-facts.yml").read_text(encoding="utf-8"))
    steps = {s.get("run", "").strip(): s for s in workflow["jobs"]["refresh"]["steps"]}
    for command in ("--check", "--accepts", "--uploads --check"):
        step = steps[f"python scripts/refresh_stack_plans.py {command}"]
        assert step.get("if") == "${{ !cancelled() }}", command
    assert "refresh_" not in (ROOT / "scripts" / "test.sh").read_text(encoding="utf-8")


def test_the_refresh_dry_runs_each_plan_once_and_its_check_sees_an_sdist_that_moved() -> None:
    """``--accepts`` takes one ask per resolution (A2, A3 and the 950 share one), never a refused one or a --pin;
    ``--check`` reports a plan whose sdist-only pin moved (pip's installs do not hold it)."""
    import copy

    sys.path.insert(0, str(ROOT / "scripts"))
    from refresh_stack_plans import asks, moved, with_a_plan

    from verl_cookbook.stack_plan import unsupported

    todo = asks()
    chosen = with_a_plan(todo)
    keys = [a.key for a in chosen]
    assert len(keys) == len(set(keys)) == 9  # 0.7.1, 0.9.0, 0.9.1 x three backends; 0.8.0 is a conflict
    assert all(not a.pins and unsupported(a) is None for a in chosen)
    old = json.loads((ROOT / "verl_cookbook" / "snapshots" / "stack_plans.json").read_text(encoding="utf-8"))
    record = recorded(Ask("0.9.1", "A3"))
    assert record is not None and moved(old, [record]) == []
    later = copy.deepcopy(record)
    sd = next(s for s in later["sdists"] if s.get("built"))
    sd["requirement"], sd["file"] = "antlr4-python3-runtime==4.9.4", "antlr4-python3-runtime-4.9.4.tar.gz"
    assert [line.split(": ", 1)[1] for line in moved(old, [later])] == [
        "sdists antlr4-python3-runtime: antlr4-python3-runtime==4.9.3 antlr4-python3-runtime-4.9.3.tar.gz typing; "
        'python_version < "3.5" -> antlr4-python3-runtime==4.9.4 antlr4-python3-runtime-4.9.4.tar.gz typing; '
        'python_version < "3.5"'
    ]
