"""Golden 1: one created tensor, the same kernel called twice (its id is reused), an Out parameter."""

import pypto.language as pl


@pl.program
class BasicProgram:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel_add(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        ta: pl.Tile[[16, 16], pl.FP32] = pl.load(a, [0, 0], [16, 16])
        tb: pl.Tile[[16, 16], pl.FP32] = pl.load(b, [0, 0], [16, 16])
        stored: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.add(ta, tb), [0, 0], output)
        return stored

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_basic(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], d: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
        c = self.kernel_add(a, b, c)
        d = self.kernel_add(c, b, d)
        return d
