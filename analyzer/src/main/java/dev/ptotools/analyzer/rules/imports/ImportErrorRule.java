package dev.ptotools.analyzer.rules.imports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.project.ImportKinds;
import dev.ptotools.analyzer.project.ImportedModules;
import dev.ptotools.analyzer.rules.Rule;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO411: an import of the project's modules that Python cannot run — a relative module that does not
 * exist, a module with a syntax error, a name its module never binds. Running the module raises there,
 * before pypto sees any program, so that is the one finding: what the names of that import would have
 * given (an unknown shape, a specialization not built) is said once, here, with those places as related
 * locations ({@link #absorbCascades}), not once per use.
 *
 * <p>Needs: the module and its imports of the project ({@link Keys#IMPORTED_MODULES}); only a module-level
 * import is checked. Modules outside the project are never an error (they may be installed).
 */
public final class ImportErrorRule implements Rule {

	public static final String ID = "PTO411";

	@Override
	public String id() {
		return ID;
	}

	@Override
	public String name() {
		return "import-error";
	}

	@Override
	public String title() {
		return "Import of the project's modules that Python cannot run";
	}

	@Override
	public String description() {
		return "Running the module raises ModuleNotFoundError, ImportError or SyntaxError at this import: pypto never"
				+ " compiles its programs. What the import's names would have given is reported here once, with the"
				+ " places that use them.";
	}

	@Override
	public Severity defaultSeverity() {
		return Severity.ERROR;
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.IMPORTED_MODULES);
	}

	@Override
	public void check(RuleContext ctx) {
		if (!ctx.file().hasSyntaxTree()) {
			return;
		}
		ImportedModules imported = ctx.get(Keys.IMPORTED_MODULES);
		// one statement, one finding about its module; its names each
		Map<Span, String> moduleErrors = new LinkedHashMap<>();
		for (Program.Binding b : ModuleLowering.topLevelBindings(ctx.file())) {
			if (!(b.value() instanceof Expr.Opaque o) || !o.kind().startsWith("import")) {
				continue;
			}
			String kind = o.kind();
			String module;
			String name = null;
			if (kind.startsWith(ImportKinds.FROM)) {
				String path = kind.substring(ImportKinds.FROM.length());
				module = ImportKinds.module(path);
				name = ImportKinds.name(path);
			} else {
				module = kind.substring(kind.indexOf(':') + 1);
			}
			String moduleError = imported.importError(module, null);
			if (moduleError != null) {
				moduleErrors.putIfAbsent(b.span(), moduleError);
				continue;
			}
			if (name != null) {
				String nameError = imported.importError(module, name);
				if (nameError != null) {
					ctx.report(nameIn(ctx.text(), name, b.span()), nameError + ": running the module stops at this import,"
							+ " before pypto sees any of its programs");
				}
			}
		}
		moduleErrors.forEach((at, error) -> ctx.report(at, error + ": running the module stops at this import, before"
				+ " pypto sees any of its programs"));
	}

	/** The imported name inside its statement (the one imported, not an alias), else the statement. */
	private static Span nameIn(String text, String name, Span statement) {
		Matcher m = Pattern.compile("(?<![\\w.])" + Pattern.quote(name) + "(?![\\w])", Pattern.UNICODE_CHARACTER_CLASS)
				.matcher(text).region(Math.min(statement.start(), text.length()), Math.min(statement.end(), text.length()));
		int at = -1;
		while (m.find()) {
			at = m.start(); // after "import": the last one is the imported name (or its alias when the same)
			if (text.startsWith(" as", m.end())) {
				break;
			}
		}
		return at < 0 ? statement : new Span(at, at + name.length());
	}

	/**
	 * The findings of other rules that only say what an import which fails left unknown (they name one of
	 * its names and that it is imported) become related locations of that import's finding: one finding
	 * per cause. {@code bindings} are the module's top-level bindings (from its programs, so this works on
	 * an analysis without its syntax tree).
	 */
	public static List<Diagnostic> absorbCascades(List<Diagnostic> found, List<Program.Binding> bindings) {
		List<Diagnostic> errors = found.stream().filter(d -> d.rule().equals(ID)).toList();
		if (errors.isEmpty()) {
			return found;
		}
		Map<Diagnostic, List<String>> namesOf = new LinkedHashMap<>();
		for (Diagnostic e : errors) {
			List<String> names = new ArrayList<>();
			for (Program.Binding b : bindings) {
				if (b.value() instanceof Expr.Opaque o && o.kind().startsWith("import") && e.span().start() >= b.span().start()
						&& e.span().end() <= b.span().end()) {
					names.add(b.name());
				}
			}
			namesOf.put(e, names);
		}
		Map<Diagnostic, List<Diagnostic.Related>> related = new LinkedHashMap<>();
		List<Diagnostic> out = new ArrayList<>();
		for (Diagnostic d : found) {
			Diagnostic cause = d.rule().equals(ID) || d.rule().equals("PTO000") ? null : causeOf(d, namesOf);
			if (cause == null) {
				out.add(d);
			} else {
				related.computeIfAbsent(cause, k -> new ArrayList<>()).add(new Diagnostic.Related(d.span(),
						"needs this import (" + d.rule() + ": " + brief(d.message()) + ")"));
			}
		}
		for (int i = 0; i < out.size(); i++) {
			Diagnostic d = out.get(i);
			List<Diagnostic.Related> more = related.get(d);
			if (more != null) {
				List<Diagnostic.Related> all = new ArrayList<>(d.related());
				all.addAll(more);
				out.set(i, new Diagnostic(d.rule(), d.severity(), d.message(), d.span(), List.copyOf(all), d.fixes()));
			}
		}
		return out;
	}

	/** A finding's message to its first clause, for a note. */
	private static String brief(String message) {
		String m = message.replaceFirst("^\\[[^\\]]*\\] ", "");
		int cut = m.length();
		for (String stop : List.of("; ", ". ", " (")) {
			int i = m.indexOf(stop);
			if (i > 0 && i < cut) {
				cut = i;
			}
		}
		return cut > 100 ? m.substring(0, 99) + "…" : m.substring(0, cut);
	}

	private static Diagnostic causeOf(Diagnostic d, Map<Diagnostic, List<String>> namesOf) {
		if (!d.message().contains("import")) {
			return null;
		}
		for (Map.Entry<Diagnostic, List<String>> e : namesOf.entrySet()) {
			for (String n : e.getValue()) {
				if (d.message().contains("'" + n + "'")) {
					return e.getKey();
				}
			}
		}
		return null;
	}
}
