"""Where the deployment's signing key comes from, and the public key verifiers check against.

The private key is read from `$DW_SIGNING_KEY` (PEM, or base64 of the 32-byte seed), else from the
file `governance.signing_key_file`, which must be readable by its owner only (0600). It is never
read from the config text or the database, and a missing key stops the process with an error
naming both settings: nothing signs with a built-in default. The demo estate alone sets
`governance.demo_key: true`, which makes a random key in that file (0600) the first time, so each
DW_HOME has its own.

`governance.public_key` pins the deployment's public key: a verify-only host needs nothing else,
and a process handed another private key refuses to start signing with it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from dw_assets.config import ConfigError, Settings
from dw_assets.core.signing import SigningKey, SigningKeyError, VerifyKey

ENV_VAR = "DW_SIGNING_KEY"


class MissingKey(ConfigError):
    """No signing key configured (outside the demo this stops the process)."""


def write_private_key(path: Path, key: SigningKey) -> None:
    """Create `path` holding the key, mode 0600 from the first byte (never world-readable)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    # written whole under a private name, then linked into place: another process never reads half a key,
    # and an existing key is never replaced (link fails with FileExistsError)
    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(scratch, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(key.pem())
        os.link(scratch, path)
    finally:
        scratch.unlink(missing_ok=True)


def generate_key_file(path: Path) -> SigningKey:
    """A new random key in a new 0600 file (`dw keys generate`); refuses to overwrite one."""
    key = SigningKey.generate()
    write_private_key(Path(path), key)
    return key


def _key_file(settings: Settings) -> Path | None:
    value = settings.governance.signing_key_file
    return settings.resolve_path(value, what="governance.signing_key_file") if value else None


def _read_key_file(path: Path) -> SigningKey:
    mode = path.stat().st_mode
    if not stat.S_ISREG(mode):
        raise ConfigError(f"governance.signing_key_file {path} is not a file")
    if mode & 0o077:
        raise ConfigError(f"governance.signing_key_file {path} is readable by others (mode {stat.S_IMODE(mode):o}): "
                          f"run `chmod 600 {path}`")
    try:
        return SigningKey.from_text(path.read_text(), source=f"governance.signing_key_file {path}")
    except (SigningKeyError, UnicodeDecodeError) as exc:
        raise ConfigError(str(exc)) from None


def load_signing_key(settings: Settings) -> SigningKey:
    """The deployment's private key, or ConfigError naming the setting to fix."""
    gov = settings.governance
    if gov.receipt_key:
        raise ConfigError("governance.receipt_key is no longer read (a secret in the config text): remove it and "
                          f"set ${ENV_VAR} or governance.signing_key_file (make a key with `dw keys generate`)")
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        try:
            key = SigningKey.from_text(env, source=f"${ENV_VAR}")
        except SigningKeyError as exc:
            raise ConfigError(str(exc)) from None
    else:
        path = _key_file(settings)
        if path is not None and path.exists():
            key = _read_key_file(path)
        elif path is not None and gov.demo_key:
            try:
                write_private_key(path, SigningKey.generate())
            except FileExistsError:
                pass  # another demo process made it a moment ago
            key = _read_key_file(path)
        elif path is not None:
            raise MissingKey(f"governance.signing_key_file {path} does not exist: create it with "
                             f"`dw keys generate {path}` or set ${ENV_VAR}")
        else:
            raise MissingKey(f"no signing key: set ${ENV_VAR} (PEM or base64 Ed25519 seed) or "
                             "governance.signing_key_file (a 0600 file); `dw keys generate FILE` makes one")
    _check_pinned(settings, key)
    return key


def load_verify_key(settings: Settings) -> VerifyKey:
    """The public key to check signatures with: `governance.public_key`, else the signing key's."""
    pinned = settings.governance.public_key
    if pinned:
        try:
            return VerifyKey.from_text(pinned, source="governance.public_key")
        except SigningKeyError as exc:
            raise ConfigError(str(exc)) from None
    return load_signing_key(settings).public()


def _check_pinned(settings: Settings, key: SigningKey) -> None:
    pinned = settings.governance.public_key
    if not pinned:
        return
    try:
        expected = VerifyKey.from_text(pinned, source="governance.public_key")
    except SigningKeyError as exc:
        raise ConfigError(str(exc)) from None
    if expected.raw != key.raw:
        raise ConfigError(f"the signing key (id {key.key_id}) is not the deployment's: governance.public_key is key "
                          f"{expected.key_id}; records signed with it would never verify")


def key_status(settings: Settings) -> tuple[bool, str]:
    """For `dw config check`: is there a usable key, said without writing or showing anything secret."""
    gov = settings.governance
    try:
        if not os.environ.get(ENV_VAR, "").strip() and not gov.receipt_key:
            path = _key_file(settings)
            if path is not None and not path.exists() and gov.demo_key:
                return True, f"demo: a random signing key will be made at {path} (0600) on first use"
            if (path is None or not path.exists()) and gov.public_key:
                key = load_verify_key(settings)
                return True, f"verify only: public key {key.key_id} (governance.public_key), no signing key here"
        key = load_signing_key(settings)
    except ConfigError as exc:
        return False, str(exc)
    return True, f"signing key {key.key_id}" + (" (matches governance.public_key)" if gov.public_key else "")
