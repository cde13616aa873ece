package dev.ptotools.codegen.compile;

import java.util.List;

import dev.ptotools.analyzer.facts.jit.JitGraph;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.passes.JitSamplesPass;
import dev.ptotools.analyzer.project.ImportKinds;

/**
 * The first call, in a {@code @pl.jit} entry or a jit function it reaches, of a name the module imports
 * from another module ({@code from .kernels.rmsnorm import input_rmsnorm}) that does not resolve to a jit
 * function of the project (a module outside it, or one not read): pypto's specializer would follow it
 * into its module; this compiler cannot, so the specialization is not compiled, and the finding names the
 * kernel and its module instead of calling the call unsupported by pypto.
 */
final class ImportedKernelCalls {

	/** A call of an imported kernel: the call and the module the name comes from. */
	record Call(Expr.Call call, String name, String module) {
		String message() {
			return "calls '" + name + "', imported from " + module + ", which is not a @pl.jit function of this project this "
					+ "compiler could read: pypto follows it into its module when the entry is specialized";
		}
	}

	private ImportedKernelCalls() {
	}

	static Call first(ModuleIR module, Function entry, dev.ptotools.analyzer.project.ImportedModules imported,
			dev.ptotools.analyzer.project.SpanBases bases) {
		Program owner = module.programs().stream().filter(p -> p.functions().contains(entry)).findFirst().orElse(null);
		if (owner == null) {
			return null;
		}
		JitGraph.Names names = JitSamplesPass.names(module, imported, bases);
		List<Function> reached = new java.util.ArrayList<>(JitGraph.of(entry, names).depsTopo());
		reached.add(entry);
		Call first = null;
		for (Function f : reached) {
			if (JitSamplesPass.imported(names, f) != null) {
				continue; // its names are its own module's
			}
			for (Expr.Call c : Walk.allCalls(f.body())) {
				if (!(c.func() instanceof Expr.Name n)) {
					continue;
				}
				ImportKinds.Source from = ImportKinds.fromImport(owner.bindings(), n.id());
				if (from != null && names.lookup(f, n.id()) == null
						&& (first == null || c.span().start() < first.call().span().start())) {
					first = new Call(c, n.id(), from.module());
				}
			}
		}
		return first;
	}
}
