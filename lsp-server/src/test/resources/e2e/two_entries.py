"""Two host entries in one module: saving it writes both programs."""

import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
SIZE = 64


@pl.jit.incore
def add_one(x: pl.Tensor[[1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]):
    t = pl.load(x, [0, 0], [1, SIZE])
    y = pl.store(pl.add(t, 1.0), [0, 0], y)
    return y


@pl.jit.incore
def double(x: pl.Tensor[[1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]):
    t = pl.load(x, [0, 0], [1, SIZE])
    y = pl.store(pl.mul(t, 2.0), [0, 0], y)
    return y


@pl.jit
def per_rank_add(x: pl.Tensor[[1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]):
    return add_one(x, y)


@pl.jit
def per_rank_double(x: pl.Tensor[[1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]]):
    return double(x, y)


@pl.jit.host
def add_all(x: pl.Tensor[[N_RANKS, 1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[N_RANKS, 1, SIZE], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        per_rank_add(x[r], y[r], device=r)


@pl.jit.host
def double_all(x: pl.Tensor[[N_RANKS, 1, SIZE], pl.FP32], y: pl.Out[pl.Tensor[[N_RANKS, 1, SIZE], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        per_rank_double(x[r], y[r], device=r)
