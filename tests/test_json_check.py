"""JSON blocks: syntax with the page line, the catalog's HCCL trust-list schema, IP addresses."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import fence, findings_for, rules

JSON = Path(__file__).parent / "data" / "json"


def _page(write_page, name: str, schema: str = "hccl_whitelist") -> Path:
    return write_page(
        "# t\n\n" + fence(f'--8<-- "snippets/{name}"', f'{{ .json check="json" schema="{schema}" }}'),
        files={f"snippets/{name}": (JSON / name).read_text()},
    )


def test_good_whitelist_passes(write_page, facts) -> None:
    assert findings_for(_page(write_page, "good_whitelist.json"), facts) == []


def test_readme_whitelist_is_invalid_json_with_line_and_column(write_page, facts) -> None:
    found = findings_for(_page(write_page, "bad_readme_whitelist.json"), facts)
    assert rules(found) == ["json/syntax"]
    assert found[0].path.endswith("snippets/bad_readme_whitelist.json")
    assert (found[0].line, found[0].col) == (1, 23)


def test_bad_ip_points_at_its_line(write_page, facts) -> None:
    found = findings_for(_page(write_page, "bad_ip_whitelist.json"), facts)
    assert rules(found) == ["json/schema-format"]
    assert found[0].line == 4 and "192.168.1.300" in found[0].message
    assert "HCCL_WHITELIST_FILE.md" in (found[0].fact_source or "")


def test_missing_host_ip_is_required(write_page, facts) -> None:
    assert rules(findings_for(_page(write_page, "bad_missing_host_ip.json"), facts)) == ["json/schema-required"]


@pytest.mark.parametrize(
    ("doc", "rule"),
    [
        ('{"host_ip": []}', "json/schema-minItems"),
        ('{"host_ip": ["10.0.0.1"], "hostip": []}', "json/schema-additionalProperties"),
        ('{"host_ip": "10.0.0.1"}', "json/schema-type"),
    ],
)
def test_schema_violations(write_page, facts, doc: str, rule: str) -> None:
    page = write_page("# t\n\n" + fence(doc, '{ .json check="json" schema="hccl_whitelist" }'))
    assert rules(findings_for(page, facts)) == [rule]


def test_unknown_schema_is_a_finding(write_page, facts) -> None:
    page = write_page("# t\n\n" + fence("{}", '{ .json check="json" schema="nope" }'))
    assert rules(findings_for(page, facts)) == ["json/unknown-schema"]


def test_plain_json_checks_syntax_only(write_page, facts) -> None:
    assert findings_for(write_page("# t\n\n" + fence('{"a": [1, 2]}', '{ .json check="json" }')), facts) == []
    assert rules(findings_for(write_page("# t\n\n" + fence('{"a": [1, 2,]}', '{ .json check="json" }')), facts)) == [
        "json/syntax"
    ]
