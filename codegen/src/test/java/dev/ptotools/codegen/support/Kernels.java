package dev.ptotools.codegen.support;

/** DSL text of small kernels the orchestration tests call (their bodies do not matter to the C++). */
public final class Kernels {

	private Kernels() {
	}

	public static final String T16 = "pl.Tensor[[16, 16], pl.FP32]";

	/** kernel_add(a, b, output: Out) -> output. */
	public static final String ADD = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def kernel_add(self, a: pl.Tensor[[16, 16], pl.FP32], b: pl.Tensor[[16, 16], pl.FP32],
			                   output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.add(pl.load(a, [0, 0], [16, 16]), pl.load(b, [0, 0], [16, 16])), [0, 0], output)
			        return r

			""";

	/** kernel_scale(a, s: FP32 scalar, output: Out) -> output. */
	public static final String SCALE = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def kernel_scale(self, a: pl.Tensor[[16, 16], pl.FP32], s: pl.Scalar[pl.FP32],
			                     output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.add(pl.load(a, [0, 0], [16, 16]), s), [0, 0], output)
			        return r

			""";

	/** kernel_fill(output: Out) -> output (a writer). */
	public static final String FILL = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def kernel_fill(self, x: pl.Tensor[[16, 16], pl.FP32],
			                    output: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        r: pl.Tensor[[16, 16], pl.FP32] = pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], output)
			        return r

			""";

	/** A program class with the given members. */
	public static String program(String name, String... members) {
		StringBuilder b = new StringBuilder(Sources.HEADER).append("\n@pl.program\nclass ").append(name).append(":\n");
		for (String m : members) {
			b.append(m);
		}
		return b.toString();
	}
}
