package dev.ptotools.analyzer.support;

/**
 * Large PyPTO programs for benchmarks and load tests: many programs, each with kernels, a CHIP
 * orchestrator and a HOST orchestrator whose rank loops cover grouped and every kind of not-grouped
 * loop. Deterministic for a given size.
 */
public final class GeneratedPrograms {

	private GeneratedPrograms() {
	}

	/** A module of about {@code lines} lines. */
	public static String multiRank(int lines) {
		StringBuilder b = new StringBuilder();
		b.append("\"\"\"Generated multi-rank PyPTO module for benchmarks.\"\"\"\n\n");
		b.append("import pypto.language as pl\nimport pypto.language.distributed as pld\n\nROWS = 128\nCOLS = 128\n\n");
		int i = 0;
		while (countLines(b) < lines) {
			b.append(program(i++));
		}
		return b.toString();
	}

	private static int countLines(CharSequence s) {
		int n = 0;
		for (int i = 0; i < s.length(); i++) {
			if (s.charAt(i) == '\n') {
				n++;
			}
		}
		return n;
	}

	/** The text of one generated program, {@code Program<i>}. */
	public static String program(int i) {
		return """

				@pl.program
				class Program%1$d:
				    @pl.function(type=pl.FunctionType.AIV)
				    def kernel_add(
				        self,
				        a: pl.Tensor[[ROWS, COLS], pl.FP32],
				        b: pl.Tensor[[ROWS, COLS], pl.FP32],
				        out: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
				    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
				        ta: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(a, [0, 0], [ROWS, COLS])
				        tb: pl.Tile[[ROWS, COLS], pl.FP32] = pl.load(b, [0, 0], [ROWS, COLS])
				        total: pl.Tile[[ROWS, COLS], pl.FP32] = pl.add(ta, tb)
				        result: pl.Tensor[[ROWS, COLS], pl.FP32] = pl.store(total, [0, 0], out)
				        return result

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_step(
				        self,
				        x: pl.Tensor[[ROWS, COLS], pl.FP32],
				        data: pld.DistributedTensor[[ROWS, COLS], pl.FP32],
				    ) -> pl.Tensor[[ROWS, COLS], pl.FP32]:
				        c: pl.Tensor[[ROWS, COLS], pl.FP32] = pl.create_tensor([ROWS, COLS], dtype=pl.FP32)
				        c = self.kernel_add(x, x, c)
				        return c

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_finish(self, data: pld.DistributedTensor[[ROWS, COLS], pl.FP32]):
				        return data

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host_orch(
				        self,
				        inputs: pl.Tensor[[8, ROWS, COLS], pl.FP32],
				        flag: pl.Scalar[pl.INT32],
				    ) -> pl.Tensor[[8, ROWS, COLS], pl.FP32]:
				        buf = pld.alloc_window_buffer(ROWS * COLS * pl.FP32.get_byte())
				        data = pld.window(buf, [ROWS, COLS], dtype=pl.FP32)
				        for r in pl.range(pld.world_size()):
				            x_r = inputs[r]
				            self.chip_step(x_r, data, device=r)
				        for r in pl.range(pld.world_size()):
				            if flag > 0:
				                self.chip_step(inputs[r], data, device=r)
				        for r in pl.range(pld.world_size()):
				            self.chip_step(inputs[r], data, device=0)
				        for r in pl.range(4):
				            self.chip_step(inputs[r], data, device=r)
				        for r in pl.range(pld.world_size()):
				            self.chip_step(inputs[r], data, device=r)
				            self.chip_finish(data, device=r)
				        n = pld.world_size()
				        for step in pl.range(10):
				            for r in pl.range(n):
				                self.chip_step(inputs[r], data, device=r)
				        return inputs
				""".formatted(i);
	}
}
