package dev.ptotools.analyzer.rules.basic;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/** PTO407: a parameter of a @pl.function method without a type annotation. */
public final class MissingAnnotationRule implements Rule {

	@Override
	public String id() {
		return "PTO407";
	}

	@Override
	public String name() {
		return "missing-parameter-type";
	}

	@Override
	public String title() {
		return "Program function parameter without a type annotation";
	}

	@Override
	public String description() {
		return "pypto builds each function's signature from its annotations (pl.Tensor[[shape], dtype],"
				+ " pl.Scalar[dtype]...). A parameter without one is rejected when the program is parsed.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE);
	}

	@Override
	public void check(RuleContext ctx) {
		for (Program p : ctx.get(Keys.MODULE).programs()) {
			if (p.style() != Program.Style.CLASS) {
				continue;
			}
			for (Function f : p.functions()) {
				for (Param param : f.params()) {
					if (param.type() == null) {
						ctx.report(param.nameSpan(), "Parameter '" + param.name() + "' missing type annotation (add one"
								+ " like: " + param.name() + ": pl.Tensor[[64], pl.FP32])");
					}
				}
			}
		}
	}
}
