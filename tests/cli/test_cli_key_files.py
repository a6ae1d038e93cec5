"""Key files that are not what they seem (review of issue 38): a FIFO or a device as the
signing key is refused at once instead of blocking the reader; a key owned by another user
is refused; a symbolic link is followed and its target checked; ``keys directory --out``
never writes through a symbolic link."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

from robotsrules import InvalidArgument
from robotsrules._identity._httpsig import SigningKey
from robotsrules.cli import main
from tests.timing import finishes

pytest.importorskip("cryptography", reason="the 'sign' extra (cryptography) is not installed")


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_the_key_is_refused_without_blocking(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "key.pem"
    os.mkfifo(fifo, 0o600)
    try:
        with pytest.raises(InvalidArgument, match="not a regular file"):
            finishes(SigningKey.load, fifo)
        code, out = finishes(run, "keys", "directory", "--signing-key", str(fifo))
        assert code == 2 and out == "" and "not a regular file" in capsys.readouterr().err
    finally:  # had a read blocked (the bug), a writer that closes at once ends it
        descriptor = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
        os.close(descriptor)


def test_a_directory_as_the_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgument, match="not a regular file"):
        SigningKey.load(tmp_path)


def test_a_device_as_the_key_is_refused() -> None:
    if not os.path.exists("/dev/zero"):
        pytest.skip("no /dev/zero")
    with pytest.raises(InvalidArgument, match="not a regular file"):
        SigningKey.load("/dev/zero")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a file to another user needs root")
def test_a_key_owned_by_another_user_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "key.pem"
    SigningKey.generate().write(path)
    os.chown(path, 65534, 65534)
    with pytest.raises(InvalidArgument, match="another user"):
        SigningKey.load(path)


def test_a_link_is_followed_and_its_target_checked(tmp_path: Path) -> None:
    target = tmp_path / "key.pem"
    key = SigningKey.generate()
    key.write(target)
    link = tmp_path / "link.pem"
    link.symlink_to(target)
    assert SigningKey.load(link) == key
    target.chmod(0o644)
    with pytest.raises(InvalidArgument, match="chmod 600"):
        SigningKey.load(link)


def test_directory_out_never_writes_through_a_link(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "key.pem"
    SigningKey.generate().write(key)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    link = tmp_path / "directory.json"
    link.symlink_to(victim)
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    for out_path in (link, dangling):
        code, out = run("keys", "directory", "--signing-key", str(key), "--out", str(out_path))
        assert code == 2 and out == "" and "cannot write" in capsys.readouterr().err
    assert victim.read_text() == "keep me"
    assert not (tmp_path / "nowhere.json").exists()
