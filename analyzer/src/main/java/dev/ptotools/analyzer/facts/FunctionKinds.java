package dev.ptotools.analyzer.facts;

import java.util.IdentityHashMap;

import dev.ptotools.analyzer.ir.Function;

/** The FunctionInfo of every DSL function of the file. */
public final class FunctionKinds {

	private final IdentityHashMap<Function, FunctionInfo> infos;

	public FunctionKinds(IdentityHashMap<Function, FunctionInfo> infos) {
		this.infos = infos;
	}

	public FunctionInfo of(Function f) {
		return infos.get(f);
	}

	public FunctionInfo.Kind kind(Function f) {
		FunctionInfo i = infos.get(f);
		return i == null ? FunctionInfo.Kind.OTHER : i.kind();
	}

	public boolean isHostOrchestrator(Function f) {
		return kind(f) == FunctionInfo.Kind.HOST_ORCHESTRATOR;
	}

	public boolean isChipOrchestrator(Function f) {
		return kind(f) == FunctionInfo.Kind.CHIP_ORCHESTRATOR;
	}
}
