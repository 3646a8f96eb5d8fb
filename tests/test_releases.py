"""verl versions are ordered as pip orders them (PEP 440): pre-releases and dev releases before the release."""

from __future__ import annotations

import pytest

from verl_cookbook.releases import covered_releases, default_release, version_key


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("0.9.1rc1", "0.9.1"),  # a release candidate comes before its release
        ("0.9.1", "0.9.2"),
        ("0.9.1rc1", "0.9.2"),  # sorted after 0.9.2 by the old digit key
        ("0.10.0.dev1", "0.10.0"),  # a dev release comes before its release (sorted after it by the old key)
        ("0.10.0.dev1", "0.10.0rc1"),
        ("0.9.2", "0.10.0"),  # numeric, not text, order of the pieces
        ("0.10.0", "0.10.0.post1"),
        ("0.9", "0.9.1"),
    ],
)
def test_versions_order_as_pep_440(older: str, newer: str) -> None:
    assert version_key(older) < version_key(newer)


def test_trailing_zeros_are_the_same_version() -> None:
    assert version_key("0.9") == version_key("0.9.0")


def test_a_shuffled_list_sorts_the_way_pip_would() -> None:
    pip_order = ["0.8.0", "0.9.0.dev2", "0.9.0rc1", "0.9.0", "0.9.1rc1", "0.9.1", "0.9.2", "0.10.0.dev1", "0.10.0"]
    shuffled = [pip_order[i] for i in (4, 8, 0, 6, 2, 7, 1, 5, 3)]
    assert sorted(shuffled, key=version_key) == pip_order


def test_the_covered_releases_are_listed_oldest_first_and_include_the_default() -> None:
    releases = covered_releases()
    assert releases == sorted(releases, key=version_key)
    assert default_release() in releases
