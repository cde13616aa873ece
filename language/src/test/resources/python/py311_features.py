# -*- coding: utf-8 -*-
"""Every Python 3.11 construct the grammar must accept, each at least once."""
from __future__ import annotations

import os, sys as system
from . import sibling
from .. import parent
from ...pkg.mod import (a as b,
                        c,)
from .mod import *

x: int = 1
y: "list[int]"
match = 3          # soft keywords stay names
case = match + 1
_ = case
match.attr = 1
print(match, case)
type = 5

global_var = 0


def positional_only(a, b, /, c, d=1, *, e, f=2, **kwargs) -> dict[str, int]:
    global global_var
    global_var += 1

    def inner():
        nonlocal a
        a = 2
    return {"a": a, **kwargs}


def star_args(*args: int, **kw: str) -> None: ...


def bare_star(a, *, b): pass


async def coroutine(session):
    async with session.get("u") as resp, session.get("v"):
        pass
    async for item in session:
        await item
    result = [i async for i in session if await i]
    return await session.close()


def generator():
    value = yield
    yield value
    yield from range(3)
    x = yield 1, 2
    return (yield)


@decorator
@decorator.attr(1, key="v")
@(lambda f: f)
@functions[0]
@a if b else c
class Klass(Base, metaclass=Meta, **extra):
    attr: int = 0

    @property
    def prop(self): return self._p

    def method(self, /) -> "Klass":
        return self


with open("a") as f, open("b") as g:
    pass
with (open("a") as f, open("b") as g,):
    pass
with (open("a"), open("b")):
    pass
with (yield_value := open("a")):
    pass
with (a, b) as (c, d):
    pass

try:
    pass
except* ValueError as eg:
    pass
except* (TypeError, KeyError):
    pass

try:
    pass
except ValueError:
    pass
except (TypeError, KeyError) as e:
    raise RuntimeError("x") from e
except:
    raise
else:
    pass
finally:
    pass

for i, (j, *k) in enumerate(data):
    if i < j <= k != 0 and i is not None and j not in k or not i:
        continue
    elif i in k and j is k:
        break
    else:
        pass
else:
    del i, j
while n := next(it, None):
    assert n, "message"
else:
    pass

lam = lambda: 0
lam2 = lambda a, b=1, *c, d, **e: (a, b, c, d, e)
lam3 = lambda *, k: k
cond = a if b else c
walrus = [y := f(x), y ** 2, y / 3, y // 4, y % 5, y @ m, -y, +y, ~y]
bits = a | b ^ c & d << 2 >> 1
lists = [x for x in range(10) if x if not x]
sets = {x for x in range(10)}
dicts = {k: v for k, v in items for _ in v}
gens = (x for x in range(10))
nested = [[y for y in x] for x in matrix]
sum(x for x in range(3))
unpack = [*a, *b]
dunpack = {**a, "k": 1, **b}
first, *rest = items
(a, b), c = d
[a, b] = c
a = b = c = 0
a += 1; b -= 1; c *= 2; d /= 2; e //= 2; f %= 2; g **= 2
h @= m; i &= 1; j |= 1; k ^= 1; l <<= 1; m >>= 1
slices = seq[1:2], seq[::2], seq[:], seq[1:], seq[:2:], seq[a:b, c:d], seq[..., 0], seq[*idx]
chained = a < b < c
ellipsis = ...
call(a, *args, k=1, **kwargs)
call(*a, *b, **c, **d)
call(a for a in b)
call(x := 1)

strings = ["single", 'single', """triple
double""", '''triple
single''', r"raw\d", R"raw", u"unicode", U"unicode", b"bytes", B"bytes",
           br"raw bytes", rb"raw bytes", Rb"x", bR"x", RB"x", BR"x", f"f{x}", F"F{x}", fr"{x}\d", rf"{x}",
           FR"{x}", Rf"{x}", "implicit" "concat" 'enation', "esc\"aped", 'esc\'aped', "\N{EM DASH}"]
fstrings = [f"{x!r}", f"{x:>10}", f"{x:{width}.{precision}}", f"{'nested'}", f'{"nested"}',
            f"{x['key']}", f'''{x["k"]} {y!s:^{w}}''', f"{{literal braces}}", f"{a}{b}{c}",
            f"{x=}", f"{3.14:.2f}", f"{ {'a': 1}['a'] }"]
numbers = [0, 1, 1_000_000, 0x_FF, 0XAB, 0o17, 0O7_7, 0b1010, 0B1_0, 1.5, .5, 5., 1e10, 1E-5,
           1.5e+3, 1_0.0_1, 3j, 1.5J, 1e3j, .5j, 0.0]
bools = [True, False, None]
line_continued = 1 + \
    2
parenthesized = (1 +
                 2)


def annotated(a: int, b: list[int] = [], *c: *Ts, d: "str" = "x", **e: dict) -> tuple[int, ...]:
    local: int
    local = 1
    return local,


class Point:
    __match_args__ = ("x", "y")


def matcher(command):
    match command.split():
        case [action]:
            pass
        case [action, obj]:
            pass
        case ["go", direction] | ["move", direction]:
            pass
        case Point(x=0, y=0):
            pass
        case Point(0, y=yy) if yy > 0:
            pass
        case {"key": value, **rest}:
            pass
        case (1 | 2 | 3) as small:
            pass
        case [1, 2, *others]:
            pass
        case -1 | 1.5 | 2 + 3j | -1 - 2j | "str" "ing" | b"bytes" | None | True | False:
            pass
        case module.Constant.VALUE:
            pass
        case {module.KEY: 1}:
            pass
        case ():
            pass
        case (x,):
            pass
        case *all_, last:
            pass
        case _:
            pass
    match x, y:
        case a, b:
            pass
    match (x):
        case case:
            match = case


if __name__ == "__main__":
    matcher("go north")
