package dev.ptotools.codegen.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.Runtime;
import dev.ptotools.codegen.emit.orchestration.CoreType;
import dev.ptotools.codegen.emit.orchestration.OrchestrationResult;

/**
 * pypto's kernel_config.py (pto_backend._generate_config_file): lines joined with newlines, dict and
 * list entries indented by a TAB, blank lines coming from list items that end in a newline.
 */
public final class KernelConfigWriter {

	/** One kernel entry: its id, name, core type ("aiv"/"aic") and tensor directions (may be empty). */
	public record Kernel(int funcId, String name, String coreType, List<String> signature) {
	}

	/**
	 * What kernel_config.py says beyond the orchestration result: whether an emitted kernel uses the
	 * runtime-owned SDMA workspace, and the kernels given as external sources (absolute path, CCEC
	 * include directories), which are referenced in place.
	 */
	public record Extras(boolean enableSdma, Map<String, String> externalSources, Map<String, List<String>> includeDirs) {
		public static final Extras NONE = new Extras(false, Map.of(), Map.of());
	}

	private KernelConfigWriter() {
	}

	public static String write(String orchName, List<String> orchSignature, List<Kernel> kernels, Runtime runtime,
			int aicpuThreadNum) {
		return write(orchName, orchSignature, kernels, runtime, aicpuThreadNum, Extras.NONE);
	}

	/** The kernel_config.py of one chip orchestration result (pypto's _generate_config_file). */
	public static String write(String orchName, OrchestrationResult result, Runtime runtime, int aicpuThreadNum,
			Extras extras) {
		List<Kernel> kernels = new ArrayList<>();
		for (Map.Entry<String, Integer> e : result.funcNameToId().entrySet()) {
			CoreType ct = result.funcNameToCoreType().get(e.getKey());
			kernels.add(new Kernel(e.getValue(), e.getKey(), ct == null ? "aic" : ct.configName(),
					result.funcNameToSignature().getOrDefault(e.getKey(), List.of())));
		}
		return write(orchName, result.orchestrationSignature(), kernels, runtime, aicpuThreadNum, extras);
	}

	public static String write(String orchName, List<String> orchSignature, List<Kernel> kernels, Runtime runtime,
			int aicpuThreadNum, Extras extras) {
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
		if (extras.enableSdma()) {
			lines.add("\t\"enable_sdma\": True,");
		}
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
			String external = extras.externalSources().get(k.name());
			String source = external != null ? pyRepr(external)
					: "str(_ROOT_DIR / \"kernels\" / \"" + k.coreType() + "\" / \"" + k.name() + ".cpp\")";
			StringBuilder b = new StringBuilder("\t{\"func_id\": ").append(k.funcId()).append(", \"name\": \"")
					.append(k.name()).append("\", \"source\": ").append(source).append(", \"core_type\": \"")
					.append(k.coreType()).append('"');
			if (external != null) {
				b.append(", \"external\": True");
				List<String> dirs = extras.includeDirs().get(k.name());
				if (dirs != null && !dirs.isEmpty()) {
					List<String> reprs = new ArrayList<>();
					for (String d : dirs) {
						reprs.add(pyRepr(d));
					}
					b.append(", \"extra_include_dirs\": [").append(String.join(", ", reprs)).append(']');
				}
			}
			if (!k.signature().isEmpty()) {
				b.append(", \"signature\": [").append(directions(k.signature())).append(']');
			}
			lines.add(b.append("},").toString());
		}
		lines.add("]");
		return String.join("\n", lines) + "\n";
	}

	/** Python's repr of a str: single quotes unless only double quotes avoid escaping. */
	static String pyRepr(String s) {
		char q = s.contains("'") && !s.contains("\"") ? '"' : '\'';
		StringBuilder b = new StringBuilder().append(q);
		for (char c : s.toCharArray()) {
			if (c == '\\' || c == q) {
				b.append('\\').append(c);
			} else if (c == '\n') {
				b.append("\\n");
			} else if (c == '\t') {
				b.append("\\t");
			} else if (c == '\r') {
				b.append("\\r");
			} else if (c < 0x20 || c == 0x7f) {
				b.append(String.format("\\x%02x", (int) c));
			} else {
				b.append(c);
			}
		}
		return b.append(q).toString();
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
