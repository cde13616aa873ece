package dev.ptotools.analyzer.ir;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.support.Fixtures;

/**
 * Quotes in messages keep Python's precedence: an expression rendered back reads as the source
 * does, with the parentheses the source needed ("(r + 1) % n", not "r + 1 % n").
 */
class RenderTest {

	/** The value of {@code v = <expression>}, lowered from a DSL body. */
	private static Expr lowered(String expression) {
		Analysis a = Fixtures.analyze(Fixtures.IMPORTS + """
				@pl.program
				class P:
				    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
				    def host(self, a: pl.Scalar[pl.INT32], b: pl.Scalar[pl.INT32]):
				        v = %s
				        return v
				""".formatted(expression));
		Stmt s = a.module().programs().get(0).functions().get(0).body().get(0);
		return ((Stmt.Assign) s).value();
	}

	@ParameterizedTest
	@ValueSource(strings = { "(r + 1) % pld.world_size()", "(r + 1) * 2", "r - (1 - r)", "r - 1 - r", "a + b * c",
			"(a + b) * c", "a * (b // c)", "a ** b ** c", "(a ** b) ** c", "(-a) ** b", "-a ** b", "a ** -b",
			"-(a + b)", "~(a | b)", "a | b ^ c & d", "(a | b) & c", "(a << b) + c",
			"not (a or b)", "not a == b", "(not a) == b", "a or b and c", "(a or b) and c", "a or (b or c)",
			"(a < b) < c", "a < b < c", "a < (b < c)", "a if b else c", "(a if b else c) + 1", "a if (b if c else d) else e",
			"a if b else c if d else e", "(a if b else c) if d else e", "(a + b).bit_length()", "(a + b)[0]",
			"x[(r + 1) % n, 0:n]", "f(a + b, c=(d, e))", "[a, (b, c), -d]", "(a,)", "a and not b",
			"a - -b", "a / (b * c)", "a @ (b @ c)" })
	void renderingReadsAsTheSourceDoes(String source) {
		Expr e = lowered(source);
		assertEquals(source, Render.expr(e));
		// and the rendering parses back to the same tree
		assertEquals(shape(e), shape(lowered(Render.expr(e))), source);
	}

	@ParameterizedTest
	@ValueSource(strings = { "a << (b + c)", "(a - b) - c", "-(-a)", "((a))", "(a * b) + c", "f((a + b))" })
	void redundantParenthesesMayGoButTheMeaningStays(String source) {
		Expr e = lowered(source);
		assertEquals(shape(e), shape(lowered(Render.expr(e))), source + " rendered " + Render.expr(e));
	}

	@Test
	void messagesQuoteWhatTheSourceMeans() {
		Analysis a = Fixtures.analyze(Fixtures.hostProgram("""
				        for r in pl.range(pld.world_size()):
				            peer = (r + 1) % pld.world_size()
				            self.chip(inputs[r], data, device=r)
				        for r in pl.range(pld.world_size()):
				            twice = (r + 1) * 2
				            self.chip(inputs[r], data, device=r)
				        for r in pl.range(pld.world_size()):
				            back = r - (1 - r)
				            self.chip(inputs[r], data, device=r)
				"""));
		List<String> messages = Fixtures.of(a, "PTO106").stream().map(d -> d.message()).toList();
		assertEquals(3, messages.size(), Fixtures.describe(a));
		assertTrue(messages.get(0).contains("'peer = (r + 1) % pld.world_size()' calls pld.world_size"), messages.get(0));
		assertTrue(messages.get(1).contains("'twice = (r + 1) * 2' is not a view"), messages.get(1));
		assertTrue(messages.get(2).contains("'back = r - (1 - r)' is not a view"), messages.get(2));
	}

	/** The tree without spans. */
	private static String shape(Expr e) {
		StringBuilder b = new StringBuilder();
		Walk.expressions(e, x -> {
			b.append(x.getClass().getSimpleName());
			if (x instanceof Expr.BinOp o) {
				b.append(o.op());
			} else if (x instanceof Expr.UnaryOp o) {
				b.append(o.op());
			} else if (x instanceof Expr.BoolOp o) {
				b.append(o.op()).append(o.values().size());
			} else if (x instanceof Expr.Compare o) {
				b.append(o.ops());
			} else if (x instanceof Expr.Name n) {
				b.append(n.id());
			} else if (x instanceof Expr.Attribute at) {
				b.append(at.attr());
			} else if (x instanceof Expr.Literal l) {
				b.append(l.value());
			}
			b.append(' ');
		});
		return b.toString();
	}
}
