package dev.ptotools.analyzer.passes;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.Constants;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/**
 * Folds the module and closure constants each program sees, in source order, so that
 * {@code SIZE * pl.FP32.get_byte()} is 1024 wherever SIZE is 256.
 */
public final class FoldConstantsPass implements Pass {

	@Override
	public String name() {
		return "fold-constants";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.CONSTANTS);
	}

	@Override
	public void run(Facts facts) {
		ModuleIR module = facts.get(Keys.MODULE);
		IdentityHashMap<Program, Map<String, Object>> envs = new IdentityHashMap<>();
		for (Program p : module.programs()) {
			Map<String, Object> env = new HashMap<>();
			ConstEval eval = new ConstEval(env, module.imports());
			for (Program.Binding b : p.bindings()) {
				Object v = eval.eval(b.value());
				if (Values.known(v)) {
					env.put(b.name(), v);
				} else {
					env.remove(b.name()); // a later non-constant binding hides an earlier constant
				}
			}
			envs.put(p, Map.copyOf(env));
		}
		facts.put(Keys.CONSTANTS, new Constants(envs, module.imports()));
	}
}
