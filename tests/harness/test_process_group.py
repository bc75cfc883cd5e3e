"""`run_as_group` (how `dw ui` runs `dagster dev`), on real process trees: a stop signal reaches
every process of the tree at once (not the first one alone, which would stop its children one
after another), one that ignores it is killed after the grace period, and nothing outlives the
command, whether it was stopped or ended on its own."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dw_assets.harness.process_group import run_as_group
from tests.support.processes import pids_with_env

# A leader that starts two children and waits for them; each child writes its pid and, on
# SIGTERM, writes a line and exits (or ignores SIGTERM when told to).
CHILD = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    out = Path(sys.argv[1])
    def on_term(*_):
        (out / f"term-{os.getpid()}").write_text("")
        sys.exit(0)
    signal.signal(signal.SIGTERM, signal.SIG_IGN if sys.argv[2] == "stubborn" else on_term)
    (out / f"child-{os.getpid()}").write_text("")
    while True:
        time.sleep(0.2)
""")
LEADER = textwrap.dedent("""
    import subprocess, sys, time
    from pathlib import Path
    kids = [subprocess.Popen([sys.executable, sys.argv[1], sys.argv[2], mode]) for mode in sys.argv[3:]]
    if sys.argv[3] == "leave":  # ends on its own once its children run, leaving them running
        while len(list(Path(sys.argv[2]).glob("child-*"))) < len(kids):
            time.sleep(0.1)
        sys.exit(3)
    for kid in kids:
        kid.wait()
""")
DEADLINE_S = 120  # children start and stop on a busy machine


def _tree(tmp_path: Path, *modes: str) -> tuple[list[str], dict[str, str], Path]:
    (tmp_path / "child.py").write_text(CHILD)
    (tmp_path / "leader.py").write_text(LEADER)
    out = tmp_path / "out"
    out.mkdir()
    env = {**os.environ, "PROCESS_GROUP_TEST": str(tmp_path)}  # how the test finds every process it started
    return [sys.executable, str(tmp_path / "leader.py"), str(tmp_path / "child.py"), str(out), *modes], env, out


def _started(out: Path, count: int) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while len(list(out.glob("child-*"))) < count:
        assert time.monotonic() < deadline, "the children never started"
        time.sleep(0.2)


def _supervise(cmd: list[str], env: dict[str, str], grace_s: float,
               ignoring: bool = False) -> tuple[subprocess.Popen[str], Path]:
    """`run_as_group` in a process of its own, as `dw ui` runs it, so a signal can be sent to it;
    `ignoring`: started by a launcher that ignores SIGTERM and SIGHUP (an ignored disposition is
    inherited through exec)."""
    ignore = ("import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
              "signal.signal(signal.SIGHUP, signal.SIG_IGN); ") if ignoring else ""
    script = (ignore + "import sys; from pathlib import Path; from dw_assets.harness.process_group import run_as_group; "
              f"sys.exit(run_as_group({cmd!r}, cwd=Path('.'), env=dict(__import__('os').environ), what='tree', "
              f"grace_s={grace_s}))")
    log = Path(env["PROCESS_GROUP_TEST"]) / "supervisor.log"
    with log.open("w") as handle:
        proc = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[2], env=env,
                                stdout=handle, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    return proc, log


def _left(tmp_path: Path) -> list[int]:
    """Live processes this test started (a zombie's environment reads empty)."""
    return pids_with_env(str(tmp_path).encode())


@pytest.fixture
def no_orphans(tmp_path: Path):
    yield
    for pid in pids_with_env(str(tmp_path).encode()):  # never leave one behind, even when a test fails
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@pytest.mark.parametrize("ignoring", [False, True], ids=["plain", "launched-with-sigterm-ignored"])
def test_sigterm_to_the_command_reaches_every_process_of_its_tree_and_none_is_left(tmp_path, no_orphans, ignoring):
    cmd, env, out = _tree(tmp_path, "polite", "polite")
    proc, log = _supervise(cmd, env, grace_s=60, ignoring=ignoring)
    _started(out, 2)
    proc.send_signal(signal.SIGTERM)  # to the supervisor alone, as `kill PID` or a service manager does
    code = proc.wait(DEADLINE_S)
    children = {p.name.split("-")[1] for p in out.glob("child-*")}
    assert {p.name.split("-")[1] for p in out.glob("term-*")} == children  # each got SIGTERM itself
    assert _left(tmp_path) == []
    assert code != 0, log.read_text()  # stopped, not finished
    assert "stopping tree" in log.read_text() and "tree stopped in" in log.read_text()


def test_a_process_that_ignores_sigterm_is_killed_after_the_grace_period(tmp_path, no_orphans):
    cmd, env, out = _tree(tmp_path, "polite", "stubborn")
    proc, log = _supervise(cmd, env, grace_s=3)
    _started(out, 2)
    proc.send_signal(signal.SIGTERM)
    proc.wait(DEADLINE_S)
    assert _left(tmp_path) == []
    assert "killed" in log.read_text() and "still running 3 s after the stop" in log.read_text()


def test_what_the_command_leaves_running_when_it_ends_on_its_own_is_stopped(tmp_path, no_orphans):
    cmd, env, out = _tree(tmp_path, "leave", "polite")
    stream = io.StringIO()
    code = run_as_group(cmd, cwd=tmp_path, env=env, what="tree", grace_s=60, stream=stream)
    assert code == 3  # the command's own exit code
    assert len(list(out.glob("child-*"))) == 2 and len(list(out.glob("term-*"))) == 2  # both ran, both stopped
    assert _left(tmp_path) == []
    assert "stopped in" not in stream.getvalue()  # nobody asked it to stop
