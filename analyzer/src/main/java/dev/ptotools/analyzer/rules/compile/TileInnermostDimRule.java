package dev.ptotools.analyzer.rules.compile;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CompileFindings;

/**
 * PTO503: pypto's performance hint PH001 (TileInnermostDimGranularity): a kernel's load or store moves
 * rows narrower than the backend's recommended innermost size, so every row is a short bus transaction.
 * Reported from the compiler's findings ({@link CompileFindings.Kind#PERF_HINT}).
 */
public final class TileInnermostDimRule extends CompileFindingRule {

	public TileInnermostDimRule() {
		super(CompileFindings.Kind.PERF_HINT);
	}

	@Override
	public String id() {
		return "PTO503";
	}

	@Override
	public String name() {
		return "tile-innermost-dim-granularity";
	}

	@Override
	public String title() {
		return "A tile load or store moves rows narrower than the backend recommends (pypto's PH001)";
	}

	@Override
	public String description() {
		return "pypto's performance hint PH001: a kernel's tile.load or tile.store whose innermost dimension is fewer"
				+ " bytes than the backend's recommended size (512 B on Ascend910B, 128 B on Ascend950) moves one short"
				+ " transaction per row. The program compiles; it may run slower than the same work in wider tiles.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.INFO;
	}
}
