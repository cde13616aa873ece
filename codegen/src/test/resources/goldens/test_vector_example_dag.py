"""Golden 2: four creates in one batch, float scalar arguments, three kernels in first-call order."""

import pypto.language as pl


@pl.program
class VectorExampleProgram:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel_add(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.add(pl.load(a, [0, 0], [16, 16]), pl.load(b, [0, 0], [16, 16])), [0, 0], output)
        return s

    @pl.function(type=pl.FunctionType.AIV)
    def kernel_add_scalar(self, a: pl.Tensor[[16, 16], pl.FP32], scalar: pl.Scalar[pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.add(pl.load(a, [0, 0], [16, 16]), scalar), [0, 0], output)
        return s

    @pl.function(type=pl.FunctionType.AIV)
    def kernel_mul(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        s: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.mul(pl.load(a, [0, 0], [16, 16]), pl.load(b, [0, 0], [16, 16])), [0, 0], output)
        return s

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_vector(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32], f: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
        c: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
        c = self.kernel_add(a, b, c)
        d: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
        d = self.kernel_add_scalar(c, 1.0, d)
        e: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
        e = self.kernel_add_scalar(c, 2.0, e)
        g: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
        g = self.kernel_mul(d, e, g)
        f = self.kernel_add(g, c, f)
        return f
