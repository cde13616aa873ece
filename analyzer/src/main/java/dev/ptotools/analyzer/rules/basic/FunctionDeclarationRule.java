package dev.ptotools.analyzer.rules.basic;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.facts.FunctionInfo;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO405: a @pl.function declaration pypto rejects: an unknown type/level/role value, or a level or
 * role that contradicts what the function type implies (type=Orchestration with level=HOST).
 */
public final class FunctionDeclarationRule implements Rule {

	@Override
	public String id() {
		return "PTO405";
	}

	@Override
	public String name() {
		return "invalid-function-declaration";
	}

	@Override
	public String title() {
		return "Invalid or contradictory @pl.function type, level or role";
	}

	@Override
	public String description() {
		return "A function type fixes the level and role (Orchestration is CHIP/Orchestrator, InCore is"
				+ " CHIP_DIE/SubWorker, AIV is AIV/SubWorker...). pypto rejects an explicit level or role that"
				+ " differs, and values that are not members of pl.FunctionType, pl.Level or pl.Role.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.FUNCTIONS);
	}

	@Override
	public void check(RuleContext ctx) {
		FunctionKinds kinds = ctx.get(Keys.FUNCTIONS);
		for (Program p : ctx.get(Keys.MODULE).programs()) {
			for (Function f : p.functions()) {
				Span where = f.decl().decoratorSpan() != null ? f.decl().decoratorSpan() : f.nameSpan();
				for (String problem : f.decl().problems()) {
					ctx.report(where, problem + " in the decorator of '" + f.name() + "'");
				}
				FunctionInfo info = kinds.of(f);
				for (String contradiction : info.contradictions()) {
					Span at = f.decl().levelSpan() != null && contradiction.contains("level=") ? f.decl().levelSpan()
							: f.decl().roleSpan() != null ? f.decl().roleSpan() : where;
					ctx.report(at, contradiction);
				}
			}
		}
	}
}
