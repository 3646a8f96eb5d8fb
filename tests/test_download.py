"""A verl download says what it is doing on stderr, and a stalled package index ends in a message that names
the index's error instead of a silent wait. The index is a local socket that accepts and never answers."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator

import pytest

from verl_cookbook import verl_source
from verl_cookbook.cli import main


@pytest.fixture
def stalled_index(tmp_path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """An empty cache and a package index at 127.0.0.1 that accepts connections and never replies."""
    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    monkeypatch.setenv(verl_source.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # no extra index or find-links from the machine's config
    monkeypatch.delenv("PIP_FIND_LINKS", raising=False)
    monkeypatch.delenv("PIP_NO_INDEX", raising=False)
    monkeypatch.setenv("PIP_INDEX_URL", f"http://127.0.0.1:{server.getsockname()[1]}/simple")
    monkeypatch.setenv("PIP_DEFAULT_TIMEOUT", "1")
    monkeypatch.setenv("PIP_RETRIES", "1")
    yield f"127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for s in [*held, server]:
        s.close()


# a release the site does not cover: a covered one (0.8.0, say) runs from what ships and downloads nothing
UNCOVERED = "0.6.1"


def test_a_stalled_index_fails_naming_the_timeout(stalled_index: str, capsys) -> None:
    assert main(["facts", "--verl", UNCOVERED]) == 2
    err = capsys.readouterr().err
    assert f"downloading verl {UNCOVERED}" in err
    assert f"cannot obtain verl=={UNCOVERED} from the package index" in err and "timed out" in err.lower()
    assert "Traceback" not in err


def test_a_download_that_outlasts_the_deadline_is_stopped_and_says_so(
    stalled_index: str, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PIP_DEFAULT_TIMEOUT", "60")  # pip itself would wait a minute per request
    monkeypatch.setattr(verl_source, "PIP_DEADLINE", 3)
    assert main(["facts", "--verl", UNCOVERED]) == 2
    err = capsys.readouterr().err
    assert "stalled: no wheel after 3 s" in err and "timeout" in err
    assert not (verl_source.cache_dir() / "releases" / UNCOVERED).exists()  # nothing half-made is left


def test_a_covered_release_downloads_nothing_even_when_the_index_stalls(stalled_index: str, capsys) -> None:
    assert main(["facts", "--verl", "0.8.0"]) == 0  # its facts and sources ship with the package
    assert "downloading" not in capsys.readouterr().err


def test_a_cached_release_downloads_nothing_and_says_nothing(verl_tree, capsys) -> None:
    assert main(["facts", "--format", "json"]) == 0
    assert "downloading" not in capsys.readouterr().err


# -- a release that is not covered, from a local index: what the checker page says of --verl VERSION and latest -------
def _fake_release_wheel(verl_tree, folder, version: str, trap) -> None:
    """A verl wheel of ``version`` built from the pinned tree, with a second top-level package, an import trap and a
    requirement no index can satisfy."""
    import zipfile

    folder.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(folder / f"verl-{version}-py3-none-any.whl", "w") as zf:
        for path in sorted((verl_tree.root / "verl").rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                rel = path.relative_to(verl_tree.root).as_posix()
                data = path.read_bytes()
                if rel == "verl/__init__.py":
                    data = f"open({str(trap)!r}, 'w').write('imported')\n".encode() + data
                zf.writestr(rel, data)
        zf.writestr("not_verl/__init__.py", "")
        info = f"verl-{version}.dist-info"
        metadata = f"Metadata-Version: 2.1\nName: verl\nVersion: {version}\nRequires-Dist: no-such-dependency\n"
        zf.writestr(
            f"{info}/METADATA",
            metadata,
        )
        zf.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        zf.writestr(f"{info}/RECORD", "")


@pytest.fixture
def local_index(verl_tree, tmp_path, monkeypatch: pytest.MonkeyPatch):
    """pip sees only a folder of fake verl wheels (0.6.1 and 0.6.2), and the cache is empty."""
    trap = tmp_path / "imported"
    for version in ("0.6.1", "0.6.2"):
        _fake_release_wheel(verl_tree, tmp_path / "wheels", version, trap)
    monkeypatch.setenv(verl_source.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "wheels"))
    return trap


def test_an_uncovered_release_is_fetched_with_pip_download_and_only_its_verl_package_is_unpacked_never_imported(
    local_index, capsys
) -> None:
    assert main(["facts", "--verl", "0.6.1", "--format", "json"]) == 0
    assert "downloading verl 0.6.1 from the package index (pip download)" in capsys.readouterr().err
    unpacked = verl_source.cache_dir() / "releases" / "0.6.1"
    assert {p.name for p in unpacked.iterdir() if not p.name.startswith(".")} == {"verl"}  # not not_verl/
    assert not local_index.exists()  # verl/__init__.py never ran
    # the wheel requires a distribution no index has: only `pip download --no-deps` gets past it


def test_verl_latest_asks_the_index_for_the_newest_release_then_fetches_it(local_index, capsys) -> None:
    assert main(["facts", "--verl", "latest", "--format", "json"]) == 0
    assert "downloading verl 0.6.2 from the package index" in capsys.readouterr().err
    assert (verl_source.cache_dir() / "releases" / "0.6.2" / "verl").is_dir()
    assert not local_index.exists()


@pytest.mark.parametrize(
    ("version", "also_absent"),
    [("0.6.0", ()), ("0.4.1", ("verl/trainer/config/_generated_ppo_trainer.yaml",))],
    ids=["only-the-engine-absent", "older-release-lacking-more"],
)
def test_a_release_from_before_the_checkpoint_engine_is_refused_naming_the_first_one_without_ways_out(
    verl_tree, tmp_path, monkeypatch: pytest.MonkeyPatch, capsys, version: str, also_absent: tuple[str, ...]
) -> None:
    """verl 0.6.1 is on the index but has no verl/checkpoint_engine/: no copy or download of it helps, so the error
    says which release to use instead of suggesting --wheel or --verl-src (review8c F4). Older releases lack more
    (0.4.1 has no _generated_ppo_trainer.yaml): they get the same refusal, not the generic one (review41j-1)."""
    import zipfile

    _fake_release_wheel(verl_tree, tmp_path / "wheels", version, tmp_path / "imported")
    whl = tmp_path / "wheels" / f"verl-{version}-py3-none-any.whl"
    old = tmp_path / "old.whl"
    with zipfile.ZipFile(whl) as src, zipfile.ZipFile(old, "w") as dst:
        for item in src.infolist():
            if not item.filename.startswith("verl/checkpoint_engine/") and item.filename not in also_absent:
                dst.writestr(item, src.read(item))
    old.replace(whl)
    monkeypatch.setenv(verl_source.CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "wheels"))
    assert main(["facts", "--verl", version, "--format", "json"]) == 2
    err = capsys.readouterr().err
    assert "this release has no verl/checkpoint_engine/" in err and "use 0.7.1 or later" in err
    assert "ways out" not in err and "Traceback" not in err


def test_verl_latest_that_is_a_covered_release_downloads_nothing(tmp_path, monkeypatch: pytest.MonkeyPatch, capsys):
    """review18b #6: `--verl latest` is the index's newest release; when that release is covered (0.9.1 today), what
    ships with the package serves a launch script and nothing is downloaded."""

    def no_download(*_a, **_k):
        raise AssertionError("downloaded")

    monkeypatch.setattr(verl_source, "latest_release", lambda: "0.9.1")
    monkeypatch.setattr(verl_source, "_download_wheel", no_download)
    monkeypatch.setenv(verl_source.CACHE_ENV, str(tmp_path / "cache"))
    script = tmp_path / "run.sh"
    script.write_text("python3 -m verl.trainer.main_ppo actor_rollout_ref.rollout.name=vllm\n", encoding="utf-8")
    main(["doctor", "--verl", "latest", str(script)])
    err = capsys.readouterr().err
    assert "verl 0.9.1" in err and "downloading" not in err
    assert not (tmp_path / "cache" / "releases" / "0.9.1" / "verl").exists()
