package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.emit.orchestration.IrPrograms;
import dev.ptotools.codegen.ir.Program;

/**
 * DeriveCallDirections on our own programs, asserting the directions pypto's pass stamps on them
 * (checked against pypto run with the codegen-entry passes on the same source).
 */
class DeriveCallDirectionsPassTest {

	private static final String KERNELS = """
			    @pl.function(type=pl.FunctionType.AIV)
			    def w(self, x: pl.Tensor[[16, 16], pl.FP32], n: pl.Scalar[pl.INT32], o: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return o

			    @pl.function(type=pl.FunctionType.AIV)
			    def rw(self, x: pl.Tensor[[16, 16], pl.FP32], o: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
			        return o
			""";

	private static Program derive(String orch) {
		Program p = IrPrograms.parseOne(IrPrograms.HEADER + "@pl.program\nclass P:\n" + KERNELS + "\n" + orch);
		return new DeriveCallDirectionsPass().run(p, new PassContext(Backend.ASCEND_910B));
	}

	@Test
	void outParametersFollowWritersLoopsAndTheCallersDirections() {
		Program p = derive("""
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], acc: pl.InOut[pl.Tensor[[16, 16], pl.FP32]], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        t: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				        t = self.w(x, 1, t)
				        t = self.w(x, 2, t)
				        acc = self.w(t, 3, acc)
				        for i in pl.parallel(4):
				            u: pl.Tensor[[16, 16], pl.FP32] = pl.create_tensor([16, 16], dtype=pl.FP32)
				            u = self.w(x, 4, u)
				        for j in pl.range(2):
				            out = self.w(t, 5, out)
				        out = self.rw(x, out)
				        out = self.w(pl.no_dep(x), 6, out)
				        return out
				""");
		assertEquals(List.of(
				"w: input, scalar, output_existing", // first writer of t
				"w: input, scalar, inout", // t was written before
				"w: input, scalar, inout", // acc is an InOut parameter of the orchestration
				"w: input, scalar, output_existing", // a parallel loop is not sequential
				"w: input, scalar, inout", // any sequential loop
				"rw: input, inout",
				"w: no_dep, scalar, inout"), OrchPassTestSupport.directions(IrPrograms.orchestration(p)));
	}

	@Test
	void kernelsCallNothingAndASecondRunChangesNothing() {
		Program p = derive("""
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, x: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        out = self.w(x, 1, out)
				        return out
				""");
		assertEquals(List.of("w: input, scalar, output_existing"), OrchPassTestSupport.directions(IrPrograms.orchestration(p)));
		assertSame(p, new DeriveCallDirectionsPass().run(p, new PassContext(Backend.ASCEND_910B)));
	}

	@Test
	void aGroupGetsTheDirectionsOfItsKernelsAndItsCallerUsesThem() {
		Program p = IrPrograms.parseOne(IrPrograms.HEADER + """
				@pl.program
				class G:
				    @pl.function(type=pl.FunctionType.AIC)
				    def k_aic(self, a: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.AIV)
				    def k_aiv(self, a: pl.Tensor[[16, 16], pl.FP16], out: pl.InOut[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        return out

				    @pl.function(type=pl.FunctionType.Group)
				    def k(self, a: pl.Tensor[[16, 16], pl.FP16], out: pl.Tensor[[16, 16], pl.FP32]) -> pl.Tensor[[16, 16], pl.FP32]:
				        self.k_aic(a, out)
				        self.k_aiv(a, out)
				        return out

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def orch(self, a: pl.Tensor[[16, 16], pl.FP16], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]) -> pl.Tensor[[16, 16], pl.FP32]:
				        out = self.k(a, out)
				        return out
				""");
		p = new DeriveCallDirectionsPass().run(p, new PassContext(Backend.ASCEND_910B));
		assertEquals(List.of(dev.ptotools.analyzer.ir.Direction.In, dev.ptotools.analyzer.ir.Direction.InOut),
				p.function("k").directions());
		assertEquals(List.of("k: input, inout"), OrchPassTestSupport.directions(IrPrograms.orchestration(p)));
		assertEquals(List.of("k_aic: input, inout", "k_aiv: input, inout"), // out is now an InOut parameter of k
				OrchPassTestSupport.directions(p.function("k")));
	}
}
