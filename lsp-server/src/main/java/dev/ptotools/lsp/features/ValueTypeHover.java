package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.compile.Compilation;
import dev.ptotools.codegen.compile.ValueTypes.ValueType;

/**
 * Hover on a name a DSL function binds or reads: the type pypto's front end gives it (shape, dtype,
 * memory space, layout, as pypto prints types), from the compile the editor already ran. A read shows
 * the binding that reaches it (the last one before it in the function, else the first), a binding
 * itself; a {@code @pl.jit} function shows one line per specialization where they differ.
 */
final class ValueTypeHover {

	private ValueTypeHover() {
	}

	static String at(Analysis a, int offset) {
		if (!a.facts().has(Keys.COMPILE) || !(a.facts().get(Keys.COMPILE).output() instanceof Compilation c)
				|| c.types().isEmpty()) {
			return null;
		}
		Function f = Locator.function(a, offset);
		if (f == null) {
			return null;
		}
		String name = nameAt(a, f, offset);
		if (name == null) {
			return null;
		}
		Map<String, ValueType> byProgram = new LinkedHashMap<>();
		for (ValueType t : c.types()) {
			if (!t.name().equals(name) || !f.span().contains(t.at().start())) {
				continue;
			}
			ValueType held = byProgram.get(t.program());
			boolean reaches = t.at().start() <= offset;
			if (held == null || reaches && held.at().start() < t.at().start()) {
				byProgram.put(t.program(), t);
			}
		}
		if (byProgram.isEmpty()) {
			return null;
		}
		List<String> distinct = byProgram.values().stream().map(ValueType::type).distinct().toList();
		StringBuilder b = new StringBuilder("```python\n");
		if (distinct.size() == 1) {
			b.append(name).append(": ").append(distinct.get(0)).append("\n```\n");
			b.append(byProgram.size() == 1 ? "in `" + byProgram.keySet().iterator().next() + "`"
					: "in all " + byProgram.size() + " specializations");
		} else {
			List<String> lines = new ArrayList<>();
			byProgram.forEach((program, t) -> lines.add(name + ": " + t.type() + "  # " + program));
			b.append(String.join("\n", lines)).append("\n```\n").append(byProgram.size()).append(" specializations");
		}
		return b.append(", as pypto's front end types it").toString();
	}

	/** The name under the cursor: a read, an assignment target or a parameter of the function. */
	private static String nameAt(Analysis a, Function f, int offset) {
		Expr.Name n = Locator.nameAt(a, offset);
		if (n != null) {
			return n.id();
		}
		for (Param p : f.params()) {
			if (p.nameSpan() != null && p.nameSpan().contains(offset)) {
				return p.name();
			}
		}
		return null;
	}
}
