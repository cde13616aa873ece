import pypto.language as pl
@pl.program
class P:
    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def h(self, x: pl.Tensor[[4], pl.FP32]):
        for r in pl.range(pld.world_size(:
            self.c(x[r], device=r
@pl.function(type=pl.FunctionType.
