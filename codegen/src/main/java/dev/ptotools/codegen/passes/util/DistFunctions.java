package dev.ptotools.codegen.passes.util;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.codegen.ir.Function;

/**
 * Which functions the distributed passes and the host codegen act on, with pypto's predicates
 * (materialize_comm_domain_scopes_pass.cpp IsHostOrch / IsChipOrch, function.h LevelToLinquLevel).
 */
public final class DistFunctions {

	private DistFunctions() {
	}

	/** A HOST orchestrator: level HOST and either type Orchestration or role Orchestrator. */
	public static boolean isHostOrch(Function f) {
		if (f == null || f.level() != Level.HOST) {
			return false;
		}
		return f.type() == FunctionType.Orchestration || f.role() == Role.Orchestrator;
	}

	/**
	 * A chip orchestrator a HOST orchestrator dispatches: level CHIP, type Orchestration or role
	 * Orchestrator, but never a Graph function (it carries CHIP/Orchestrator too, yet only a chip entry
	 * launches it).
	 */
	public static boolean isChipOrch(Function f) {
		if (f == null || f.level() != Level.CHIP || f.type() == FunctionType.Graph) {
			return false;
		}
		return f.type() == FunctionType.Orchestration || f.role() == Role.Orchestrator;
	}

	/** pypto's LevelToLinquLevel: cores 0, die 1, chip 2, host 3, clusters 4-6, global 7; none is 0. */
	public static int linquLevel(Level level) {
		if (level == null) {
			return 0;
		}
		return switch (level) {
		case AIV, AIC, CORE_GROUP -> 0;
		case CHIP_DIE -> 1;
		case CHIP -> 2;
		case HOST -> 3;
		case CLUSTER_0 -> 4;
		case CLUSTER_1 -> 5;
		case CLUSTER_2 -> 6;
		case GLOBAL -> 7;
		};
	}
}
