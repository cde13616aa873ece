package dev.ptotools.analyzer.rules;

import static dev.ptotools.analyzer.support.Fixtures.analyze;
import static dev.ptotools.analyzer.support.Fixtures.describe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.SubscriptOps;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.support.Fixtures;

/**
 * Subscripts in rank loops as pypto's parser builds them (ast_parser.py _parse_tensor_subscript,
 * _parse_tile_subscript, _parse_subscript_assignment): a full-rank all-scalar subscript is an element
 * read (tensor.read, a call), a subscript assignment is a write (tensor.assemble, a call), and every
 * partial or sliced subscript stays a tensor.slice view.
 */
class SubscriptVerdictsTest {

	/** A CHIP orchestrator taking one row and one scalar, and a HOST orchestrator around {@code body}. */
	static String program(String body) {
		return Fixtures.IMPORTS + """
				N = 64


				@pl.program
				class Rows:
				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip(self, x: pl.Tensor[[N], pl.FP32], k: pl.Scalar[pl.FP32]):
				        return x

				    @pl.function(type=pl.FunctionType.Orchestration)
				    def chip_row(self, x: pl.Tensor[[N], pl.FP32], y: pl.Out[pl.Tensor[[N], pl.FP32]]):
				        return y

				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(
				        self,
				        rows: pl.Tensor[[8, N], pl.FP32],
				        scale: pl.Tensor[[8], pl.FP32],
				        grid: pl.Tensor[[8, 4], pl.FP32],
				        cube: pl.Tensor[[8, 4, N], pl.FP32],
				        out: pl.Out[pl.Tensor[[8, N], pl.FP32]],
				        k: pl.Scalar[pl.FP32],
				    ):
				        buf = pld.alloc_window_buffer(8 * N * pl.FP32.get_byte())
				        win = pld.window(buf, [8, N], dtype=pl.FP32)
				""" + body + "        return out\n";
	}

	static Stream<Arguments> verdicts() {
		return Stream.of(
				// what, host body, PTO100 for grouped or the rule, a part of the message
				Arguments.of("1-D x[r] is tensor.read", """
						        for r in pl.range(pld.world_size()):
						            s = scale[r]
						            self.chip(rows[r], s, device=r)
						""", "PTO106",
						"'s = scale[r]' reads an element of scale (tensor.read: scale is 1-D and every index is a scalar)"),
				Arguments.of("2-D x[r, 0] is tensor.read", """
						        for r in pl.range(pld.world_size()):
						            g = grid[r, 0]
						            self.chip(rows[r], g, device=r)
						""", "PTO106", "reads an element of grid (tensor.read: grid is 2-D"),
				Arguments.of("x[(r, 0)] is x[r, 0]", """
						        for r in pl.range(pld.world_size()):
						            g = grid[(r, 0)]
						            self.chip(rows[r], g, device=r)
						""", "PTO106", "reads an element of grid"),
				Arguments.of("chained x[r][0] reads the 1-D slice", """
						        for r in pl.range(pld.world_size()):
						            g = grid[r][0]
						            self.chip(rows[r], g, device=r)
						""", "PTO106", "reads an element of grid[r] (tensor.read: grid[r] is 1-D"),
				Arguments.of("a read written inline is a call in an argument", """
						        for r in pl.range(pld.world_size()):
						            self.chip(rows[r], scale[r], device=r)
						""", "PTO107", "scale[r] reads an element of scale (tensor.read: scale is 1-D and every"
								+ " index is a scalar) inside an argument of self.chip"),
				Arguments.of("a read of a local view", """
						        for r in pl.range(pld.world_size()):
						            row = rows[r]
						            self.chip(row, row[0], device=r)
						""", "PTO107", "row[0] reads an element of row (tensor.read: row is 1-D"),
				Arguments.of("dispatch result written into y[r] is tensor.assemble", """
						        for r in pl.range(pld.world_size()):
						            out[r] = self.chip(rows[r], k, device=r)
						""", "PTO106", "'out[r] = self.chip(rows[r], k, device=r)' writes the dispatch's result into"
								+ " out (tensor.assemble), a call beside the dispatch"),
				Arguments.of("y[r] = x[r] is tensor.assemble", """
						        for r in pl.range(pld.world_size()):
						            out[r] = rows[r]
						            self.chip(rows[r], k, device=r)
						""", "PTO106", "'out[r] = rows[r]' writes into out (tensor.assemble), which is not a view"),
				Arguments.of("a read in a nested block is another call", """
						        for r in pl.range(pld.world_size()):
						            self.chip(rows[r], k, device=r)
						            if k > 0:
						                s = scale[r]
						""", "PTO106", "'s = scale[r]' reads an element of scale"),
				// neighbours that stay views
				Arguments.of("x[r] on a 2-D tensor is a slice", """
						        for r in pl.range(pld.world_size()):
						            self.chip(rows[r], k, device=r)
						""", "PTO100", "grouped dispatch"),
				Arguments.of("partial x[r, :] is a slice", """
						        for r in pl.range(pld.world_size()):
						            row = rows[r, :]
						            self.chip(row, k, device=r)
						""", "PTO100", "grouped dispatch"),
				Arguments.of("x3[r, 0] on a 3-D tensor is a slice", """
						        for r in pl.range(pld.world_size()):
						            row = cube[r, 0]
						            self.chip(row, k, device=r)
						""", "PTO100", "grouped dispatch"),
				Arguments.of("w[0] on a 2-D window view is a slice", """
						        for r in pl.range(pld.world_size()):
						            w = pld.window(buf, [8, N], dtype=pl.FP32)
						            self.chip(w[0], k, device=r)
						""", "PTO100", "grouped dispatch"),
				Arguments.of("a sliced 1-D subscript is a slice", """
						        for r in pl.range(pld.world_size()):
						            s = scale[r:r + 1]
						            self.chip(rows[r], k, device=r)
						""", "PTO100", "grouped dispatch"),
				Arguments.of("an Out view passed inline, not written", """
						        for r in pl.range(pld.world_size()):
						            self.chip_row(rows[r], out[r], device=r)
						""", "PTO100", "grouped dispatch"));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("verdicts")
	void loopIsJudgedAsPyptosIrHasIt(String what, String body, String rule, String message) {
		Analysis a = analyze(program(body));
		assertEquals(1, a.rankLoops().size(), describe(a));
		RankLoop loop = a.rankLoops().get(0);
		assertEquals(rule, loop.grouped() ? "PTO100" : loop.failed().rule(), describe(a));
		assertTrue(Fixtures.of(a, rule).stream().anyMatch(d -> d.message().contains(message)), describe(a));
	}

	@Test
	void everySubscriptGetsTheOpPyptosParserBuilds() {
		Analysis a = analyze(Fixtures.IMPORTS + """
				@pl.program
				class Ops:
				    @pl.function(type=pl.FunctionType.InCore)
				    def kernel(
				        self,
				        x: pl.Tensor[[16, 64], pl.FP32],
				        t: pl.Tile[[16, 64], pl.FP32],
				        t3: pl.Tile[[2, 16, 64], pl.FP32],
				    ):
				        a = x[0, 1]
				        b = x[0]
				        c = t[0, 1]
				        d = t[0]
				        e = t3[0, 1]
				        f = t3[0][1][2]
				        g = x[0:8, 1]
				        h = pl.load(x, [0, 0], [16, 64])
				        i = h[3, 4]
				        j = pl.slice(x, [1, 64], [0, 0])
				        k = j[0, 0]
				        x[0] = b
				        return x
				""");
		SubscriptOps subs = a.facts().get(Keys.SUBSCRIPTS);
		List<String> seen = new ArrayList<>();
		Walk.statements(a.module().programs().get(0).functions().get(0).body(), s -> Walk.ownExpressions(s)
				.forEach(e -> Walk.expressions(e, x -> {
					if (x instanceof Expr.Subscript sub) {
						seen.add(a.file().text().substring(sub.span().start(), sub.span().end()) + " "
								+ subs.of(sub).name());
					}
				})));
		assertEquals(List.of("x[0, 1] TENSOR_READ", "x[0] TENSOR_SLICE", "t[0, 1] TILE_READ", "t[0] TILE_SLICE",
				"t3[0, 1] TILE_SLICE", "t3[0][1][2] TILE_SLICE", "t3[0][1] TILE_SLICE", "t3[0] TILE_SLICE",
				"x[0:8, 1] TENSOR_SLICE", "h[3, 4] TILE_READ", "j[0, 0] TENSOR_READ", "x[0] TENSOR_ASSEMBLE"), seen);
	}

	@Test
	void operandsOfUnknownRankStayViews() {
		// A bare pl.Tensor of a jit function takes its shape from the sample tensors at call time.
		Analysis a = analyze(Fixtures.IMPORTS + """
				@pl.jit
				def per_rank(x: pl.Tensor, y: pl.Out[pl.Tensor]):
				    return y

				@pl.jit.host
				def host(x: pl.Tensor, y: pl.Out[pl.Tensor]):
				    for r in pl.range(pld.world_size()):
				        per_rank(x[r], y[r], device=r)
				    return y
				""");
		assertEquals(1, a.rankLoops().size(), describe(a));
		assertNull(a.rankLoops().get(0).failed(), describe(a));
	}
}
