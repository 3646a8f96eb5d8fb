"""``delta_sharded`` guards: verl's own ``raise`` statements (read by :mod:`verl_cookbook.doctor_rules.delta_guards`)
evaluated on the merged config, once per run per tree (the run's :class:`~verl_cookbook.session.Session`)."""

from __future__ import annotations

from typing import Any

from verl_cookbook.checks.config.model import (
    Assignment,
    CheckedConfig,
    lookup_path,
)
from verl_cookbook.findings import Finding
from verl_cookbook.rules.engines import DELTA_REJECTED


class DeltaRules(CheckedConfig):
    """The ``delta_sharded`` rule of :class:`~verl_cookbook.checks.config.checker.ConfigChecker`."""

    def _check_delta(self, assigns: list[Assignment], cfg: dict, blocks: list[tuple[str, ...]]) -> list[Finding]:
        """A ``delta_sharded`` setup that one of verl's ``raise`` statements rejects at run time. ``blocks``: where
        verl's config holds a checkpoint_engine block (``model.ckpt_prefixes``)."""
        from verl_cookbook.doctor_rules import delta_guards
        from verl_cookbook.facts.delta_guards import DELTA

        out: list[Finding] = []
        for prefix in blocks:
            block = lookup_path(cfg, prefix)[2]
            if not isinstance(block, dict) or block.get("backend") != DELTA:
                continue
            mine = [a for a in assigns if a.path[: len(prefix)] == prefix] or assigns
            anchor = next((a for a in mine if a.path[len(prefix) :] == ("backend",)), mine[0])
            for guard in self.facts.delta_guards():
                verdict = delta_guards.evaluate(guard, cfg)
                if verdict.fires is not True:
                    continue
                read = [p for p in verdict.read if p[-1] != "backend"]
                where = next((hit for p in reversed(read) if (hit := _last_assignment_to(assigns, p))), anchor)
                settings = list(dict.fromkeys(t for p in read if (t := _setting_text(cfg, p))))
                out.append(
                    DELTA_REJECTED.at(
                        where.file,
                        where.line,
                        where.col,
                        fact=f"if {guard.condition_text}: raise {guard.error}",
                        fact_source=guard.source,
                        error=guard.error,
                        verl_message=delta_guards.render_message(guard, cfg),
                        settings=settings,
                    )
                )
        return out


def _last_assignment_to(assigns: list[Assignment], path: tuple[str, ...]) -> Assignment | None:
    """The last assignment to ``path``, to a mapping above it or to a key below it."""
    hits = [a for a in assigns if a.path[: min(len(a.path), len(path))] == path[: min(len(a.path), len(path))]]
    return hits[-1] if hits else None


def _setting_text(cfg: dict, path: tuple[str, ...]) -> str | None:
    node: Any = cfg
    for k in path:
        node = node.get(k) if isinstance(node, dict) else None
    return f"{'.'.join(path)}={node!r}" if node is not None and not isinstance(node, dict) else None
