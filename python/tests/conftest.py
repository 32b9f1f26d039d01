"""Shared fixtures: the repository's root and the castellan command line (built by
`cargo build --release`, as `.ci/run` does before the Python tests)."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def cli():
    """Runs the castellan CLI with arguments and returns its standard output."""
    binary = Path(os.environ.get("CASTELLAN_BIN", ROOT / "target" / "release" / "castellan"))
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "--bin", "castellan"], cwd=ROOT, check=True)

    def run(*args: str) -> str:
        done = subprocess.run([str(binary), *args], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run
