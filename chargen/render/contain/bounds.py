"""Bounds on what one template render may cost: templates are user input (``--template-dir``).

The sandbox stops a template from reaching Python; these limits stop it from exhausting memory or
running for ever. Every render gets a :class:`Budget`:

* steps: each loop iteration, each call of a function, method, macro or filter, each ``range`` item, costs one;
* built: the characters or items each operator, filter or call makes are counted (values grown in a loop stop);
* each value an operator, filter or call makes (or is given to turn into text: not a
  loop's iterable, nor ``length``'s) has at most ``MAX_VALUE`` characters or items, counted
  through nested lists and dicts; widths and counts given to filters and methods likewise;
* integers: a power or product of more than ``MAX_INT_BITS`` bits is refused; a deadline
  (``MAX_SECONDS``), the backstop of the rest.

The output is counted as it is generated (:mod:`chargen.render.html`). The built-in sheets stay
below a tenth of every limit (``tests/test_render_bounds.py``).

A render handed *n* characters (the encounter sheet's blocks, a page of cards,
index.html's and the cover's rows) may spend *n* characters' worth (``PER_CHARACTER``,
several times what the heaviest built-in template, the block, spends on one),
never less than one render's limits above: chargen's own templates are never refused for the size
of the batch it makes (index.html of 20,000 sheets, an encounter sheet of 1,000 blocks), and a
hostile template is still stopped, at a bound proportional to the batch.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import inspect
import re
import string
import time
from collections.abc import Iterable, Iterator, Mapping

from jinja2.sandbox import modifies_known_mutable, safe_range
from jinja2.utils import _PassArg

# Limits of one render (a sheet, a cover page or an index). A built-in D100 II sheet
# takes about 2,000 steps and outputs about 0.3 MB (standalone HTML, fonts included).
MAX_STEPS = 200_000              # loop iterations + calls + range items (a macro call costs about 20 µs)
MAX_BUILT = 20_000_000           # characters and items made by operators, filters and calls together
MAX_VALUE = 2_000_000            # characters or items of one value made (or turned into text)
MAX_INT_BITS = 4_096             # an integer made by ** or * (about 1,233 digits)
MAX_OUTPUT = 8_000_000           # characters of the HTML one render writes
MAX_TAGS = 40_000                # elements of it (WeasyPrint needs about 20 KB of memory for each)
MAX_SECONDS = 60.0               # wall-clock backstop: a built-in sheet renders in about 20 ms
MAX_TEMPLATE_BYTES = 1_000_000   # one template file (the built-in ones are under 20 KB)
# What a template makes, whatever the batch (issue 26, finding 9): the limits below scale with the characters
# a render is handed, so that the documents it weighs fit, but one value an operator, filter or call makes
# never passes MAX_MADE, all it makes together never MAX_BUILT, and memory stays bounded (1,000 blocks
# make about 1.5 million; the index of 20,000 sheets 0.1 million).
MAX_MADE = MAX_VALUE             # characters or items of one value made
MAX_PIECES = 100_000             # slices or rows that |slice or |batch makes (each a new list)
MAX_INDENT = 64                  # |tojson's indent (the output grows by it on every line)

# What a render may spend for each character it is handed (a D100 II block spends about 210 steps,
# 1,600 built, a value of 16,000 items (the document), 5,200 characters and 410 elements of
# output and 12 ms; an index row 10 steps, 510 characters and 32 elements).
PER_CHARACTER = {"steps": 2_000, "built": 20_000, "value": 50_000, "output": 20_000, "tags": 2_000,
                 "seconds": 0.25}
_BASE = {"steps": "MAX_STEPS", "built": "MAX_BUILT", "value": "MAX_VALUE", "output": "MAX_OUTPUT",
         "tags": "MAX_TAGS", "seconds": "MAX_SECONDS"}


def limits(characters: int = 1) -> dict:
    """The limits of a render handed ``characters`` characters: each the larger of one render's
    (``MAX_*``) and ``characters`` times its ``PER_CHARACTER`` allowance."""
    n = max(1, characters)
    scaled = {k: max(globals()[name], PER_CHARACTER[k] * n) for k, name in _BASE.items()}
    return {**scaled, "built": MAX_BUILT}  # what a render makes is not scaled (see MAX_MADE)

clock = time.monotonic  # replaced in tests


class LimitExceeded(Exception):
    """A template went past one of the limits; the renderer adds the template file and line."""


class Budget:
    """What one render has spent so far."""

    def __init__(self, characters: int = 1) -> None:
        self.limits = limits(characters)
        self.steps = 0
        self.built = 0
        self.deadline = clock() + self.limits["seconds"]
        # id -> (container, weight) of the containers weighed so far: a template passes the same
        # document or list to many calls and filters, and weighing it afresh each time made a page of
        # twelve stat blocks spend 0.3 s in weight(). Emptied by every call of a method that changes
        # a container (``list.append``, ``dict.update``: see before_call); holding each container
        # keeps its id from being reused by another.
        self.weights: dict[int, tuple[object, int]] = {}

    def step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.limits["steps"]:
            raise LimitExceeded(f"the template takes more than {self.limits['steps']:,} steps (loop iterations, calls, "
                                f"range items) in one render")
        if self.steps & 1023 == 0 or n > 1:
            self.check_time()

    def check_time(self) -> None:
        if clock() > self.deadline:
            raise LimitExceeded(f"the template takes longer than {self.limits['seconds']:g} seconds to render")

    def build(self, n: int) -> None:
        self.built += n
        if self.built > self.limits["built"]:
            raise LimitExceeded(f"the template makes more than {self.limits['built']:,} characters and items in one render")


_current: contextvars.ContextVar[Budget | None] = contextvars.ContextVar("chargen_render_budget", default=None)


@contextlib.contextmanager
def budget(characters: int = 1) -> Iterator[Budget]:
    """A fresh budget for the renders inside the block, handed ``characters`` characters."""
    b = Budget(characters)
    token = _current.set(b)
    try:
        yield b
    finally:
        _current.reset(token)


def step(n: int = 1) -> None:
    b = _current.get()
    if b is not None:
        b.step(n)


def value_limit() -> int:
    """The most characters or items one value may have in the current render."""
    b = _current.get()
    return MAX_VALUE if b is None else b.limits["value"]


def made_limit() -> int:
    """The most characters or items one value an operator, filter or call makes may have."""
    return min(value_limit(), MAX_MADE)


def built(value: object) -> object:
    """``value`` (just made), once its size is counted against the budget."""
    n = shallow_size(value)
    if n > made_limit():
        raise LimitExceeded(too_big(n, made_limit()))
    b = _current.get()
    if b is not None:
        b.build(n)
    return value


def too_big(n: int | str, limit: int | None = None) -> str:
    amount = f"{n:,}" if isinstance(n, int) else n
    return f"a value of {amount} characters or items is over the limit of {limit or value_limit():,}"


def shallow_size(value: object) -> int:
    if isinstance(value, (str, bytes, list, tuple, dict, set, frozenset)):
        return len(value)
    return 1


_CONTAINERS = (list, tuple, dict, set, frozenset)


def weight(value: object, limit: int | None = None) -> int:
    """The characters and items of ``value`` counted through nested containers, as far as ``limit``:
    what turning it into text costs. Past the limit, :class:`LimitExceeded`. Within a render, a
    container already weighed (and not changed since) is not weighed again."""
    limit = value_limit() if limit is None else limit
    if not isinstance(value, _CONTAINERS):
        return shallow_size(value)
    b = _current.get()
    known = b.weights.get(id(value)) if b is not None else None
    if known is not None:
        if known[1] > limit:
            raise LimitExceeded(too_big(f"more than {limit:,}"))
        return known[1]
    total = _weigh(value, limit)
    if b is not None:
        b.weights[id(value)] = (value, total)
    return total


def _weigh(value: object, limit: int) -> int:
    total, stack = 0, [value]
    while stack:
        item = stack.pop()
        total += shallow_size(item)
        if total > limit:
            raise LimitExceeded(too_big(f"more than {limit:,}"))
        if isinstance(item, Mapping):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, _CONTAINERS):
            stack.extend(item)
    return total


def check_text(*values: object) -> None:
    """Refuse values that would be too long once turned into text together."""
    total, most = 0, value_limit()
    for v in values:
        total += weight(v, most - total) if isinstance(v, _CONTAINERS) else shallow_size(v)
        if total > most:
            raise LimitExceeded(too_big(total))


# --- operators ---------------------------------------------------------------------------

def binop(op: str, left: object, right: object) -> object:
    """``left op right`` for the operators the environment intercepts (*, **, +, %)."""
    if op == "*":
        return built(_times(left, right))
    if op == "**":
        return _power(left, right)
    if op == "+":
        return built(_plus(left, right))
    if op == "%":
        if isinstance(left, str):
            check_format(left, right)
        return built(left % right)
    raise AssertionError(op)


def _times(left: object, right: object) -> object:
    if _is_int(left) and _is_int(right):
        if left.bit_length() + right.bit_length() > MAX_INT_BITS:
            raise LimitExceeded(f"a product of more than {MAX_INT_BITS:,} bits is over the limit")
        return left * right
    for seq, n in ((left, right), (right, left)):
        if isinstance(seq, (str, bytes, list, tuple)) and _is_int(n):
            size = weight(seq) if isinstance(seq, (list, tuple)) else len(seq)
            if n > 0 and size * n > made_limit():
                raise LimitExceeded(too_big(size * n, made_limit()))
    return left * right


def _power(base: object, exponent: object) -> object:
    if _is_int(base) and _is_int(exponent) and exponent > 0 and abs(base) > 1:
        if (abs(base).bit_length() - 1) * exponent > MAX_INT_BITS:
            raise LimitExceeded(f"a power of more than {MAX_INT_BITS:,} bits is over the limit")
    return base ** exponent


def _plus(left: object, right: object) -> object:
    if isinstance(left, (str, bytes, list, tuple)) and isinstance(right, (str, bytes, list, tuple)):
        check_text(left, right)
    return left + right


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


# printf-style conversions: %(name)-08.3f and the like
# A (key) ends at '%' as at ')': linear (read to the end from each "%(", quadratic); one holding '%' is refused
_PERCENT = re.compile(r"%(?:\([^)%]*\))?[#0 +\-]*(\*|\d+)?(?:\.(\*|\d+))?[hlL]?[a-zA-Z%]", re.ASCII)
_KEY_WITH_PERCENT = re.compile(r"%\([^)%]*%")


def check_format(text: str, args: object) -> None:
    """Refuse a ``%`` format whose widths and precisions together would make too long a text."""
    total = len(text)
    if _KEY_WITH_PERCENT.search(text):
        raise LimitExceeded("a '%' inside a % format's (key) is not allowed in templates")
    for m in _PERCENT.finditer(text):
        for n in m.groups():
            if n == "*":
                raise LimitExceeded("a '*' width or precision in a % format is not allowed in templates")
            if n is not None:
                total += int(n) if len(n) < 12 else made_limit() + 1
    check_text(args)
    if total > made_limit():
        raise LimitExceeded(f"a % format with widths of {total:,} characters is over the limit of {made_limit():,}")


def check_format_method(text: str, args: tuple, kwargs: dict) -> None:
    """Refuse a ``str.format`` whose widths would make too long a text (nested fields in a spec included)."""
    total = len(text)
    try:
        fields = list(string.Formatter().parse(text))
    except ValueError:
        return  # str.format raises its own error
    for _, _, spec, _ in fields:
        if spec and "{" in spec:
            raise LimitExceeded("a nested field in a format spec ('{:{w}}') is not allowed in templates")
        total += sum(int(n) if len(n) < 12 else made_limit() + 1 for n in re.findall(r"\d+", spec or ""))
    check_text(*args, *kwargs.values())
    if total > made_limit():
        raise LimitExceeded(f"a format with widths of {total:,} characters is over the limit of {made_limit():,}")


# --- range, loops, filters and calls -----------------------------------------------------

def bounded_range(*args: int) -> range:
    """``range`` for templates: each item made costs a step."""
    r = safe_range(*args)
    step(len(r))
    return r


def bounded_loop(iterable: Iterable) -> Iterator:
    """A for loop's iterable, each iteration costing a step (so nested loops stop)."""
    it = iter(iterable)

    def counted() -> Iterator:
        for item in it:
            step()
            yield item
    return counted()


# Width and count parameters of the built-in filters and str methods: the size of what they make.
_FILTER_SIZES = {"center": ("width",), "indent": ("width",), "wordwrap": ("width",),
                 "batch": ("linecount",), "slice": ("slices",), "tojson": ("indent",)}
_FILTER_MOST = {"batch": MAX_PIECES, "slice": MAX_PIECES, "tojson": MAX_INDENT}  # else made_limit()
_FILTER_INSERTS = {"format", "join", "replace", "indent", "wordwrap"}
_STR_METHOD_SIZES = {"center", "ljust", "rjust", "zfill"}
# Filters that turn nothing into text (a count, or the same items in pieces: printing them is weighed): what they
# are handed is not weighed (an encounter sheet weighed every character's document at each `| length`)
_FILTER_UNWEIGHED = {"length", "count", "batch", "slice"}


def bounded_filter(name: str, f):
    """A filter that costs a step, refuses sizes over the limits and counts what it makes."""
    signature = inspect.signature(f) if name in _FILTER_SIZES or name in _FILTER_INSERTS else None
    # An async-variant filter (slice, batch, join) is handed Jinja's context first, though the signature
    # inspect reports (the sync function's) does not list it: skip it when binding.
    skip = int(signature is not None and _PassArg.from_obj(f) is not None
               and next(iter(signature.parameters), "") not in ("context", "eval_ctx", "environment"))

    @functools.wraps(f)
    def bounded(*args, **kwargs):
        step()
        check_text(*(() if name in _FILTER_UNWEIGHED else (*args, *kwargs.values())))
        if signature is None:
            return built(f(*args, **kwargs))
        given = signature.bind(*args[skip:], **kwargs).arguments
        check_sizes(name, [given.get(p) for p in _FILTER_SIZES.get(name, ())], _FILTER_MOST.get(name))
        if name == "format":
            check_format(str(given.get("value", "")), given.get("args") or given.get("kwargs"))
        elif name == "join":
            check_repeats(given.get("d", ""), len(given.get("value") or ()))
        elif name == "replace":
            check_repeats(given.get("new", ""), len(str(given.get("s", ""))) + 1)
        elif name in ("indent", "wordwrap"):
            text = str(given.get("s", ""))
            inserted = given.get("width") if name == "indent" else given.get("wrapstring")
            check_repeats(inserted if isinstance(inserted, str) else "", len(text) + 1)
        return built(f(*args, **kwargs))
    return bounded


def check_repeats(inserted: object, times: int) -> None:
    """Refuse a filter or method that would insert ``inserted`` ``times`` times, past the limit."""
    if isinstance(inserted, (str, bytes)) and len(inserted) * times > made_limit():
        raise LimitExceeded(too_big(len(inserted) * times, made_limit()))


def check_sizes(what: str, sizes: list, most: int | None = None) -> None:
    most = made_limit() if most is None else min(most, made_limit())
    for n in sizes:
        n = len(n) if isinstance(n, str) else n  # json's indent may be a string
        if _is_int(n) and n > most:
            raise LimitExceeded(f"{what}: {n:,} is over the limit of {most:,} for a width or count")


def before_call(obj, args: tuple, kwargs: dict) -> None:
    """What a call costs and refuses before it is made (see :meth:`BoundedEnvironment.call`)."""
    step()
    check_text(*args, *kwargs.values())
    method = getattr(obj, "__name__", "")
    owner = getattr(getattr(obj, "__wrapped__", obj), "__self__", None)  # the sandbox wraps str.format
    if owner is not None and modifies_known_mutable(owner, method):
        b = _current.get()
        if b is not None:
            b.weights.clear()  # the call changes a container: what was weighed may have grown
    if not isinstance(owner, (str, bytes)):
        return
    given = [*args, *kwargs.values()]
    if method in _STR_METHOD_SIZES:
        check_sizes(method, given)
    elif method == "expandtabs":
        check_sizes(method, [a * (owner.count("\t" if isinstance(owner, str) else b"\t") + 1) for a in given if _is_int(a)])
    elif method == "join" and given:
        check_repeats(owner, len(given[0]) if hasattr(given[0], "__len__") else value_limit())
    elif method == "replace" and len(given) > 1:
        check_repeats(given[1], len(owner) + 1)
    elif method == "translate" and given and isinstance(given[0], Mapping):  # each character may become a text
        longest = max((len(v) for v in given[0].values() if isinstance(v, (str, bytes))), default=1)
        if longest * len(owner) > made_limit():
            raise LimitExceeded(too_big(longest * len(owner), made_limit()))
    elif method == "format":
        check_format_method(owner, args, kwargs)
    elif method == "format_map" and args and isinstance(args[0], Mapping):
        check_format_method(owner, (), dict(args[0]))
