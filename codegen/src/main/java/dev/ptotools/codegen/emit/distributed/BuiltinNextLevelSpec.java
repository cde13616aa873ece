package dev.ptotools.codegen.emit.distributed;

import java.util.Map;

import dev.ptotools.analyzer.ir.Span;

/**
 * A builtin collective's chip build that host_orch.py dispatches to (pypto's BuiltinNextLevelSpec,
 * recorded at the first dispatch of each variant): pypto renders every {@code *.in} template of the package
 * {@code templateDir} (a {@code :package} handle) with {@code variant}, {@code entry},
 * {@code kernel_name} (entry + "_kernel"), {@code template_package}, {@code runtime} and
 * {@code templateVars} into {@code next_levels/<variant>/}: {@code orchestration/<entry>.cpp},
 * {@code kernels/aiv/<entry>_kernel.cpp} and {@code kernel_config.py}.
 *
 * @param variant the callable key host_orch.py uses ("builtin.tensor.allreduce__sum__fp32"), also the
 *        directory name under next_levels/
 * @param entrySymbol the variant with every character other than a letter, digit or '_' replaced by '_'
 * @param templateVars the op-specific template variables, sorted by name
 * @param span the first dispatch of the variant
 */
public record BuiltinNextLevelSpec(String opName, String variant, String entrySymbol, String templateDir,
		Map<String, String> templateVars, Span span) {

	public BuiltinNextLevelSpec {
		templateVars = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(templateVars));
	}

	/** The template package name (templateDir without its leading ':'). */
	public String templatePackage() {
		return templateDir.startsWith(":") ? templateDir.substring(1) : templateDir;
	}

	/** pypto's BuiltinEntrySymbol. */
	static String entrySymbol(String variant) {
		StringBuilder b = new StringBuilder(variant.length());
		for (char c : variant.toCharArray()) {
			b.append(Character.isLetterOrDigit(c) && c < 128 || c == '_' ? c : '_');
		}
		return b.toString();
	}
}
