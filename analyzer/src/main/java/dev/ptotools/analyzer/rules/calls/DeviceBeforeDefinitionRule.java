package dev.ptotools.analyzer.rules.calls;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.fixes.SourceEdits;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO406: a dispatch with device= to a method defined later in the class. pypto parses the methods of
 * a program in order, so when it reaches the caller the callee is unknown and device= is rejected.
 * Fix: move the callee's definition above the caller.
 */
public final class DeviceBeforeDefinitionRule extends CallRule {

	@Override
	public String id() {
		return "PTO406";
	}

	@Override
	public String name() {
		return "dispatch-before-definition";
	}

	@Override
	public String title() {
		return "device= dispatch to a function defined later in the class";
	}

	@Override
	public String description() {
		return "pypto parses a program's methods in source order. When a method dispatches with device= to a"
				+ " method defined further down, the callee is not known yet, its role cannot be checked, and"
				+ " pypto rejects the keyword; callees must come first.";
	}

	@Override
	void checkCall(RuleContext ctx, CallResolution calls, Program p, Function caller, Expr.Call call) {
		Function callee = calls.target(call);
		Expr.Keyword device = call.keyword("device");
		if (callee == null || device == null || p.style() != Program.Style.CLASS || callee.index() <= caller.index()) {
			return;
		}
		String text = ctx.text();
		List<Fix> fixes = List.of();
		Span calleeLines = SourceEdits.wholeLines(text, new Span(callee.headerSpan().start(), callee.span().end()));
		// Take one blank line before the callee with it, so no blank line is left doubled.
		int before = calleeLines.start();
		int prevLine = SourceEdits.lineStart(text, Math.max(0, before - 1));
		if (before > 0 && text.substring(prevLine, before).isBlank()) {
			calleeLines = new Span(prevLine, calleeLines.end());
		}
		int callerLine = SourceEdits.lineStart(text, caller.headerSpan().start());
		if (SourceEdits.ownsLines(text, new Span(callee.headerSpan().start(), callee.span().end()))) {
			Span own = SourceEdits.wholeLines(text, new Span(callee.headerSpan().start(), callee.span().end()));
			String block = text.substring(own.start(), own.end());
			if (!block.endsWith("\n") && !block.endsWith("\r")) {
				block += SourceEdits.newline(text);
			}
			block += SourceEdits.newline(text);
			fixes = List.of(new Fix("Move '" + callee.name() + "' above '" + caller.name() + "'",
					List.of(new Fix.Edit(new Span(callerLine, callerLine), block), new Fix.Edit(calleeLines, "")), true));
		}
		ctx.report(device.nameSpan(), "'" + callee.name() + "' is defined after '" + caller.name()
				+ "': pypto rejects device= on a dispatch to a function it has not parsed yet (Function '" + callee.name()
				+ "' does not accept keyword argument 'device'); define it before its caller",
				List.of(new Diagnostic.Related(callee.nameSpan(), "defined here")), fixes);
	}
}
