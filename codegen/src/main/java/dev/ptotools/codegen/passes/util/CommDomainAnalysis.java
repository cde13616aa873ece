package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.ir.WindowBuffer;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The analysis half of MaterializeCommDomainScopes (pypto's AllocAndWindowCollector and DispatchAnalyzer,
 * materialize_comm_domain_scopes_pass.cpp): the window allocations and views of a HOST orchestrator, and
 * for each allocation the device sets of the chip dispatches and collectives that consume its views.
 */
public final class CommDomainAnalysis {

	/** The ranks a dispatch runs on: every rank, or a set of constant ones. */
	public record Devices(boolean all, TreeSet<Long> subset) {

		public static Devices none() {
			return new Devices(false, new TreeSet<>());
		}

		public Devices merge(Devices o) {
			if (all || o.all) {
				return new Devices(true, new TreeSet<>());
			}
			TreeSet<Long> s = new TreeSet<>(subset);
			s.addAll(o.subset);
			return new Devices(false, s);
		}

		/** pypto's ToDevices: empty for every rank, else ascending. */
		public List<Long> toDevices() {
			return all ? List.of() : List.copyOf(subset);
		}

		/** A map key with pypto's equality: all equals all whatever the subset. */
		public Object key() {
			return all ? "all" : List.copyOf(subset);
		}
	}

	/** One {@code ptr = pld.tensor.alloc_window_buffer(size, name=...)}. */
	public static final class Alloc {
		public final Expr.Call call;
		public final Var ptr;
		public final Expr size;
		public final String name;
		public final Span span;
		public final List<Devices> seen = new ArrayList<>();
		public WindowBuffer buffer;

		Alloc(Expr.Call call, Var ptr, Expr size, String name, Span span) {
			this.call = call;
			this.ptr = ptr;
			this.size = size;
			this.name = name;
			this.span = span;
		}
	}

	/** One {@code view = pld.tensor.window(ptr, shape, dtype=...)} of a recorded allocation. */
	public record Window(Expr.Call call, Var view, Alloc alloc) {
	}

	private record Consumer(Alloc data, Alloc signal, Span span) {
	}

	public final List<Alloc> allocs = new ArrayList<>();
	public final List<Window> windows = new ArrayList<>();
	private final Map<Var, Alloc> ptrToAlloc = new HashMap<>();
	private final Map<Var, Window> viewToWindow = new HashMap<>();
	private final Map<Var, Expr> varDefs = new HashMap<>();
	private final List<Consumer> consumers = new ArrayList<>();
	private final Set<String> chipOrchs;

	private CommDomainAnalysis(Set<String> chipOrchs) {
		this.chipOrchs = chipOrchs;
	}

	/** Collects allocations and views, then the device coverage of every allocation. */
	public static CommDomainAnalysis of(Stmt body, Set<String> chipOrchs) {
		CommDomainAnalysis a = new CommDomainAnalysis(chipOrchs);
		a.collect(body);
		if (!a.allocs.isEmpty()) {
			a.new DispatchAnalyzer().stmt(body);
		}
		return a;
	}

	private void collect(Stmt body) {
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Assign a) {
					record(a);
				}
				super.stmt(s);
			}
		}.stmt(body);
	}

	private void record(Stmt.Assign a) {
		if (a.value() instanceof Expr.Call c) {
			if (c.isOp("pld.tensor.alloc_window_buffer")) {
				if (c.args().size() != 1) {
					throw new CodegenException("MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer expects exactly "
							+ "one arg (size)", c.span());
				}
				if (!(c.kwarg("name") instanceof String name) || name.isEmpty()) {
					throw new CodegenException("MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer missing 'name' "
							+ "kwarg", c.span());
				}
				Alloc rec = new Alloc(c, a.var(), c.args().get(0), name, c.span());
				ptrToAlloc.put(a.var(), rec);
				allocs.add(rec);
			} else if (c.isOp("pld.tensor.window") && !c.args().isEmpty() && c.args().get(0) instanceof Var ptr
					&& ptrToAlloc.containsKey(ptr)) {
				Window w = new Window(c, a.var(), ptrToAlloc.get(ptr));
				viewToWindow.put(a.var(), w);
				windows.add(w);
			}
		}
		varDefs.put(a.var(), a.value());
	}

	/**
	 * The checks of phases 3 and 4: a collective's signal inherits its data buffer's coverage; a barrier
	 * signal no dispatch covers, an allocation without a view and one no dispatch consumes are errors.
	 */
	public void inheritAndCheck() {
		for (Consumer c : consumers) {
			if (c.data != null) {
				if (c.data.seen.isEmpty()) {
					throw new CodegenException("MaterializeCommDomainScopes: collective data/target buffer has no inferred "
							+ "comm-domain coverage to share with its signal buffer", c.span);
				}
				c.signal.seen.addAll(List.copyOf(c.data.seen));
				continue;
			}
			if (c.signal.seen.isEmpty()) {
				throw new CodegenException("MaterializeCommDomainScopes: pld.tensor.barrier signal buffer has no inferred "
						+ "comm-domain coverage — add a device= annotation or ensure the signal window is consumed by a "
						+ "device-tagged chip dispatch", c.span);
			}
		}
		Set<Alloc> withWindow = new HashSet<>();
		windows.forEach(w -> withWindow.add(w.alloc()));
		for (Alloc rec : allocs) {
			if (!withWindow.contains(rec)) {
				throw new CodegenException("MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer '" + rec.name
						+ "' has no pld.tensor.window materialisation (dead allocation)", rec.span);
			}
			if (rec.seen.isEmpty()) {
				throw new CodegenException("MaterializeCommDomainScopes: pld.tensor.alloc_window_buffer '" + rec.name
						+ "' is not consumed by any chip_orch dispatch", rec.span);
			}
		}
	}

	/** A chain of Var-to-def hops ending at a non-Var value or an undefined Var (pypto's UnwrapStopExpr). */
	private Expr unwrap(Expr e) {
		Expr cur = e;
		Set<Var> visited = new HashSet<>();
		while (cur instanceof Var v) {
			if (!visited.add(v)) {
				return cur;
			}
			Expr def = varDefs.get(v);
			if (def == null) {
				return cur;
			}
			cur = def;
		}
		return cur;
	}

	/** pypto's ResolveWindowRecord: a view, or an alias / collective result traced back to one. */
	private Window resolveWindow(Var v, Set<Var> visited) {
		if (v == null || !visited.add(v)) {
			return null;
		}
		Window direct = viewToWindow.get(v);
		if (direct != null) {
			return direct;
		}
		Expr def = varDefs.get(v);
		if (def == null) {
			return null;
		}
		if (def instanceof Var alias) {
			return resolveWindow(alias, visited);
		}
		if (def instanceof Expr.Call c) {
			if (c.isOp("pld.tensor.allreduce") && !c.args().isEmpty()) {
				return resolveWindow(c.args().get(0) instanceof Var x ? x : null, visited);
			}
			if ((c.isOp("pld.tensor.all_to_all") || c.isOp("pld.tensor.allgather") || c.isOp("pld.tensor.all_to_all_v"))
					&& c.args().size() > 1) {
				return resolveWindow(c.args().get(1) instanceof Var x ? x : null, visited);
			}
		}
		return null;
	}

	private final class DispatchAnalyzer extends IrVisitor {
		private final List<Stmt.For> forStack = new ArrayList<>();
		private int loopDepth;

		@Override
		public void stmt(Stmt s) {
			if (s instanceof Stmt.For f) {
				forStack.add(f);
				loopDepth++;
				super.stmt(s);
				loopDepth--;
				forStack.remove(forStack.size() - 1);
			} else if (s instanceof Stmt.While) {
				loopDepth++;
				super.stmt(s);
				loopDepth--;
			} else {
				super.stmt(s);
			}
		}

		@Override
		public void call(Expr.Call c) {
			dispatch(c.functionName(), c.args(), c.attr("device"), c.span());
			collective(c);
			super.call(c);
		}

		@Override
		public void submit(Expr.Submit s) {
			String callee = s.callee() instanceof Expr.Callee.Function f ? f.name() : null;
			dispatch(callee, s.args(), s.attr("device"), s.span());
			super.submit(s);
		}

		private void dispatch(String callee, List<Expr> args, Object device, Span span) {
			if (callee == null || !chipOrchs.contains(callee) || !(device instanceof Expr d)) {
				return;
			}
			Devices desc = resolveDevices(d, span);
			for (Expr a : args) {
				if (a instanceof Var v) {
					Window w = resolveWindow(v, new HashSet<>());
					if (w != null) {
						w.alloc().seen.add(desc);
					}
				}
			}
		}

		/** pypto's ResolveDeviceDescriptor. */
		private Devices resolveDevices(Expr device, Span span) {
			if (device instanceof Expr.ConstInt c) {
				if (c.value() < 0) {
					throw new CodegenException("MaterializeCommDomainScopes: device= ConstInt must be non-negative, got "
							+ c.value(), span);
				}
				TreeSet<Long> s = new TreeSet<>();
				s.add(c.value());
				return new Devices(false, s);
			}
			if (device instanceof Var v) {
				for (int i = forStack.size() - 1; i >= 0; i--) {
					Stmt.For f = forStack.get(i);
					if (f.loopVar() != v) {
						continue;
					}
					Expr stop = unwrap(f.stop());
					if (stop instanceof Expr.Call sc && sc.isOp("pld.system.world_size")) {
						return new Devices(true, new TreeSet<>());
					}
					if (stop instanceof Expr.ConstInt n) {
						if (!(unwrap(f.start()) instanceof Expr.ConstInt start)) {
							throw new CodegenException("MaterializeCommDomainScopes: device=r loop start must unwrap to "
									+ "ConstInt", span);
						}
						if (!(unwrap(f.step()) instanceof Expr.ConstInt step)) {
							throw new CodegenException("MaterializeCommDomainScopes: device=r loop step must unwrap to "
									+ "ConstInt", span);
						}
						if (step.value() != 1) {
							throw new CodegenException("MaterializeCommDomainScopes: device=r over a non-unit-step loop is "
									+ "not supported (step=" + step.value() + ")", span);
						}
						if (start.value() < 0 || n.value() < start.value()) {
							throw new CodegenException("MaterializeCommDomainScopes: device=r loop range must be [0, N) with "
									+ "N>=0", span);
						}
						TreeSet<Long> s = new TreeSet<>();
						for (long k = start.value(); k < n.value(); k++) {
							s.add(k);
						}
						return new Devices(false, s);
					}
					throw new CodegenException("MaterializeCommDomainScopes: device=r loop bound must be ConstInt or "
							+ "pld.system.world_size()", span);
				}
				throw new CodegenException("MaterializeCommDomainScopes: device= Var is not the induction variable of any "
						+ "enclosing pl.range loop", span);
			}
			throw new CodegenException("MaterializeCommDomainScopes: device= expression must be ConstInt or the induction "
					+ "var of pl.range; got an unsupported expression", span);
		}

		private Alloc windowAlloc(Expr e, String op, String role) {
			if (!(e instanceof Var v)) {
				throw new CodegenException("MaterializeCommDomainScopes: " + op + " " + role + " must be a window view Var",
						e.span());
			}
			Window w = resolveWindow(v, new HashSet<>());
			if (w == null) {
				throw new CodegenException("MaterializeCommDomainScopes: " + op + " " + role
						+ " must be produced by pld.tensor.window", e.span());
			}
			return w.alloc();
		}

		private void collective(Expr.Call c) {
			String op = c.name();
			switch (op) {
			case "pld.tensor.allreduce", "pld.tensor.broadcast", "pld.tensor.reduce_scatter" -> {
				expectArgs(c, 2, op + " expects exactly two args");
				consumers.add(new Consumer(windowAlloc(c.args().get(0), op, "data/target"),
						windowAlloc(c.args().get(1), op, "signal"), c.span()));
			}
			case "pld.tensor.barrier" -> {
				expectArgs(c, 1, "pld.tensor.barrier expects exactly one arg");
				consumers.add(new Consumer(null, windowAlloc(c.args().get(0), op, "signal"), c.span()));
			}
			case "pld.tensor.allgather", "pld.tensor.all_to_all" -> {
				expectArgs(c, 3, op + " expects exactly 3 args");
				consumers.add(new Consumer(windowAlloc(c.args().get(1), op, "target"),
						windowAlloc(c.args().get(2), op, "signal"), c.span()));
			}
			case "pld.tensor.all_to_all_v" -> {
				expectArgs(c, 5, op + " expects exactly 5 args");
				if (loopDepth != 0) {
					throw new CodegenException("pld.tensor.all_to_all_v is not supported inside a for/while loop in a HOST "
							+ "orchestrator. The signal protocol is single-use and cannot reuse a signal across dynamic "
							+ "invocations (same restriction LowerCompositeOps enforces on the InCore path via "
							+ "CheckAllReduceLoopUse).", c.span());
				}
				Alloc data = windowAlloc(c.args().get(1), op, "target");
				Alloc signal = windowAlloc(c.args().get(2), op, "signal");
				Alloc recv = windowAlloc(c.args().get(4), op, "recv_counts");
				consumers.add(new Consumer(data, signal, c.span()));
				consumers.add(new Consumer(data, recv, c.span()));
			}
			default -> {
			}
			}
		}

		private void expectArgs(Expr.Call c, int n, String message) {
			if (c.args().size() != n) {
				throw new CodegenException("MaterializeCommDomainScopes: " + message, c.span());
			}
		}
	}
}
