"""Mutated OpenLineage posts, for the receiver's fuzz test and the memory benchmark.

`mutated_posts(bases, n, seed)` yields `n` (mutation name, body, headers) triples, deterministic for a
seed: each takes a base event (real producers' events: the compatibility-test scenarios, the
benchmark's task event) and breaks it one way: a key dropped, a value of the wrong type, a value
nested hundreds of levels deep, very long or NUL-holding names, truncated or flipped bytes, invalid
UTF-8, lone surrogates, huge numbers, gzip that is not, bodies of 0.3-2.5 MB, or a valid event with
a new run id (so accepted events are mixed in).
"""

from __future__ import annotations

import copy
import gzip
import json
import random
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

Post = tuple[str, bytes, dict[str, str]]


def _dump(event: Any) -> bytes:
    return json.dumps(event).encode()  # not orjson: the mutations hold what orjson will not write


def compat_events(shared_dir: Path) -> list[dict[str, Any]]:
    """The compatibility-test scenarios' events (OpenLineage/compatibility-tests, Apache-2.0)."""
    files = sorted((shared_dir / "openlineage-compat" / "scenarios").glob("*/events/*.json"))
    return [json.loads(path.read_text()) for path in files]


def nested(depth: int, leaf: Any = "x") -> Any:
    value = leaf
    for i in range(depth):
        value = {"k": value} if i % 2 else [value]
    return value


def _paths(value: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every path (tuple of keys and indexes) to a value inside `value`, the root excluded."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key)
            yield from _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield (*path, i)
            yield from _paths(item, (*path, i))


def _set(event: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        event = event[key]
    event[path[-1]] = value


def _drop(event: Any, path: tuple) -> None:
    for key in path[:-1]:
        event = event[key]
    del event[path[-1]]


_ODD_VALUES: list[Any] = [None, 0, -1, 1.5, True, [], {}, "", "x", "2026-13-45T99:99:99Z",
                          "not-a-uuid", "\u0000", "\u202e\ufeff", 10**30, -(2**63)]


def _random_path(event: dict, rng: random.Random) -> tuple:
    paths = list(_paths(event))
    return rng.choice(paths)


def _m_drop(event: dict, rng: random.Random) -> bytes:
    _drop(event, _random_path(event, rng))
    return _dump(event)


def _m_retype(event: dict, rng: random.Random) -> bytes:
    _set(event, _random_path(event, rng), copy.deepcopy(rng.choice(_ODD_VALUES)))
    return _dump(event)


def _m_deep(event: dict, rng: random.Random) -> bytes:
    depth = rng.choice([64, 200, 254, 256, 300, 600, 1000, 1023, 1100, 3000])
    run = event.get("run") if isinstance(event.get("run"), dict) else event
    facets = run.setdefault("facets", {}) if isinstance(run, dict) else {}
    facets["deep"] = {"_producer": "https://fuzz.example", "_schemaURL": "https://fuzz.example/s",
                      "v": "PLACEHOLDER"}
    text = json.dumps(event)
    inner = "[" * (depth // 2) + '{"k":' * (depth - depth // 2) + '"x"' + "}" * (depth - depth // 2) + "]" * (depth // 2)
    return text.replace('"PLACEHOLDER"', inner, 1).encode()


def _m_long(event: dict, rng: random.Random) -> bytes:
    size = rng.choice([600, 1001, 5000, 100_000])
    for key in ("job", "dataset"):
        if isinstance(event.get(key), dict):
            event[key][rng.choice(["name", "namespace"])] = "n" * size
    for role in ("inputs", "outputs"):
        if isinstance(event.get(role), list) and event[role]:
            event[role][0]["name"] = "d" * size
    event["producer"] = "https://" + "p" * size
    return _dump(event)


def _m_nul(event: dict, rng: random.Random) -> bytes:
    if isinstance(event.get("job"), dict):
        event["job"]["name"] = f"{event['job'].get('name')}\u0000{rng.randrange(1000)}"
    for role in ("inputs", "outputs"):
        if isinstance(event.get(role), list) and event[role]:
            event[role][0]["namespace"] = "ns\u0000x"
    return _dump(event)


def _m_truncate(event: dict, rng: random.Random) -> bytes:
    body = _dump(event)
    return body[:rng.randrange(len(body))]


def _m_flip(event: dict, rng: random.Random) -> bytes:
    body = bytearray(_dump(event))
    for _ in range(rng.randint(1, 4)):
        body[rng.randrange(len(body))] = rng.randrange(256)
    return bytes(body)


def _m_bad_utf8(event: dict, rng: random.Random) -> bytes:
    body = _dump(event)
    at = body.find(b'"', rng.randrange(len(body)))
    at = at if at > 0 else 1
    return body[:at + 1] + rng.choice([b"\xff\xfe", b"\xc3", b"\xed\xa0\x80"]) + body[at + 1:]


def _m_surrogate(event: dict, rng: random.Random) -> bytes:
    body = _dump(event).decode()
    if isinstance(event.get("job"), dict) and isinstance(event["job"].get("name"), str):
        return body.replace(_dump(event["job"]["name"]).decode(), '"job\\ud800name"', 1).encode()
    return body.replace('"producer":"', '"producer":"\\udfff', 1).encode()


def _m_numbers(event: dict, rng: random.Random) -> bytes:
    body = _dump(event).decode()
    return body.replace('"eventTime":', f'"big":{rng.choice(["1e400", "-1e400", "1" * 400, "NaN"])},"eventTime":',
                        1).encode()


def _m_not_an_event(event: dict, rng: random.Random) -> bytes:
    return rng.choice([b"[]", b"null", b"42", b'"event"', b"", b"{", b"{}", b"\x00" * 16,
                       b'{"eventTime": "2026-09-01T02:00:00Z"}', b"\xef\xbb\xbf{}",
                       json.dumps([event, event]).encode(), b'{"a": 1, "a": 2}'])


def _m_big(event: dict, rng: random.Random) -> bytes:
    """A body near or past the receiver's 2 MB default limit: a custom facet holding a long string,
    or thousands of output datasets."""
    size = rng.choice([300_000, 1_500_000, 2_500_000])
    if rng.random() < 0.5:
        run = event.get("run") if isinstance(event.get("run"), dict) else event
        run.setdefault("facets", {})["big"] = {"_producer": "https://fuzz.example",
                                               "_schemaURL": "https://fuzz.example/s", "blob": "b" * size}
    else:
        event["outputs"] = [{"namespace": "s3://fuzz", "name": f"part/{i:08d}/{'x' * 40}"}
                            for i in range(size // 100)]
    return _dump(event)


def _m_valid(event: dict, rng: random.Random) -> bytes:
    if isinstance(event.get("run"), dict):
        event["run"]["runId"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
    return _dump(event)


_MUTATIONS: list[tuple[str, Callable[[dict, random.Random], bytes]]] = [
    ("drop", _m_drop), ("retype", _m_retype), ("deep", _m_deep), ("long", _m_long), ("nul", _m_nul),
    ("truncate", _m_truncate), ("flip", _m_flip), ("bad_utf8", _m_bad_utf8), ("surrogate", _m_surrogate),
    ("numbers", _m_numbers), ("not_an_event", _m_not_an_event), ("big", _m_big), ("valid", _m_valid),
]


def mutated_posts(bases: list[dict[str, Any]], n: int, seed: int = 18, big_share: float = 0.02) -> Iterator[Post]:
    """`n` posts, each one base event broken by one mutation; `big_share` of them are the 0.3-2.5 MB
    bodies (slow to check in full), about one in eight is gzip-encoded (and one in a hundred of
    those is not really gzip)."""
    rng = random.Random(seed)
    small = [m for m in _MUTATIONS if m[0] != "big"]
    big = dict(_MUTATIONS)["big"]
    for i in range(n):
        if rng.random() < big_share:
            name, mutate = "big", big
        else:
            name, mutate = small[i % len(small)] if i < len(small) else rng.choice(small)
        body = mutate(copy.deepcopy(rng.choice(bases)), rng)
        headers = {"Content-Type": "application/json"}
        if rng.random() < 0.125:
            headers["Content-Encoding"] = "gzip"
            body = gzip.compress(body) if rng.random() > 0.01 else body
        yield name, body, headers
