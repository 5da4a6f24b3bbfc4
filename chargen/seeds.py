"""Batch seeds and each character's own seed.

A character's seed is derived from the batch seed and its index alone::

    character_seed = int.from_bytes(sha256(b"chargen/1:<batch seed>:<index>")[:8], "big")

so character *i* is the same whether it is made alone (``--index i``) or in a
batch of any size, on any machine (``hash()`` is not used: it changes per process).

Derivation 2 (manifests record ``seed_derivation``, :data:`SEED_DERIVATIONS`): the characters of
an archetype batch are made, in every stream below, from :func:`archetype_seed` of the batch seed
and the archetype in place of the batch seed, so one seed's guards and priests are different
people; the document records ``seed.derivation: 2`` and its ``seed.batch`` stays the batch seed.
A party line's archetype seed is drawn from the line's seed (itself from the file's seed and the
line's key: ``chargen.run.party``). Characters without an archetype are made as in derivation 1,
and a batch or party recorded with derivation 1 is resumed with it.

Names stay unique within a batch (see :class:`GroupRanks`): a name depends on
the character's *rank* among earlier characters of its group (d100: background
and sex; KoTM and RTD: sex), so the group of every earlier index is replayed,
cheaply, without generating those characters. In d100 a second generator, from
``b"chargen/1/identity:<batch seed>:<index>"``, rolls sex and background; KoTM
and RTD roll sex first on the character's own generator.
"""

from __future__ import annotations

import hashlib
import secrets
from chargen.dice import Rng, new_rng

MAX_SEED = 2**64 - 1
MAX_INDEX = 1_000_000  # the first index a batch may start at (--index)
MAX_COUNT = 100_000    # characters in one batch (--count)
SEED_DERIVATION_1 = "sha256(b'chargen/1:<batch>:<index>')[:8], big-endian"
SEED_DERIVATION = ("sha256(b'chargen/1:<batch>:<index>')[:8], big-endian; an archetype's characters' <batch> is "
                   "sha256(b'chargen/2/archetype:<batch>:<archetype>')[:8], big-endian")
SEED_DERIVATIONS = {SEED_DERIVATION_1: 1, SEED_DERIVATION: 2}  # what a manifest may record -> its version


def archetype_seed(batch_seed: int, archetype: str) -> int:
    """Derivation 2: the seed an archetype batch's characters are made from in place of the batch
    seed, so that one seed's characters of different archetypes are different people (in derivation 1,
    index *i* of every archetype had one name, flavour and rolls)."""
    digest = hashlib.sha256(f"chargen/2/archetype:{batch_seed}:{archetype}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")


def draw_batch_seed() -> int:
    """A fresh batch seed for runs without ``--seed``; always report it."""
    return secrets.randbelow(2**32)


def character_seed(batch_seed: int, index: int) -> int:
    digest = hashlib.sha256(f"chargen/1:{batch_seed}:{index}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


def character_rng(batch_seed: int, index: int) -> Rng:
    return new_rng(character_seed(batch_seed, index))


MAX_ATTEMPTS = 10_000  # tries a --require may take per character


def attempt_seed(batch_seed: int, index: int, attempt: int) -> int:
    """The seed of attempt ``attempt`` at character ``index`` (``--require`` rerolls): attempt 0
    is the character seed; attempt n is ``sha256(b"chargen/1/attempt:<batch>:<index>:<n>")[:8]``.
    The identity rolls (what a name depends on) are not rerolled: they stay the index's."""
    if attempt == 0:
        return character_seed(batch_seed, index)
    digest = hashlib.sha256(f"chargen/1/attempt:{batch_seed}:{index}:{attempt}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


class HashRng:
    """A small generator for the identity rolls: SHA-256 in counter mode.

    ``random()`` returns 53-bit floats in [0, 1) from
    ``sha256(key + counter)``, four per digest. It is cheap to create (no
    Mersenne Twister state to seed), which matters because a character's name
    rank replays the identity rolls of every earlier index.
    """

    __slots__ = ("key", "counter", "pool")

    def __init__(self, key: bytes):
        self.key = key
        self.counter = 0
        self.pool: list[float] = []

    def random(self) -> float:
        if not self.pool:
            digest = hashlib.sha256(self.key + self.counter.to_bytes(4, "big")).digest()
            self.counter += 1
            self.pool = [(int.from_bytes(digest[i:i + 8], "big") >> 11) / 9007199254740992 for i in (24, 16, 8, 0)]
        return self.pool.pop()


def identity_rng(batch_seed: int, index: int) -> HashRng:
    return HashRng(f"chargen/1/identity:{batch_seed}:{index}:".encode("ascii"))


class GroupRanks:
    """For each index, how many earlier indices of the batch fell in the same group.

    ``group_of(index)`` must depend only on the batch seed and the index (it
    rolls with :func:`identity_rng`). Ranks are computed once, in index order,
    and cached, so a whole batch costs one ``group_of`` call per character and
    character *i* alone costs *i* of them.
    """

    def __init__(self, group_of):
        self.group_of = group_of
        self.ranks: list[int] = []
        self.counts: dict = {}

    def rank(self, index: int) -> int:
        ranks, counts = self.ranks, self.counts
        while len(ranks) <= index:
            group = self.group_of(len(ranks))
            ranks.append(counts.get(group, 0))
            counts[group] = ranks[-1] + 1
        return ranks[index]


def keyed_permutation(key: str, i: int, n: int) -> int:
    """Position of ``i`` (taken modulo ``n``) in a permutation of ``range(n)`` fixed by ``key``.

    An affine map ``(a*i + b) mod n`` with ``a`` coprime to ``n``: a bijection
    that needs no other element to be computed, so one character can be
    generated alone and still get the name it has in its batch.
    """
    if n <= 1:
        return 0
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    a = int.from_bytes(digest[:8], "big") % n or 1
    while _gcd(a, n) != 1:
        a = a % n + 1
    b = int.from_bytes(digest[8:16], "big") % n
    return (a * (i % n) + b) % n


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


_RANKS: dict[tuple, tuple[object, GroupRanks]] = {}


def batch_rank(owner: object, batch_seed: int, index: int, group_of, variant: object = None) -> int:
    """:meth:`GroupRanks.rank` for ``index``, with ranks cached per (rules, batch seed).

    ``owner`` is the rules object ``group_of`` reads (kept alive by the cache,
    so its ``id`` cannot be reused); ``group_of(i)`` must depend only on the
    batch seed and ``i``. The last few batches stay cached: a batch made in
    index order replays each index once.
    """
    key = (id(owner), batch_seed, variant)  # variant: what else the groups depend on (the request, hashable)
    cached = _RANKS.get(key)
    if cached is None or cached[0] is not owner:
        if len(_RANKS) >= 8:
            _RANKS.clear()
        cached = _RANKS[key] = (owner, GroupRanks(group_of))
    return cached[1].rank(index)


def unique_name(key: str, rank: int, given: tuple[str, ...], bynames: tuple[str, ...], fmt: str) -> str:
    """The ``rank``-th name of a permutation (keyed by ``key``) of ``given`` x ``bynames``:
    distinct for every rank below ``len(given) * len(bynames)``."""
    pick = keyed_permutation(key, rank, len(given) * len(bynames))
    return fmt.format(given=given[pick % len(given)], byname=bynames[pick // len(given)])


def batch_number(doc: dict) -> int:
    """The character's number in its batch: what its file name, its block's or card's "#", the
    encounter sheet and any re-render show. A party file's character records its file index
    (``seed.number``: its ``seed.index`` counts within its party line); any other, its index."""
    seed = doc["seed"]
    number = seed.get("number")
    return number if isinstance(number, int) and not isinstance(number, bool) else seed["index"]
