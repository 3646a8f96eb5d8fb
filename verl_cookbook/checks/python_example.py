"""``check="python"``: a Python example compiles, its verl imports exist, and its overrides match verl's bases.

Everything here is static: the example is compiled, never run, and verl is read with ``ast``.

- A syntax error is reported at the page (or snippet) line it is on.
- A block written as an interactive session (``>>> x = 1``, ``...`` continuations, output lines) is judged as
  the code its prompts carry, line for line: Sphinx highlights a Python block that starts with ``>>>`` as a
  session (pycon), and doctest reads it the same way.
- ``from verl.x import Y`` must name something verl defines (re-exports followed).
- A class that subclasses a verl class (``class MyCallback(CheckpointCallback)`` after
  ``from verl.trainer.ppo.checkpoint_callback import CheckpointCallback``) must override verl's methods
  with compatible signatures: the base's parameters, by name, in the same order and of the same kind
  (positional or keyword-only), ``*args``/``**kwargs`` where the base has them (verl calls hooks with
  keywords and may pass more in later releases), and no new required parameter verl would not pass.
  A constructor (``__init__``, ``__new__``) is compared only when verl builds the object itself with the base's
  arguments (a tool from its config, a reward manager from the registry); whoever builds it picks the arguments, so
  not when the example constructs the class, nor for a single-controller worker, which verl builds with the
  arguments its caller stored (``RayClassWithInitArgs(cls, *args, **kwargs)``).

Running examples is a separate concern: pytest-markdown-docs runs the site's Python fences that need
nothing from verl (``verl_cookbook.markdown_docs_plugin``, which uses :func:`prepare_fence`; CONTRIBUTING.md).
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path
from typing import Any

from verl_cookbook.checks import Context, block_check
from verl_cookbook.checks.config.model import closest
from verl_cookbook.checks.verl_symbols import resolve_symbol
from verl_cookbook.facts.pyast import dotted_name
from verl_cookbook.findings import Finding
from verl_cookbook.markdown import CodeBlock, parse_info, read_text, resolve_include
from verl_cookbook.rules.scripts import PYTHON_OVERRIDE_SIGNATURE, PYTHON_SYNTAX, PYTHON_VERL_IMPORT
from verl_cookbook.verl_source import VerlTree

_MAX_BASE_DEPTH = 5
_CONSTRUCTORS = ("__init__", "__new__")
# verl classes whose subclasses verl constructs with the arguments the caller stored, not with the base's: a
# single-controller worker is built by ClassWithInitArgs, `self.cls(*self.args, **self.kwargs)`
# (verl/single_controller/base/worker_group.py:97-99 at 1dda039), on Ray `.remote(*self.args, **self.kwargs)`
# (verl/single_controller/ray/base.py:415). Its one extra, `cuda_visible_devices`, is passed only for a worker created
# `sharing_with` another (base.py:391-395), which no caller in verl does.
_BUILT_WITH_CALLERS_ARGS = {("verl/single_controller/base/worker.py", "Worker")}


_SESSION_PROMPT = re.compile(r"^(\s*)(>>>|\.\.\.)(?: |$)")


def interactive_session(code: str) -> tuple[str, list[int]] | None:
    """The code an interactive session carries, or None when ``code`` is not one (its first non-blank line does
    not start with ``>>>``). Line for line, so line numbers stay the page's: a prompt (``>>>``, or ``...`` right
    after a prompt line) is cut off, an output line becomes blank. Also returns, per line, how many columns
    the prompt took."""
    lines = code.splitlines()
    first = next((ln for ln in lines if ln.strip()), "")
    if not first.lstrip().startswith(">>>"):
        return None
    out: list[str] = []
    shift: list[int] = []
    in_example = False  # doctest: `...` continues the example above it; after output it is output (an ellipsis)
    for line in lines:
        m = _SESSION_PROMPT.match(line)
        if m and (m.group(2) == ">>>" or in_example):
            out.append(line[m.end() :])
            shift.append(m.end())
            in_example = True
        else:
            out.append("")
            shift.append(0)
            in_example = False
    return "\n".join(out) + "\n", shift


def _verl_imports(mod: ast.Module) -> dict[str, tuple[str, int, int]]:
    """Local name -> (dotted verl path, line, col) for ``from verl… import X [as Y]`` and ``import verl.… as m``."""
    out: dict[str, tuple[str, int, int]] = {}
    for node in ast.walk(mod):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "verl":
            for a in node.names:
                if a.name != "*":
                    out[a.asname or a.name] = (f"{node.module}.{a.name}", node.lineno, node.col_offset)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "verl":
                    out[a.asname or a.name.split(".")[0]] = (
                        a.name if a.asname else "verl",
                        node.lineno,
                        node.col_offset,
                    )
    return out


def _base_path(base: ast.AST, imports: dict[str, tuple[str, int, int]]) -> str | None:
    """The dotted verl path a base-class expression names, if it comes from verl."""
    name = dotted_name(base)
    if not name:
        return None
    head, _, rest = name.partition(".")
    if head not in imports:
        return None
    path = imports[head][0]
    return f"{path}.{rest}" if rest else path


def _methods(cls: ast.ClassDef) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    return {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _base_methods(
    tree: VerlTree, dotted: str, read: dict
) -> dict[str, tuple[ast.FunctionDef | ast.AsyncFunctionDef, str, str]]:
    """Methods of verl class ``dotted`` and its verl bases: name -> (def, class name, file). ``read``: the run's
    parsed verl files (``Session.verl_files``)."""
    out: dict[str, tuple[ast.FunctionDef | ast.AsyncFunctionDef, str, str]] = {}
    todo = [(dotted, 0)]
    seen: set[str] = set()
    while todo:
        path, depth = todo.pop(0)
        if path in seen or depth > _MAX_BASE_DEPTH:
            continue
        seen.add(path)
        rel, node, _missing, _offers = resolve_symbol(tree, path, read)
        if not isinstance(node, ast.ClassDef):
            continue
        for name, fn in _methods(node).items():
            out.setdefault(name, (fn, node.name, rel))
        # follow bases named in the same module or imported from verl
        module = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        src_mod = resolve_symbol(tree, module, read)[1]
        imports = _verl_imports(src_mod) if isinstance(src_mod, ast.Module) else {}
        for b in node.bases:
            base_name = dotted_name(b)
            if not base_name:
                continue
            via = _base_path(b, imports)
            todo.append((via or f"{module}.{base_name}", depth + 1))
    return out


def _sig(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    return f"{fn.name}({ast.unparse(fn.args)})"


def compare_signatures(
    mine: ast.FunctionDef | ast.AsyncFunctionDef, base: ast.FunctionDef | ast.AsyncFunctionDef
) -> list[dict[str, Any]]:
    """Why ``mine`` cannot stand in for ``base`` when verl calls it, each problem as the data of one part of
    python/override-signature's message (``{"case": "missing", "param": …}``); empty when it can."""
    problems: list[dict[str, Any]] = []
    ma, ba = mine.args, base.args
    m_pos = [a.arg for a in [*ma.posonlyargs, *ma.args]]
    b_pos = [a.arg for a in [*ba.posonlyargs, *ba.args]]
    m_kw = [a.arg for a in ma.kwonlyargs]
    b_kw = [a.arg for a in ba.kwonlyargs]
    m_all = set(m_pos) | set(m_kw)
    for i, name in enumerate(b_pos):
        if i < len(m_pos) and m_pos[i] == name:
            continue
        if name in m_pos:
            problems.append({"case": "position", "param": name, "here": m_pos.index(name) + 1, "there": i + 1})
        elif name in m_kw:
            problems.append({"case": "keyword-only", "param": name})
        elif ma.kwarg is None:  # **kwargs would take it when verl passes it by keyword, as it does for hooks
            hint = closest(name, [n for n in m_all if n not in b_pos and n not in b_kw])
            problems.append({"case": "missing", "param": name, "suggestion": hint})
    for name in b_kw:
        if name not in m_all and ma.kwarg is None:
            hint = closest(name, [n for n in m_all if n not in b_pos and n not in b_kw])
            problems.append({"case": "missing-keyword", "param": name, "suggestion": hint})
    if ba.vararg is not None and ma.vararg is None:
        problems.append({"case": "no-varargs", "param": ba.vararg.arg})
    if ba.kwarg is not None and ma.kwarg is None:
        problems.append({"case": "no-kwargs", "param": ba.kwarg.arg})
    # new parameters without a default are never passed by verl
    m_defaults = len(ma.defaults)
    required_pos = m_pos[: len(m_pos) - m_defaults] if m_defaults else m_pos
    for name in required_pos:
        if name not in b_pos and name not in b_kw and name not in ("self", "cls"):
            problems.append({"case": "new-required", "param": name})
    for a, d in zip(ma.kwonlyargs, ma.kw_defaults, strict=True):
        if d is None and a.arg not in b_pos and a.arg not in b_kw:
            problems.append({"case": "new-required-keyword", "param": a.arg})
    if isinstance(mine, ast.AsyncFunctionDef) != isinstance(base, ast.AsyncFunctionDef):
        problems.append({"case": "async"})
    return problems


def _constructed_in(mod: ast.Module, cls_name: str) -> bool:
    """Whether the example builds ``cls_name`` itself: ``Cls(...)``, ``Cls.remote(...)`` (a Ray actor), or
    ``…ClassWithInitArgs(Cls, ...)`` (verl builds it later with the arguments given here)."""
    for node in ast.walk(mod):
        if not isinstance(node, ast.Call):
            continue
        callee = dotted_name(node.func) or ""
        if callee in (cls_name, f"{cls_name}.remote"):
            return True
        if callee.rpartition(".")[2].endswith("ClassWithInitArgs"):
            given = [*node.args[:1], *(k.value for k in node.keywords if k.arg == "cls")]
            if any(dotted_name(a) == cls_name for a in given):
                return True
    return False


def _verl_builds_it(name: str, base_cls: str, rel: str, mod: ast.Module, cls: ast.ClassDef) -> bool:
    """Whether verl calls ``cls.name`` with the base's arguments. A method verl defines on a base is a hook verl
    calls; a constructor is called by whoever builds the object, and that is not verl when the example builds it or
    verl builds it with its caller's arguments."""
    if name not in _CONSTRUCTORS:
        return True
    return (rel, base_cls) not in _BUILT_WITH_CALLERS_ARGS and not _constructed_in(mod, cls.name)


@block_check("python", attrs=())
def check_python(block: CodeBlock, ctx: Context) -> list[Finding]:
    code = block.code
    shift: list[int] = []  # per line of ``code``, the columns a session's prompt took on the page
    session = interactive_session(code)
    if session is not None:
        code, shift = session

    def col(line: int, offset: int) -> int:  # a column of ``code`` on the page: a session's prompt comes first
        return offset + (shift[line - 1] if 0 < line <= len(shift) else 0)

    try:
        mod = ast.parse(code)
        compile(mod, block.page, "exec", dont_inherit=True)
    except SyntaxError as e:
        file, line = block.where(e.lineno or 1)
        return [PYTHON_SYNTAX.at(file, line, col(e.lineno or 1, e.offset or 1), error=str(e.msg))]
    except ValueError as e:  # e.g. null bytes
        return [PYTHON_SYNTAX.at(block.page, block.line, block.col, error=str(e))]
    findings: list[Finding] = []
    imports = _verl_imports(mod)
    if not imports:
        return findings
    tree = ctx.facts.source_tree(f"{block.page}:{block.line}: a Python block imports verl")
    for local, (path, line, column) in imports.items():
        if path == "verl":
            continue
        rel, node, missing, offers = resolve_symbol(tree, path, ctx.session.verl_files)
        if node is None:
            file, pline = block.where(line)
            choices = [c for c in offers.split(",") if c]
            name = (missing or [local])[0]
            findings.append(
                PYTHON_VERL_IMPORT.at(
                    file,
                    pline,
                    col(line, column + 1),
                    fact_source=rel or None,
                    path=path,
                    release=tree.label,
                    name=name,
                    file=rel or None,
                    suggestion=closest(name, choices),
                )
            )
    for cls in [n for n in ast.walk(mod) if isinstance(n, ast.ClassDef)]:
        for b in cls.bases:
            base_path = _base_path(b, imports)
            if not base_path:
                continue
            base_methods = _base_methods(tree, base_path, ctx.session.verl_files)
            for name, fn in _methods(cls).items():
                if name not in base_methods:
                    continue
                base_fn, base_cls, rel = base_methods[name]
                if not _verl_builds_it(name, base_cls, rel, mod, cls):
                    continue
                problems = compare_signatures(fn, base_fn)
                if not problems:
                    continue
                file, pline = block.where(fn.lineno)
                findings.append(
                    PYTHON_OVERRIDE_SIGNATURE.at(
                        file,
                        pline,
                        col(fn.lineno, fn.col_offset + 1),
                        fact=f"{base_cls}.{_sig(base_fn)}",
                        fact_source=f"{rel}:{base_fn.lineno}",
                        cls=cls.name,
                        method=name,
                        base=base_cls,
                        problems=problems,
                    )
                )
    return findings


# -- running the site's Python fences with pytest-markdown-docs -------------------------------------------
def runnable(code: str) -> bool:
    """Whether an example can run here: it parses, imports nothing from verl (verl is never imported),
    and every module it imports at top level is installed (checked with find_spec, not by importing)."""
    try:
        mod = ast.parse(code)
    except SyntaxError:
        return True  # let the run report it
    for node in ast.walk(mod):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        for n in names:
            top = n.split(".")[0]
            if top == "verl":
                return False
            try:
                if importlib.util.find_spec(top) is None:
                    return False
            except (ImportError, ValueError):
                return False
    return True


_NOTEST = "notest"


def prepare_fence(info: str, content: str, site_root: Path) -> tuple[str, str]:
    """A fence as pytest-markdown-docs should see it: ``--8<--`` includes resolved, and ``notest`` added
    when the fence is not ``check="python"`` or cannot run here (it needs verl or a missing module)."""
    lang, attrs = parse_info(info)
    if lang not in ("py", "python", "python3"):
        return info, content
    lines = []
    for line in content.splitlines():
        m = re.match(r"""^\s*-{1,}8<-{1,}\s+(["'])([^"']+)\1\s*$""", line)
        if m and not m.group(2).startswith(";"):
            target = resolve_include(m.group(2), site_root / "docs" / "index.md", [site_root])
            if target is not None:
                try:
                    lines.extend(read_text(target).splitlines())
                    continue
                except Exception:  # noqa: BLE001 - an unreadable include is reported by verl-cookbook check
                    pass
        lines.append(line)
    content = "\n".join(lines) + "\n"
    session = interactive_session(content)
    if session is not None:  # run the code a `>>>` session carries, as the static check reads it
        content = session[0]
    if attrs.get("check") != "python" or not runnable(content):
        stripped = info.strip()
        info = f"{stripped[:-1].rstrip()} {_NOTEST} }}" if stripped.endswith("}") else f"{stripped} {_NOTEST}"
    return info, content
