package dev.ptotools.codegen.emit.orchestration;

import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.graph.TaskGraph;

/**
 * What the orchestration codegen produces for one orchestration function (pypto's
 * OrchestrationResult): the C++ text (without the two comment lines the backend puts first), each
 * dispatched kernel's id (in first-dispatch order), core type and tensor-argument signature
 * ("IN"/"OUT"/"INOUT" in task order, scalars left out), the signature of the function's own
 * tensor parameters, and the tasks it submits with their dependencies (not part of pypto's result). The maps iterate by kernel name, as pypto's std::map does.
 */
public record OrchestrationResult(String code, Map<String, Integer> funcNameToId, Map<String, CoreType> funcNameToCoreType,
		Map<String, List<String>> funcNameToSignature, List<String> orchestrationSignature, TaskGraph graph) {

	public OrchestrationResult {
		funcNameToId = Map.copyOf(funcNameToId);
		funcNameToCoreType = Map.copyOf(funcNameToCoreType);
		funcNameToSignature = Map.copyOf(funcNameToSignature);
		orchestrationSignature = List.copyOf(orchestrationSignature);
	}
}
