package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
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
			long trips = 0;
			if (step > 0 && start < stop) {
				trips = (stop - start + step - 1) / step;
			} else if (step < 0 && start > stop) {
				trips = (start - stop + (-step) - 1) / (-step);
			}
			if (trips > MAX_ITERATIONS) {
				throw new CodegenException("Unroll loop trip count " + trips + " exceeds maximum allowed (" + MAX_ITERATIONS
						+ "). Reduce the loop range or use pl.range() instead", f.span());
			}
			List<Stmt> copies = new ArrayList<>();
			for (long i = start; step > 0 ? i < stop : i > stop; i += step) {
				Expr value = new Expr.ConstInt(i, DType.INDEX, f.loopVar().span());
				Stmt cloned = DeepClone.clone(f.body(), Map.of(f.loopVar(), value), false);
				copies.add(stmt(cloned));
			}
			return new Stmt.Seq(copies, f.span());
		}
	}
}
