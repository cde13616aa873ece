package dev.ptotools.codegen.compile;

import java.util.List;

import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;
import dev.ptotools.codegen.CompileOptions;

/**
 * The compiler as a pass of the analyzer's pipeline: it compiles every program of the module and
 * reports what stops or changes a compile as the {@link Keys#COMPILE} fact, so {@code pto check}, the
 * editor and SARIF show those problems where {@code pto compile} would stop, and on-save writes the
 * generation the fact carries without compiling twice.
 *
 * <p>Needs the module; produces {@link Keys#COMPILE}, except for DSL text in strings (analyzed with a
 * prelude), whose programs {@code pto compile} does not write.
 */
public final class CompilePass implements Pass {

	private final CompileOptions options;
	private final java.util.function.BooleanSupplier superseded;

	public CompilePass(CompileOptions options) {
		this(options, () -> false);
	}

	/** A compile the editor may abandon: it stops between programs once {@code superseded} holds. */
	public CompilePass(CompileOptions options, java.util.function.BooleanSupplier superseded) {
		this.options = options;
		this.superseded = superseded;
	}

	@Override
	public String name() {
		return "compile";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.COMPILE);
	}

	private static <T> T opt(Facts facts, Key<T> key) {
		return facts.has(key) ? facts.get(key) : null;
	}

	@Override
	public void run(Facts facts) {
		if (facts.has(Keys.PRELUDE)) {
			// DSL text given to pl.parse: pto compile does not write its programs, so check does not
			// compile them either (the analyzer's own rules still check the text).
			return;
		}
		dev.ptotools.language.ParsedFile parsed = opt(facts, Keys.PARSED);
		Compilation c = Compilation.of(facts.get(Keys.MODULE), parsed == null ? null : parsed.text(),
				opt(facts, Keys.CONSTANTS), opt(facts, Keys.JIT_SAMPLES),
				opt(facts, Keys.RANK_LOOPS), options, superseded, opt(facts, Keys.IMPORTED_MODULES));
		facts.put(Keys.COMPILE, new CompileFindings(c.findings(), c, c.parsedOnly()));
	}
}
