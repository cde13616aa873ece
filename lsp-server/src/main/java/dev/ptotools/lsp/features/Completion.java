package dev.ptotools.lsp.features;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.eclipse.lsp4j.CompletionItem;
import org.eclipse.lsp4j.CompletionItemKind;
import org.eclipse.lsp4j.CompletionList;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;

import dev.ptotools.analyzer.catalog.Builtin;
import dev.ptotools.analyzer.catalog.Builtins;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.FunctionKinds;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.pipeline.Analysis;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.language.source.LineMap;
import dev.ptotools.lsp.AnalyzedDocument;
import dev.ptotools.lsp.Lsp;
import dev.ptotools.lsp.OpenDocument;

/**
 * Completion from the text as typed (the analysis may be a keystroke behind and the line half
 * written): pl./pld. members with their signatures, enum members, self. functions of the program,
 * and the keyword arguments of {@code @pl.function(...)} with their values.
 */
public final class Completion {

	private static final Pattern QUALIFIED = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*)\\.([A-Za-z0-9_]*)$");
	private static final Pattern DECORATOR = Pattern.compile("@\\s*([A-Za-z_][A-Za-z0-9_]*)\\.function\\s*\\((.*)$");
	private static final Pattern KEYWORD_VALUE = Pattern.compile("(type|level|role)\\s*=\\s*[A-Za-z0-9_.]*$");

	private Completion() {
	}

	public static CompletionList complete(OpenDocument.Snapshot snap, AnalyzedDocument doc, Position position) {
		String text = snap.text();
		LineMap lines = LineMap.of(text);
		int offset = Lsp.offset(lines, text, position);
		String before = text.substring(lines.lineStart(position.getLine() + 1), offset);
		Analysis a = doc == null ? null : doc.analysis();
		String pl = a != null && a.module() != null && a.module().pl() != null ? a.module().pl() : "pl";
		String pld = a != null && a.module() != null && a.module().pld() != null ? a.module().pld() : "pld";
		List<CompletionItem> items = new ArrayList<>();
		Matcher decorator = DECORATOR.matcher(before);
		if (decorator.find() && decorator.group(1).equals(pl) && !decorator.group(2).contains(")")) {
			Matcher value = KEYWORD_VALUE.matcher(decorator.group(2));
			if (value.find()) {
				String enumName = switch (value.group(1)) {
				case "type" -> "FunctionType";
				case "level" -> "Level";
				default -> "Role";
				};
				enumValues(items, pl, enumName, true);
			} else if (!before.endsWith(".")) {
				for (String kw : new String[] { "type", "level", "role", "auto_scope", "strict_ssa", "attrs",
						"external_source" }) {
					CompletionItem item = new CompletionItem(kw + "=");
					item.setKind(CompletionItemKind.Property);
					item.setInsertText(kw + "=");
					item.setDetail("@" + pl + ".function keyword");
					items.add(item);
				}
				return new CompletionList(false, items);
			}
		}
		Matcher m = QUALIFIED.matcher(before);
		if (!m.find()) {
			return new CompletionList(false, items);
		}
		String qualifier = m.group(1);
		if (qualifier.equals("self")) {
			selfFunctions(items, a, offset);
			return new CompletionList(false, items);
		}
		String normalized = CallResolution.normalize(qualifier, pl, pld);
		if (normalized == null) {
			return new CompletionList(false, items);
		}
		Builtin enumEntry = Builtins.get().lookup(normalized);
		if (enumEntry != null && enumEntry.category().equals("enum") && !enumEntry.members().isEmpty()) {
			enumValues(items, pl, normalized.substring(normalized.lastIndexOf('.') + 1), false);
			return new CompletionList(false, items);
		}
		for (String member : Builtins.get().membersOf(normalized + ".")) {
			Builtin b = Builtins.get().lookup(normalized + "." + member);
			CompletionItem item = new CompletionItem(member);
			if (b == null) {
				item.setKind(CompletionItemKind.Module);
				item.setDetail(qualifier + "." + member);
			} else {
				item.setKind(kind(b));
				item.setDetail(b.params().isEmpty() && !b.category().startsWith("control") && b.op() == null
						? b.name() : b.signature());
				if (!b.doc().isEmpty()) {
					item.setDocumentation(new MarkupContent(MarkupKind.MARKDOWN, b.doc()));
				}
			}
			items.add(item);
		}
		return new CompletionList(false, items);
	}

	private static void enumValues(List<CompletionItem> items, String pl, String enumName, boolean qualified) {
		Builtin e = Builtins.get().lookup("pl." + enumName);
		if (e == null) {
			return;
		}
		for (String member : e.members()) {
			CompletionItem item = new CompletionItem(qualified ? pl + "." + enumName + "." + member : member);
			item.setKind(CompletionItemKind.EnumMember);
			item.setDetail(pl + "." + enumName + "." + member);
			items.add(item);
		}
	}

	private static void selfFunctions(List<CompletionItem> items, Analysis a, int offset) {
		if (a == null || a.module() == null || !a.isPypto() || !a.facts().has(Keys.FUNCTIONS)) {
			return;
		}
		// While "self." is being typed the line does not parse; the program is the nearest one above.
		Program p = Locator.program(a, offset);
		if (p == null) {
			for (Program candidate : a.module().programs()) {
				if (candidate.span().start() <= offset && (p == null || candidate.span().start() > p.span().start())) {
					p = candidate;
				}
			}
		}
		if (p == null || p.style() != Program.Style.CLASS) {
			return;
		}
		FunctionKinds kinds = a.facts().get(Keys.FUNCTIONS);
		for (Function f : p.functions()) {
			CompletionItem item = new CompletionItem(f.name());
			item.setKind(CompletionItemKind.Method);
			item.setDetail(kinds.of(f).describe());
			item.setDocumentation(new MarkupContent(MarkupKind.MARKDOWN, "```python\n" + Hovers.signature(f) + "\n```"));
			items.add(item);
		}
	}

	private static CompletionItemKind kind(Builtin b) {
		switch (b.category()) {
		case "dtype":
		case "constant":
			return CompletionItemKind.Constant;
		case "enum":
			return CompletionItemKind.Enum;
		case "type":
		case "type-direction":
			return CompletionItemKind.Class;
		case "module":
			return CompletionItemKind.Module;
		case "decorator":
			return CompletionItemKind.Function;
		default:
			return CompletionItemKind.Function;
		}
	}
}
