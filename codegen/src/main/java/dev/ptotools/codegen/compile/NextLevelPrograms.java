package dev.ptotools.codegen.compile;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The program pypto builds for one next-level chip build (next_levels/&lt;orch&gt;/, pto_backend.py
 * {@code _collect_chip_task_functions}): the Orchestration function and the kernels it reaches, InCore,
 * AIC, AIV, Group and Spmd functions only. Its orchestration codegen first verifies
 * OrchestrationReferencesResolved on that program (src/ir/verifier/verify_orchestration_references.cpp), so
 * a call to any other function (another Orchestration, a HOST function) is an error there.
 */
final class NextLevelPrograms {

	private static final Set<FunctionType> CHIP_TASKS = Set.of(FunctionType.InCore, FunctionType.AIC, FunctionType.AIV,
			FunctionType.Group, FunctionType.Spmd);

	private NextLevelPrograms() {
	}

	/** The names of the sub-program's functions: the orchestration, then its chip task functions. */
	static Set<String> functions(Program program, Function orch) {
		Set<String> names = new LinkedHashSet<>();
		names.add(orch.name());
		Deque<Function> work = new ArrayDeque<>();
		work.add(orch);
		while (!work.isEmpty()) {
			Function f = work.pop();
			for (String callee : callees(f)) {
				Function c = program.function(callee);
				if (names.contains(callee) || c == null || !CHIP_TASKS.contains(c.type())) {
					continue;
				}
				names.add(callee);
				work.add(c);
			}
		}
		return names;
	}

	/** pypto's OrchestrationReferencesResolved on the sub-program: every function the orchestration calls is in it. */
	static void checkReferences(Program program, Function orch) {
		Set<String> present = functions(program, orch);
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				super.call(c);
				String callee = c.functionName();
				if (callee != null && !present.contains(callee)) {
					throw new CodegenException("Orchestration function '" + orch.name() + "' references undefined function '"
							+ callee + "'. The Program must contain every callee referenced from orchestration.", c.span());
				}
			}
		}.stmt(orch.body());
	}

	private static Set<String> callees(Function f) {
		Set<String> out = new LinkedHashSet<>();
		if (f.body() == null) {
			return out;
		}
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				if (c.functionName() != null) {
					out.add(c.functionName());
				}
				super.call(c);
			}
		}.stmt(f.body());
		return out;
	}
}
