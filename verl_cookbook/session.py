"""What one run of the checker keeps while it runs, and drops when it ends.

A run (one ``check``, ``doctor`` or ``facts`` command; one MkDocs build) makes one :class:`Session`, held by its
:class:`~verl_cookbook.facts.Facts` and reached by the checks as ``ctx.session``. Everything the checks remember
between pages lives here, not in module globals: two runs in one process (the tests, a served site) share nothing,
and nothing has to be reset afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Session:
    # Hydra's compositions made in this run, by composition key (``facts.compose``); also kept on disk
    compositions: dict[str, dict] = field(default_factory=dict)
    # the default compositions shipped for a covered release, by release, read once (``facts.compose.shipped``)
    shipped_compositions: dict[str, dict[str, dict]] = field(default_factory=dict)
    # the whole release, by label, when the run started from what ships of it (``Facts.source_tree``)
    whole_trees: dict[str, Any] = field(default_factory=dict)
    # the config groups Hydra sees for a primary config, by (folder, name) (``Facts.config_groups``)
    config_groups: dict[tuple[Any, str], set[str]] = field(default_factory=dict)
    # verl files read for claims, parsed once per run: (root, rel, mtime, size) -> what ``checks.verl_file`` derived
    verl_files: dict[tuple[str, str, int, int], Any] = field(default_factory=dict)
    # verl's delta_sharded run-time guards, parsed from the facts once per run, by tree root (``Facts.delta_guards``)
    guards: dict[str, list] = field(default_factory=dict)
    # ``bash -n`` and ShellCheck results of the shell blocks of this run, computed in one process per tool
    # (``checks.shell_tools.start_batches``): key -> result, and what was started but not yet collected
    shell_results: dict[tuple, object] = field(default_factory=dict)
    shell_pending: list[Callable[[], None]] = field(default_factory=list)
    # verl's files cited by the pages, read once per run: path -> its lines, None when it cannot be read
    # (``checks.citations``)
    cited_lines: dict[Path, list[str] | None] = field(default_factory=dict)
    # repository paths of every .py/.yaml file of a verl package, by package folder, and the same by file name
    # (``checks.citations``: a citation by short path or bare file name)
    package_files: dict[Path, frozenset[str]] = field(default_factory=dict)
    files_by_name: dict[Path, dict[str, list[str]]] = field(default_factory=dict)
    # each page's citations, by (package folder, page text): the citation check and claim coverage both read them
    page_citations: dict[tuple[Path, str], list[Any]] = field(default_factory=dict)
    # each other release a page cites, as far as it is here without the network, by release (``checks.citations``)
    other_releases: dict[str, Any] = field(default_factory=dict)
    # what ``checks.required_values`` read from verl's files: (what, tree root, arguments) -> result
    required_values: dict[tuple, Any] = field(default_factory=dict)
    # the inputs of block and claim checks that found nothing in this run, minus where they sit (``runner``)
    clean_checks: set[tuple] = field(default_factory=set)
    # (group folder, option) of every config YAML in a verl package, by package folder (``doctor.inputs``)
    config_options: dict[str, frozenset[tuple[str, str]]] = field(default_factory=dict)
    # claim coverage (``checks.coverage``): the site's debt list by site root, read once; verl's package folder that
    # citations resolve in, by release
    coverage_debt: dict[str, Any] = field(default_factory=dict)
    coverage_packages: dict[str, Path] = field(default_factory=dict)
