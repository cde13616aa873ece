package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Decl;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/**
 * Derives every function's level and role as pypto's Function constructor does: a type that implies
 * a level and role (Orchestration gives CHIP/Orchestrator, InCore gives CHIP_DIE/SubWorker...) fixes
 * them, and an explicit different value is a contradiction. Then classifies HOST and CHIP
 * orchestrators exactly as the MaterializeCommDomainScopes pass selects them.
 */
public final class ClassifyFunctionsPass implements Pass {

	@Override
	public String name() {
		return "classify-functions";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.FUNCTIONS);
	}

	@Override
	public void run(Facts facts) {
		IdentityHashMap<Function, FunctionInfo> infos = new IdentityHashMap<>();
		for (Program p : facts.get(Keys.MODULE).programs()) {
			for (Function f : p.functions()) {
				infos.put(f, classify(f));
			}
		}
		facts.put(Keys.FUNCTIONS, new FunctionKinds(infos));
	}

	static FunctionInfo classify(Function f) {
		Decl d = f.decl();
		FunctionType type = d.type() == null ? FunctionType.Opaque : d.type();
		Level level = d.level();
		Role role = d.role();
		List<String> contradictions = new ArrayList<>();
		if (type.impliedLevel() != null) {
			if (level != null && level != type.impliedLevel()) {
				contradictions.add("Function '" + f.name() + "' has func_type=" + type + " which implies level="
						+ type.impliedLevel() + ", but explicit level=" + level + " was provided");
			}
			level = type.impliedLevel();
		}
		if (type.impliedRole() != null) {
			if (role != null && role != type.impliedRole()) {
				contradictions.add("Function '" + f.name() + "' has func_type=" + type + " which implies role="
						+ type.impliedRole() + ", but explicit role=" + role + " was provided");
			}
			role = type.impliedRole();
		}
		boolean orchestrating = type == FunctionType.Orchestration || role == Role.Orchestrator;
		FunctionInfo.Kind kind;
		if (level == Level.HOST && orchestrating) {
			kind = FunctionInfo.Kind.HOST_ORCHESTRATOR;
		} else if (level == Level.CHIP && orchestrating && type != FunctionType.Graph) {
			kind = FunctionInfo.Kind.CHIP_ORCHESTRATOR;
		} else if (type == FunctionType.InCore || type == FunctionType.AIC || type == FunctionType.AIV
				|| type == FunctionType.Group) {
			kind = FunctionInfo.Kind.KERNEL;
		} else if (role == Role.SubWorker) {
			kind = FunctionInfo.Kind.SUB_WORKER;
		} else if (type == FunctionType.Inline) {
			kind = FunctionInfo.Kind.INLINE;
		} else {
			kind = FunctionInfo.Kind.OTHER;
		}
		return new FunctionInfo(f, type, level, role, kind, List.copyOf(contradictions));
	}
}
