package dev.ptotools.analyzer.rules;

import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;

/**
 * Decorators are resolved through what the imports bind, for every public path pypto exports the DSL
 * under (python/pypto/__init__.py, jit/__init__.py, jit/decorator.py, language/__init__.py,
 * language/distributed/__init__.py), and a jit function's bare-name calls reach the jit functions they
 * name (jit/decorator.py _collect_deps): however jit is spelled, the rank loop gets the verdict it
 * gets with pl.jit. The bodies spell ops pl.* and pld.*, as pypto's parser requires.
 */
class JitSpellingsTest {

	static Stream<Arguments> spellings() {
		return Stream.of(Arguments.of("from pypto.jit import jit", """
				import pypto.language as pl
				import pypto.language.distributed as pld
				from pypto.jit import jit


				@jit.incore
				def kernel(x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]):
				    return y


				@jit
				def per_rank(x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]):
				    return kernel(x, y)


				@jit.host
				def host(x: pl.Tensor[[8, 64], pl.FP32], y: pl.Out[pl.Tensor[[8, 64], pl.FP32]]):
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], y[r], device=r)
				    return y
				"""), Arguments.of("from pypto.jit.decorator import jit, with arguments", """
				import pypto.language as pl
				import pypto.language.distributed as pld
				from pypto.jit.decorator import jit


				@jit(auto_scope=False)
				def per_rank(x: pl.Tensor[[64], pl.FP32], y: pl.Out[pl.Tensor[[64], pl.FP32]]):
				    return y


				@jit.host(auto_scope=False)
				def host(x: pl.Tensor[[8, 64], pl.FP32], y: pl.Out[pl.Tensor[[8, 64], pl.FP32]]):
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], y[r], device=r)
				    return y
				"""), Arguments.of("import pypto.language, decorators by their full path", """
				import pypto.language
				import pypto.language as pl
				import pypto.language.distributed as pld


				@pypto.language.jit
				def per_rank(x: pypto.language.Tensor[[64], pypto.language.FP32]):
				    return x


				@pypto.language.jit.host
				def host(x: pypto.language.Tensor[[8, 64], pypto.language.FP32]):
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], device=r)
				    return x
				"""), Arguments.of("jit and types imported from pypto.language", """
				import pypto.language as pl
				import pypto.language.distributed as pld
				from pypto.language import FP32, Tensor, jit


				@jit
				def per_rank(x: Tensor[[64], FP32], w: pld.DistributedTensor[[64], FP32]):
				    return x


				@jit.host
				def host(x: Tensor[[8, 64], FP32]):
				    buf = pld.alloc_window_buffer(64 * pl.FP32.get_byte())
				    for r in pl.range(pld.world_size()):
				        w = pld.window(buf, [64], dtype=pl.FP32)
				        per_rank(x[r], w, device=r)
				    return x
				"""), Arguments.of("class style with bare decorators and enums", """
				from pypto import language as pl
				from pypto.language import FunctionType, Level, Role, function, program
				from pypto.language import distributed as pld


				@program
				class P:
				    @function(type=FunctionType.Orchestration)
				    def chip(self, x: pl.Tensor[[64], pl.FP32]):
				        return x

				    @function(level=Level.HOST, role=Role.Orchestrator)
				    def host(self, x: pl.Tensor[[8, 64], pl.FP32]):
				        for r in pl.range(pld.world_size()):
				            self.chip(x[r], device=r)
				        return x
				"""));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("spellings")
	void everySpellingGetsTheVerdictOfPlJit(String what, String source) {
		Analysis a = analyze(source);
		assertEquals(1, a.rankLoops().size(), describe(a));
		assertTrue(a.rankLoops().get(0).grouped(), a.rankLoops().get(0).reason() + "\n" + describe(a));
		assertEquals(1, dev.ptotools.analyzer.support.Fixtures.of(a, "PTO100").size(), describe(a));
		assertTrue(dev.ptotools.analyzer.support.Fixtures.errors(a).isEmpty(), describe(a));
	}

	@Test
	void jitFunctionsHaveTheKindsOfPlJit() {
		Analysis a = analyze((String) spellings().findFirst().orElseThrow().get()[1]);
		var kinds = a.facts().get(Keys.FUNCTIONS);
		var program = a.module().programs().get(0);
		Function kernel = program.function("kernel");
		Function perRank = program.function("per_rank");
		Function host = program.function("host");
		assertEquals(FunctionInfo.Kind.KERNEL, kinds.kind(kernel));
		assertEquals(FunctionInfo.Kind.CHIP_ORCHESTRATOR, kinds.kind(perRank));
		assertEquals(FunctionInfo.Kind.HOST_ORCHESTRATOR, kinds.kind(host));
	}

	@Test
	void aJitThatIsNotPyptosIsNotADslFunction() {
		Analysis a = analyze("""
				import pypto.language as pl
				import pypto.language.distributed as pld
				from numba import jit


				@jit
				def per_rank(x):
				    return x


				@jit
				def host(x):
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], device=r)
				    return x
				""");
		assertTrue(a.module().programs().isEmpty(), describe(a));
		assertTrue(a.diagnostics().isEmpty(), describe(a));
	}
}
