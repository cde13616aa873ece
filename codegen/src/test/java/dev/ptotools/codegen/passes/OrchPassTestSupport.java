package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.passes.util.CallLike;

/** Test helpers over the orchestration passes' output. */
final class OrchPassTestSupport {

	private OrchPassTestSupport() {
	}

	/** Every call of a program function in a body, in order, as "name: dirs" with pypto's adir names. */
	static List<String> directions(Function f) {
		List<String> out = new ArrayList<>();
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				record(CallLike.of(c));
				super.call(c);
			}

			@Override
			public void submit(Expr.Submit s) {
				record(CallLike.of(s));
				super.submit(s);
			}

			private void record(CallLike c) {
				if (!c.isBuiltin()) {
					out.add(c.name() + ": " + String.join(", ", c.argDirections().stream().map(d -> d.dslName()).toList()));
				}
			}
		}.stmt(f.body());
		return out;
	}

	/** Every for loop of a body, in pre-order. */
	static List<Stmt.For> loops(Stmt body) {
		List<Stmt.For> out = new ArrayList<>();
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.For f) {
					out.add(f);
				}
				super.stmt(s);
			}
		}.stmt(body);
		return out;
	}
}
