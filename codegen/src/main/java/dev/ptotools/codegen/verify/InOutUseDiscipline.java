package dev.ptotools.codegen.verify;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's InOutUseValid property (RFC #1026; src/ir/transforms/utils/stmt_dependency_analysis.cpp), one
 * of the structural properties its pass manager verifies before the first pass: a variable passed as
 * an Out or InOut argument to a program function is dead for reads from that call on, until it is
 * bound again ({@code c = self.kernel(a, c)} rebinds it; {@code self.kernel(a, c)} then {@code return c}
 * reads the pre-call value).
 *
 * <p>Needs: the program as the front end parsed it (before InlineFunctions and SSA), where a name
 * bound again is a new assignment. Produces: nothing, or pypto's first diagnostic as a
 * {@link CodegenException} located where pypto locates it, at the variable (its definition: pypto's
 * Var carries the span of the place it was bound). The branches of an if are exclusive, and a loop
 * body's kills reach its reads through the back edge; Group and Spmd wrappers are not checked.
 */
public final class InOutUseDiscipline {

	private InOutUseDiscipline() {
	}

	/** @param where how a span is named in the message ("12:9"), as pypto prints a call's position */
	public static void check(Program program, Function<Span, String> where) {
		for (dev.ptotools.codegen.ir.Function f : program.functions()) {
			if (f.body() == null || f.type() == FunctionType.Group || f.type() == FunctionType.Spmd) {
				continue;
			}
			Checker c = new Checker(program, where);
			c.stmt(f.body());
			if (c.error != null) {
				throw c.error;
			}
		}
	}

	private static final class Checker extends IrVisitor {

		private final Program program;
		private final Function<Span, String> where;
		private final Map<Var, Span> dead = new LinkedHashMap<>(); // the var and the call that killed it first
		private CodegenException error;

		Checker(Program program, Function<Span, String> where) {
			this.program = program;
			this.where = where;
		}

		@Override
		public void use(Var v) {
			Span origin = dead.get(v);
			if (origin != null && error == null) {
				error = new CodegenException("variable '" + v.name() + "' was passed as InOut/Out at " + where.apply(origin)
						+ "; read the post-call return value instead of the pre-call variable", v.span());
			}
		}

		@Override
		public void call(Expr.Call c) {
			super.call(c); // the arguments are read before the call's effect: f(t, out=t) is allowed
			String name = c.functionName();
			dev.ptotools.codegen.ir.Function callee = name == null ? null : program.function(name);
			if (callee == null) {
				return;
			}
			int n = Math.min(callee.directions().size(), c.args().size());
			for (int i = 0; i < n; i++) {
				Direction d = callee.directions().get(i);
				if ((d == Direction.Out || d == Direction.InOut) && c.args().get(i) instanceof Var v) {
					dead.putIfAbsent(v, c.span());
				}
			}
		}

		@Override
		public void stmt(Stmt s) {
			if (s instanceof Stmt.Assign a) {
				expr(a.value());
				dead.remove(a.var());
			} else if (s instanceof Stmt.If i) {
				expr(i.condition());
				Map<Var, Span> before = new LinkedHashMap<>(dead);
				stmt(i.then());
				Map<Var, Span> afterThen = new LinkedHashMap<>(dead);
				dead.clear();
				dead.putAll(before);
				stmt(i.orelse());
				afterThen.forEach(dead::putIfAbsent);
			} else if (s instanceof Stmt.For f) {
				expr(f.start());
				expr(f.stop());
				expr(f.step());
				f.iterArgs().forEach(a -> expr(a.init()));
				loopBody(f.body(), f.iterArgs());
			} else if (s instanceof Stmt.While w) {
				expr(w.condition());
				w.iterArgs().forEach(a -> expr(a.init()));
				loopBody(w.body(), w.iterArgs());
			} else {
				super.stmt(s);
			}
		}

		/** Kills anywhere in the body are reachable from the next iteration's reads (the back edge). */
		private void loopBody(Stmt body, java.util.List<IterArg> iterArgs) {
			Set<Var> carried = new HashSet<>(iterArgs);
			Checker kills = new Checker(program, where);
			kills.stmt(body);
			kills.dead.forEach((v, origin) -> {
				if (!carried.contains(v)) {
					dead.putIfAbsent(v, origin);
				}
			});
			stmt(body);
			iterArgs.forEach(dead::remove);
		}
	}
}
