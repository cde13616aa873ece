import pypto.language as pl
import pypto.language.distributed as pld
@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def h(self, x: pl.Tensor[[4], pl.FP32]):
        for r, in pl.range():
            for r in r:
                self.h(device=r, device=r)
        for (a, b) in pl.parallel(pld.world_size(), init_values=[]):
            pl.yield_()
