package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PrepareRenameDefaultBehavior;
import org.eclipse.lsp4j.PrepareRenameResult;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.messages.Either3;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;
import dev.ptotools.lsp.Lsp;

/** Go to definition, find references and rename, for program functions and module constants. */
public final class Navigation {

	private Navigation() {
	}

	/**
	 * What is under the cursor: a program function (at its def or a call), a module constant, or a parameter
	 * of the function the cursor is in ({@code paramOf}; {@code constant} then names the parameter).
	 */
	private record Target(Program program, Function function, String constant, Span definition, Function paramOf) {

		Target(Program program, Function function, String constant, Span definition) {
			this(program, function, constant, definition, null);
		}
	}

	private static Target target(Analysis a, int offset) {
		CallResolution calls = a.facts().get(Keys.CALLS);
		for (Program p : a.module().programs()) {
			for (Function f : p.functions()) {
				if (f.nameSpan().contains(offset)) {
					return new Target(p, f, null, f.nameSpan());
				}
				for (dev.ptotools.analyzer.ir.Param param : f.params()) {
					if (param.nameSpan() != null && param.nameSpan().contains(offset)) {
						return new Target(p, null, param.name(), param.nameSpan(), f);
					}
				}
			}
		}
		Expr.Call call = Locator.callAt(a, offset);
		if (call != null && calls.target(call) != null && nameSpanOf(call).contains(offset)) {
			Function f = calls.target(call);
			return new Target(calls.programOf(f), f, null, f.nameSpan());
		}
		Expr.Name name = Locator.nameAt(a, offset);
		Program p = Locator.program(a, offset);
		if (name != null && p != null) {
			Function f = Locator.function(a, offset);
			if (f != null && f.param(name.id()) != null) {
				return new Target(p, null, name.id(), f.param(name.id()).nameSpan(), f);
			}
			Program.Binding binding = null;
			for (Program.Binding b : p.bindings()) {
				if (b.name().equals(name.id()) && b.span().start() < p.span().start()) {
					binding = b;
				}
			}
			if (binding != null) {
				int eq = binding.span().start();
				return new Target(p, null, name.id(), new Span(eq, eq + name.id().length()));
			}
		}
		return null;
	}

	/** The span of the function name in a call: the attr of self.f, or the bare name. */
	private static Span nameSpanOf(Expr.Call call) {
		if (call.func() instanceof Expr.Attribute a) {
			return a.attrSpan();
		}
		return call.func().span();
	}

	public static List<Location> definition(AnalyzedDocument doc, Position position) {
		Analysis a = doc.analysis();
		int offset = Lsp.offset(a.file().lines(), doc.text(), position);
		// a name imported from another module of the project: where that module defines it, not the import
		dev.ptotools.analyzer.project.ImportedModules.Definition d = ImportedNames.at(a, doc.text(), offset);
		if (d != null) {
			return List.of(ImportedNames.location(d));
		}
		Target t = target(a, offset);
		if (t == null) {
			return List.of();
		}
		return List.of(new Location(doc.snapshot().uri(), Lsp.range(a.file().lines(), t.definition())));
	}

	public static List<Location> references(AnalyzedDocument doc, Position position, boolean withDeclaration) {
		Analysis a = doc.analysis();
		Target t = target(a, Lsp.offset(a.file().lines(), doc.text(), position));
		if (t == null) {
			return List.of();
		}
		List<Location> out = new ArrayList<>();
		for (Span s : occurrences(a, t, withDeclaration)) {
			out.add(new Location(doc.snapshot().uri(), Lsp.range(a.file().lines(), s)));
		}
		return out;
	}

	private static List<Span> occurrences(Analysis a, Target t, boolean withDeclaration) {
		List<Span> out = new ArrayList<>();
		if (withDeclaration) {
			out.add(t.definition());
		}
		CallResolution calls = a.facts().get(Keys.CALLS);
		for (Function f : t.program().functions()) {
			if (t.paramOf() != null && f != t.paramOf()) {
				continue; // a parameter is read in its own function only
			}
			if (t.paramOf() != null) {
				Walk.statements(f.body(), s -> {
					for (Expr e : Walk.ownExpressions(s)) {
						Walk.expressions(e, x -> {
							if (x instanceof Expr.Name n && n.id().equals(t.constant())) {
								out.add(n.span());
							}
						});
					}
				});
			} else if (t.function() != null) {
				for (Expr.Call c : Walk.allCalls(f.body())) {
					if (calls.target(c) == t.function()) {
						out.add(nameSpanOf(c));
					}
				}
			} else if (f.param(t.constant()) == null) {
				Walk.statements(f.body(), s -> {
					for (Expr e : Walk.ownExpressions(s)) {
						Walk.expressions(e, x -> {
							if (x instanceof Expr.Name n && n.id().equals(t.constant())) {
								out.add(n.span());
							}
						});
					}
				});
			}
		}
		out.sort((x, y) -> Integer.compare(x.start(), y.start()));
		return out;
	}

	public static Either3<Range, PrepareRenameResult, PrepareRenameDefaultBehavior> prepareRename(AnalyzedDocument doc,
			Position position) {
		Analysis a = doc.analysis();
		int offset = Lsp.offset(a.file().lines(), doc.text(), position);
		Target t = target(a, offset);
		if (t == null || t.function() == null) {
			return null; // only program functions are renamed
		}
		for (Span s : occurrences(a, t, true)) {
			if (s.contains(offset)) {
				return Either3.forSecond(new PrepareRenameResult(Lsp.range(a.file().lines(), s), t.function().name()));
			}
		}
		return null;
	}

	public static WorkspaceEdit rename(AnalyzedDocument doc, Position position, String newName) {
		Analysis a = doc.analysis();
		Target t = target(a, Lsp.offset(a.file().lines(), doc.text(), position));
		if (t == null || t.function() == null) {
			return null;
		}
		if (newName == null || !newName.matches("[A-Za-z_][A-Za-z0-9_]*")) {
			throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidParams,
					"'" + newName + "' is not a Python identifier", null));
		}
		if (t.program().function(newName) != null) {
			throw new ResponseErrorException(new ResponseError(ResponseErrorCode.InvalidParams,
					"program " + t.program().name() + " already has a function '" + newName + "'", null));
		}
		LineMap lines = a.file().lines();
		List<TextEdit> edits = new ArrayList<>();
		for (Span s : occurrences(a, t, true)) {
			edits.add(new TextEdit(Lsp.range(lines, s), newName));
		}
		return new WorkspaceEdit(Map.of(doc.snapshot().uri(), edits));
	}
}
