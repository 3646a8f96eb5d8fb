"""The figures and outputs the tools pages show are what the tool prints and ships now: each test runs the command
(or reads the file) the page describes and compares with what the page shows, in both languages."""

from __future__ import annotations

import fnmatch
import json
import math
import re
from pathlib import Path

import pytest

from verl_cookbook import cli

REPO = Path(__file__).resolve().parent.parent
TOOLS = REPO / "docs" / "tools"
CHECKER = ("checker.md", "checker.en.md")


def _section(page: str, anchor: str) -> str:
    """The text of ``page``'s section whose heading carries ``{ #anchor }``, up to the next heading of its level
    (a ``#`` line inside a fenced block is no heading)."""
    lines = (TOOLS / page).read_text(encoding="utf-8").splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if re.match(rf"#+ .*\{{ #{anchor} \}}$", line)), None)
    assert start is not None, f"{page} has no section #{anchor}"
    level = len(lines[start]) - len(lines[start].lstrip("#"))
    fence = ""
    for i in range(start + 1, len(lines)):
        m = re.match(r"(`{3,})", lines[i])
        if m and (not fence or (m.group(1) == fence and not lines[i].strip("`\n"))):
            fence = "" if fence else m.group(1)
        elif not fence and re.match(rf"#{{1,{level}}} ", lines[i]):
            return "".join(lines[start + 1 : i])
    return "".join(lines[start + 1 :])


def _fences(text: str) -> list[tuple[str, str]]:
    """(opening line, body) of each top-level fenced block of ``text``."""
    out = []
    for m in re.finditer(r"^(`{3,})([^\n]*)\n(.*?)\n\1$", text, re.M | re.S):
        out.append((m.group(2), m.group(3)))
    return out


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = cli.main(args)
    got = capsys.readouterr()
    return code, got.out, got.err


# -- checker: output formats ---------------------------------------------------------------------------------------
def _formats_example(page: str) -> tuple[str, list[str]]:
    """The example page shown in the formats section, and the three console outputs after it."""
    fences = _fences(_section(page, "formats"))
    pages = [body for attrs, body in fences if 'title="docs/sync.md"' in attrs]
    outputs = [body for attrs, body in fences if "console output" in attrs]
    assert len(pages) == 1 and len(outputs) == 3, page
    return pages[0] + "\n", outputs


def _shown_command(text: str) -> list[str]:
    """The arguments of the ``$ verl-cookbook …`` line that opens a console block."""
    first = text.partition("\n")[0]
    assert first.startswith("$ verl-cookbook "), first
    return first.split()[2:]


@pytest.mark.parametrize("page", CHECKER)
def test_the_three_outputs_on_the_checker_page_are_what_check_prints_for_its_example_page(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    example, (text, as_json, github) = _formats_example(page)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "sync.md").write_text(example, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    args = _shown_command(text)  # the 中文 page shows --lang zh
    assert args[0] == "check" and "docs/sync.md" in args
    code, out, err = _run(args, capsys)
    assert code == 1
    assert text == f"$ verl-cookbook {' '.join(args)}\n{out}{err}".rstrip("\n")
    assert _run([*args, "--format", "json"], capsys)[1].rstrip("\n") == as_json
    assert _run([*args, "--format", "github"], capsys)[1].rstrip("\n") == github


@pytest.mark.parametrize("page", CHECKER)
def test_the_json_fields_the_checker_page_lists_are_the_fields_check_writes(page: str):
    item = re.search(r"^- `json`.*?(?=\n- |\n\n)", _section(page, "formats"), re.M | re.S)
    assert item, page
    spans = re.findall(r"`(\w+)`", item.group(0).partition("<!--")[0])[1:]  # the first span is the format's name
    listed = list(dict.fromkeys(spans))  # a field the item names twice (to say what it holds) counts once
    _, outputs = _formats_example(page)
    written = json.loads(outputs[1])
    assert written and all(list(f) == listed for f in written)


def test_a_field_list_missing_a_field_check_writes_is_caught():
    item = "- `json`: a list of findings, each with the fields `path`, `line`, `col`, `rule`, `message`"
    listed = re.findall(r"`(\w+)`", item)[1:]
    _, outputs = _formats_example(CHECKER[1])
    assert any(list(f) != listed for f in json.loads(outputs[1]))


# -- checker: what the banner says is checked ---------------------------------------------------------------------
_BANNER_PAGE = """# Page

```yaml
actor_rollout_ref: {}
```

``` { .yaml check="skip" reason="console output" }
not: [valid yaml
```

``` { .yaml check="skip" }
a: 1
```

``` { .yaml check="config" root="actor_rollout_ref.rollout.checkpoint_engine" }
backend: nccl
no_such_key: 1
```
"""


def test_the_checker_checks_declared_blocks_and_only_asks_a_skipped_block_for_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    """What the checker page's banner says holds: a block that declares nothing is a finding, a ``skip`` block is
    not checked (its broken YAML draws nothing) but must give a reason, a declared check is run."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(_BANNER_PAGE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = _run(["check", "docs/page.md", "--format", "json", "--ignore", "coverage"], capsys)
    found = sorted((f["line"], f["rule"]) for f in json.loads(out))
    assert code == 1
    assert found == [(3, "snippet/undeclared"), (11, "snippet/skip-without-reason"), (17, "config/unknown-key")], found
    for page in CHECKER:  # the page says so in its overview, the first paragraph under the H2 { #overview }
        overview = (TOOLS / page).read_text(encoding="utf-8").partition("{ #overview }\n\n")[2].partition("\n\n")[0]
        assert "skip" in overview and "※" in overview, f"{page}: the overview no longer says what is not checked"


# -- checker: the size of what a covered release ships ---------------------------------------------------------
def _kb_range(sizes: list[int]) -> str:
    """``360~530 kB``: the smallest size rounded down and the largest rounded up, to 10 kB (both languages write a
    range with ``~``, scripts/prose_terms.py; the 中文 page writes the unit ``KB`` as the CANN docs do)."""
    return f"{math.floor(min(sizes) / 10_000) * 10}~{math.ceil(max(sizes) / 10_000) * 10} [kK]B"


@pytest.mark.parametrize("page", CHECKER)
def test_the_shipped_source_sizes_on_the_checker_page_are_those_of_the_files_in_the_package(page: str):
    import gzip

    files = sorted((REPO / "verl_cookbook" / "data" / "sources").glob("*.json"))
    assert files
    raw = [f.stat().st_size for f in files]
    packed = [len(gzip.compress(f.read_bytes())) for f in files]
    section = _section(page, "offline")
    assert re.search(_kb_range(raw), section) and re.search(_kb_range(packed), section), (raw, packed)


# -- verl-ci: the run on verl's main branch (recorded by scripts/measure_verl_main.py) -------------------------
VERL_CI = ("verl-ci.md", "verl-ci.en.md")


def _record() -> dict:
    return json.loads((REPO / "tests" / "data" / "verl_main_run.json").read_text(encoding="utf-8"))


def test_the_recorded_run_is_of_the_command_the_verl_ci_snippet_gives():
    snippet = (REPO / "snippets" / "tools" / "verl_checkout.sh").read_text(encoding="utf-8")
    line = next(x for x in snippet.splitlines() if "--write-baseline" in x)
    assert re.sub(r" --write-baseline \S+", "", line) == _record()["command"]
    assert f"{_record()['findings']} findings" in _record()["summary"]


def _stated_run_differs(text: str) -> str | None:
    """What the baseline section ``text`` states about the recorded run that the record does not say, or None."""
    record = _record()
    m = re.search(r"`([0-9a-f]{12})`.*?(\d+)(?: findings| 个问题| 条检查结果)", text, re.S)
    if m is None:
        return "no commit and findings figure"
    if not record["commit"].startswith(m.group(1)):
        return f"commit {m.group(1)}, recorded {record['commit']}"
    if int(m.group(2)) != record["findings"]:
        return f"{m.group(2)} findings, recorded {record['findings']}"
    return None


@pytest.mark.parametrize("page", VERL_CI)
def test_the_verl_ci_page_states_the_recorded_run_of_its_command_on_verl_main(page: str):
    assert _stated_run_differs(_section(page, "baseline")) is None, page


@pytest.mark.parametrize("page", VERL_CI)
def test_a_changed_findings_figure_on_the_verl_ci_page_is_caught(page: str):
    """Mutation: the page's figure changed by hand (as the old 71 against the command's 59) fails the test above."""
    text, n = _section(page, "baseline"), _record()["findings"]
    changed, count = re.subn(rf"\b{n}(?= findings| 个问题| 条检查结果)", str(n + 12), text, count=1)
    assert count == 1, page
    assert _stated_run_differs(changed) == f"{n + 12} findings, recorded {n}"


@pytest.mark.parametrize("page", VERL_CI)
def test_the_readme_run_on_the_verl_ci_page_is_the_recorded_one(page: str):
    record = _record()
    shown = [body for attrs, body in _fences(_section(page, "example-readme")) if "console output" in attrs]
    suffix = "_zh" if page == "verl-ci.md" else ""  # the 中文 page shows the run with --lang zh
    assert shown == [f"$ {record['readme_command' + suffix]}\n{record['readme_output' + suffix]}"]
    commit = re.search(r"`([0-9a-f]{12})`", _section(page, "example-readme"))
    assert commit and record["commit"].startswith(commit.group(1))


# -- verl-ci: the workflows the page describes ------------------------------------------------------------------
def _workflow(path: Path) -> dict:
    import yaml

    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def _runs(workflow: dict) -> list[str]:
    return [
        " ".join(step["run"].split()) for job in workflow["jobs"].values() for step in job["steps"] if "run" in step
    ]


def test_the_drift_workflow_checks_what_a_pull_request_changes_and_every_page_on_main():
    flow = _workflow(REPO / "snippets" / "tools" / "verl-docs-drift.yml")
    paths = flow["on"]["pull_request"]["paths"]
    assert "verl/**" in paths  # a change to the code the pages cite runs the job
    (step,) = [s for job in flow["jobs"].values() for s in job["steps"] if "$CHANGED" in s.get("run", "")]
    # every path the check reads is one a pull request's change to it triggers the job for, and no trigger is
    # wider than what is checked (a README outside them would run the job and check nothing: review39j-4)
    argv = step["run"].split()
    checked = argv[argv.index("$CHANGED") + 1 :]  # the paths follow the options
    assert checked == ["docs/", "verl/checkpoint_engine/README.md"], checked
    for path in checked:
        assert any(fnmatch.fnmatch(path.rstrip("/") + "/x" if path.endswith("/") else path, p) for p in paths), path
    for pattern in paths:
        assert pattern in {"docs/**", "verl/**"}, f"{pattern} triggers the job for files it never checks"
    assert flow["on"]["push"]["branches"] == ["main"]
    changed = step["env"]["CHANGED"]
    # --changed only on a pull request (against its target branch); on a push to main the variable is empty
    assert "github.event_name == 'pull_request'" in changed and "--changed=origin/" in changed and "|| ''" in changed
    assert "--baseline" in step["run"] and "--format github" in " ".join(step["run"].split())


def test_the_drift_workflow_installs_from_a_clone_and_names_the_tag_form():
    """With no release tag the workflow must work as written: it installs from a clone of the repository, and the way
    to pin a version (check out a commit after the clone) is named in a comment and on the page; no unreleased tag."""
    flow = _workflow(REPO / "snippets" / "tools" / "verl-docs-drift.yml")
    (step,) = [s for job in flow["jobs"].values() for s in job["steps"] if s.get("name") == "Install verl-cookbook"]
    lines = [line.strip() for line in step["run"].splitlines() if line.strip()]
    assert lines[0].startswith("git clone https://github.com/verl-cookbook/verl-cookbook.git ")
    assert lines[1].startswith("python -m pip install ") and "@v" not in lines[1]
    text = (REPO / "snippets" / "tools" / "verl-docs-drift.yml").read_text(encoding="utf-8")
    assert 'git -C "$RUNNER_TEMP/verl-cookbook" checkout <commit>' in text and "@v0." not in text
    for page in VERL_CI:
        note = (REPO / "docs" / "tools" / page).read_text(encoding="utf-8")
        assert "`Install verl-cookbook`" in note and "@v0." not in note


def test_the_canary_workflow_checks_the_site_against_the_newest_release_once_a_week():
    flow = _workflow(REPO / ".github" / "workflows" / "canary.yml")
    (cron,) = [c["cron"] for c in flow["on"]["schedule"]]
    minute, hour, day, month, weekday = cron.split()
    assert (day, month) == ("*", "*") and weekday.isdigit()  # one day of every week
    assert any(r.startswith("verl-cookbook check --verl latest") for r in _runs(flow))


def test_the_pre_commit_config_on_the_verl_ci_page_pins_a_tag_and_names_the_hook():
    import yaml

    (repo,) = yaml.safe_load((REPO / "snippets" / "tools" / "pre-commit-config.yaml").read_text())["repos"]
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert re.fullmatch(r"v\d+\.\d+\.\d+|[0-9a-f]{40}|<commit>", repo["rev"])  # a tag or a commit, not a branch
    assert [h["id"] for h in repo["hooks"]] == [hooks[0]["id"]] == ["verl-cookbook-check"]


@pytest.mark.parametrize("page", VERL_CI)
def test_the_verl_ci_page_counts_verls_doc_pages_as_the_recorded_run_found_them(page: str):
    """The page says most of verl's doc pages are .rst; the recorded run on verl main counted them."""
    record = _record()
    text = " ".join(_section(page, "declaring-checks").split())
    assert "多数为 `.rst` 文件" in text or "most of them are `.rst` files" in text, page
    assert record["docs_rst"] > record["docs_md"]  # "most of them"


# -- contributing: what a contributor needs first --------------------------------------------------------------------
def test_the_contributor_prerequisites_are_what_install_sh_sets_up():
    import tomllib

    script = (REPO / "scripts" / "install.sh").read_text(encoding="utf-8")
    assert "apt-get" in script and "shellcheck" in script and "chromium" in script and '[ "$(id -u)" = 0 ]' in script
    assert "npm ci" in script and 'pip install -q -e ".[docs,test]"' in script
    # steps 5-8: what the tests need offline, in the order the page names them
    later = [
        script.index(s)
        for s in ("markdown-it-py>=4", "from_release(", "pip wheel", "startup_env.sh", "torchtitan_env.sh")
    ]
    assert later == sorted(later) and "~1.9 GB" in script
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["requires-python"] == ">=3.10"
    for page in ("contributing.md", "contributing.en.md"):
        text = (REPO / "docs" / page).read_text(encoding="utf-8")
        section = text[text.index("{ #contributor-prerequisites }") : text.index("{ #how-checks-work }")]
        assert "3.10" in section and "bash scripts/install.sh" in section and "npm ci" in section
        assert "1.9 GB" in section and "torchtitan" in section and "markdown-it-py" in section


# -- contributing: the navigation ----------------------------------------------------------------------------------
def _named_nav_entries(nav: list) -> list[str]:
    """The names the nav gives by hand: each section, and each page listed as ``name: path``."""
    out: list[str] = []
    for item in nav:
        if isinstance(item, dict):
            for name, value in item.items():
                out.append(name)
                if isinstance(value, list):
                    out += _named_nav_entries(value)
    return out


def _mkdocs() -> dict:
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)  # mkdocs.yml's !!python/name tags
    return yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


def _missing_translations(config: dict) -> list[str]:
    (i18n,) = [p["i18n"] for p in config["plugins"] if isinstance(p, dict) and "i18n" in p]
    (en,) = [lang for lang in i18n["languages"] if lang["locale"] == "en"]
    return [n for n in _named_nav_entries(config["nav"]) if n not in en.get("nav_translations", {})]


def test_every_section_and_short_page_name_of_the_nav_has_its_english_name():
    config = _mkdocs()
    assert _named_nav_entries(config["nav"])
    assert _missing_translations(config) == []


def test_a_nav_name_without_an_english_name_is_caught():
    config = _mkdocs()
    config["nav"] = [*config["nav"], {"新栏目": ["index.md"]}]
    assert _missing_translations(config) == ["新栏目"]


# -- checker: facts ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("page", CHECKER)
def test_the_facts_lines_on_the_checker_page_are_what_facts_prints(
    page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    (shown,) = [body for attrs, body in _fences(_section(page, "facts")) if "console output" in attrs]
    command, _, lines = shown.partition("\n")
    assert command == '$ verl-cookbook facts | grep "on npu"'
    monkeypatch.chdir(tmp_path)  # no verl installed here: the pinned release, as the page says
    code, out, _ = _run(["facts", "--verl", "0.9.1"], capsys)
    assert code == 0
    assert lines == "\n".join(line for line in out.splitlines() if "on npu" in line)


# -- checker: the cache folder -----------------------------------------------------------------------------------
def test_cache_info_names_verl_cookbook_cache_then_xdg_cache_home_then_the_home_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    def where() -> str:
        code, out, _ = _run(["cache", "info"], capsys)
        assert code == 0
        return out

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("VERL_COOKBOOK_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert str(tmp_path / "home" / ".cache" / "verl-cookbook") in where()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert str(tmp_path / "xdg" / "verl-cookbook") in where()
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "own"))
    assert str(tmp_path / "own") in where() and "xdg" not in where()


# -- checker: install ------------------------------------------------------------------------------------------------
def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


@pytest.mark.parametrize("page", CHECKER)
def test_the_dependencies_the_checker_page_lists_are_those_of_pyproject(page: str):
    # read as text, as tests/test_workflows.py does: tomllib is Python 3.11+, the package supports 3.10
    block = re.search(
        r"^dependencies = \[\n(.*?)^\]", (REPO / "pyproject.toml").read_text(encoding="utf-8"), re.M | re.S
    )
    assert block
    required = {
        _normal(re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0]) for d in re.findall(r'^\s*"([^"]+)"', block.group(1), re.M)
    }
    assert len(required) >= 8
    sentence = re.search(r"(?:depends on|依赖) (.*?)(?:\(|（)", _section(page, "prerequisites"), re.S)
    assert sentence, page
    words = re.split(r",\s*|、|\s+and\s+|\s+和\s+", " ".join(sentence.group(1).split()))
    listed = {_normal(n.strip()) for n in words if n.strip()}
    assert listed == required


# -- verl-ci: a checkout needs no network ------------------------------------------------------------------------
_REGISTERED = 'verl/checkpoint_engine/hccl_checkpoint_engine.py" match=\'@CheckpointEngineRegistry.register("nccl")\''
CLAIM_PAGE = """# Sync

``` { .yaml check="config" }
actor_rollout_ref:
  rollout:
    checkpoint_engine:
      backend: nccl
```

The HCCL engine registers under the name `nccl`.
<!-- check: contains file="{registered} -->
""".replace("{registered}", _REGISTERED)


def test_a_check_with_verl_src_reads_the_checkout_and_never_opens_a_connection_or_downloads(
    verl_copy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    import socket

    from verl_cookbook import verl_source

    def refused(*args, **kwargs):
        raise AssertionError("the check reached for the network")

    monkeypatch.setattr(socket.socket, "connect", refused)
    monkeypatch.setattr(socket, "create_connection", refused)
    monkeypatch.setattr(verl_source, "_download_wheel", refused)
    monkeypatch.setenv("VERL_COOKBOOK_CACHE", str(tmp_path / "fresh-cache"))
    page = tmp_path / "sync.md"
    page.write_text(CLAIM_PAGE, encoding="utf-8")
    code, out, err = _run(["check", str(page), "--verl-src", str(verl_copy.root)], capsys)
    assert (code, out) == (0, ""), err
    assert "1 claim" in err and "0 findings" in err


@pytest.mark.parametrize("where", ["root", "package"])
def test_verl_src_takes_the_repository_root_or_its_verl_folder(
    where: str, verl_copy, tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    page = tmp_path / "sync.md"
    page.write_text(CLAIM_PAGE, encoding="utf-8")
    tree = verl_copy.root if where == "root" else verl_copy.root / "verl"
    code, out, err = _run(["check", str(page), "--verl-src", str(tree)], capsys)
    assert (code, out) == (0, ""), err
    assert "1 claim" in err


def _stated_kb(page: str, folder: str) -> int:
    """The bound the checker page's cache table states for ``folder`` (``under N kB`` / ``不超过 N KB``)."""
    row = next(ln for ln in (TOOLS / page).read_text(encoding="utf-8").splitlines() if ln.startswith(f"| `{folder}/`"))
    m = re.search(r"(?:under|不超过) (\d+) [kK]B", row.rsplit("|", 2)[-2])
    assert m, row
    return int(m.group(1))


@pytest.fixture(scope="module")
def cold_cache_kb(verl_tree, tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    """kB in each cache folder after a site check and one tree's facts from an empty cache (measured once for both
    languages' pages: the check of the whole site is the costly part)."""
    import shutil

    cache = tmp_path_factory.mktemp("cold") / "cache"
    release = cache / "releases" / verl_tree.root.name
    shutil.copytree(verl_tree.root, release)  # the pinned release, unpacked as the first run leaves it
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("VERL_COOKBOOK_CACHE", str(cache))
        mp.chdir(REPO)
        assert cli.main(["check"]) in (0, 1)  # the whole site (its findings, if any, are cached too)
        assert cli.main(["facts", "--verl-src", str(release), "--format", "json"]) == 0  # one tree's facts
    return {
        folder: sum(p.stat().st_size for p in (cache / folder).rglob("*") if p.is_file()) / 1000
        for folder in ("facts", "compose", "pages")
    }


@pytest.mark.parametrize("page", CHECKER)
def test_the_cache_sizes_on_the_checker_page_are_those_of_a_site_check_from_an_empty_cache(
    page: str, cold_cache_kb: dict[str, float]
):
    for folder, measured in cold_cache_kb.items():
        stated = _stated_kb(page, folder)
        # a bound that holds, and not so loose that it says nothing (review22b F1: "about 5 kB" read as exact)
        assert stated / 4 <= measured <= stated, (folder, stated, measured)
