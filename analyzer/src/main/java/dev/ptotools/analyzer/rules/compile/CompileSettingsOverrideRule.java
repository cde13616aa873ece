package dev.ptotools.analyzer.rules.compile;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.CompileFindings;

/**
 * PTO502: the compile settings override what the module's own compile call asks for (the device ids,
 * platform or sub-worker count of its RunConfig), so the output is not what running the module gives.
 * Reported from the compiler's findings ({@link CompileFindings.Kind#OVERRIDDEN}).
 */
public final class CompileSettingsOverrideRule extends CompileFindingRule {

	public CompileSettingsOverrideRule() {
		super(CompileFindings.Kind.OVERRIDDEN);
	}

	@Override
	public String id() {
		return "PTO502";
	}

	@Override
	public String name() {
		return "compile-settings-override";
	}

	@Override
	public String title() {
		return "The compile settings override what the module's compile call asks for";
	}

	@Override
	public String description() {
		return "A --device-ids or --platform flag, [tool.pto] or the editor's settings win over the RunConfig of the"
				+ " module's own compile or sample call, so the program is compiled for other ranks or another platform"
				+ " than running the module would; said so that it is never a surprise.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.INFO;
	}
}
