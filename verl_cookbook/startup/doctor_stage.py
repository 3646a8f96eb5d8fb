"""``doctor --startup``: the trainer commands doctor read, handed to the startup stage; its findings and notes
added to each file's report. The integration point in doctor (``doctor.command``) is one call to :func:`apply`."""

from __future__ import annotations

from typing import Any

from verl_cookbook import startup
from verl_cookbook.findings import Finding


def jobs_for(file: str, units: list[Any], env: dict[str, tuple[str | None, int]] | None = None) -> list[startup.Job]:
    """One job per trainer command (a unit with its entry module); YAML configs have none."""
    jobs = []
    for i, u in enumerate(units):
        module = getattr(u, "module", None)
        if not module:
            continue
        symbolic = {tuple(k) for k in getattr(u, "symbolic", set())}
        overrides = [
            startup.Override(a.override_text(), a.line, a.col, a.path in symbolic)
            for a in u.assignments
            if a.op != "yaml"
        ]
        known_env = {k: v for k, (v, _ln) in (env or {}).items() if v is not None and "$" not in v}
        jobs.append(startup.Job(f"{file}#{i}", file, u.line, module, overrides, u.config, known_env))
    return jobs


_NO_COMMAND = {
    "yaml": "a YAML config has no command for verl to start: give --startup the launch script that uses this config",
    "": "no verl trainer command in this file",
}


def not_run_note(why: str) -> str:
    return f"startup stage not run: {why}"


def apply(reports: list[Any], python: str | None, version: str | None, make_finding: Any) -> str | None:
    """Run the stage over every report's trainer commands (one worker process for all files); add findings
    (through ``make_finding``, which wraps a :class:`Finding` the way the report holds it) and notes. Returns a
    line for the summary: which verl judged, or why the stage did not run."""
    per_report = [(r, jobs_for(r.path, getattr(r, "units", []), getattr(r, "env", None))) for r in reports]
    jobs = [j for _r, js in per_report for j in js]
    for r, js in per_report:  # asked for, not run on this file: say so, or a clean result reads as verl's (review42j-2)
        kind = getattr(r, "kind", "")
        # A script alone without a command has the summary line below and doctor's own "no verl trainer command"
        # note; a third line saying the same is noise. The note names the file when others did run, or for a YAML
        # config, whose note says what to give instead.
        if not js and (jobs or kind == "yaml"):
            r.notes.append(not_run_note(_NO_COMMAND.get(kind, _NO_COMMAND[""])))
    if not jobs:
        return not_run_note("no verl trainer command in the file(s) given (it runs on a launch script's commands)")
    try:
        py = startup.find_python(python, version)
        env, results = startup.run(jobs, py)
    except startup.StageUnavailable as e:
        for r, js in per_report:
            if js:
                r.notes.append(not_run_note(str(e)))
        return not_run_note(str(e))
    by_file: dict[str, list[startup.Result]] = {}
    for res in results:
        by_file.setdefault(res.job.file, []).append(res)
    for r, _js in per_report:
        found, notes = startup.findings(env, by_file.get(r.path, []))
        r.findings += [make_finding(f) for f in found]
        r.notes += notes
    return f"startup stage: verl {env.verl} from {env.python}"


__all__ = ["Finding", "apply", "jobs_for", "not_run_note"]
