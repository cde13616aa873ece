package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.DistFunctions;
import dev.ptotools.codegen.passes.util.DistMutator;
import dev.ptotools.codegen.passes.util.HostCollectiveRules;
import dev.ptotools.codegen.passes.util.HostCollectiveRules.Rule;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * pypto's lower_host_tensor_collectives (LowerHostTensorCollectives,
 * src/ir/transforms/lower_host_tensor_collectives_pass.cpp): each host collective statement
 * ({@code pld.tensor.allreduce / barrier / broadcast / reduce_scatter / allgather / all_to_all /
 * all_to_all_v}) becomes one builtin dispatch per rank of the innermost comm domain holding all its
 * window buffers: a statement per device of a domain with a static device list, else
 * {@code for r in range(0, pld.system.world_size(), 1)}. Each builtin call carries {@code device} and
 * {@code arg_directions}. {@code x = collective(...)} also rebinds x to the buffer the collective writes
 * (an alias host codegen prints nothing for). The signal-capacity, ring and core-count checks run here.
 */
public final class LowerHostTensorCollectivesPass implements Pass {

	@Override
	public String name() {
		return "LowerHostTensorCollectives";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.CommDomainScopesMaterialized);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.CommDomainScopesMaterialized);
	}

	@Override
	public Set<IrProperty> invalidates() {
		return Set.of();
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		boolean modified = false;
		for (Function f : program.functions()) {
			Function n = f;
			if (DistFunctions.isHostOrch(f)) {
				n = new Lowering(ctx).function(f);
			}
			modified |= n != f;
			out.add(n);
		}
		return modified ? program.withFunctions(out) : program;
	}

	private static final class Lowering extends DistMutator {
		private final PassContext ctx;
		private final List<Stmt.CommDomainScope> scopes = new ArrayList<>();

		Lowering(PassContext ctx) {
			this.ctx = ctx;
		}

		@Override
		public Stmt stmt(Stmt s) {
			if (s instanceof Stmt.CommDomainScope sc) {
				scopes.add(sc);
				Stmt body = stmt(sc.body());
				scopes.remove(scopes.size() - 1);
				return body == sc.body() ? sc : sc.withBody(body);
			}
			if (s instanceof Stmt.Eval e && HostCollectiveRules.rule(e.expr()) != null) {
				Expr.Call call = (Expr.Call) expr(e.expr());
				return lower(call, e.span());
			}
			return super.stmt(s);
		}

		@Override
		public Stmt assign(Stmt.Assign a) {
			Rule rule = HostCollectiveRules.rule(a.value());
			if (rule == null) {
				return super.assign(a);
			}
			Expr.Call call = (Expr.Call) expr(a.value());
			List<Stmt> stmts = new ArrayList<>();
			stmts.add(lower(call, a.span()));
			Expr src = rule.aliasSource(call);
			Var result = mintResult(a.var(), src);
			remap.put(a.var(), result);
			stmts.add(new Stmt.Assign(result, src, a.span()));
			return new Stmt.Seq(stmts, a.span());
		}

		private Stmt lower(Expr.Call call, Span span) {
			Rule rule = HostCollectiveRules.rule(call);
			if (scopes.isEmpty()) {
				throw new CodegenException("LowerHostTensorCollectives: " + call.name()
						+ " must appear inside a CommDomainScopeStmt", call.span());
			}
			rule.checkHostBound(call);
			List<HostCollectiveRules.Named> buffers = rule.buffers(call);
			for (int i = 0; i < buffers.size(); i++) {
				for (int j = i + 1; j < buffers.size(); j++) {
					if (buffers.get(i).buffer().equals(buffers.get(j).buffer())) {
						throw new CodegenException(call.name() + " " + buffers.get(i).role() + " and " + buffers.get(j).role()
								+ " must be different window allocations (two pld.window views over the same "
								+ "alloc_window_buffer are a cross-process data race under in-kernel TPUT/notify)", span);
					}
				}
			}
			Stmt.CommDomainScope scope = scopeFor(buffers);
			if (scope == null) {
				throw new CodegenException("LowerHostTensorCollectives: " + call.name()
						+ " window buffers must resolve to the same comm-domain scope", call.span());
			}
			return perDevice(call, rule, scope, span);
		}

		/** The innermost open scope holding every buffer. */
		private Stmt.CommDomainScope scopeFor(List<HostCollectiveRules.Named> buffers) {
			for (int i = scopes.size() - 1; i >= 0; i--) {
				Stmt.CommDomainScope s = scopes.get(i);
				boolean all = true;
				for (HostCollectiveRules.Named b : buffers) {
					if (s.slot(b.buffer()) == null) {
						all = false;
						break;
					}
				}
				if (all) {
					return s;
				}
			}
			return null;
		}

		/** pypto's EmitPerDeviceBuiltinCalls. */
		private Stmt perDevice(Expr.Call call, Rule rule, Stmt.CommDomainScope scope, Span span) {
			if (!scope.devices().isEmpty()) {
				int n = scope.devices().size();
				if (call.isOp("pld.tensor.allreduce")) {
					HostCollectiveRules.checkAllReduceSignalCapacity(call, rule.signal(call), n, true, ctx.backend());
				} else {
					HostCollectiveRules.checkStaticSignalCapacity(call, rule.signal(call), n, 1, false);
				}
				rule.extraStaticCheck(call, n);
				List<Stmt> stmts = new ArrayList<>();
				for (long d : scope.devices()) {
					Expr device = new Expr.ConstInt(d, DType.INT64, call.span());
					stmts.add(new Stmt.Eval(rule.builtin(call, device), call.span()));
				}
				return new Stmt.Seq(stmts, span);
			}
			Var r = new Var("r", new Type.Scalar(DType.INT64), call.span());
			Expr zero = new Expr.ConstInt(0, DType.INT64, call.span());
			Expr one = new Expr.ConstInt(1, DType.INT64, call.span());
			Expr stop = Expr.Call.op("pld.system.world_size", List.of(), Map.of(), new Type.Scalar(DType.INT64),
					call.span());
			if (call.isOp("pld.tensor.allreduce")) {
				HostCollectiveRules.checkAllReduceSignalCapacity(call, rule.signal(call), 0, false, ctx.backend());
			} else {
				HostCollectiveRules.checkStaticSignalCapacity(call, rule.signal(call), 0, 1, false);
			}
			Stmt body = new Stmt.Eval(rule.builtin(call, r), call.span());
			return new Stmt.For(r, zero, stop, one, List.of(), body, List.of(), Stmt.ForKind.Sequential,
					new LinkedHashMap<>(), span);
		}

		/** x rebound to the collective's result: x's shape and dtype, the alias source's window buffer. */
		private static Var mintResult(Var old, Expr src) {
			if (!(old.type() instanceof Type.Tensor lhs) || !lhs.distributed()) {
				throw new CodegenException("LowerHostTensorCollectives: collective result Var should have "
						+ "DistributedTensorType", old.span());
			}
			if (!(src.type() instanceof Type.Tensor st) || !st.distributed() || st.window() == null) {
				throw new CodegenException("LowerHostTensorCollectives: collective alias source must carry a materialized "
						+ "WindowBuffer", old.span());
			}
			return old.retyped(new Type.Tensor(lhs.shape(), lhs.dtype(), lhs.view(), true, st.window()));
		}
	}
}
