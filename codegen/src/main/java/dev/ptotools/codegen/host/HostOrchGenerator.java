package dev.ptotools.codegen.host;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.codegen.support.CodeEmitter;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.support.ProgramContext;

/**
 * orchestration/host_orch.py in pypto's format (DistributedCodegen::Generate): the imports, the
 * pre-fork {@code _alloc_intermediates}, the highest-level orchestrator as the entry function and its
 * marker line. Grouped rank loops additionally need {@code _submit_chip_group}, imported from pypto's
 * runtime where it exists and otherwise defined here over simpler's {@code submit_next_level_group}.
 */
public final class HostOrchGenerator {

	/** The generated module and what the meta JSON records about it. */
	public record HostOrch(String code, Function entry, List<GroupedLoop> grouped,
			List<String> builtinVariants) {
	}

	private HostOrchGenerator() {
	}

	public static String generate(ProgramContext ctx) {
		return build(ctx).code();
	}

	public static HostOrch build(ProgramContext ctx) {
		Map<String, Function> orchestrators = new TreeMap<>();
		Function opaqueEntry = null;
		boolean workers = false;
		for (Function f : ctx.program().functions()) {
			FunctionInfo info = ctx.info(f);
			if (info.level() == null && info.role() == null) {
				if (info.type() == FunctionType.Opaque) {
					opaqueEntry = f;
				}
				continue;
			}
			if (info.role() == Role.Orchestrator) {
				orchestrators.put(f.name(), f);
			} else {
				workers = true;
			}
		}
		if (orchestrators.isEmpty() && !workers) {
			throw new CodegenException("Program has no distributed functions (no functions with level/role metadata)",
					ctx.program().nameSpan());
		}
		Function best = null;
		int bestLevel = 0;
		for (Function f : orchestrators.values()) {
			if (best == null) {
				best = f;
			}
			int level = linqu(ctx.info(f).level());
			if (level > bestLevel) {
				bestLevel = level;
				best = f;
			}
		}
		CodeEmitter out = new CodeEmitter();
		StringBuilder head = new StringBuilder();
		head.append("import torch\n");
		head.append("from simpler.task_interface import CallConfig, CommBufferSpec, DataType, TaskArgs, TensorArgType\n");
		head.append("from pypto.runtime.tensor_arg import make_tensor_arg\n");
		head.append("from pypto.runtime.distributed_runner import _submit_chip\n");
		List<GroupedLoop> grouped = List.of();
		List<String> variants = List.of();
		if (best != null) {
			grouped = groupedLoops(ctx, best);
			boolean host = bestLevel >= 3;
			HostState st = state(ctx, best, out);
			Set<Stmt> hoisted = hoistableCreates(ctx, best);
			if (host) {
				allocIntermediates(st, best, hoisted);
			}
			signature(out, best, host);
			out.indent();
			int before = out.code().length();
			scalarBindings(out, best);
			if (host) {
				dynamicDims(st, best);
			}
			HostFunctionEmitter body = new HostFunctionEmitter(st, hoisted, grouped);
			body.body();
			variants = body.variants();
			if (out.code().length() == before) {
				out.line("pass"); // pypto leaves the def empty, which Python rejects
			}
			out.dedent();
			out.blank();
			out.line(best.name() + "._pypto_distributed_entry = True");
			out.blank();
		} else if (opaqueEntry != null) {
			out.line("def entry(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size):");
			out.indent();
			out.line("pass");
			out.dedent();
			out.blank();
			out.line("entry._pypto_distributed_entry = True");
			out.blank();
		}
		if (!grouped.isEmpty()) {
			head.append(GROUP_HELPER);
		}
		head.append('\n');
		return new HostOrch(head + out.code(), best, grouped, variants);
	}

	/** Imported where pypto's runtime has it; otherwise one forward to simpler's group submission. */
	static final String GROUP_HELPER = "try:\n" + "    from pypto.runtime.distributed_runner import _submit_chip_group\n"
			+ "except ImportError:\n" + "    def _submit_chip_group(orch, callable_id, args_list, config, workers):\n"
			+ "        # One DAG node for every rank of a grouped rank loop: all ranks start together.\n"
			+ "        return orch.submit_next_level_group(callable_id, list(args_list), config, workers=list(workers))\n";

	static int linqu(Level level) {
		if (level == null) {
			return 0;
		}
		return switch (level) {
		case AIV, AIC, CORE_GROUP -> 0;
		case CHIP_DIE -> 1;
		case CHIP -> 2;
		case HOST -> 3;
		case CLUSTER_0 -> 4;
		case CLUSTER_1 -> 5;
		case CLUSTER_2 -> 6;
		case GLOBAL -> 7;
		};
	}

	private static List<GroupedLoop> groupedLoops(ProgramContext ctx, Function f) {
		List<GroupedLoop> out = new ArrayList<>();
		if (ctx.rankLoops() == null) {
			return out;
		}
		for (RankLoop l : ctx.rankLoops().loops()) {
			if (l.function() != f || !l.grouped() || l.dispatch() == null) {
				continue;
			}
			Function callee = ctx.calls().target(l.dispatch());
			if (callee == null) {
				continue;
			}
			String id = l.groupId();
			int number = Integer.parseInt(id.substring(id.lastIndexOf('_') + 1));
			out.add(new GroupedLoop(l.loop(), number, callee.name(), id));
		}
		return out;
	}

	private static HostState state(ProgramContext ctx, Function f, CodeEmitter out) {
		FunctionScope scope = new FunctionScope(f, ctx.calls());
		Set<String> locals = new HashSet<>();
		f.params().forEach(p -> locals.add(p.name()));
		Walk.statements(f.body(), s -> {
			if (s instanceof Stmt.Assign a) {
				a.targets().forEach(t -> locals.addAll(Walk.boundNames(t)));
			} else if (s instanceof Stmt.For loop) {
				locals.addAll(Walk.boundNames(loop.target()));
			}
		});
		PyExprs exprs = new PyExprs(ctx.calls(), ctx.eval(), scope, locals);
		CommDomains.Host comm = ctx.commDomains() == null ? null : ctx.commDomains().hosts().get(f);
		Map<Object, String> signals = new IdentityHashMap<>();
		List<HostDomain> domains = domains(ctx, f, comm, signals);
		HostState st = new HostState(ctx, f, comm, scope, exprs, out, domains);
		st.synthesizedSignals.putAll(signals);
		return st;
	}

	/** The comm domains in index order, with the signal buffers SynthesizeAllReduceSignals adds. */
	private static List<HostDomain> domains(ProgramContext ctx, Function f, CommDomains.Host comm,
			Map<Object, String> signals) {
		List<HostDomain> out = new ArrayList<>();
		if (comm == null) {
			return out;
		}
		Map<CommDomains.Domain, List<HostSlot>> slots = new LinkedHashMap<>();
		for (CommDomains.Domain d : comm.domains()) {
			List<HostSlot> s = new ArrayList<>();
			for (CommDomains.Alloc a : d.slots()) {
				s.add(slot(ctx, a, f));
			}
			slots.put(d, s);
		}
		Set<String> used = new HashSet<>();
		for (Function g : ctx.program().functions()) {
			g.params().forEach(p -> used.add(p.name()));
			Walk.statements(g.body(), s -> {
				if (s instanceof Stmt.Assign a) {
					a.targets().forEach(t -> used.addAll(Walk.boundNames(t)));
				}
			});
		}
		int[] k = { 0 };
		Walk.statements(f.body(), s -> {
			for (Expr.Call c : Walk.ownCalls(s)) {
				if (ctx.calls().isBuiltin(c, "pld.tensor.allreduce") && c.args().size() == 1
						&& c.args().get(0) instanceof Expr.Name n && comm.view(n.id()) != null) {
					String name;
					do {
						name = "__allreduce_signal_buf_" + k[0]++;
					} while (used.contains(name));
					int coreNum = 1;
					if (c.keyword("core_num") != null && ctx.eval().asLong(c.keyword("core_num").value()) != null) {
						coreNum = ctx.eval().asLong(c.keyword("core_num").value()).intValue();
					}
					CommDomains.Domain d = comm.domainOf(comm.view(n.id()).alloc());
					if (d != null) {
						List<HostSlot> list = slots.get(d);
						list.add(new HostSlot(name, null, "((world_size * " + coreNum + ") * 4)", s.span().start()));
						list.sort((x, y) -> Integer.compare(x.at(), y.at()));
						signals.put(c, name);
					}
				}
			}
		});
		for (Map.Entry<CommDomains.Domain, List<HostSlot>> e : slots.entrySet()) {
			List<Long> workers = e.getKey().devices() instanceof CommDomains.Devices.Ranks r ? List.copyOf(r.ranks())
					: List.of();
			out.add(new HostDomain(e.getKey().index(), workers, List.copyOf(e.getValue())));
		}
		return out;
	}

	/**
	 * A window buffer's slot. The shape+dtype form {@code alloc_window_buffer([1, SIZE], dtype=pl.FP32)}
	 * normalizes to bytes as pypto does: a constant product when every extent is static, else a chain of
	 * products ending in the element size.
	 */
	private static HostSlot slot(ProgramContext ctx, CommDomains.Alloc a, Function f) {
		Expr size = a.size();
		List<Expr> shape = size instanceof Expr.ListExpr l ? l.elts() : size instanceof Expr.TupleExpr t ? t.elts() : null;
		Expr.Call call = a.stmt().value() instanceof Expr.Call c ? c : null;
		if (shape == null || call == null || call.keyword("dtype") == null) {
			return new HostSlot(a.name(), size, null, a.span().start());
		}
		Object dt = ctx.eval().eval(call.keyword("dtype").value());
		if (!(dt instanceof Values.DType d) || d.bytes() <= 0 || shape.isEmpty()) {
			throw new CodegenException("pld.tensor.alloc_window_buffer requires dtype= when the first argument is a "
					+ "shape (list / tuple of per-rank dimensions)", a.span());
		}
		long total = 1;
		boolean known = true;
		for (Expr e : shape) {
			Long v = ctx.eval().asLong(e);
			if (v == null) {
				known = false;
				break;
			}
			total *= v;
		}
		if (known) {
			return new HostSlot(a.name(), null, Long.toString(total * d.bytes()), a.span().start());
		}
		PyExprs exprs = new PyExprs(ctx.calls(), ctx.eval(), new FunctionScope(f, ctx.calls()), Set.of());
		String acc = exprs.render(shape.get(0));
		for (int i = 1; i < shape.size(); i++) {
			acc = "(" + acc + " * " + exprs.render(shape.get(i)) + ")";
		}
		return new HostSlot(a.name(), null, "(" + acc + " * " + d.bytes() + ")", a.span().start());
	}

	private static Set<Stmt> hoistableCreates(ProgramContext ctx, Function f) {
		Set<Stmt> out = Collections.newSetFromMap(new IdentityHashMap<>());
		for (Stmt s : f.body()) {
			if (s instanceof Stmt.Assign a && a.value() instanceof Expr.Call c
					&& ctx.calls().isBuiltin(c, "pl.tensor.create")) {
				out.add(a);
			}
		}
		return out;
	}

	private static void allocIntermediates(HostState st, Function f, Set<Stmt> hoisted) {
		CodeEmitter out = st.out;
		out.line("def _alloc_intermediates(tensors, world_size=1):");
		out.indent();
		for (HostDomain d : st.domains) {
			out.line("tensors[\"" + d.handle() + "_ord\"] = [torch.zeros((1,), dtype=torch.int32).share_memory_() for _ "
					+ "in range(max(world_size, 1))]");
		}
		HostDispatch dispatch = new HostDispatch(st);
		boolean any = false;
		for (Stmt s : f.body()) {
			if (!hoisted.contains(s)) {
				continue;
			}
			any = true;
			Stmt.Assign a = (Stmt.Assign) s;
			Expr.Call c = (Expr.Call) a.value();
			String name = PyExprs.sanitize(((Expr.Name) a.targets().get(0)).id());
			List<Expr> shape = !c.args().isEmpty() && c.args().get(0) instanceof Expr.ListExpr l ? l.elts() : List.of();
			Expr dt = c.keyword("dtype") != null ? c.keyword("dtype").value() : c.args().size() > 1 ? c.args().get(1) : null;
			Object dv = dt == null ? null : st.ctx.eval().eval(dt);
			String dtype = dv instanceof Values.DType d ? d.name() : null;
			out.line("tensors[\"" + name + "\"] = torch.zeros(" + dispatch.shapeTuple(shape, c) + ", dtype=torch."
					+ HostDispatch.dtype(dtype, c).torchName() + ").share_memory_()");
		}
		if (!any && st.domains.isEmpty()) {
			out.line("pass");
		}
		out.dedent();
		out.blank();
	}

	private static void signature(CodeEmitter out, Function f, boolean host) {
		out.line("def " + f.name() + "(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size"
				+ (host ? ", _domain_provider=None" : "") + "):");
	}

	private static void scalarBindings(CodeEmitter out, Function f) {
		for (Param p : f.params()) {
			if (p.type() instanceof TypeSpec.Scalar) {
				String n = PyExprs.sanitize(p.name());
				out.line(n + " = tensors[\"" + n + "\"]");
			}
		}
	}

	/** pl.dynamic symbols recovered from the first parameter shape that exposes them invertibly. */
	private static void dynamicDims(HostState st, Function f) {
		Map<String, String[]> best = new LinkedHashMap<>();
		for (Param p : f.params()) {
			if (!(p.type() instanceof TypeSpec.Tensor t) || t.shape() == null) {
				continue;
			}
			for (int i = 0; i < t.shape().size(); i++) {
				Expr dim = t.shape().get(i);
				String access = "tensors[\"" + PyExprs.sanitize(p.name()) + "\"].shape[" + i + "]";
				for (String sym : dynVars(st, dim)) {
					String inverted = DynamicDims.invert(st.ctx.eval(), dim, sym, access);
					String[] prev = best.get(sym);
					if (prev == null || (prev[0] == null && inverted != null)) {
						best.put(sym, new String[] { inverted });
					}
				}
			}
		}
		for (Map.Entry<String, String[]> e : best.entrySet()) {
			if (e.getValue()[0] == null) {
				throw new CodegenException("Cannot recover dynamic dimension '" + e.getKey() + "' for "
						+ "host-orchestration codegen: it only appears inside non-invertible tensor-shape expressions.",
						f.span());
			}
			st.out.line(PyExprs.sanitize(e.getKey()) + " = " + e.getValue()[0]);
		}
	}

	private static List<String> dynVars(HostState st, Expr dim) {
		List<String> out = new ArrayList<>();
		Walk.expressions(dim, e -> {
			if (e instanceof Expr.Name n && st.ctx.eval().eval(n) instanceof Values.DynVar d && !out.contains(d.name())) {
				out.add(d.name());
			}
		});
		return out;
	}
}
