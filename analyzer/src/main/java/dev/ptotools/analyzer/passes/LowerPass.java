package dev.ptotools.analyzer.passes;

import java.util.List;

import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/** Lowers the AST once into the IR; nothing after this pass sees EMF. */
public final class LowerPass implements Pass {

	@Override
	public String name() {
		return "lower";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.PARSED);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.MODULE);
	}

	@Override
	public void run(Facts facts) {
		java.util.Map<String, String> prelude = facts.has(Keys.PRELUDE) ? facts.get(Keys.PRELUDE).bindings()
				: java.util.Map.of();
		facts.put(Keys.MODULE, ModuleLowering.of(facts.get(Keys.PARSED), prelude));
	}
}
