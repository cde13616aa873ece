package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * Explicit task dependencies (pypto's EmitManualDeps and EmitDummyTask): the user's {@code deps=[...]}
 * (a Submit's deps, or {@code manual_dep_edges} on a call or a {@code system.task_dummy}) resolved to
 * the TaskId variables or TaskId-array slots in scope, written into a {@code PTO2TaskId <task>_deps[K]}
 * array guarded by {@code is_valid()} unless the id is a fresh producer's.
 */
final class Deps {

	private final OrchState st;

	Deps(OrchState st) {
		this.st = st;
	}

	/** The user's dependency Vars of a call, each once. */
	private static List<Var> edges(CallView call) {
		return new ArrayList<>(new LinkedHashSet<>(call.varListAttr("manual_dep_edges")));
	}

	/** The TaskId names an edge stands for; a user edge whose producer's scope has closed is an error. */
	private List<String> resolve(Var edge, CallView call) {
		Object binding = st.taskIds.get(edge);
		if (binding == null) {
			String name = OrchState.baseName(edge.name());
			if (name.isEmpty()) {
				name = "<anonymous>";
			}
			throw new CodegenException("Task dependency deps=[" + name + "] cannot be honored: its TaskId is produced "
					+ "inside a scope that has already closed at this point, so the ordering edge would be lost and the "
					+ "consumer could read stale data. Note that pl.range / pl.parallel loop bodies and if/else branches "
					+ "each open their own scope, so this fires even with no pl.scope() in the source. Either consume the "
					+ "TaskId inside the scope that produces it (for example, keep producer and consumer in one "
					+ "pl.manual_scope()), or hoist the producer out of the inner scope. For a TaskId produced in a loop "
					+ "body, consume it in that same body or accumulate the ids into an Array[N, TASK_ID] and depend on "
					+ "that after the loop.", call.span());
		}
		if (binding instanceof Integer) {
			throw new CodegenException("Internal error: manual_dep_edge var '" + edge.name() + "' resolves to a kernel-Call "
					+ "LHS (int variant). Expected a Scalar[TASK_ID] Var (string variant).", call.span());
		}
		if (binding instanceof List<?> l) {
			List<String> out = new ArrayList<>();
			for (Object o : l) {
				out.add((String) o);
			}
			return out;
		}
		return List.of((String) binding);
	}

	/** The TaskId names of a call's deps=[...], each once. */
	List<String> names(CallView call) {
		Set<String> names = new LinkedHashSet<>();
		for (Var e : edges(call)) {
			names.addAll(resolve(e, call));
		}
		return new ArrayList<>(names);
	}

	/** The deps block of a task for the TaskId names of its deps ({@link #names}), nothing when there are none. */
	void emit(List<String> names, String taskVar) {
		if (names.isEmpty()) {
			return;
		}
		String arr = taskVar + "_deps";
		String cnt = taskVar + "_deps_count";
		st.line("PTO2TaskId " + arr + "[" + names.size() + "];");
		st.line("uint32_t " + cnt + " = 0;");
		Set<String> emitted = new HashSet<>();
		for (String n : names) {
			if (emitted.add(n)) {
				insert(n, arr, cnt);
			}
		}
		st.line(taskVar + ".set_dependencies(" + arr + ", " + cnt + ");");
	}

	private void insert(String name, String arr, String cnt) {
		String assign = arr + "[" + cnt + "++] = " + name + ";";
		st.line(st.guaranteedValid.contains(name) ? assign : "if (" + name + ".is_valid()) " + assign);
	}

	/**
	 * A dependency-only dummy task ({@code system.task_dummy}: an ExpandManualPhaseFence barrier or a
	 * user's {@code pl.system.task_dummy(deps=...)}); submitted only when some dependency is valid, or
	 * unconditionally when it has none.
	 */
	void dummyTask(CallView call, String tidName) {
		int b = st.barrierCounter++;
		String taskVar = "params_phase_fence_barrier_" + b;
		String cnt = taskVar + "_deps_count";
		String outs = "phase_fence_barrier_" + b + "_outs";
		List<String> depNames = names(call);
		int capacity = depNames.size();
		st.graph.bindTaskId(tidName, st.graph.task("barrier", dev.ptotools.codegen.graph.TaskGraph.Kind.BARRIER,
				call.span(), "", List.of(), depNames));
		st.blank();
		st.line("// Phase-fence barrier " + b + ": dependency-only dummy task");
		st.line("CoreTaskArgs " + taskVar + ";");
		if (capacity > 0) {
			emit(depNames, taskVar);
			st.line("PTO2TaskId " + tidName + " = PTO2TaskId::invalid();");
			st.line("if (" + cnt + " > 0) {");
			st.active.indent();
			st.line("TaskOutputTensors " + outs + " = rt_submit_dummy_task(" + taskVar + ");");
			st.line(tidName + " = " + outs + ".task_id();");
			st.active.dedent();
			st.line("}");
		} else {
			st.line("TaskOutputTensors " + outs + " = rt_submit_dummy_task(" + taskVar + ");");
			st.line("PTO2TaskId " + tidName + " = " + outs + ".task_id();");
		}
	}
}
