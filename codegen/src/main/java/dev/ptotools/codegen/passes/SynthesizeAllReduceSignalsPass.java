package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DistFunctions;
import dev.ptotools.codegen.passes.util.DistKwargs;
import dev.ptotools.codegen.passes.util.DistMutator;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's synthesize_allreduce_signals (SynthesizeAllReduceSignals,
 * src/ir/transforms/synthesize_allreduce_signals_pass.cpp): a host {@code pld.tensor.allreduce(data)}
 * without a signal gets one, bound right before it:
 *
 * <pre>
 * __allreduce_signal_world_size_N = pld.system.world_size()
 * __allreduce_signal_buf_N = pld.tensor.alloc_window_buffer((ws * core_num) * 4, name="__allreduce_signal_buf_N")
 * __allreduce_signal_N = pld.tensor.window(__allreduce_signal_buf_N, (ws, core_num), dtype=INT32)
 * </pre>
 *
 * N counts across every HOST orchestrator in name order, skipping ids whose names the program already
 * uses. An allreduce that is not a statement of its own (or a returned value) is an error, and so is a
 * signal-less one inside a loop (the binding cannot be allocated per iteration).
 */
public final class SynthesizeAllReduceSignalsPass implements Pass {

	static final String ALLREDUCE = "pld.tensor.allreduce";

	@Override
	public String name() {
		return "SynthesizeAllReduceSignals";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of();
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Set<String> used = usedNames(program);
		long[] nextId = { 0 };
		List<Function> out = new ArrayList<>();
		boolean modified = false;
		for (Function f : program.sortedByName()) {
			if (!DistFunctions.isHostOrch(f)) {
				out.add(f);
				continue;
			}
			Synthesizer s = new Synthesizer(used, nextId);
			Stmt body = s.stmt(f.body());
			if (!s.modified) {
				out.add(f);
				continue;
			}
			out.add(f.withBody(body));
			modified = true;
		}
		return modified ? program.withFunctions(inProgramOrder(program, out)) : program;
	}

	/** The rewritten functions in the program's own order (the pass visits them by name). */
	static List<Function> inProgramOrder(Program program, List<Function> rewritten) {
		Map<String, Function> byName = new LinkedHashMap<>();
		rewritten.forEach(f -> byName.put(f.name(), f));
		List<Function> out = new ArrayList<>();
		for (Function f : program.functions()) {
			out.add(byName.get(f.name()));
		}
		return out;
	}

	/** pypto's NameCollector: every variable name of the program and every window-buffer name=. */
	private static Set<String> usedNames(Program program) {
		Set<String> names = new HashSet<>();
		IrVisitor v = new IrVisitor() {
			@Override
			public void def(Var x) {
				add(x);
			}

			@Override
			public void use(Var x) {
				add(x);
			}

			private void add(Var x) {
				if (!x.name().isEmpty()) {
					names.add(x.name());
				}
			}

			@Override
			public void call(Expr.Call c) {
				if (c.isOp("pld.tensor.alloc_window_buffer") && c.kwarg("name") instanceof String n && !n.isEmpty()) {
					names.add(n);
				}
				super.call(c);
			}
		};
		for (Function f : program.functions()) {
			f.params().forEach(p -> names.add(p.name()));
			v.stmt(f.body());
		}
		return names;
	}

	private static boolean isAllReduce(Expr e) {
		return e instanceof Expr.Call c && c.isOp(ALLREDUCE);
	}

	private static final class Synthesizer extends DistMutator {
		private final Set<String> used;
		private final long[] nextId;
		private int loopDepth;
		boolean modified;

		Synthesizer(Set<String> used, long[] nextId) {
			this.used = used;
			this.nextId = nextId;
		}

		@Override
		public Expr call(Expr.Call c) {
			if (c.isOp(ALLREDUCE)) {
				check(c);
				throw new CodegenException("pld.tensor.allreduce must be a direct assignment, expression statement, or "
						+ "return value before allreduce signal synthesis.", c.span());
			}
			return super.call(c);
		}

		@Override
		public Stmt stmt(Stmt s) {
			if (s instanceof Stmt.Eval e && isAllReduce(e.expr())) {
				return eval(e, (Expr.Call) e.expr());
			}
			if (s instanceof Stmt.Return r) {
				return ret(r);
			}
			if (s instanceof Stmt.For || s instanceof Stmt.While) {
				loopDepth++;
				try {
					return super.stmt(s);
				} finally {
					loopDepth--;
				}
			}
			return super.stmt(s);
		}

		@Override
		public Stmt assign(Stmt.Assign a) {
			if (!isAllReduce(a.value())) {
				return super.assign(a);
			}
			Expr.Call c = (Expr.Call) a.value();
			check(c);
			if (c.args().size() == 2) {
				c.args().forEach(this::expr);
				return a;
			}
			List<Stmt> prefix = new ArrayList<>();
			Var signal = signalBinding(c, prefix);
			Expr target = expr(c.args().get(0));
			prefix.add(new Stmt.Assign(a.var(), rewritten(c, target, signal), a.span()));
			modified = true;
			return flatten(prefix, a.span());
		}

		private Stmt eval(Stmt.Eval e, Expr.Call c) {
			check(c);
			if (c.args().size() == 2) {
				c.args().forEach(this::expr);
				return e;
			}
			List<Stmt> prefix = new ArrayList<>();
			Var signal = signalBinding(c, prefix);
			Expr target = expr(c.args().get(0));
			prefix.add(new Stmt.Eval(rewritten(c, target, signal), e.span()));
			modified = true;
			return flatten(prefix, e.span());
		}

		private Stmt ret(Stmt.Return r) {
			List<Stmt> prelude = new ArrayList<>();
			List<Expr> values = new ArrayList<>();
			boolean changed = false;
			for (Expr v : r.values()) {
				if (!isAllReduce(v)) {
					Expr n = expr(v);
					values.add(n);
					changed |= n != v;
					continue;
				}
				Expr.Call c = (Expr.Call) v;
				check(c);
				Expr target = expr(c.args().get(0));
				Expr signal = c.args().size() == 1 ? signalBinding(c, prelude) : expr(c.args().get(1));
				Expr.Call call = rewritten(c, target, signal);
				Var result = new Var(freshName("__allreduce_result_"), call.type(), c.span());
				prelude.add(new Stmt.Assign(result, call, c.span()));
				values.add(result);
				changed = true;
			}
			if (!changed) {
				return r;
			}
			prelude.add(new Stmt.Return(values, r.span()));
			modified = true;
			return flatten(prelude, r.span());
		}

		private void check(Expr.Call c) {
			if (c.args().size() != 1 && c.args().size() != 2) {
				throw new CodegenException("pld.tensor.allreduce expects target[, signal], got " + c.args().size()
						+ " positional arguments", c.span());
			}
			if (loopDepth != 0 && c.args().size() != 2) {
				throw new CodegenException("pld.tensor.allreduce without an explicit signal is not supported inside a "
						+ "for/while loop on the HOST rail: the synthesized signal binding cannot be allocated per dynamic "
						+ "iteration. Pass an explicit signal buffer — it is self-clearing and reusable across iterations — "
						+ "or hoist the call out of the loop.", c.span());
			}
		}

		/** The three bindings of a fresh signal, appended to out; returns the signal view. */
		private Var signalBinding(Expr.Call c, List<Stmt> out) {
			String[] names = freshSignalNames();
			Span span = c.span();
			int coreNum = DistKwargs.intKwarg(c.kwargs(), "core_num", 1);
			if (coreNum <= 0) {
				throw new CodegenException("SynthesizeAllReduceSignals requires a positive allreduce core_num", span);
			}
			Type i64 = new Type.Scalar(DType.INT64);
			Expr.Call ws = Expr.Call.op("pld.system.world_size", List.of(), Map.of(), i64, span);
			Var wsVar = new Var(names[0], i64, span);
			out.add(new Stmt.Assign(wsVar, ws, span));
			Expr core = new Expr.ConstInt(coreNum, DType.INT64, span);
			Expr four = new Expr.ConstInt(4, DType.INT64, span);
			Expr elements = new Expr.Binary(Expr.BinaryOp.Mul, wsVar, core, DType.INT64, span);
			Expr bytes = new Expr.Binary(Expr.BinaryOp.Mul, elements, four, DType.INT64, span);
			Map<String, Object> allocKw = new LinkedHashMap<>();
			allocKw.put("name", names[1]);
			Expr.Call alloc = Expr.Call.op("pld.tensor.alloc_window_buffer", List.of(bytes), allocKw,
					new Type.WindowBuffer(names[1]), span);
			Var buf = new Var(names[1], alloc.type(), span);
			out.add(new Stmt.Assign(buf, alloc, span));
			Map<String, Object> windowKw = new LinkedHashMap<>();
			windowKw.put("dtype", DType.INT32);
			List<Expr> shape = List.of(wsVar, core);
			Expr.Call window = Expr.Call.op("pld.tensor.window", List.of(buf, new Expr.MakeTuple(shape, span)), windowKw,
					new Type.Tensor(shape, DType.INT32, null, true, null), span);
			Var signal = new Var(names[2], window.type(), span);
			out.add(new Stmt.Assign(signal, window, span));
			return signal;
		}

		private Expr.Call rewritten(Expr.Call c, Expr target, Expr signal) {
			return new Expr.Call(c.callee(), List.of(target, signal), c.kwargs(), Map.of(), c.type(), c.span());
		}

		private String[] freshSignalNames() {
			while (true) {
				String suffix = Long.toString(nextId[0]++);
				String ws = "__allreduce_signal_world_size_" + suffix;
				String buf = "__allreduce_signal_buf_" + suffix;
				String sig = "__allreduce_signal_" + suffix;
				if (used.contains(ws) || used.contains(buf) || used.contains(sig)) {
					continue;
				}
				used.add(ws);
				used.add(buf);
				used.add(sig);
				return new String[] { ws, buf, sig };
			}
		}

		private String freshName(String prefix) {
			while (true) {
				String n = prefix + nextId[0]++;
				if (used.add(n)) {
					return n;
				}
			}
		}
	}
}
