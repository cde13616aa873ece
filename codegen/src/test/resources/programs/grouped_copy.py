"""A rank loop the analyzer groups: one pinned dispatch per rank, only views before it."""

import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.program
class GroupedCopy:
    @pl.function(type=pl.FunctionType.AIV)
    def copy_kernel(self, src: pl.Tensor[[1, N], pl.FP32], dst: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return pl.store(pl.load(src, [0, 0], [1, N]), [0, 0], dst)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_copy(self, src: pl.Tensor[[1, N], pl.FP32], dst: pl.Out[pl.Tensor[[1, N], pl.FP32]],
                  halo: pld.DistributedTensor[[1, N], pl.FP32]) -> pl.Tensor[[1, N], pl.FP32]:
        dst = self.copy_kernel(src, dst)
        return dst

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(self, src: pl.Tensor[[4, 1, N], pl.FP32], dst: pl.Out[pl.Tensor[[4, 1, N], pl.FP32]]) -> pl.Tensor[[4, 1, N], pl.FP32]:
        halo_buf = pld.alloc_window_buffer(N * pl.FP32.get_byte())
        halo = pld.window(halo_buf, [1, N], dtype=pl.FP32)
        for rank in pl.range(pld.world_size()):
            src_r = src[rank]
            dst_r = dst[rank]
            self.chip_copy(src_r, dst_r, halo, device=rank)
        return dst
