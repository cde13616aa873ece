package dev.ptotools.codegen.emit.orchestration;

import java.util.List;
import java.util.Map;

/**
 * pypto's OrchestrationResult: the chip orchestration C++ (without the two header comment lines the
 * backend prepends) and what kernel_config.py is written from.
 */
public record OrchestrationResult(String code, Map<String, Integer> funcNameToId, Map<String, String> funcNameToCoreType,
		Map<String, List<String>> funcNameToSignature, List<String> orchestrationSignature) {
}
