package dev.ptotools.codegen.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.Runtime;

/**
 * pypto's kernel_config.py (pto_backend._generate_config_file): lines joined with newlines, dict and
 * list entries indented by a TAB, blank lines coming from list items that end in a newline.
 */
public final class KernelConfigWriter {

	/** One kernel entry: its id, name, core type ("aiv"/"aic") and tensor directions (may be empty). */
	public record Kernel(int funcId, String name, String coreType, List<String> signature) {
	}

	private KernelConfigWriter() {
	}

	public static String write(String orchName, List<String> orchSignature, List<Kernel> kernels, Runtime runtime,
			int aicpuThreadNum) {
		boolean anySignature = !orchSignature.isEmpty() || kernels.stream().anyMatch(k -> !k.signature().isEmpty());
		List<String> lines = new ArrayList<>();
		lines.add("# Kernel and Orchestration Configuration\n");
		lines.add("from pathlib import Path\n");
		if (anySignature) {
			lines.add("from simpler.task_interface import ArgDirection as _D\n");
		}
		lines.add("_ROOT_DIR = Path(__file__).parent\n");
		lines.add("# Runtime configuration for " + runtime.wireName() + ".");
		lines.add("# AICPU thread count 0 selects the runtime's architecture default (a2a3: 4; a5: 5).");
		lines.add("RUNTIME_CONFIG = {");
		lines.add("\t\"runtime\": \"" + runtime.wireName() + "\",");
		lines.add("\t\"aicpu_thread_num\": " + aicpuThreadNum + ",");
		lines.add("}\n");
		lines.add("ORCHESTRATION = {");
		lines.add("\t\"source\": str(_ROOT_DIR / \"orchestration\" / \"" + orchName + ".cpp\"),");
		lines.add("\t\"function_name\": \"aicpu_orchestration_entry\",");
		if (!orchSignature.isEmpty()) {
			lines.add("\t\"signature\": [" + directions(orchSignature) + "],");
		}
		lines.add("}\n");
		lines.add("KERNELS = [");
		List<Kernel> sorted = new ArrayList<>(kernels);
		sorted.sort((a, b) -> Integer.compare(a.funcId(), b.funcId()));
		for (Kernel k : sorted) {
			StringBuilder b = new StringBuilder("\t{\"func_id\": ").append(k.funcId()).append(", \"name\": \"")
					.append(k.name()).append("\", \"source\": str(_ROOT_DIR / \"kernels\" / \"").append(k.coreType())
					.append("\" / \"").append(k.name()).append(".cpp\"), \"core_type\": \"").append(k.coreType())
					.append('"');
			if (!k.signature().isEmpty()) {
				b.append(", \"signature\": [").append(directions(k.signature())).append(']');
			}
			lines.add(b.append("},").toString());
		}
		lines.add("]");
		return String.join("\n", lines) + "\n";
	}

	private static String directions(List<String> sig) {
		List<String> out = new ArrayList<>();
		for (String s : sig) {
			out.add("_D." + s);
		}
		return String.join(", ", out);
	}

	/** The kernels of one chip orchestration result, in id order. */
	public static List<Kernel> kernels(Map<String, Integer> ids, Map<String, String> coreTypes,
			Map<String, List<String>> signatures) {
		List<Kernel> out = new ArrayList<>();
		for (Map.Entry<String, Integer> e : ids.entrySet()) {
			out.add(new Kernel(e.getValue(), e.getKey(), coreTypes.getOrDefault(e.getKey(), "aiv"),
					signatures.getOrDefault(e.getKey(), List.of())));
		}
		out.sort((a, b) -> Integer.compare(a.funcId(), b.funcId()));
		return out;
	}
}
