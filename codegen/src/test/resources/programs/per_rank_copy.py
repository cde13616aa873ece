"""Rank loops the analyzer does not group: a fixed bound, and two dispatches per rank."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.program
class PerRankCopy:
    @pl.function(type=pl.FunctionType.AIV)
    def copy_kernel(self, src: pl.Tensor[[1, N], pl.FP32], dst: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return pl.store(pl.load(src, [0, 0], [1, N]), [0, 0], dst)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_copy(self, src: pl.Tensor[[1, N], pl.FP32], dst: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        dst = self.copy_kernel(src, dst)
        return dst

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, src: pl.Tensor[[4, 1, N], pl.FP32], dst: pl.Out[pl.Tensor[[4, 1, N], pl.FP32]]) -> pl.Tensor[[4, 1, N], pl.FP32]:
        for rank in pl.range(4):
            src_r = src[rank]
            dst_r = dst[rank]
            self.chip_copy(src_r, dst_r, device=rank)
        return dst
