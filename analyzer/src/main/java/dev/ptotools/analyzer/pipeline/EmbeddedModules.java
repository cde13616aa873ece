package dev.ptotools.analyzer.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.emf.common.util.TreeIterator;
import org.eclipse.emf.ecore.EObject;

import dev.ptotools.analyzer.config.AnalyzerConfig;
import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.diagnostics.Severity;
import dev.ptotools.analyzer.fixes.Suppressions;
import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.PythonFrontEnd;
import dev.ptotools.language.Spans;
import dev.ptotools.language.python.Assign;
import dev.ptotools.language.python.Attribute;
import dev.ptotools.language.python.Call;
import dev.ptotools.language.python.ClassDef;
import dev.ptotools.language.python.Expression;
import dev.ptotools.language.python.FunctionDef;
import dev.ptotools.language.python.KeywordArg;
import dev.ptotools.language.python.Name;
import dev.ptotools.language.python.Paren;
import dev.ptotools.language.python.Str;
import dev.ptotools.language.python.TryStmt;
import dev.ptotools.language.python.WithItem;
import dev.ptotools.language.python.WithStmt;

/**
 * DSL text handed to {@code pl.parse} or {@code pl.parse_program} as a string literal (written in the
 * call, through {@code textwrap.dedent}, or through a name the same scope assigns such a literal once)
 * is a module of its own: pypto compiles it as is and runs it with {@code pl} and {@code pld} already
 * bound (language/parser/text_parser.py, parse). Each one is analyzed like a file, and its findings are
 * mapped back into the string, as editors do for injected languages. {@code pl.loads} and
 * {@code pl.loads_program} take a file path, not text: the file they load is checked on its own.
 */
public final class EmbeddedModules {

	/** The names text given to pl.parse sees before its own imports. */
	static final Imports PRELUDE = new Imports(
			Map.of("pl", "pypto.language", "pld", "pypto.language.distributed"));

	/**
	 * One embedded module: the literal it was written as, its analysis, where its text came from, and,
	 * when the host expects pl.parse to fail on it (the call sits in {@code with pytest.raises(...)} or in
	 * the body of a {@code try} that handles exceptions), what says so; else null.
	 */
	public record Embedded(Span literal, Analysis analysis, LiteralText source, String expectedToFail) {

		/** The host span a span of the embedded text was written at. */
		public Span toHost(Span s) {
			int[] r = source.sourceRange(s.start(), s.end());
			return new Span(r[0], r[1]);
		}

		Embedded withoutSyntaxTree() {
			return new Embedded(literal, analysis.withoutSyntaxTree(), source, expectedToFail);
		}
	}

	private final List<Embedded> modules;

	EmbeddedModules(List<Embedded> modules) {
		this.modules = List.copyOf(modules);
	}

	public List<Embedded> modules() {
		return modules;
	}

	EmbeddedModules withoutSyntaxTree() {
		return new EmbeddedModules(modules.stream().map(Embedded::withoutSyntaxTree).toList());
	}

	/** Finds and analyzes the embedded modules of a host file (none when it has no syntax tree). */
	static EmbeddedModules of(ParsedFile host, ModuleIR module, AnalyzerConfig config, Analyzer analyzer) {
		List<Embedded> out = new ArrayList<>();
		if (!host.hasSyntaxTree() || !host.text().contains("parse")) {
			return new EmbeddedModules(out);
		}
		for (TreeIterator<EObject> it = host.ast().eAllContents(); it.hasNext();) {
			if (!(it.next() instanceof Call call)) {
				continue;
			}
			String callee = module.imports().normalize(dotted(call.getFunc()));
			if (!"pl.parse".equals(callee) && !"pl.parse_program".equals(callee)) {
				continue;
			}
			Expression code = codeArgument(call);
			LiteralText text = code == null ? null : literal(host, code, 0);
			Spans.Span at = host.span(call);
			if (text != null && at != null) {
				ParsedFile parsed = PythonFrontEnd.get().parse(text.text());
				out.add(new Embedded(new Span(at.offset(), at.end()), analyzer.analyze(parsed, config, PRELUDE), text,
						expectedToFail(call)));
			}
		}
		return new EmbeddedModules(out);
	}

	/**
	 * Every finding of every embedded module, placed in the host. Fixes whose edits cannot be written
	 * into the literal as they are (across an escape or a dedented margin, or inserting line breaks,
	 * backslashes or quotes) are dropped; the suppression fixes are the host's to add.
	 */
	List<Diagnostic> hostDiagnostics(String hostText) {
		List<Diagnostic> out = new ArrayList<>();
		for (Embedded e : modules) {
			String text = e.analysis().file().text();
			for (Diagnostic d : e.analysis().diagnostics()) {
				List<Fix> own = new ArrayList<>(d.fixes());
				own.removeAll(Suppressions.fixesFor(d, text));
				List<Fix> fixes = new ArrayList<>();
				for (Fix f : own) {
					Fix mapped = mapFix(e, f, hostText);
					if (mapped != null) {
						fixes.add(mapped);
					}
				}
				List<Diagnostic.Related> related = d.related().stream()
						.map(r -> new Diagnostic.Related(e.toHost(r.span()), r.message())).toList();
				// A deliberate bad example (the host expects pl.parse to raise): what pypto would raise is shown,
				// as information, not as an error of the file.
				boolean expected = e.expectedToFail() != null && d.severity() == Severity.ERROR;
				out.add(new Diagnostic(d.rule(), expected ? Severity.INFO : d.severity(),
						expected ? d.message() + " (expected: pl.parse is called " + e.expectedToFail() + ")" : d.message(),
						e.toHost(d.span()), related, List.copyOf(fixes)));
			}
		}
		return out;
	}

	private static Fix mapFix(Embedded e, Fix f, String hostText) {
		List<Fix.Edit> edits = new ArrayList<>();
		for (Fix.Edit edit : f.edits()) {
			String r = edit.replacement();
			if (r.indexOf('\n') >= 0 || r.indexOf('\r') >= 0 || r.indexOf('\\') >= 0 || r.indexOf('"') >= 0
					|| r.indexOf('\'') >= 0 || !e.source().verbatim(hostText, edit.span().start(), edit.span().end())) {
				return null;
			}
			edits.add(new Fix.Edit(e.toHost(edit.span()), r));
		}
		return new Fix(f.title(), List.copyOf(edits), f.preferred());
	}

	/**
	 * Whether the host expects a pl.parse call to raise: where it sits in the body of
	 * {@code with pytest.raises(...)} (any {@code raises} / {@code assertRaises...} context) or of a
	 * {@code try} with an except clause, in the same function; the words saying so, else null.
	 */
	private static String expectedToFail(Call call) {
		EObject child = call;
		for (EObject p = call.eContainer(); p != null && !(child instanceof FunctionDef) && !(child instanceof ClassDef);
				child = p, p = p.eContainer()) {
			if (p instanceof TryStmt t && child == t.getBody() && !t.getHandlers().isEmpty()) {
				return "in a try that handles its exception";
			}
			if (p instanceof WithStmt w && child == w.getBody()) {
				for (WithItem item : w.getItems()) {
					if (item.getContext() instanceof Call c) {
						String name = dotted(c.getFunc());
						String last = name == null ? "" : name.substring(name.lastIndexOf('.') + 1);
						if (last.equals("raises") || last.startsWith("assertRaises")) {
							return "inside " + name + "(...)";
						}
					}
				}
			}
		}
		return null;
	}

	/** The code argument of pl.parse: its first positional argument or code=. */
	private static Expression codeArgument(Call call) {
		if (call.getArguments() == null) {
			return null;
		}
		for (Expression a : call.getArguments().getArgs()) {
			if (a instanceof KeywordArg k) {
				if ("code".equals(k.getArg())) {
					return k.getValue();
				}
			} else {
				return a;
			}
		}
		return null;
	}

	/** The text a code argument holds when it is a literal, textwrap.dedent of one, or a name assigned one. */
	private static LiteralText literal(ParsedFile host, Expression e, int depth) {
		if (e instanceof Paren p) {
			return literal(host, p.getValue(), depth);
		}
		if (e instanceof Str s) {
			Spans.Span at = host.span(s);
			if (at == null) {
				return null;
			}
			int[] offsets = new int[s.getParts().size()];
			int cursor = at.offset();
			for (int k = 0; k < offsets.length; k++) {
				offsets[k] = host.text().indexOf(s.getParts().get(k), cursor);
				if (offsets[k] < 0) {
					return null;
				}
				cursor = offsets[k] + s.getParts().get(k).length();
			}
			return LiteralText.decode(s.getParts(), offsets);
		}
		if (e instanceof Call c && c.getArguments() != null && c.getArguments().getArgs().size() == 1
				&& ("textwrap.dedent".equals(dotted(c.getFunc())) || "dedent".equals(dotted(c.getFunc())))) {
			LiteralText inner = literal(host, c.getArguments().getArgs().get(0), depth);
			return inner == null ? null : inner.dedent();
		}
		if (e instanceof Name n && depth == 0) {
			Expression value = onlyAssignment(n);
			return value == null ? null : literal(host, value, depth + 1);
		}
		return null;
	}

	/** The value of the one assignment {@code name = value} in the function (or module) around a name, else null. */
	private static Expression onlyAssignment(Name use) {
		EObject scope = use.eContainer();
		while (scope != null && !(scope instanceof FunctionDef) && scope.eContainer() != null) {
			scope = scope.eContainer();
		}
		if (scope == null) {
			return null;
		}
		Expression found = null;
		int count = 0;
		for (TreeIterator<EObject> it = scope.eAllContents(); it.hasNext();) {
			EObject o = it.next();
			if (o instanceof FunctionDef || o instanceof ClassDef) {
				it.prune(); // another scope
			} else if (o instanceof Assign a && a.getTargets().size() == 2 && a.getTargets().get(0) instanceof Name t
					&& use.getId() != null && use.getId().equals(t.getId())) {
				found = a.getTargets().get(1);
				count++;
			}
		}
		return count == 1 ? found : null;
	}

	private static String dotted(Expression e) {
		if (e instanceof Name n) {
			return n.getId();
		}
		if (e instanceof Attribute a) {
			String base = dotted(a.getValue());
			return base == null ? null : base + "." + a.getAttr();
		}
		return null;
	}
}
