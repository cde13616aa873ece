package dev.ptotools.analyzer.rules.jit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.JitSamples;
import dev.ptotools.analyzer.facts.jit.JitParams;
import dev.ptotools.analyzer.facts.jit.TensorMeta;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.lower.ExprLowering;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO410: a {@code @pl.jit} entry parameter whose shape (or scalar value) the analyzer cannot find from the
 * module's sample calls or its annotation, so the compiler cannot specialize the entry for that call. The
 * quick-fix writes the {@code pl.Tensor[[...], pl.DT]} annotation a resolved sample call gives it.
 */
public final class JitShapeUnknownRule implements Rule {

	@Override
	public String id() {
		return "PTO410";
	}

	@Override
	public String name() {
		return "jit-shape-unknown";
	}

	@Override
	public String title() {
		return "@pl.jit parameter whose shape is not known statically";
	}

	@Override
	public String description() {
		return "pypto specializes a @pl.jit entry to the shapes of the tensors it is called with. When neither a"
				+ " sample call in the module nor the parameter's annotation gives the shape statically, pto compile"
				+ " cannot build that specialization.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.WARNING;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.JIT_SAMPLES);
	}

	@Override
	public void check(RuleContext ctx) {
		for (JitSamples.Entry entry : ctx.get(Keys.JIT_SAMPLES).entries()) {
			Map<String, List<JitSamples.Problem>> byParam = new LinkedHashMap<>();
			for (JitSamples.Problem p : entry.problems()) {
				if (p.param() == null || entry.function().param(p.param()) == null) {
					ctx.report(p.call() != null ? p.call() : entry.function().nameSpan(),
							p.reason() + "; pto compile cannot specialize '" + entry.function().name() + "' for this call");
					continue;
				}
				byParam.computeIfAbsent(p.param(), k -> new ArrayList<>()).add(p);
			}
			for (Map.Entry<String, List<JitSamples.Problem>> e : byParam.entrySet()) {
				report(ctx, entry, entry.function().param(e.getKey()), e.getValue());
			}
		}
	}

	private void report(RuleContext ctx, JitSamples.Entry entry, Param param, List<JitSamples.Problem> problems) {
		JitParams.ParamClass c = JitParams.of(entry.function(), param.name());
		boolean tensor = c == null || c.kind() != JitParams.Kind.SCALAR;
		JitSamples.Problem first = problems.get(0);
		StringBuilder msg = new StringBuilder();
		msg.append(tensor ? "The shape of '" : "The value of '").append(param.name()).append("' of @pl.jit function '")
				.append(entry.function().name()).append("' is not known statically");
		if (first.call() != null) {
			msg.append(" in the call at line ").append(ctx.file().lines().line(first.call().start()));
		}
		msg.append(" (").append(first.reason()).append(')');
		if (problems.size() > 1) {
			msg.append(" and in ").append(problems.size() - 1).append(" more call").append(problems.size() > 2 ? "s" : "");
		}
		msg.append(entry.known() ? "; pto compile skips that specialization." : "; pto compile cannot specialize it.");
		TensorMeta sample = tensor ? resolvedSample(entry, param.name()) : null;
		if (tensor) {
			msg.append(" Annotate '").append(param.name()).append("' with its full type (")
					.append(sample != null ? sample.annotation(head(param)) : "pl.Tensor[[...], pl.<DTYPE>]")
					.append("), which the compiler uses when a sample is not known, or give the call sample tensors of"
							+ " constant shape.");
		} else {
			msg.append(" Pass it a constant value, or pl.RUNTIME to compile() / lower() without tensors.");
		}
		List<Fix> fixes = List.of();
		if (sample != null) {
			fixes = List.of(new Fix("Annotate '" + param.name() + "' as " + sample.annotation(head(param)),
					List.of(annotationEdit(param, sample)), true));
		}
		ctx.report(param.nameSpan(), msg.toString(), List.of(), fixes);
	}

	/** The one static meta the resolved specializations agree on for a parameter, or null. */
	private static TensorMeta resolvedSample(JitSamples.Entry entry, String param) {
		TensorMeta found = null;
		for (JitSamples.Specialization s : entry.specializations()) {
			if (!(s.args().get(param) instanceof JitSamples.TensorArg t) || t.fromAnnotation()) {
				continue;
			}
			for (Object d : t.meta().shape()) {
				if (!(d instanceof Long)) {
					return null;
				}
			}
			if (found != null && !found.equals(t.meta())) {
				return null;
			}
			found = t.meta();
		}
		return found;
	}

	/** The tensor type the annotation names ({@code pl.Tensor}, {@code pld.DistributedTensor}). */
	private static String head(Param p) {
		Expr ann = p.annotation();
		Expr head = ann instanceof Expr.Subscript s ? s.value() : ann;
		String dotted = head == null ? null : ExprLowering.dotted(head);
		return dotted != null && (dotted.endsWith("Tensor")) ? dotted : "pl.Tensor";
	}

	/** Replaces the annotation inside any pl.Out[...] / pl.InOut[...] wrapper, or adds one. */
	private static Fix.Edit annotationEdit(Param p, TensorMeta meta) {
		String text = meta.annotation(head(p));
		if (p.annotation() == null) {
			Span at = new Span(p.nameSpan().end(), p.nameSpan().end());
			return new Fix.Edit(at, ": " + text);
		}
		return new Fix.Edit(p.annotation().span(), text);
	}
}
