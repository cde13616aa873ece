package dev.ptotools.codegen.emit.distributed;

import java.util.List;

import dev.ptotools.codegen.graph.TaskGraph;
import dev.ptotools.codegen.ir.Function;

/**
 * The generated orchestration/host_orch.py and what the rest of the build needs from it.
 *
 * @param code the module exactly as pypto's DistributedCodegen writes it (plus the grouped-dispatch helper
 *        and lists when loops were grouped)
 * @param entry the orchestrator emitted as the entry function (null for a program without one)
 * @param builtins the builtin collective chip builds dispatched, in first-dispatch order
 * @param grouped the rank loops emitted as one group submission, in emission order
 * @param graph the tasks the module submits and their dependencies (not part of pypto's result)
 */
public record HostOrchResult(String code, Function entry, List<BuiltinNextLevelSpec> builtins,
		List<EmittedGroup> grouped, TaskGraph graph) {

	/** A rank loop emitted as one {@code _submit_chip_group}: its analyzer id and the chip orchestrator. */
	public record EmittedGroup(String groupId, String callee) {
	}

	public HostOrchResult {
		builtins = List.copyOf(builtins);
		grouped = List.copyOf(grouped);
	}

	/** The file text: pypto's module. */
	public String fileText() {
		return code;
	}
}
