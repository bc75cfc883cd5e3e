"""Ed25519 signatures for governance records (through `cryptography`). Pure: no files, no settings.

The deployment signs with one private key; anyone holding only the public key can check every
plan, approval, use, expiry and verification outcome and cannot make a new one. Signatures are
hex; a key is named by its id (the first 16 hex of SHA-256 over the raw public key) so a record
signed by another key is reported as such. Where keys come from is `dw_assets.governance.keys`.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey


class SigningKeyError(ValueError):
    """A key that cannot be read; the text names where it came from (never its content)."""


class VerifyKey:
    """A public key: checks signatures, cannot make them."""

    def __init__(self, public: Ed25519PublicKey):
        self._public = public
        raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.raw = raw
        self.key_id = hashlib.sha256(raw).hexdigest()[:16]

    @classmethod
    def from_text(cls, text: str, *, source: str) -> VerifyKey:
        """A PEM public key, or base64 of the 32 raw bytes (what `dw keys generate` prints)."""
        text = text.strip()
        try:
            if text.startswith("-----BEGIN"):
                key = serialization.load_pem_public_key(text.encode())
                if not isinstance(key, Ed25519PublicKey):
                    raise SigningKeyError(f"{source} is not an Ed25519 public key")
                return cls(key)
            return cls(Ed25519PublicKey.from_public_bytes(base64.b64decode(text, validate=True)))
        except (ValueError, binascii.Error) as exc:
            if isinstance(exc, SigningKeyError):
                raise
            raise SigningKeyError(f"{source} is not an Ed25519 public key (PEM, or base64 of 32 bytes)") from None

    def text(self) -> str:
        return base64.b64encode(self.raw).decode()

    def verify(self, signature: str, message: str) -> bool:
        try:
            self._public.verify(bytes.fromhex(signature), message.encode("utf-8"))
        except (InvalidSignature, ValueError, TypeError):
            return False
        return True

    def __repr__(self) -> str:
        return f"VerifyKey({self.key_id})"


class SigningKey(VerifyKey):
    """The deployment's private key: signs and verifies. Its repr never shows the key."""

    def __init__(self, private: Ed25519PrivateKey):
        super().__init__(private.public_key())
        self._private = private

    @classmethod
    def generate(cls) -> SigningKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_text(cls, text: str, *, source: str) -> SigningKey:
        """A PEM (PKCS#8) private key, or base64 of the 32-byte seed."""
        text = text.strip()
        try:
            if text.startswith("-----BEGIN"):
                key = serialization.load_pem_private_key(text.encode(), password=None)
                if not isinstance(key, Ed25519PrivateKey):
                    raise SigningKeyError(f"{source} is not an Ed25519 private key")
                return cls(key)
            return cls(Ed25519PrivateKey.from_private_bytes(base64.b64decode(text, validate=True)))
        except (ValueError, TypeError, binascii.Error) as exc:
            if isinstance(exc, SigningKeyError):
                raise
            raise SigningKeyError(f"{source} is not an Ed25519 private key (PEM PKCS#8, or base64 of the 32-byte "
                            "seed): make one with `dw keys generate`") from None

    def pem(self) -> bytes:
        return self._private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption())

    def public(self) -> VerifyKey:
        return VerifyKey(self._private.public_key())

    def sign(self, message: str) -> str:
        return self._private.sign(message.encode("utf-8")).hex()

    def __repr__(self) -> str:
        return f"SigningKey({self.key_id})"
