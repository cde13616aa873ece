package dev.ptotools.analyzer.rules;

import java.util.List;

import dev.ptotools.analyzer.rules.basic.FunctionDeclarationRule;
import dev.ptotools.analyzer.rules.basic.InvalidLoopRule;
import dev.ptotools.analyzer.rules.basic.InvalidSuppressionRule;
import dev.ptotools.analyzer.rules.basic.MissingAnnotationRule;
import dev.ptotools.analyzer.rules.basic.SyntaxErrorRule;
import dev.ptotools.analyzer.rules.basic.UnsupportedStatementRule;
import dev.ptotools.analyzer.rules.calls.ArgumentCountRule;
import dev.ptotools.analyzer.rules.calls.DeviceBeforeDefinitionRule;
import dev.ptotools.analyzer.rules.calls.UnknownBuiltinRule;
import dev.ptotools.analyzer.rules.calls.UnknownFunctionRule;
import dev.ptotools.analyzer.rules.calls.UnknownKeywordRule;
import dev.ptotools.analyzer.rules.comm.AllToAllVInLoopRule;
import dev.ptotools.analyzer.rules.compile.CompileRejectedRule;
import dev.ptotools.analyzer.rules.compile.CompileSettingsOverrideRule;
import dev.ptotools.analyzer.rules.compile.TileInnermostDimRule;
import dev.ptotools.analyzer.rules.compile.CompileUnsupportedRule;
import dev.ptotools.analyzer.rules.comm.AllreduceSignalRule;
import dev.ptotools.analyzer.rules.comm.DeadAllocationRule;
import dev.ptotools.analyzer.rules.comm.DuplicateAllocationRule;
import dev.ptotools.analyzer.rules.comm.HostOnlyCallRule;
import dev.ptotools.analyzer.rules.comm.InvalidDeviceRule;
import dev.ptotools.analyzer.rules.comm.NoCoverageRule;
import dev.ptotools.analyzer.rules.comm.UnconsumedWindowRule;
import dev.ptotools.analyzer.rules.grouping.CallInArgumentRule;
import dev.ptotools.analyzer.rules.grouping.ConditionalDispatchRule;
import dev.ptotools.analyzer.rules.grouping.ControlFlowInLoopRule;
import dev.ptotools.analyzer.rules.grouping.GroupedLoopRule;
import dev.ptotools.analyzer.rules.grouping.LoopStateRule;
import dev.ptotools.analyzer.rules.grouping.NoDispatchRule;
import dev.ptotools.analyzer.rules.grouping.NonSequentialLoopRule;
import dev.ptotools.analyzer.rules.grouping.NonViewStatementRule;
import dev.ptotools.analyzer.rules.grouping.PartialWorldRule;
import dev.ptotools.analyzer.rules.grouping.SeveralDispatchesRule;
import dev.ptotools.analyzer.rules.grouping.UnpinnedDeviceRule;
import dev.ptotools.analyzer.rules.host.DistributedArgWithoutDeviceRule;
import dev.ptotools.analyzer.rules.host.HierarchyCallRule;
import dev.ptotools.analyzer.rules.host.NestedHostCreateRule;
import dev.ptotools.analyzer.rules.host.UnsupportedHostOpRule;
import dev.ptotools.analyzer.rules.jit.JitShapeUnknownRule;

/** Every rule, in id order. */
public final class Rules {

	private static final List<Rule> ALL = List.of(new SyntaxErrorRule(), new InvalidSuppressionRule(), new GroupedLoopRule(), new PartialWorldRule(),
			new NoDispatchRule(), new ConditionalDispatchRule(), new SeveralDispatchesRule(), new UnpinnedDeviceRule(),
			new NonViewStatementRule(), new CallInArgumentRule(), new LoopStateRule(), new NonSequentialLoopRule(),
			new ControlFlowInLoopRule(), new DeadAllocationRule(), new UnconsumedWindowRule(), new InvalidDeviceRule(),
			new DuplicateAllocationRule(), new AllToAllVInLoopRule(), new AllreduceSignalRule(), new NoCoverageRule(),
			new HostOnlyCallRule(), new DistributedArgWithoutDeviceRule(), new NestedHostCreateRule(),
			new UnsupportedHostOpRule(), new HierarchyCallRule(), new UnknownFunctionRule(), new ArgumentCountRule(),
			new UnknownKeywordRule(), new UnknownBuiltinRule(), new FunctionDeclarationRule(),
			new DeviceBeforeDefinitionRule(), new MissingAnnotationRule(), new UnsupportedStatementRule(),
			new InvalidLoopRule(), new JitShapeUnknownRule(), new dev.ptotools.analyzer.rules.imports.ImportErrorRule(), new CompileRejectedRule(), new CompileUnsupportedRule(),
			new CompileSettingsOverrideRule(), new TileInnermostDimRule());

	private Rules() {
	}

	public static List<Rule> all() {
		return ALL;
	}

	public static Rule byId(String id) {
		for (Rule r : ALL) {
			if (r.id().equals(id)) {
				return r;
			}
		}
		return null;
	}
}
