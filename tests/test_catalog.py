"""The curated catalog: every file fits the catalog schema, every entry has a source, values are judged."""

from __future__ import annotations

import copy

import jsonschema
import pytest

from verl_cookbook import catalog


def test_catalog_files_fit_their_schema() -> None:
    assert catalog.validate_catalog() == []


def test_catalog_schema_rejects_an_entry_without_source() -> None:
    data = copy.deepcopy(catalog.load_file("env_hccl.yaml"))
    del data["vars"]["HCCL_BUFFSIZE"]["source"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, catalog.meta_schema())


def test_every_entry_is_bilingual_and_sourced() -> None:
    entries = {**catalog.env_catalog().vars, **catalog.cmake_catalog()["options"]}
    assert {
        "HCCL_WHITELIST_DISABLE",
        "ASCEND_USE_SHORT_CONNECTION",
        "ASCEND_RT_VISIBLE_DEVICES",
        "USE_ASCEND_DIRECT",
    } <= set(entries)
    for name, e in entries.items():
        assert e["meaning"]["en"] and e["meaning"]["zh"], name
        assert e["source"].startswith("https://"), name


def test_cmake_options_carry_the_line_of_their_option_call() -> None:
    opt = catalog.cmake_catalog()["options"]["USE_ASCEND_DIRECT"]
    assert opt["default"] == "OFF" and opt["source"].endswith("common.cmake#L94")


def test_intra_roce_is_marked_unsupported_on_950() -> None:
    assert catalog.env_entry("HCCL_INTRA_ROCE_ENABLE")["products"]["Ascend 950PR/950DT"] == "unsupported"


@pytest.mark.parametrize(
    ("spec", "good", "bad"),
    [
        ({"type": "enum", "values": ["0", "1"]}, "1", "2"),
        ({"type": "int", "min": 120, "max": 7200}, "1500", "60"),
        ({"type": "int", "min": 1}, "200", "2O0"),
        ({"type": "number", "min": 0}, "0.05", "-1"),
        ({"type": "port_ranges"}, "61000,61050-61100", "61000-60000"),
        ({"type": "port_ranges"}, "auto", "70000"),
        ({"type": "ip"}, "fe80::1", "10.0.0.256"),
        ({"type": "int_list", "ascending": True}, "0,1,2", "2,1"),
        ({"type": "regex", "pattern": "^[0-9]+:[0-9]+$"}, "4:8", "4x8"),
        ({"type": "json"}, '{"a": 1}', "{a: 1}"),
        ({"type": "cmake_bool"}, "on", "maybe"),
    ],
)
def test_check_value(spec: dict, good: str, bad: str) -> None:
    assert catalog.check_value(spec, good) is None
    assert catalog.check_value(spec, bad)


def test_whitelist_schema_is_known() -> None:
    assert "hccl_whitelist" in catalog.schema_names()
    assert catalog.schema("../catalog") is None
