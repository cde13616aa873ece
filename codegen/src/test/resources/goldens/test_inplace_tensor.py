"""Golden 3: InOut parameters written in place, a 4-tuple result, no allocations."""

import pypto.language as pl


@pl.program
class InplaceProgram:
    @pl.function(type=pl.FunctionType.AIV)
    def online_update(
        self,
        mij: pl.Tensor[[16, 1], pl.FP32],
        lij: pl.Tensor[[16, 1], pl.FP32],
        oi_new: pl.Tensor[[16, 16], pl.FP32],
        mi: pl.InOut[pl.Tensor[[16, 1], pl.FP32]],
        li: pl.InOut[pl.Tensor[[16, 1], pl.FP32]],
        oi: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        m: pl.Tensor[[16, 1], pl.FP32] = pl.store(pl.load(mi, [0, 0], [16, 1]), [0, 0], mi)
        l: pl.Tensor[[16, 1], pl.FP32] = pl.store(pl.load(li, [0, 0], [16, 1]), [0, 0], li)
        o: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(oi, [0, 0], [16, 16]), [0, 0], oi)
        x: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(dst, [0, 0], [16, 16]), [0, 0], dst)
        return m, l, o, x

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_inplace(
        self,
        mij: pl.Tensor[[16, 1], pl.FP32],
        lij: pl.Tensor[[16, 1], pl.FP32],
        oi_new: pl.Tensor[[16, 16], pl.FP32],
        mi: pl.InOut[pl.Tensor[[16, 1], pl.FP32]],
        li: pl.InOut[pl.Tensor[[16, 1], pl.FP32]],
        oi: pl.InOut[pl.Tensor[[16, 16], pl.FP32]],
        dst: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> tuple[pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 1], pl.FP32], pl.Tensor[[16, 16], pl.FP32], pl.Tensor[[16, 16], pl.FP32]]:
        mi, li, oi, dst = self.online_update(mij, lij, oi_new, mi, li, oi, dst)
        return mi, li, oi, dst
