"""``robotsrules keys generate`` and ``keys directory`` (issue 38): the private key is never
printed, logged or written readable by others; the directory verifies; rotation."""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import stat
from pathlib import Path

import pytest

from robotsrules._identity._httpsig import (
    SigningKey,
    parse_directory,
    verify_directory_response,
)
from robotsrules.cli import main


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(argv), out=out), out.getvalue()


def secret_parts(path: Path) -> list[str]:
    """The private key as it could leak: the PEM body, its lines, and the raw seed."""
    pem = path.read_text("ascii")
    body = "".join(line for line in pem.splitlines() if "-----" not in line)
    seed = base64.b64decode(body)[-32:]
    return [body, *(line for line in pem.splitlines() if "-----" not in line),
            base64.urlsafe_b64encode(seed).decode().rstrip("="), seed.hex()]


def assert_nothing_secret(text: str, path: Path) -> None:
    assert "PRIVATE KEY" not in text
    for part in secret_parts(path):
        assert part not in text


def test_generate_writes_0600_and_never_prints_the_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    target = tmp_path / "bot.pem"
    caplog.set_level(logging.DEBUG)
    old = os.umask(0)  # even with a permissive umask
    try:
        code, out = run("keys", "generate", "--out", str(target))
    finally:
        os.umask(old)
    assert code == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert target.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----")
    key = SigningKey.load(target)
    assert key.thumbprint in out
    logged = "\n".join(record.getMessage() for record in caplog.records)
    for text in (out, capsys.readouterr().err, logged, repr(key), str(key)):
        assert_nothing_secret(text, target)


def test_generate_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "bot.pem"
    target.write_text("keep me")
    code, out = run("keys", "generate", "--out", str(target))
    assert code == 2 and "exists" in capsys.readouterr().err
    assert target.read_text() == "keep me" and out == ""


def test_generate_without_out_writes_the_users_key_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("ROBOTSRULES_SIGNING_KEY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    code, out = run("keys", "generate")
    target = tmp_path / "data" / "robotsrules" / "signing-key.pem"
    assert code == 0 and str(target) in out
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert stat.S_IMODE(target.parent.stat().st_mode) == 0o700
    assert_nothing_secret(out + capsys.readouterr().err, target)
    chosen = tmp_path / "chosen.pem"
    monkeypatch.setenv("ROBOTSRULES_SIGNING_KEY", str(chosen))
    assert run("keys", "generate")[0] == 0 and SigningKey.load(chosen)


def test_a_key_readable_by_others_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "bot.pem"
    assert run("keys", "generate", "--out", str(target))[0] == 0
    for mode in (0o640, 0o604, 0o644, 0o620):
        target.chmod(mode)
        code, out = run("keys", "directory", "--signing-key", str(target))
        err = capsys.readouterr().err
        assert code == 2 and "chmod 600" in err and out == "", mode
        assert_nothing_secret(err, target)


def test_directory_with_two_keys_for_a_rotation(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    old, new = tmp_path / "old.pem", tmp_path / "new.pem"
    for path in (old, new):
        assert run("keys", "generate", "--out", str(path))[0] == 0
    code, out = run("keys", "directory", "--signing-key", str(new), "--signing-key", str(old))
    assert code == 0
    keys = parse_directory(out.encode())
    assert set(keys) == {SigningKey.load(old).thumbprint, SigningKey.load(new).thumbprint}
    assert [k["kid"] for k in json.loads(out)["keys"]] == [
        SigningKey.load(new).thumbprint, SigningKey.load(old).thumbprint]
    for path in (old, new):
        assert_nothing_secret(out + capsys.readouterr().err, path)
    written = tmp_path / "directory.json"
    code, out = run("keys", "directory", "--signing-key", str(new), "--out", str(written))
    assert code == 0 and "wrote" in out
    assert list(parse_directory(written.read_bytes())) == [SigningKey.load(new).thumbprint]


def test_directory_signed_headers_verify(tmp_path: Path) -> None:
    old, new = tmp_path / "old.pem", tmp_path / "new.pem"
    for path in (old, new):
        run("keys", "generate", "--out", str(path))
    code, out = run("keys", "directory", "--signing-key", str(new), "--signing-key", str(old),
                    "--signed-headers", "--authority", "Bot.Example:8443")
    assert code == 0
    head, body = out.split("\n\n", 1)
    headers = dict(line.split(": ", 1) for line in head.splitlines())
    assert headers["Content-Type"] == "application/http-message-signatures-directory+json"
    assert headers["Signature-Input"].count('tag="http-message-signatures-directory"') == 2
    url = "https://bot.example:8443/.well-known/http-message-signatures-directory"
    assert verify_directory_response(url, headers, body.rstrip("\n").encode()).verified
    other = "https://bot.example/.well-known/http-message-signatures-directory"
    assert not verify_directory_response(other, headers, body.rstrip("\n").encode()).verified


@pytest.mark.parametrize("argv", [
    ("--signed-headers",), ("--authority", "bot.example"),
    ("--signed-headers", "--authority", "https://bot.example/"),
    ("--signed-headers", "--authority", "user@bot.example"),
], ids=["headers-without-authority", "authority-alone", "scheme", "userinfo"])
def test_directory_usage_errors(argv: tuple[str, ...], tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "k.pem"
    run("keys", "generate", "--out", str(key))
    code, out = run("keys", "directory", "--signing-key", str(key), *argv)
    assert code == 2 and out == ""
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_not_a_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "robots.txt"
    path.write_text("User-agent: *\n")
    path.chmod(0o600)
    code, _ = run("keys", "directory", "--signing-key", str(path))
    assert code == 2 and "not an unencrypted PKCS#8 PEM" in capsys.readouterr().err
