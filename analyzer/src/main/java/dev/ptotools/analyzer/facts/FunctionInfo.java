package dev.ptotools.analyzer.facts;

import java.util.List;

import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;

/**
 * A function's effective type, level and role after pypto's derivation (a type that implies a level
 * and role fixes them), its kind, and the contradictions between what was declared and implied.
 */
public record FunctionInfo(Function function, FunctionType type, Level level, Role role, Kind kind,
		List<String> contradictions) {

	public enum Kind {
		/** level HOST and (type Orchestration or role Orchestrator). */
		HOST_ORCHESTRATOR("HOST orchestrator"),
		/** level CHIP and (type Orchestration or role Orchestrator), not Graph. */
		CHIP_ORCHESTRATOR("CHIP orchestrator"),
		/** InCore, AIC, AIV or Group: code that runs on cores. */
		KERNEL("kernel"),
		/** role SubWorker at a host-side level: Python called through orch.submit_sub. */
		SUB_WORKER("sub-worker"),
		INLINE("inline function"),
		OTHER("function");

		private final String label;

		Kind(String label) {
			this.label = label;
		}

		public String label() {
			return label;
		}
	}

	/** "HOST orchestrator (level HOST, role Orchestrator)" and similar, for hovers and messages. */
	public String describe() {
		StringBuilder b = new StringBuilder(kind.label());
		b.append(" (type ").append(type.name());
		if (level != null) {
			b.append(", level ").append(level.name());
		}
		if (role != null) {
			b.append(", role ").append(role.name());
		}
		return b.append(')').toString();
	}
}
