"""``ascend/rebuild-group-npu``: ``rebuild_group=True`` under the HCCL engine is reported on Ascend, on the
line that sets it, and only while verl's HCCL engine still calls ``destroyComm`` in ``finalize()``."""

from __future__ import annotations

from pathlib import Path

from verl_cookbook.doctor import diagnose
from verl_cookbook.doctor_rules import ascend_env, site_url
from verl_cookbook.facts import load_facts

DATA = Path(__file__).resolve().parent / "data" / "doctor"
RULE = "ascend/rebuild-group-npu"


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, text in enumerate(path.read_text().splitlines(), 1) if needle in text)


def _hits(report) -> list:
    return [d for d in report.findings if d.finding.rule == RULE]


def test_rebuild_group_true_on_npu_shell_points_at_the_override_and_the_destroycomm_line(facts):
    path = DATA / "nccl_npu_rebuild_group.sh"
    (hit,) = _hits(diagnose(path, facts))
    assert hit.finding.line == _line_of(path, "rebuild_group=true")
    file, line = hit.finding.fact_source.rsplit(":", 1)
    assert ".destroyComm(" in facts.tree.read(file).splitlines()[int(line) - 1]
    assert "AttributeError" in hit.finding.message
    assert "rebuild_group=False" in hit.fix
    assert hit.link == site_url() + "latest/backends/nccl-hccl/#rebuild-group-npu"


def test_rebuild_group_true_in_a_yaml_config_on_npu_is_reported_on_its_key(facts):
    path = DATA / "nccl_npu_rebuild_group.yaml"
    (hit,) = _hits(diagnose(path, facts))
    assert hit.finding.line == _line_of(path, "rebuild_group: true")


def test_default_rebuild_group_on_npu_is_silent(facts):
    report = diagnose(DATA / "npu_nccl_ok.sh", facts)
    assert not _hits(report)
    assert not report.findings


def test_rebuild_group_on_gpu_is_silent(facts):
    report = diagnose(DATA / "nccl_gpu_rebuild_group.sh", facts)
    assert report.device.value == "gpu"
    assert not _hits(report)


def test_rule_goes_quiet_once_verl_stops_calling_destroycomm(verl_copy):
    p = verl_copy.root / ascend_env.HCCL_ENGINE
    text = p.read_text()
    fixed = text.replace("self.pyhccl.destroyComm(self.pyhccl.comm)", "self.pyhccl.close()")
    assert fixed != text
    p.write_text(fixed)
    report = diagnose(DATA / "nccl_npu_rebuild_group.sh", load_facts(verl_copy, use_cache=False))
    assert not _hits(report)
