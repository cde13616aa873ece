package dev.ptotools.codegen.passes;

/**
 * Our own DSL programs for the outlining and kernel-classification pass tests. The facts the tests
 * assert about them were read off pypto's pass dumps for the same programs.
 */
final class OutlineSources {

	private OutlineSources() {
	}

	static final String T = "pl.Tensor[[64, 64], pl.FP32]";

	/** Scopes in a loop, storing into two targets, with a task id, with deps and no_dep_args; Opaque parent. */
	static final String OUTLINE = """
			import pypto.language as pl

			@pl.program
			class TOutline:
			    @pl.function
			    def main(self, x: pl.Tensor[[64, 64], pl.FP32], y: pl.Tensor[[64, 64], pl.FP32],
			             o: pl.Out[pl.Tensor[[64, 64], pl.FP32]], p: pl.Out[pl.Tensor[[64, 64], pl.FP32]]) -> pl.Tensor[[64, 64], pl.FP32]:
			        for i in pl.range(4):
			            with pl.at(level=pl.Level.CORE_GROUP):
			                t = pl.load(x, [i * 16, 0], [16, 64])
			                o = pl.store(t, [i * 16, 0], o)
			        with pl.at(level=pl.Level.CORE_GROUP, name_hint="both"):
			            u = pl.load(y, [0, 0], [64, 64])
			            pl.store(u, [0, 0], o)
			            pl.store(u, [0, 0], p)
			        with pl.at(level=pl.Level.CORE_GROUP) as tid:
			            a = pl.load(p, [0, 0], [64, 64])
			            pl.store(a, [0, 0], o)
			        with pl.at(level=pl.Level.CORE_GROUP, deps=[tid], no_dep_args=[x]):
			            c = pl.load(x, [0, 0], [64, 64])
			            pl.store(c, [0, 0], p)
			        return o
			""";

	/** Tensor-level scopes: a fresh local result, assembles into params, a second user of the local. */
	static final String TENSOR = """
			import pypto.language as pl

			@pl.program
			class TTensor:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def main(self, a: pl.Tensor[[64, 64], pl.FP32], b: pl.Tensor[[64, 64], pl.FP32],
			             o1: pl.Out[pl.Tensor[[64, 64], pl.FP32]], o2: pl.Tensor[[64, 64], pl.FP32]):
			        with pl.at(level=pl.Level.CORE_GROUP):
			            t = pl.add(a, b)
			            u = pl.mul(a, b)
			            o2 = pl.assemble(o2, u, [0, 0])
			            o1 = pl.assemble(o1, t, [0, 0])
			        with pl.at(level=pl.Level.CORE_GROUP):
			            s = pl.sub(t, a)
			        with pl.at(level=pl.Level.CORE_GROUP):
			            o1 = pl.assemble(o1, s, [0, 0])
			        return o1, o2
			""";

	/** A cube-only, a vector-only, a split mixed and a cluster-grouped mixed kernel. */
	static final String MIXED = """
			import pypto.language as pl

			@pl.program
			class TMixed:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def main(self, a: pl.Tensor[[64, 128], pl.FP16], b: pl.Tensor[[128, 64], pl.FP16],
			             bias: pl.Tensor[[64, 64], pl.FP32], out: pl.Out[pl.Tensor[[64, 64], pl.FP32]],
			             out2: pl.Out[pl.Tensor[[64, 64], pl.FP32]]):
			        with pl.at(level=pl.Level.CORE_GROUP, name_hint="cube"):
			            acc = pl.matmul(a, b, out_dtype=pl.FP32)
			        with pl.at(level=pl.Level.CORE_GROUP, name_hint="vec"):
			            v = pl.add(acc, bias)
			            out = pl.assemble(out, v, [0, 0])
			        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mix", optimizations=[pl.split(pl.SplitMode.UP_DOWN)]):
			            acc2 = pl.matmul(a, b, out_dtype=pl.FP32)
			            w = pl.add(acc2, bias)
			            out2 = pl.assemble(out2, w, [0, 0])
			        with pl.cluster():
			            with pl.at(level=pl.Level.CORE_GROUP, name_hint="grp"):
			                acc3 = pl.matmul(a, b, out_dtype=pl.FP32)
			                z = pl.add(acc3, bias)
			                out = pl.assemble(out, z, [0, 0])
			        return out, out2
			""";

	/** A block-indexed pl.spmd loop storing into the output. */
	static final String SPMD = """
			import pypto.language as pl

			@pl.program
			class TSpmd:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def main(self, a: pl.Tensor[[512, 128], pl.FP32], out: pl.Out[pl.Tensor[[512, 128], pl.FP32]]):
			        for i in pl.spmd(4):
			            offset = i * 128
			            t = pl.load(a, [offset, 0], [128, 128])
			            out = pl.store(t, [offset, 0], out)
			        return out
			""";
}
