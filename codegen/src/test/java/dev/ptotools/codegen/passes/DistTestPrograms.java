package dev.ptotools.codegen.passes;

/** A chip orchestrator taking one window view and the HOST orchestrator header the distributed pass tests share. */
final class DistTestPrograms {

	private DistTestPrograms() {
	}

	static final String HEAD = """
			import pypto.language as pl
			import pypto.language.distributed as pld

			N = 64


			@pl.program
			class P:
			    @pl.function(type=pl.FunctionType.InCore)
			    def k(self, data: pld.DistributedTensor[[1, N], pl.FP32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        t = pl.load(data, [0, 0], [1, N])
			        o = pl.store(t, [0, 0], out)
			        return o

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP32]], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        out = self.k(data, out)
			        return out

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, y: pl.Out[pl.Tensor[[4, 1, N], pl.FP32]], n: pl.Scalar[pl.INDEX]) -> pl.Tensor[[4, 1, N], pl.FP32]:
			""";

	/** The program with body (indented 8) as the HOST orchestrator's body. */
	static String host(String body) {
		return HEAD + body;
	}

	/** A body that dispatches a view of data_buf on each of the 4 ranks, then the statements of rest. */
	static String dispatched(String allocs, String rest) {
		return host(allocs + """
				        for r in pl.range(4):
				            data = pld.window(data_buf, [1, N], dtype=pl.FP32)
				            y_r = y[r]
				            self.chip(data, y_r, device=r)
				""" + rest + """
				        return y
				""");
	}
}
