package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.passes.util.DeepClone;
import dev.ptotools.codegen.passes.util.Stmts;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's unroll_loops (UnrollLoops, src/ir/transforms/unroll_loops_pass.cpp): a {@code pl.unroll} loop
 * with constant bounds becomes its body once per iteration, the loop variable replaced by the iteration's
 * constant. The copies share the definitions' Var objects (ConvertToSSA later versions them one after the
 * other: {@code x__ssa_v1}, {@code x__ssa_v2}, ...) and are kept as one statement list per loop, not
 * flattened, as pypto leaves them.
 */
public final class UnrollLoopsPass implements Pass {

	private static final int MAX_ITERATIONS = 1024;

	/**
	 * Statements the unrolled copies of one function may hold in all. pypto bounds each loop (1024 trips)
	 * but not their product: two nested {@code pl.unroll(1024)} are a million copies, which pypto takes
	 * minutes to write and this compiler would need gigabytes to hold. Past this budget the program is
	 * reported as one this compiler does not reproduce (PTO501) instead of stalling the editor.
	 */
	static final long STATEMENT_BUDGET = 100_000;

	@Override
	public String name() {
		return "UnrollLoops";
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.UnrollResolved);
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		for (Function f : program.functions()) {
			out.add(new Unroller().function(f));
		}
		return program.withFunctions(out);
	}

	private static long constant(Expr e, String what) {
		if (e instanceof Expr.ConstInt c) {
			return c.value();
		}
		if (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.Neg && u.operand() instanceof Expr.ConstInt c) {
			return -c.value();
		}
		String kind = e instanceof Expr.Binary b ? b.op().name() : e instanceof Expr.Unary u ? u.op().name()
				: e.getClass().getSimpleName();
		throw new CodegenException("Unroll loop " + what + " must be a compile-time integer constant, got " + kind,
				e.span());
	}

	private static final class Unroller extends IrMutator {

		private int depth;
		private long unrolledStatements;

		@Override
		public Stmt seq(Stmt.Seq q) {
			// pypto's base mutator re-flattens a changed list (two levels deep).
			List<Stmt> out = new ArrayList<>();
			boolean changed = false;
			for (Stmt s : q.stmts()) {
				Stmt n = stmt(s);
				changed |= n != s;
				out.add(n);
			}
			return changed ? Stmts.flatten(out, q.span()) : q;
		}

		@Override
		public Stmt forStmt(Stmt.For f) {
			if (f.kind() != Stmt.ForKind.Unroll) {
				return super.forStmt(f);
			}
			if (!f.iterArgs().isEmpty()) {
				throw new CodegenException("Unroll loops cannot have iter_args (init_values)", f.span());
			}
			long start = constant(f.start(), "start");
			long stop = constant(f.stop(), "stop");
			long step = constant(f.step(), "step");
			if (step == 0) {
				throw new CodegenException("Unroll loop step cannot be zero", f.step().span());
			}
			long trips = trips(start, stop, step);
			if (trips > MAX_ITERATIONS) {
				throw new CodegenException("Unroll loop trip count " + trips + " exceeds maximum allowed (" + MAX_ITERATIONS
						+ "). Reduce the loop range or use pl.range() instead", f.span());
			}
			if (depth == 0) {
				long size = UnrolledSize.of(f);
				unrolledStatements = UnrolledSize.add(unrolledStatements, size);
				if (unrolledStatements > STATEMENT_BUDGET) {
					throw CodegenException.unsupported("pl.unroll expands this function to more than "
							+ String.format("%,d", STATEMENT_BUDGET) + " statements (this loop alone: "
							+ String.format("%,d", size) + "); this compiler unrolls no more than that", f.span());
				}
			}
			depth++;
			try {
				List<Stmt> copies = new ArrayList<>();
				for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
					Expr value = new Expr.ConstInt(i, DType.INDEX, f.loopVar().span());
					Stmt cloned = DeepClone.clone(f.body(), Map.of(f.loopVar(), value), false);
					copies.add(stmt(cloned));
				}
				return new Stmt.Seq(copies, f.span());
			} finally {
				depth--;
			}
		}
	}

	private static long trips(long start, long stop, long step) {
		if (step > 0 && start < stop) {
			return (stop - start + step - 1) / step;
		}
		if (step < 0 && start > stop) {
			return (start - stop + (-step) - 1) / (-step);
		}
		return 0;
	}

	/**
	 * How many statements a loop becomes once every unroll loop in it is unrolled: each statement counts
	 * once per copy of the unroll loops around it. A bound that is not a constant counts as one trip (the
	 * unroller reports it); the count saturates instead of overflowing.
	 */
	private static final class UnrolledSize extends IrVisitor {

		private long copies = 1;
		private long total;

		static long of(Stmt.For loop) {
			UnrolledSize size = new UnrolledSize();
			size.stmt(loop);
			return size.total;
		}

		static long add(long a, long b) {
			long sum = a + b;
			return sum < 0 ? Long.MAX_VALUE : sum;
		}

		private static long times(long a, long b) {
			return b != 0 && a > Long.MAX_VALUE / b ? Long.MAX_VALUE : a * b;
		}

		@Override
		public void stmt(Stmt s) {
			if (s == null) {
				return;
			}
			if (!(s instanceof Stmt.Seq)) {
				total = add(total, copies);
			}
			if (s instanceof Stmt.For f && f.kind() == Stmt.ForKind.Unroll) {
				long trips = 1;
				try {
					long step = constant(f.step(), "step");
					trips = step == 0 ? 0 : trips(constant(f.start(), "start"), constant(f.stop(), "stop"), step);
				} catch (CodegenException notConstant) {
					// The unroller reports it when it reaches the loop.
				}
				long outer = copies;
				copies = times(copies, trips);
				stmt(f.body());
				copies = outer;
				return;
			}
			super.stmt(s);
		}
	}
}
