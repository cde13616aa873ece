package dev.ptotools.codegen.chip;

import java.util.List;
import java.util.Map;

/**
 * pypto's OrchestrationResult: the C++ text (from {@code #include}, without the backend's file header)
 * and what kernel_config.py needs: kernel ids in first-call order, core types ("aiv"/"aic"), per-kernel
 * tensor directions and the orchestration function's own tensor directions; warnings for the user.
 */
public record ChipResult(String code, Map<String, Integer> funcIds, Map<String, String> coreTypes,
		Map<String, List<String>> signatures, List<String> orchestrationSignature, List<String> warnings) {
}
