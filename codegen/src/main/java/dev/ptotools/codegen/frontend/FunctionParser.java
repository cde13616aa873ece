package dev.ptotools.codegen.frontend;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * One DSL function to the program IR, statement by statement, as pypto's {@code ASTParser} builds it:
 * no SSA (reassigning a name assigns its Var again), {@code _tuple_tmp} for tuple unpacking, loop
 * carries and branch phis from {@code pl.yield_}, with-scopes as ScopeStmts, blocks of one statement
 * unwrapped. Expressions are {@link ExprParser}'s.
 */
final class FunctionParser {

	/** The names a {@code pl.yield_} assignment binds inside one loop or if, in order, with a type each. */
	static final class YieldFrame {
		final Map<String, Type> names = new LinkedHashMap<>();
		final Map<String, Type> annotated = new LinkedHashMap<>();
	}

	final ParseContext ctx;
	final Scopes scopes = new Scopes();
	/** The TaskId variable of the submit that bound each variable (DispatchPredicates.checkDeps). */
	final java.util.Map<Var, Var> submitProducers = new java.util.IdentityHashMap<>();
	final ExprParser exprs;
	final TypeResolver types;
	private final Deque<YieldFrame> yields = new ArrayDeque<>();
	/** Kinds of the loops around the statement being parsed, innermost first. */
	private final Deque<dev.ptotools.codegen.ir.Stmt.ForKind> loops = new ArrayDeque<>();
	/** Vars tagged by {@code pl.dump_tag}, attached to later kernel calls. */
	final Set<Var> dumpTagged = new LinkedHashSet<>();
	String functionName;
	/** {@code @pl.function(strict_ssa=True)}: a variable is assigned once (subscript-writes rebind it). */
	boolean strictSsa;
	FunctionType functionType;
	Level level;
	boolean autoScope = true;
	int manualScopeDepth;
	/**
	 * The split mode the enclosing InCore scope's optimizations=[pl.split(MODE)] wrote ("UpDown", "None"), or
	 * null when it wrote none (or there is no InCore scope): a pl.split_aiv region may not join it.
	 */
	String incoreUserSplit;
	/** pl.cluster() scopes around the statement being parsed. */
	int clusterDepth;
	/** InCore scopes around the statement being parsed (split_aiv regions need one). */
	int incoreDepth;
	/** How many {@code with pl.spmd(...)} bodies are open (a dispatch body has no InCore scope of its own). */
	int spmdDepth;
	/**
	 * The mode of the split_aiv region around the statement being parsed ("UpDown", ...), or null outside
	 * one (regions do not nest).
	 */
	String splitAivMode;
	/** The pl.dynamic symbols of this function's tensor parameters' shapes. */
	final Set<Var> paramDimSymbols = new LinkedHashSet<>();

	FunctionParser(ParseContext ctx) {
		this.ctx = ctx;
		this.types = new TypeResolver(ctx.closure, scopes::lookup);
		this.exprs = new ExprParser(this);
	}

	/**
	 * Parses a function. {@code attrs} are the function attributes from its decorator (auto_scope...);
	 * the result has pypto's level and role derivation applied.
	 */
	dev.ptotools.codegen.ir.Function parse(dev.ptotools.analyzer.ir.Function f, FunctionType type, Level lv, Role role,
			Map<String, Object> attrs) {
		functionName = f.name();
		strictSsa = f.decl().keyword("strict_ssa") instanceof Expr.Literal l && Boolean.TRUE.equals(l.value());
		functionType = type;
		level = lv;
		autoScope = !Boolean.FALSE.equals(attrs.get("auto_scope"));
		scopes.enter();
		try {
			List<Var> params = new ArrayList<>();
			List<Direction> dirs = new ArrayList<>();
			for (Param p : f.params()) {
				if (p.annotation() == null) {
					throw new CodegenException("Parameter '" + p.name() + "' missing type annotation", p.span());
				}
				Type t = types.param(p.annotation());
				if (p.direction() == Direction.InOut && t instanceof Type.Scalar) {
					throw new CodegenException("Scalar parameters cannot have InOut direction", p.annotation().span());
				}
				Var v = new Var(p.name(), t, p.span());
				bindDynVarToScalarParam(p.name(), t, v);
				if (t instanceof Type.Tensor tt) {
					for (dev.ptotools.codegen.ir.Expr d : tt.shape()) {
						if (d instanceof Var dv) {
							paramDimSymbols.add(dv);
						}
					}
				}
				params.add(v);
				dirs.add(p.direction());
				scopes.define(p.name(), v);
			}
			List<Type> returns = types.returns(f.returnAnnotation());
			Map<String, Object> allAttrs = withDecoratorAttrs(f, attrs);
			List<Stmt> body = prologue(f.body(), allAttrs);
			dev.ptotools.codegen.ir.Stmt parsed = block(parseBody(body), f.span());
			Level derivedLevel = type.impliedLevel() != null ? type.impliedLevel() : lv;
			Role derivedRole = type.impliedRole() != null ? type.impliedRole() : role;
			if (type.impliedLevel() != null && lv != null && lv != type.impliedLevel()) {
				throw new CodegenException("Failed to parse function '" + f.name() + "': Function '" + f.name()
						+ "' has func_type=" + type + " which implies level=" + type.impliedLevel()
						+ ", but explicit level=" + lv + " was provided", f.nameSpan());
			}
			return new dev.ptotools.codegen.ir.Function(f.name(), type, params, dirs, returns, parsed, derivedLevel,
					derivedRole, allAttrs, f.span());
		} catch (IrTypeError e) {
			throw new CodegenException("Failed to parse function '" + f.name() + "': " + e.getMessage(), f.nameSpan());
		} finally {
			scopes.exit(false);
		}
	}

	/**
	 * A HOST-level SubWorker: typed parameters (no {@code self}), and the body kept as plain Python
	 * (pypto's InlineStmt, its statements unparsed one per line); a {@code ...} body is an abstract
	 * callback bound at run time.
	 */
	dev.ptotools.codegen.ir.Function parseSubWorker(dev.ptotools.analyzer.ir.Function f, FunctionType type, Level lv,
			Role role, Map<String, Object> attrs) {
		if (!f.params().isEmpty() && f.params().get(0).name().equals("self")) {
			throw new CodegenException("SubWorker function '" + f.name() + "' must not declare 'self'; declare it as a "
					+ "self-contained function inside @pl.program.", f.params().get(0).span());
		}
		scopes.enter();
		try {
			List<Var> params = new ArrayList<>();
			List<Direction> dirs = new ArrayList<>();
			for (Param p : f.params()) {
				if (p.annotation() == null) {
					throw new CodegenException("Parameter '" + p.name() + "' missing type annotation", p.span());
				}
				params.add(new Var(p.name(), types.resolve(p.annotation()), p.span()));
				dirs.add(p.direction());
			}
			// pypto's _is_abstract_subworker_body: only `...` (and a docstring) in the body
			boolean abstractBody = !f.body().isEmpty() && f.body().stream().allMatch(s -> s instanceof Stmt.ExprStmt e
					&& (e.value() instanceof Expr.Opaque o && o.kind().equals("ellipsis") || e.value() instanceof Expr.Literal));
			String code = "";
			if (!abstractBody) {
				if (ctx.sourceText == null) {
					throw CodegenException.unsupported("SubWorker '" + f.name() + "': its body is written from the module's "
							+ "source, which this compile does not have", f.nameSpan());
				}
				code = dev.ptotools.codegen.frontend.unparse.SubWorkerBody.of(ctx.sourceText, f.span(), f.name());
			}
			dev.ptotools.codegen.ir.Stmt body = new dev.ptotools.codegen.ir.Stmt.Inline(code, abstractBody, f.span());
			return new dev.ptotools.codegen.ir.Function(f.name(), type, params, dirs, types.returns(f.returnAnnotation()),
					body, lv, role, attrs, f.span());
		} finally {
			scopes.exit(false);
		}
	}

	/** A {@code pl.Scalar[pl.INDEX]} parameter named like a closure pl.dynamic symbol re-binds it. */
	private void bindDynVarToScalarParam(String name, Type t, Var v) {
		Object c = ctx.closure.value(name);
		if (c instanceof dev.ptotools.analyzer.facts.Values.DynVar && t instanceof Type.Scalar) {
			scopes.define(name, v);
		}
	}

	/**
	 * {@code @pl.function(attrs={...})}: the dict's entries become function attributes, as pypto's
	 * _normalize_attrs stores them ({@code "split": pl.SplitMode.UP_DOWN} as the mode's name,
	 * {@code "dual_aiv_dispatch": True} as a bool).
	 */
	private Map<String, Object> withDecoratorAttrs(dev.ptotools.analyzer.ir.Function f, Map<String, Object> attrs) {
		Expr dict = f.decl().keyword("attrs");
		if (dict == null) {
			return attrs;
		}
		Map<String, Object> out = new java.util.LinkedHashMap<>(attrs);
		if (dict instanceof Expr.DictExpr d) {
			for (int i = 0; i < d.keys().size(); i++) {
				if (d.keys().get(i) instanceof Expr.Literal k && "split".equals(k.value())) {
					out.put("split", WithScopes.splitMode(d.values().get(i)));
				}
			}
		}
		Map<String, Object> parsed = exprs.attrsDict(dict, true);
		parsed.remove("split");
		out.putAll(parsed);
		return out;
	}

	/**
	 * The body after its prologue (pypto's _consume_func_attr_prologue): a leading docstring, then the
	 * {@code pl.func_attr({...})} calls, each merged into the function's attrs after the decorator's; a
	 * func_attr anywhere below is misplaced.
	 */
	private List<Stmt> prologue(List<Stmt> body, Map<String, Object> attrs) {
		int i = 0;
		if (!body.isEmpty() && body.get(0) instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Literal l
				&& l.value() instanceof String) {
			i = 1;
		}
		for (Expr.Call c; i < body.size() && (c = funcAttr(body.get(i))) != null; i++) {
			mergeFuncAttr(c, body.get(i).span(), attrs);
		}
		for (Stmt s : body.subList(i, body.size())) {
			if (funcAttr(s) != null) {
				throw new CodegenException("pl.func_attr() must appear before every other statement in '" + functionName
						+ "'", s.span());
			}
		}
		return body.subList(i, body.size());
	}

	private Expr.Call funcAttr(Stmt s) {
		return s instanceof Stmt.ExprStmt e && e.value() instanceof Expr.Call c && c.funcText() != null
				&& "pl.func_attr".equals(ctx.normalize(c.funcText())) ? c : null;
	}

	private void mergeFuncAttr(Expr.Call c, Span at, Map<String, Object> attrs) {
		if (c.args().size() != 1 || !c.keywords().isEmpty()) {
			throw new CodegenException("pl.func_attr() takes exactly one positional dict argument (no keywords)", at);
		}
		if (!(c.args().get(0) instanceof Expr.DictExpr d)) {
			throw new CodegenException("pl.func_attr() argument must be a dict literal", c.args().get(0).span());
		}
		Map<String, Object> own = new LinkedHashMap<>();
		for (int i = 0; i < d.keys().size(); i++) {
			Expr key = d.keys().get(i);
			if (key == null) {
				throw new CodegenException("Unsupported `**` unpacking in pl.func_attr({...})", at);
			}
			if (!(key instanceof Expr.Literal l) || !(l.value() instanceof String k)) {
				throw new CodegenException("pl.func_attr() key must be a string literal, got " + Render.expr(key),
						key.span());
			}
			if (own.containsKey(k)) {
				throw new CodegenException("Duplicate function attribute '" + k + "' in pl.func_attr({...})", at);
			}
			if (k.equals("auto_scope") || k.equals("external_source")) {
				throw new CodegenException("'" + k + "' cannot be set with pl.func_attr()", at);
			}
			Expr value = d.values().get(i);
			if (k.equals("split")) {
				String mode = WithScopes.splitMode(value);
				if (!mode.equals("None")) {
					own.put(k, mode);
				}
				continue;
			}
			own.put(k, exprs.kwargValue(value));
		}
		for (Map.Entry<String, Object> e : own.entrySet()) {
			// IRBuilder::AddFunctionAttrs: a key set by the decorator or an earlier pl.func_attr
			if (attrs.containsKey(e.getKey())) {
				throw new CodegenException("Duplicate function attribute '" + e.getKey() + "' in function '" + functionName
						+ "'. Each attribute may be declared only once.", at);
			}
			attrs.put(e.getKey(), e.getValue());
		}
	}

	// ---- blocks ---------------------------------------------------------------------------------

	List<dev.ptotools.codegen.ir.Stmt> parseBody(List<Stmt> body) {
		List<dev.ptotools.codegen.ir.Stmt> out = new ArrayList<>();
		for (Stmt s : body) {
			statement(s, out);
		}
		return out;
	}

	/** pypto's builder: a block of one statement is that statement, otherwise a SeqStmts. */
	static dev.ptotools.codegen.ir.Stmt block(List<dev.ptotools.codegen.ir.Stmt> stmts, Span span) {
		return stmts.size() == 1 ? stmts.get(0) : new dev.ptotools.codegen.ir.Stmt.Seq(stmts, span);
	}

	/**
	 * The statement list the statement being parsed goes to: an expanded {@code @pl.inline} body's statements
	 * go there, before the statement that calls it.
	 */
	List<dev.ptotools.codegen.ir.Stmt> emitting;
	/** The {@code @pl.inline} expansions under way, innermost first: their captured return values. */
	final Deque<InlineCalls.Frame> inlining = new ArrayDeque<>();

	void statement(Stmt s, List<dev.ptotools.codegen.ir.Stmt> out) {
		List<dev.ptotools.codegen.ir.Stmt> enclosing = emitting;
		emitting = out;
		try {
			parseStatement(s, out);
		} finally {
			emitting = enclosing;
		}
	}

	private void parseStatement(Stmt s, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (s instanceof Stmt.Return r && !inlining.isEmpty()) {
			inlining.peek().returned(r, exprs);
			return;
		}
		if (s instanceof Stmt.Assign a) {
			new Assignments(this).assign(a, out);
		} else if (s instanceof Stmt.ExprStmt e) {
			evaluation(e, out);
		} else if (s instanceof Stmt.For f) {
			new Loops(this).forLoop(f, out);
		} else if (s instanceof Stmt.While w) {
			new Loops(this).whileLoop(w, out);
		} else if (s instanceof Stmt.If i) {
			new Branches(this).ifStmt(i, out);
		} else if (s instanceof Stmt.With w) {
			new WithScopes(this).with(w, out);
		} else if (s instanceof Stmt.Return r) {
			List<dev.ptotools.codegen.ir.Expr> values = new ArrayList<>();
			if (r.value() instanceof Expr.TupleExpr t) {
				for (Expr x : t.elts()) {
					values.add(exprs.expr(x));
				}
			} else if (r.value() != null) {
				values.add(exprs.expr(r.value()));
			}
			out.add(new dev.ptotools.codegen.ir.Stmt.Return(values, r.span()));
		} else if (s instanceof Stmt.Break b) {
			checkBreakContinue("break", b.span());
			out.add(new dev.ptotools.codegen.ir.Stmt.Break(b.span()));
		} else if (s instanceof Stmt.Continue c) {
			checkBreakContinue("continue", c.span());
			out.add(new dev.ptotools.codegen.ir.Stmt.Continue(c.span()));
		} else if (s instanceof Stmt.Pass) {
			return;
		} else if (s instanceof Stmt.AugAssign a) {
			throw unsupportedStatement("AugAssign", a.span());
		} else if (s instanceof Stmt.Other o) {
			throw unsupportedStatement(astName(o.kind()), o.span());
		}
	}

	private static CodegenException unsupportedStatement(String kind, Span span) {
		return new CodegenException("Unsupported statement type: " + kind
				+ " (only assignments, for loops, while loops, if statements, with statements, returns, break, "
				+ "continue, and pass are supported in DSL functions)", span);
	}

	private static String astName(String kind) {
		return switch (kind) {
		case "try" -> "Try";
		case "del" -> "Delete";
		case "import" -> "Import";
		case "def" -> "FunctionDef";
		case "class" -> "ClassDef";
		case "global" -> "Global";
		case "nonlocal" -> "Nonlocal";
		case "raise" -> "Raise";
		case "assert" -> "Assert";
		case "match" -> "Match";
		default -> kind;
		};
	}

	/** How many loops were open when the innermost split_aiv body began (its lanes are no loop). */
	int splitAivLoopDepth = -1;

	private void checkBreakContinue(String word, Span span) {
		if (splitAivMode != null && loops.size() == splitAivLoopDepth) {
			throw new CodegenException("'" + word + "' not supported inside a 'for ... in pl.split_aiv(...)' body", span);
		}
		if (loops.isEmpty()) {
			throw new CodegenException("'" + word + "' outside loop", span);
		}
		switch (loops.peek()) {
		case Parallel -> throw new CodegenException("'" + word + "' not supported in parallel loops", span);
		case Unroll -> throw new CodegenException("'" + word + "' not supported in unrolled loops", span);
		default -> {
		}
		}
	}

	/** The function's level as pypto's messages print it (the enum member, or None when not given). */
	String levelText() {
		return level == null ? "None" : "Level." + level.name();
	}

	/** Inside an InCore or SPMD scope: where host-only calls (pld.world_size...) cannot be lowered. */
	boolean inDeviceScope() {
		return incoreDepth > 0 || spmdDepth > 0;
	}

	int loopDepth() {
		return loops.size();
	}

	void pushLoop(dev.ptotools.codegen.ir.Stmt.ForKind kind) {
		loops.push(kind);
	}

	void popLoop() {
		loops.pop();
	}

	// ---- expression statements ------------------------------------------------------------------

	private void evaluation(Stmt.ExprStmt e, List<dev.ptotools.codegen.ir.Stmt> out) {
		if (e.value() instanceof Expr.Literal) {
			return; // a docstring: pypto keeps it as a comment of the next statement
		}
		if (e.value() instanceof Expr.Call c) {
			String name = c.funcText() == null ? null : ctx.normalize(c.funcText());
			if (name != null && name.endsWith(".yield_")) {
				YieldFrame f = yields.peek();
				if (f != null && f.names.isEmpty() && expectsAssignedYield) {
					throw new CodegenException("Loop with init_values requires an assignment-form pl.yield_(...) — the "
							+ "LHS supplies the post-loop binding name. Bare pl.yield_(...) is rejected here.", c.span());
				}
				out.add(new dev.ptotools.codegen.ir.Stmt.Yield(exprs.args(c.args()), e.span()));
				return;
			}
			if ("pl.func_attr".equals(name)) {
				return;
			}
			if ("pl.static_print".equals(name)) {
				staticPrint(c, e.span());
				return;
			}
			if ("pl.static_assert".equals(name)) {
				staticAssert(c, e.span());
				return;
			}
			if ("pl.tensor.dump_tag".equals(name) || "pl.dump_tag".equals(name)) {
				dumpTag(c, e.span());
				return;
			}
		}
		dev.ptotools.codegen.ir.Expr x = exprs.expr(e.value());
		out.add(new dev.ptotools.codegen.ir.Stmt.Eval(x, e.span()));
	}

	/**
	 * {@code pl.dump_tag(x)} (pypto's _parse_dump_tag): in an Orchestration or Inline function, one bare
	 * name of a tensor bound before it; later kernel calls that consume that variable dump it.
	 */
	private void dumpTag(Expr.Call c, Span at) {
		if (functionType != FunctionType.Orchestration && functionType != FunctionType.Inline) {
			throw new CodegenException("pl.dump_tag() is only valid inside an Orchestration or Inline function", at);
		}
		if (c.args().size() != 1 || !c.keywords().isEmpty()) {
			throw new CodegenException("pl.dump_tag() takes exactly one positional argument (no keywords)", at);
		}
		if (!(c.args().get(0) instanceof Expr.Name n)) {
			throw new CodegenException("pl.dump_tag() argument must be a bare variable name", c.args().get(0).span());
		}
		Var v = scopes.lookup(n.id());
		if (v == null) {
			throw new CodegenException("pl.dump_tag() argument '" + n.id() + "' is not defined at this point", at);
		}
		if (!(v.type() instanceof Type.Tensor)) {
			throw new CodegenException("pl.dump_tag() argument '" + n.id() + "' is not a tensor (got Var)", n.span());
		}
		dumpTagged.add(v);
	}

	boolean expectsAssignedYield;

	/**
	 * {@code pl.static_print(...)} (pypto's _handle_static_print): at least one argument; labels and
	 * f-strings as they are, every other argument parsed as a DSL expression (what it prints is not shown).
	 */
	private void staticPrint(Expr.Call c, Span at) {
		if (c.args().isEmpty()) {
			throw new CodegenException("static_print() requires at least 1 argument", at);
		}
		for (Expr a : c.args()) {
			if (!(a instanceof Expr.Literal l && l.value() instanceof String) && !(a instanceof Expr.Opaque)) {
				exprs.expr(a);
			}
		}
	}

	private void staticAssert(Expr.Call c, Span at) {
		if (c.args().isEmpty() || c.args().size() > 2) {
			throw new CodegenException("static_assert() requires 1 or 2 arguments", at);
		}
		if (c.args().size() == 2 && !(c.args().get(1) instanceof Expr.Literal m && m.value() instanceof String)) {
			throw new CodegenException("static_assert() message must be a string literal", c.args().get(1).span());
		}
		Object v = ctx.closure.eval(c.args().get(0));
		if (!dev.ptotools.analyzer.facts.Values.known(v)) {
			dev.ptotools.codegen.ir.Expr x = exprs.expr(c.args().get(0));
			if (x instanceof dev.ptotools.codegen.ir.Expr.ConstBool b) {
				v = b.value();
			} else if (x instanceof dev.ptotools.codegen.ir.Expr.ConstInt i) {
				v = i.value() != 0;
			} else {
				throw new CodegenException("static_assert condition must be compile-time evaluable", c.span());
			}
		}
		boolean ok = v instanceof Boolean b ? b : v instanceof Long l ? l != 0 : v instanceof Double d ? d != 0 : true;
		if (!ok) {
			String msg = c.args().size() > 1 && c.args().get(1) instanceof Expr.Literal l && l.value() instanceof String s
					? ": " + s : "";
			throw new CodegenException("static_assert failed" + msg + " (condition `" + Render.expr(c.args().get(0))
					+ "` evaluated to " + v + ")", c.span());
		}
	}

	// ---- yields ---------------------------------------------------------------------------------

	void pushYields(YieldFrame f) {
		yields.push(f);
	}

	YieldFrame popYields() {
		return yields.pop();
	}

	YieldFrame currentYields() {
		return yields.peek();
	}

	// ---- bindings -------------------------------------------------------------------------------

	/**
	 * pypto's {@code _assign_or_let}: a name bound to a plain Var is assigned again (same Var, no SSA);
	 * otherwise a new Var. In an orchestration function a pl.dynamic symbol of a parameter is bound by
	 * name, with no statement.
	 */
	Var assignOrLet(String name, dev.ptotools.codegen.ir.Expr value, Span span, Type override,
			List<dev.ptotools.codegen.ir.Stmt> out) {
		Var existing = scopes.lookup(name);
		if (functionType == FunctionType.Orchestration && value instanceof Var sym && paramDimSymbols.contains(sym)
				&& (existing == null || paramDimSymbols.contains(existing))) {
			scopes.define(name, sym);
			return sym;
		}
		if (existing != null && paramDimSymbols.contains(existing)) {
			return let(name, value, span, override, out);
		}
		if (existing != null && !(existing instanceof IterArg)) {
			Type vt = override != null ? override : value.type();
			if (!(vt instanceof Type.Unknown) && !(existing.type() instanceof Type.Unknown)
					&& !Types.match(existing.type(), vt)) {
				throw new CodegenException("Cannot reassign '" + name + "' with a different type: was "
						+ Types.print(existing.type()) + ", got " + Types.print(vt)
						+ " (use a different variable name for tensors with different shapes or dtypes)", span);
			}
			out.add(new dev.ptotools.codegen.ir.Stmt.Assign(existing, value, span));
			return existing;
		}
		return let(name, value, span, override, out);
	}

	Var let(String name, dev.ptotools.codegen.ir.Expr value, Span span, Type override,
			List<dev.ptotools.codegen.ir.Stmt> out) {
		Var v = new Var(name, override != null ? override : value.type(), span);
		out.add(new dev.ptotools.codegen.ir.Stmt.Assign(v, value, span));
		scopes.define(name, v);
		return v;
	}

	static Type taskId() {
		return new Type.Scalar(DType.TASK_ID);
	}
}
