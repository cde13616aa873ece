package dev.ptotools.analyzer.lower;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.ptotools.analyzer.config.RuleSelectors;
import dev.ptotools.analyzer.ir.Decl;
import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Imports;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.project.ImportKinds;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.python.Assign;
import dev.ptotools.language.python.ClassDef;
import dev.ptotools.language.python.Decorator;
import dev.ptotools.language.python.ElifClause;
import dev.ptotools.language.python.ExceptHandler;
import dev.ptotools.language.python.FormalParameter;
import dev.ptotools.language.python.ForStmt;
import dev.ptotools.language.python.FunctionDef;
import dev.ptotools.language.python.IfStmt;
import dev.ptotools.language.python.Name;
import dev.ptotools.language.python.Param;
import dev.ptotools.language.python.Statement;
import dev.ptotools.language.python.Suite;
import dev.ptotools.language.python.TryStmt;
import dev.ptotools.language.python.WhileStmt;
import dev.ptotools.language.python.WithStmt;

/**
 * Lowers a parsed file to its PyPTO IR: finds the imports of pypto.language, every
 * {@code @pl.program} class at any depth (inside test functions and methods too), the
 * {@code @pl.jit} functions of each scope, their decorators, parameters and bodies, and the names
 * each program can see. Python that is not DSL stays out of the IR.
 */
public final class ModuleLowering {

	private static final Pattern SUPPRESSION = Pattern
			.compile("#\\s*pto:\\s*ignore(-file)?(?:\\[([^\\]\\r\\n]*)\\])?");

	private final ParsedFile file;
	private final ExprLowering exprs;
	private final StmtLowering statements;
	private String pl;
	private String pld;
	private boolean importsPypto;
	private Imports imports;
	private final List<Program> programs = new ArrayList<>();

	private ModuleLowering(ParsedFile file) {
		this.file = file;
		this.exprs = new ExprLowering(file.spans());
		this.statements = new StmtLowering(file.text(), exprs);
	}

	public static ModuleIR of(ParsedFile file) {
		return of(file, java.util.Map.of());
	}

	/**
	 * Lowers a file whose namespace already binds some names before its own imports run (DSL text given
	 * to pl.parse runs with {@code pl} and {@code pld} bound); such a file counts as importing pypto.
	 */
	public static ModuleIR of(ParsedFile file, java.util.Map<String, String> predefined) {
		ModuleLowering m = new ModuleLowering(file);
		ImportScan scan = ImportScan.of(file.ast().getBody(), predefined);
		m.importsPypto = scan.importsPypto();
		m.pl = scan.pl();
		m.pld = scan.pld();
		m.imports = scan.imports();
		if (m.importsPypto) {
			if (m.pl == null) {
				m.pl = "pl";
			}
			if (m.pld == null) {
				m.pld = "pld";
			}
			m.scanScope(file.ast().getBody(), List.of());
		}
		Script script = m.importsPypto
				? new ScriptLowering(m.exprs, m.statements.forScript(), f -> m.jitKind(f) != null || m.hasDecorator(f.getDecorators(), "function"))
						.lower(file.ast().getBody())
				: Script.EMPTY;
		return new ModuleIR(m.importsPypto, m.pl, m.pld, List.copyOf(m.programs), suppressions(file), m.imports, script);
	}

	private Expr lower(dev.ptotools.language.python.Expression e) {
		return exprs.lower(e);
	}

	private Span span(org.eclipse.emf.ecore.EObject o) {
		return exprs.span(o);
	}

	// ---- imports ----------------------------------------------------------------------------

	// ---- scopes -----------------------------------------------------------------------------

	/** Scans one scope: its bindings, its programs and jit functions, and the scopes inside it. */
	private void scanScope(List<Statement> body, List<Program.Binding> outer) {
		List<Program.Binding> bindings = new ArrayList<>(outer);
		List<FunctionDef> jit = new ArrayList<>();
		for (Statement s : body) {
			collectBinding(s, bindings);
		}
		for (Statement s : body) {
			if (s instanceof ClassDef c && hasDecorator(c.getDecorators(), "program")) {
				programs.add(classProgram(c, List.copyOf(bindings)));
			} else if (s instanceof ClassDef c) {
				scanScope(suiteBody(c.getBody()), outer);
			} else if (s instanceof FunctionDef f && jitKind(f) != null) {
				jit.add(f);
			} else if (s instanceof FunctionDef f) {
				List<Program.Binding> inner = new ArrayList<>(bindings);
				inner.addAll(parameterBindings(f));
				scanScope(suiteBody(f.getBody()), inner);
			} else {
				for (List<Statement> inner : blocksOf(s)) {
					scanScope(inner, bindings);
				}
			}
		}
		if (!jit.isEmpty()) {
			programs.add(jitProgram(jit, List.copyOf(bindings)));
		}
	}

	/** The parameters of a function around programs: each is bound to what the function is called with. */
	private List<Program.Binding> parameterBindings(FunctionDef f) {
		List<Program.Binding> out = new ArrayList<>();
		if (f.getParameters() == null) {
			return out;
		}
		String of = f.getName() == null ? "" : f.getName();
		for (FormalParameter fp : f.getParameters().getParams()) {
			if (fp instanceof Param p && p.getName() != null) {
				out.add(new Program.Binding(p.getName(), lower(p.getDefault()), span(p), of));
			} else if (fp instanceof dev.ptotools.language.python.VarArgs v && v.getName() != null) {
				out.add(new Program.Binding(v.getName(), null, span(v), of));
			} else if (fp instanceof dev.ptotools.language.python.KwArgs k && k.getName() != null) {
				out.add(new Program.Binding(k.getName(), null, span(k), of));
			}
		}
		return out;
	}

	private void collectBinding(Statement s, List<Program.Binding> bindings) {
		if (s instanceof Assign a && a.getTargets().size() == 2 && a.getTargets().get(0) instanceof Name n) {
			bindings.add(new Program.Binding(n.getId(), lower(a.getTargets().get(1)), span(a)));
		} else if (s instanceof Assign a && a.getTargets().size() == 2) {
			// ROWS, COLS = 16, 64: each name is bound to its element, as Python unpacks it
			Expr target = lower(a.getTargets().get(0));
			List<Expr> names = target instanceof Expr.TupleExpr t ? t.elts()
					: target instanceof Expr.ListExpr l ? l.elts() : List.of();
			Expr value = lower(a.getTargets().get(1));
			for (int i = 0; i < names.size() && value != null; i++) {
				if (names.get(i) instanceof Expr.Name n) {
					Expr element = new Expr.Subscript(value, List.of(new Expr.Literal((long) i, n.span())), n.span());
					bindings.add(new Program.Binding(n.id(), element, span(a)));
				}
			}
		} else if (s instanceof dev.ptotools.language.python.AnnAssign a && a.getTarget() instanceof Name n
				&& a.getValue() != null) {
			bindings.add(new Program.Binding(n.getId(), lower(a.getValue()), span(a)));
		} else if (s instanceof dev.ptotools.language.python.ImportFrom from) {
			// from config import N_RANKS: a value of another module, known when this one runs (the project's
			// modules are read for it: ImportedModules)
			String module = String.join("", from.getDots()) + (from.getModule() == null ? "" : from.getModule());
			if (module.startsWith("pypto")) {
				return;
			}
			if (from.isStar()) {
				bindings.add(new Program.Binding(ImportKinds.STAR_NAME,
						new Expr.Opaque(ImportKinds.STAR + module, List.of(), span(s)), span(s)));
				return;
			}
			for (dev.ptotools.language.python.Alias alias : from.getNames()) {
				String bound = alias.getAsname() != null ? alias.getAsname() : alias.getName();
				if (bound != null && alias.getName() != null) {
					bindings.add(new Program.Binding(bound, new Expr.Opaque(ImportKinds.FROM + ImportKinds.path(module,
							alias.getName()), List.of(), span(s)), span(s)));
				}
			}
		} else if (s instanceof dev.ptotools.language.python.Import imp) {
			// import pkg.config as cfg: the module's namespace (cfg.BATCH)
			for (dev.ptotools.language.python.Alias alias : imp.getNames()) {
				if (alias.getName() != null && alias.getAsname() != null && !alias.getName().startsWith("pypto")) {
					bindings.add(new Program.Binding(alias.getAsname(), new Expr.Opaque(ImportKinds.MODULE + alias.getName(),
							List.of(), span(s)), span(s)));
				}
			}
		}
	}

	/**
	 * The bindings a module's own statements make at its top level, in order, whether it imports pypto or
	 * not: what another module importing it sees ({@link dev.ptotools.analyzer.project.ProjectModules}).
	 */
	public static List<Program.Binding> topLevelBindings(ParsedFile file) {
		ModuleLowering m = new ModuleLowering(file);
		List<Program.Binding> out = new ArrayList<>();
		for (Statement s : file.ast().getBody()) {
			m.collectBinding(s, out);
		}
		return out;
	}

	private static List<Statement> suiteBody(Suite suite) {
		return suite == null ? List.of() : suite.getBody();
	}

	/** The statement lists nested in a compound statement (not in defs or classes). */
	static List<List<Statement>> blocksOf(Statement s) {
		List<List<Statement>> out = new ArrayList<>();
		if (s instanceof IfStmt i) {
			out.add(suiteBody(i.getBody()));
			for (ElifClause e : i.getElifs()) {
				out.add(suiteBody(e.getBody()));
			}
			out.add(suiteBody(i.getOrelse()));
		} else if (s instanceof ForStmt f) {
			out.add(suiteBody(f.getBody()));
			out.add(suiteBody(f.getOrelse()));
		} else if (s instanceof WhileStmt w) {
			out.add(suiteBody(w.getBody()));
			out.add(suiteBody(w.getOrelse()));
		} else if (s instanceof WithStmt w) {
			out.add(suiteBody(w.getBody()));
		} else if (s instanceof TryStmt t) {
			out.add(suiteBody(t.getBody()));
			for (ExceptHandler h : t.getHandlers()) {
				out.add(suiteBody(h.getBody()));
			}
			out.add(suiteBody(t.getOrelse()));
			out.add(suiteBody(t.getFinalbody()));
		} else if (s instanceof FunctionDef f) {
			out.add(suiteBody(f.getBody()));
		} else if (s instanceof ClassDef c) {
			out.add(suiteBody(c.getBody()));
		}
		return out;
	}

	// ---- programs ---------------------------------------------------------------------------

	private Program classProgram(ClassDef c, List<Program.Binding> bindings) {
		List<Function> functions = new ArrayList<>();
		for (Statement s : suiteBody(c.getBody())) {
			if (s instanceof FunctionDef f && isMethodFunction(f)) {
				functions.add(function(f, classDecl(f), true, functions.size()));
			}
		}
		Span span = span(c);
		return new Program(c.getName() == null ? "" : c.getName(), Program.Style.CLASS, List.copyOf(functions), bindings,
				span, nameSpan(span, "class", c.getName(), c.getDecorators() != null));
	}

	private Program jitProgram(List<FunctionDef> defs, List<Program.Binding> bindings) {
		List<Function> functions = new ArrayList<>();
		for (FunctionDef f : defs) {
			functions.add(function(f, jitDecl(f), false, functions.size()));
		}
		Function entry = functions.stream().filter(f -> f.decl().level() == Level.HOST).findFirst()
				.orElse(functions.stream().filter(f -> f.decl().type() == FunctionType.Orchestration).findFirst()
						.orElse(functions.get(0)));
		Span span = functions.get(0).span().to(functions.get(functions.size() - 1).span());
		return new Program(entry.name(), Program.Style.JIT, List.copyOf(functions), bindings, span, entry.nameSpan());
	}

	private Function function(FunctionDef f, Decl decl, boolean method, int index) {
		List<dev.ptotools.analyzer.ir.Param> params = new ArrayList<>();
		if (f.getParameters() != null) {
			List<FormalParameter> formals = f.getParameters().getParams();
			for (int i = 0; i < formals.size(); i++) {
				if (formals.get(i) instanceof Param p) {
					if (method && i == 0 && "self".equals(p.getName()) && p.getAnnotation() == null) {
						continue;
					}
					params.add(param(p));
				}
			}
		}
		Span span = span(f);
		Span nameSpan = nameSpan(span, "def", f.getName(), f.getDecorators() != null);
		Span header = new Span(decl.decoratorSpan() != null ? decl.decoratorSpan().start() : span.start(),
				span(f.getBody()).start());
		return new Function(ExprLowering.name(f.getName()), decl, List.copyOf(params),
				lower(f.getReturnAnnotation()), statements.suite(f.getBody()), index, span, nameSpan, header);
	}

	/** The span of the name after 'def'/'class', found in the text. */
	private Span nameSpan(Span whole, String keyword, String name, boolean decorated) {
		if (name == null) {
			return new Span(whole.start(), whole.start());
		}
		String text = file.text();
		int from = whole.start();
		int kw = text.indexOf(keyword + " ", from);
		if (kw < 0 || kw > whole.end()) {
			return new Span(from, from);
		}
		int at = text.indexOf(name, kw + keyword.length());
		return at < 0 ? new Span(kw, kw) : new Span(at, at + name.length());
	}

	private dev.ptotools.analyzer.ir.Param param(Param p) {
		Expr annotation = lower(p.getAnnotation());
		Direction direction = Direction.In;
		Expr inner = annotation;
		if (annotation instanceof Expr.Subscript s && s.indices().size() == 1) {
			String head = last(ExprLowering.dotted(s.value()));
			if ("Out".equals(head)) {
				direction = Direction.Out;
				inner = s.indices().get(0);
			} else if ("InOut".equals(head)) {
				direction = Direction.InOut;
				inner = s.indices().get(0);
			}
		}
		Span span = span(p);
		String name = ExprLowering.name(p.getName());
		return new dev.ptotools.analyzer.ir.Param(name, typeSpec(inner), direction, span,
				new Span(span.start(), span.start() + name.length()), inner);
	}

	/** The type an annotation denotes (null when there is none). */
	public static TypeSpec typeSpec(Expr annotation) {
		if (annotation == null) {
			return null;
		}
		if (annotation instanceof Expr.Subscript s) {
			String head = last(ExprLowering.dotted(s.value()));
			TypeSpec.TensorKind kind = tensorKind(head);
			if (kind != null) {
				List<Expr> shape = null;
				String dtype = null;
				if (!s.indices().isEmpty()) {
					Expr first = s.indices().get(0);
					if (first instanceof Expr.ListExpr l) {
						shape = l.elts();
					} else if (first instanceof Expr.TupleExpr t) {
						shape = t.elts();
					} else {
						shape = List.of(first);
					}
				}
				if (s.indices().size() > 1) {
					dtype = last(ExprLowering.dotted(s.indices().get(1)));
				}
				return new TypeSpec.Tensor(kind, shape, dtype, s.span());
			}
			if ("Scalar".equals(head) && s.indices().size() == 1) {
				return new TypeSpec.Scalar(last(ExprLowering.dotted(s.indices().get(0))), s.span());
			}
			return new TypeSpec.Other(head == null ? "?" : head, s.span());
		}
		String dotted = ExprLowering.dotted(annotation);
		String head = last(dotted);
		TypeSpec.TensorKind kind = tensorKind(head);
		if (kind != null) {
			return new TypeSpec.Tensor(kind, null, null, annotation.span());
		}
		if ("Scalar".equals(head)) {
			return new TypeSpec.Scalar(null, annotation.span());
		}
		if (head != null && DTYPES.contains(head)) {
			return new TypeSpec.Scalar(head, annotation.span());
		}
		return new TypeSpec.Other(dotted == null ? "expression" : dotted, annotation.span());
	}

	static final java.util.Set<String> DTYPES = java.util.Set.of("FP4", "FP8E4M3FN", "FP8E5M2", "FP8E8M0", "FP16",
			"FP32", "BF16", "HF4", "HF8", "INT4", "INT8", "INT16", "INT32", "INT64", "UINT4", "UINT8", "UINT16",
			"UINT32", "UINT64", "BOOL", "INDEX", "TASK_ID");

	private static TypeSpec.TensorKind tensorKind(String head) {
		if (head == null) {
			return null;
		}
		return switch (head) {
		case "Tensor" -> TypeSpec.TensorKind.TENSOR;
		case "DistributedTensor" -> TypeSpec.TensorKind.DISTRIBUTED;
		case "Tile" -> TypeSpec.TensorKind.TILE;
		default -> null;
		};
	}

	static String last(String dotted) {
		if (dotted == null) {
			return null;
		}
		int dot = dotted.lastIndexOf('.');
		return dot < 0 ? dotted : dotted.substring(dot + 1);
	}

	// ---- decorators -------------------------------------------------------------------------

	private static List<Decorator> decorators(dev.ptotools.language.python.DecoratorList list) {
		return list == null ? List.of() : list.getDecorators();
	}

	/** What a decorator denotes in the catalog's spelling ("pl.program", "pl.jit.host"), or null. */
	private String decoratorName(Decorator d) {
		Expr e = lower(d.getExpr());
		Expr head = e instanceof Expr.Call c ? c.func() : e;
		return imports.normalize(ExprLowering.dotted(head));
	}

	/** Whether a decorator list has {@code @pl.<name>} or {@code @pl.<name>(...)}, however pl.<name> is imported. */
	private boolean hasDecorator(dev.ptotools.language.python.DecoratorList list, String name) {
		for (Decorator d : decorators(list)) {
			if (("pl." + name).equals(decoratorName(d))) {
				return true;
			}
		}
		return false;
	}

	/** The jit decorator of a function ("jit", "jit.host", "function"...), or null. */
	private String jitKind(FunctionDef f) {
		for (Decorator d : decorators(f.getDecorators())) {
			String name = decoratorName(d);
			if (name == null || !name.startsWith("pl.")) {
				continue;
			}
			String rest = name.substring(3);
			if (rest.equals("jit") || rest.startsWith("jit.") || rest.equals("function") || rest.equals("inline")) {
				return rest;
			}
		}
		return null;
	}

	/**
	 * Whether a method of a program class is a DSL function. pypto's program decorator reads the
	 * class's source and picks methods by the decorator's spelling, {@code @x.function} or
	 * {@code @function}, with or without a call (parser/decorator.py _has_pl_function_decorator), not
	 * by what the name is bound to; so does this.
	 */
	private boolean isMethodFunction(FunctionDef f) {
		for (Decorator d : decorators(f.getDecorators())) {
			if (isFunctionSpelling(d)) {
				return true;
			}
		}
		return false;
	}

	private boolean isFunctionSpelling(Decorator d) {
		Expr e = lower(d.getExpr());
		Expr head = e instanceof Expr.Call c ? c.func() : e;
		return head instanceof Expr.Attribute a ? a.attr().equals("function")
				: head instanceof Expr.Name n && n.id().equals("function");
	}

	private Decl classDecl(FunctionDef f) {
		for (Decorator d : decorators(f.getDecorators())) {
			if (isFunctionSpelling(d)) {
				return declFrom(lower(d.getExpr()), span(d), FunctionType.Opaque, null, null);
			}
		}
		return new Decl(FunctionType.Opaque, null, null, null, null, null, null, "", List.of());
	}

	private Decl jitDecl(FunctionDef f) {
		for (Decorator d : decorators(f.getDecorators())) {
			Expr e = lower(d.getExpr());
			String name = decoratorName(d);
			if (name == null || !name.startsWith("pl.")) {
				continue;
			}
			String kind = name.substring(3);
			Span ds = span(d);
			switch (kind) {
			case "jit":
				return declFrom(e, ds, FunctionType.Orchestration, null, null);
			case "jit.host":
				return declFrom(e, ds, FunctionType.Opaque, Level.HOST, Role.Orchestrator);
			case "jit.incore":
				return declFrom(e, ds, FunctionType.InCore, null, null);
			case "jit.inline":
			case "inline":
				return declFrom(e, ds, FunctionType.Inline, null, null);
			case "jit.opaque":
				return declFrom(e, ds, FunctionType.Opaque, null, null);
			case "jit.extern": {
				FunctionType t = FunctionType.AIV;
				if (e instanceof Expr.Call c && c.keyword("core_type") != null
						&& c.keyword("core_type").value() instanceof Expr.Literal l) {
					t = switch (String.valueOf(l.value())) {
					case "aic" -> FunctionType.AIC;
					case "mixed" -> FunctionType.Group;
					default -> FunctionType.AIV;
					};
				}
				return declFrom(e, ds, t, null, null);
			}
			case "function":
				return declFrom(e, ds, FunctionType.Opaque, null, null);
			default:
				break;
			}
		}
		return new Decl(FunctionType.Opaque, null, null, null, null, null, null, "", List.of());
	}

	/** Reads type=/level=/role= from a decorator call, starting from the decorator's implied values. */
	private Decl declFrom(Expr decorator, Span span, FunctionType type, Level level, Role role) {
		Span typeSpan = null;
		Span levelSpan = null;
		Span roleSpan = null;
		List<String> problems = new ArrayList<>();
		java.util.Map<String, Expr> keywords = new java.util.LinkedHashMap<>();
		if (decorator instanceof Expr.Call c) {
			for (Expr.Keyword k : c.keywords()) {
				if (k.name() != null) {
					keywords.put(k.name(), k.value());
				}
				if (k.name() == null) {
					problems.add("Unsupported `@pl.function(**kwargs)` in `@pl.program`");
					continue;
				}
				switch (k.name()) {
				case "type" -> {
					typeSpan = k.span();
					String v = enumValue(k.value(), "FunctionType");
					FunctionType t = v == null ? null : FunctionType.named(v);
					if (t == null) {
						problems.add("Unsupported `@pl.function`(type=...) value");
					} else {
						type = t;
					}
				}
				case "level" -> {
					levelSpan = k.span();
					Level lv = enumMember(k.value(), "Level", Level::named, problems);
					if (lv != null) {
						level = lv;
					}
				}
				case "role" -> {
					roleSpan = k.span();
					Role r = enumMember(k.value(), "Role", Role::named, problems);
					if (r != null) {
						role = r;
					}
				}
				default -> {
				}
				}
			}
		}
		String text = file.text().substring(Math.min(span.start(), file.text().length()),
				Math.min(span.end(), file.text().length()));
		return new Decl(type, typeSpan, level, levelSpan, role, roleSpan, span, text, List.copyOf(problems),
				java.util.Collections.unmodifiableMap(keywords));
	}

	/**
	 * The member named by {@code pl.<enumName>.<X>} as a keyword value (level=, role=); null for None
	 * (the keyword left unset) and for a value pypto rejects, which adds its message to problems.
	 */
	private <E> E enumMember(Expr value, String enumName, java.util.function.Function<String, E> named,
			List<String> problems) {
		if (value instanceof Expr.Literal l && l.value() == null) {
			return null;
		}
		String v = enumValue(value, enumName);
		E member = v == null ? null : named.apply(v);
		if (v == null) {
			problems.add("Expected pl." + enumName + ".<name>");
		} else if (member == null) {
			problems.add("Unknown " + enumName + " value: " + v);
		}
		return member;
	}

	/** X from pl.Enum.X or Enum.X; null when the expression is not of that form. */
	private String enumValue(Expr e, String enumName) {
		String dotted = ExprLowering.dotted(e);
		if (dotted == null) {
			return null;
		}
		String[] parts = dotted.split("\\.");
		if (parts.length >= 2 && parts[parts.length - 2].equals(enumName)) {
			return parts[parts.length - 1];
		}
		return null;
	}

	// ---- suppressions -----------------------------------------------------------------------

	private static List<ModuleIR.Suppression> suppressions(ParsedFile file) {
		List<ModuleIR.Suppression> out = new ArrayList<>();
		String text = file.text();
		if (text.indexOf("pto:") < 0) {
			return out;
		}
		Matcher m = SUPPRESSION.matcher(text);
		while (m.find()) {
			List<String> rules = new ArrayList<>();
			List<ModuleIR.InvalidSelector> invalid = new ArrayList<>();
			if (m.group(2) != null) {
				int at = m.start(2);
				for (String part : m.group(2).split(",", -1)) {
					String selector = part.strip();
					Span span = new Span(at + part.indexOf(selector), at + part.indexOf(selector) + selector.length());
					at += part.length() + 1;
					if (selector.isEmpty()) {
						continue;
					}
					// an id, an id prefix or a rule's name ("dispatch-not-pinned"), as in configuration
					String resolved = RuleSelectors.resolve(selector).orElse(null);
					if (resolved == null) {
						invalid.add(new ModuleIR.InvalidSelector(selector, "names no rule", span));
					} else if (!ModuleIR.SUPPRESSIBLE.test(resolved)) {
						invalid.add(new ModuleIR.InvalidSelector(selector, "cannot be suppressed", span));
					} else {
						rules.add(resolved);
					}
				}
				if (rules.isEmpty() && invalid.isEmpty()) {
					invalid.add(new ModuleIR.InvalidSelector("", "names no rule",
							new Span(m.start(2) - 1, m.end(2) + 1)));
				}
			}
			out.add(new ModuleIR.Suppression(file.lines().line(m.start()), m.group(1) != null, List.copyOf(rules),
					List.copyOf(invalid), new Span(m.start(), m.end())));
		}
		return out;
	}
}
