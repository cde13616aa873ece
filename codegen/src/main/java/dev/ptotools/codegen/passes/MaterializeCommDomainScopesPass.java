package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.ir.WindowBuffer;
import dev.ptotools.codegen.passes.util.CommDomainAnalysis;
import dev.ptotools.codegen.passes.util.DistFunctions;
import dev.ptotools.codegen.passes.util.DistMutator;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's materialize_comm_domain_scopes (MaterializeCommDomainScopes,
 * src/ir/transforms/materialize_comm_domain_scopes_pass.cpp): in each HOST orchestrator with window
 * allocations, traces every {@code pld.tensor.window} view to the chip dispatches ({@code device=}) and
 * collectives that consume it, gives each allocation a {@link WindowBuffer} named after its variable,
 * rebinds every view's type to its buffer, groups the allocations by the device set they are used on (in
 * allocation order) and wraps the whole body in one {@link Stmt.CommDomainScope} per group, the first
 * group outermost ({@code comm_d0}).
 *
 * <p>Errors as pypto raises them: an allocation without a view or that no dispatch consumes, a
 * {@code device=} that is neither a constant nor an enclosing loop's variable (or a loop bound that is
 * neither constant nor {@code pld.system.world_size()}), a barrier signal without coverage,
 * {@code all_to_all_v} in a loop, and two allocations of one name in a domain.
 */
public final class MaterializeCommDomainScopesPass implements Pass {

	@Override
	public String name() {
		return "MaterializeCommDomainScopes";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of();
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
		Set<String> chipOrchs = new HashSet<>();
		for (Function f : program.functions()) {
			if (DistFunctions.isChipOrch(f)) {
				chipOrchs.add(f.name());
			}
		}
		List<Function> out = new ArrayList<>();
		boolean modified = false;
		for (Function f : program.sortedByName()) {
			Function n = DistFunctions.isHostOrch(f) ? processHostOrch(f, chipOrchs) : f;
			modified |= n != f;
			out.add(n);
		}
		return modified ? program.withFunctions(SynthesizeAllReduceSignalsPass.inProgramOrder(program, out)) : program;
	}

	private static Function processHostOrch(Function f, Set<String> chipOrchs) {
		if (f.body() instanceof Stmt.CommDomainScope) {
			return f; // already materialized: wrapping again would shadow every buffer
		}
		CommDomainAnalysis a = CommDomainAnalysis.of(f.body(), chipOrchs);
		if (a.allocs.isEmpty()) {
			return f;
		}
		a.inheritAndCheck();
		for (CommDomainAnalysis.Alloc rec : a.allocs) {
			rec.buffer = new WindowBuffer(rec.ptr, rec.size, rec.span);
		}
		// every view variable is replaced by one of the same name whose type names its buffer
		Map<Var, Var> viewSubst = new HashMap<>();
		for (CommDomainAnalysis.Window w : a.windows) {
			viewSubst.put(w.view(), mintView(w.view(), w.alloc().buffer));
		}
		Map<Object, Integer> index = new LinkedHashMap<>();
		List<Pending> pending = new ArrayList<>();
		for (CommDomainAnalysis.Alloc rec : a.allocs) {
			CommDomainAnalysis.Devices merged = CommDomainAnalysis.Devices.none();
			for (CommDomainAnalysis.Devices d : rec.seen) {
				merged = merged.merge(d);
			}
			Integer i = index.get(merged.key());
			if (i == null) {
				i = pending.size();
				index.put(merged.key(), i);
				pending.add(new Pending(merged, new ArrayList<>(), new HashSet<>(), rec.span));
			}
			Pending p = pending.get(i);
			if (!p.names.add(rec.name)) {
				throw new CodegenException("MaterializeCommDomainScopes: duplicate allocation name '" + rec.name
						+ "' within the same comm domain", rec.span);
			}
			p.slots.add(rec.buffer);
		}
		Stmt body = f.body();
		if (!viewSubst.isEmpty()) {
			DistMutator subst = new DistMutator();
			subst.remapAll(viewSubst);
			body = subst.stmt(body);
		}
		for (int i = pending.size() - 1; i >= 0; i--) {
			Pending p = pending.get(i);
			body = new Stmt.CommDomainScope("comm_d" + i, p.devices.toDevices(), p.slots, body, p.span);
		}
		return f.withBody(body);
	}

	private record Pending(CommDomainAnalysis.Devices devices, List<WindowBuffer> slots, Set<String> names, Span span) {
	}

	/** A view variable of the same name whose distributed tensor type is bound to buffer. */
	private static Var mintView(Var old, WindowBuffer buffer) {
		if (!(old.type() instanceof Type.Tensor t) || !t.distributed()) {
			throw new CodegenException("MaterializeCommDomainScopes: pld.tensor.window result Var should have "
					+ "DistributedTensorType", old.span());
		}
		return old.retyped(new Type.Tensor(t.shape(), t.dtype(), t.view(), true, buffer.name()));
	}
}
