"""Engine facts: registrations, constructor parameters, devices and the backend each name resolves to."""

from __future__ import annotations

from verl_cookbook.facts import engines
from verl_cookbook.verl_source import VerlTree


def line_at(tree: VerlTree, source: str) -> str:
    rel, _, line = source.rpartition(":")
    return tree.read(rel).splitlines()[int(line) - 1]


def test_every_registration_sits_on_its_decorator_line(verl_tree: VerlTree, facts) -> None:
    assert facts.registrations
    for r in facts.registrations:
        assert f'CheckpointEngineRegistry.register("{r["backend"]}")' in line_at(verl_tree, r["source"])


def test_constructor_parameters_sit_on_their_lines(verl_tree: VerlTree, facts) -> None:
    for r in facts.registrations:
        for p in r["constructor"]["params"]:
            assert p["name"] in line_at(verl_tree, p["source"]), (r["class"], p["name"])


def test_nccl_resolves_per_device_and_the_last_import_wins(facts) -> None:
    res = facts.data["engines"]["resolution"]["nccl"]
    order = facts.data["engines"]["import_order"]
    regs = {r["class"]: r for r in facts.registrations if r["backend"] == "nccl"}
    assert len(regs) >= 2
    npu = regs[res["npu"]]
    assert "npu" in npu["devices"] and npu["guard"] is not None
    # every other nccl registration that loads on NPU is imported before the winner
    for r in regs.values():
        if r is not npu and "npu" in r["devices"]:
            assert order.index(r["file"]) < order.index(npu["file"])


def test_cuda_only_imports_keep_an_engine_off_npu(facts) -> None:
    for r in facts.registrations:
        if any(m in r["requires"] for m in ("cupy", "nixl")):
            assert r["devices"] == ["cuda"], r["class"]


def test_injected_kwargs_are_what_verl_passes_itself(verl_tree: VerlTree, facts) -> None:
    injected = facts.data["engines"]["injected_kwargs"]
    assert injected
    for i in injected:
        assert "CheckpointEngineRegistry.new" in line_at(verl_tree, i["source"]) or i["kwargs"]
        assert "bucket_size" in i["kwargs"]


def test_removed_registration_disappears(verl_copy: VerlTree) -> None:
    rel = verl_copy.package / "checkpoint_engine" / "mooncake_checkpoint_engine.py"
    rel.write_text(rel.read_text().replace('@CheckpointEngineRegistry.register("mooncake")\n', ""))
    data = engines.extract(verl_copy)
    assert "mooncake" not in data["resolution"]


def test_module_never_imported_by_the_package_is_not_registered(verl_copy: VerlTree) -> None:
    init = verl_copy.package / "checkpoint_engine" / "__init__.py"
    lines = [ln for ln in init.read_text().splitlines(keepends=True) if "mooncake_checkpoint_engine" not in ln]
    init.write_text("".join(lines))
    data = engines.extract(verl_copy)
    assert "mooncake" not in data["resolution"]
    assert any(r["backend"] == "mooncake" and r["import_rank"] is None for r in data["registrations"])
