package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.eclipse.emf.ecore.EObject;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.facts.ParseDamage;
import dev.ptotools.analyzer.facts.RankLoop;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;
import dev.ptotools.language.ParsedFile;
import dev.ptotools.language.Spans;
import dev.ptotools.language.SyntaxProblem;
import dev.ptotools.language.python.ClassDef;
import dev.ptotools.language.python.FunctionDef;

/**
 * Finds what a file's syntax errors broke ({@link ParseDamage}): every syntax problem and every node the
 * parser's error recovery marked is placed on the statement it breaks, and what recovery left in a
 * statement list is broken too. A broken function or class header breaks the whole function or program and
 * every call of the function; a broken assignment whose value recovery made up breaks the later reads of
 * the names it binds. Files without syntax errors have no damage and cost nothing here.
 */
public final class ParseDamagePass implements Pass {

	@Override
	public String name() {
		return "parse-damage";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.PARSED, Keys.MODULE, Keys.CALLS);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.DAMAGE);
	}

	@Override
	public void run(Facts facts) {
		ParsedFile file = facts.get(Keys.PARSED);
		ModuleIR module = facts.get(Keys.MODULE);
		List<RankLoop> rankLoops = facts.has(Keys.RANK_LOOPS) ? facts.get(Keys.RANK_LOOPS).loops() : List.of();
		if (!file.hasProblems()) {
			facts.put(Keys.DAMAGE, ParseDamage.NONE);
			return;
		}
		new Finder(file, module, facts.get(Keys.CALLS), rankLoops).run(evidence(file), facts);
	}

	/** Offsets where the file is broken: its syntax problems and the nodes the parser's recovery marked. */
	private static Set<Integer> evidence(ParsedFile file) {
		Set<Integer> at = new TreeSet<>();
		for (SyntaxProblem p : file.problems()) {
			at.add(p.offset());
		}
		at.addAll(file.syntaxErrorNodeOffsets());
		return at;
	}

	/** Places the evidence on statements, functions and programs. */
	private static final class Finder {
		private final ParsedFile file;
		private final ModuleIR module;
		private final CallResolution calls;
		private final List<RankLoop> rankLoops;
		private final List<Span> broken = new ArrayList<>();
		private final List<Span> brokenReads = new ArrayList<>();
		private final Set<Function> brokenHeaders = Collections.newSetFromMap(new IdentityHashMap<>());
		private final Set<Program> brokenPrograms = Collections.newSetFromMap(new IdentityHashMap<>());
		/** Programs that may have lost a function to a broken decorator: calls naming none are broken. */
		private final Set<Program> lostFunctions = Collections.newSetFromMap(new IdentityHashMap<>());
		private final List<Stmt> brokenStatements = new ArrayList<>();

		Finder(ParsedFile file, ModuleIR module, CallResolution calls, List<RankLoop> rankLoops) {
			this.file = file;
			this.module = module;
			this.calls = calls;
			this.rankLoops = rankLoops;
		}

		void run(Set<Integer> evidence, Facts facts) {
			for (int at : evidence) {
				place(at);
			}
			for (Program p : module.programs()) {
				for (Function f : p.functions()) {
					Walk.statements(f.body(), s -> {
						if (s instanceof Stmt.Other o && o.recovered()) {
							brokenStatements.add(s);
						}
					});
				}
			}
			brokenStatements.forEach(s -> broken.add(s.span()));
			callsOfBrokenFunctions();
			brokenReads();
			List<Span> functions = new ArrayList<>();
			for (Program p : module.programs()) {
				for (Function f : p.functions()) {
					if (broken.stream().anyMatch(b -> f.span().contains(b) || b.contains(f.span()))) {
						functions.add(f.span());
					}
				}
			}
			List<ParseDamage.Loop> loops = new ArrayList<>();
			for (RankLoop l : rankLoops) {
				Span span = l.loop().span();
				Span header = l.loop().headerSpan();
				boolean hit = broken.stream().anyMatch(b -> b.start() < span.end() && span.start() < b.end()
						|| span.contains(b)) || brokenReads.stream().anyMatch(header::contains);
				loops.add(new ParseDamage.Loop(span, header, hit));
			}
			broken.sort((a, b) -> Integer.compare(a.start(), b.start()));
			facts.put(Keys.DAMAGE, new ParseDamage(List.copyOf(broken), List.copyOf(brokenReads), List.copyOf(functions),
					List.copyOf(loops)));
		}

		/** The statement, function header or class header that an offset of evidence breaks. */
		private void place(int at) {
			for (Program p : module.programs()) {
				if (!p.span().contains(at)) {
					continue;
				}
				for (Function f : p.functions()) {
					if (!f.span().contains(at)) {
						continue;
					}
					int bodyStart = f.body().isEmpty() ? f.span().end() : f.body().get(0).span().start();
					if (at < bodyStart) {
						brokenHeaders.add(f); // decorator, parameters or return annotation
						broken.add(f.span());
						return;
					}
					Stmt s = statementAt(f.body(), at);
					if (s != null) {
						brokenStatements.add(s);
					} else {
						broken.add(f.span());
					}
					return;
				}
				if (at > p.nameSpan().end()) {
					// between the class's functions: the decorator of the next def, which may be no method now
					int next = p.functions().stream().mapToInt(f -> f.span().start()).filter(start -> start > at).min()
							.orElse(p.span().end());
					broken.add(new Span(at, next));
					lostFunctions.add(p);
				} else {
					breakProgram(p); // the class line or its decorators
				}
				return;
			}
			// Outside every program: a class or def whose broken header made it none (`@pl.` above a class)
			Span around = enclosingDefinition(at);
			if (around != null) {
				for (Program p : module.programs()) {
					if (around.contains(p.span()) || p.span().contains(around)) {
						breakProgram(p);
					}
				}
			}
		}

		private void breakProgram(Program p) {
			brokenPrograms.add(p);
			broken.add(p.span());
			brokenHeaders.addAll(p.functions());
		}

		/**
		 * The span of the syntax tree's innermost class around an offset (else its innermost def), or null:
		 * a program's class whose broken header or method made it no program.
		 */
		private Span enclosingDefinition(int at) {
			EObject def = null;
			for (EObject o = file.objectAt(at); o != null; o = o.eContainer()) {
				if (o instanceof ClassDef) {
					def = o;
					break;
				}
				if (o instanceof FunctionDef && def == null) {
					def = o;
				}
			}
			if (def == null) {
				return null;
			}
			Spans.Span span = file.span(def);
			return new Span(span.offset(), span.end());
		}

		/**
		 * The innermost statement holding an offset (a compound statement whole when the offset is in its
		 * header, before its body); an offset between statements, where the parser reports a statement that
		 * ended badly, belongs to the last statement before it.
		 */
		private static Stmt statementAt(List<Stmt> body, int at) {
			Stmt before = null;
			for (Stmt s : body) {
				if (s.span().start() > at) {
					break;
				}
				before = s;
			}
			if (before == null || !before.span().contains(at)) {
				return before;
			}
			int firstChild = Integer.MAX_VALUE;
			for (List<Stmt> k : Walk.children(before)) {
				if (!k.isEmpty()) {
					firstChild = Math.min(firstChild, k.get(0).span().start());
				}
			}
			if (at < firstChild) {
				return before; // the header of a compound statement breaks all of it
			}
			Stmt inner = null;
			for (List<Stmt> k : Walk.children(before)) {
				Stmt x = statementAt(k, at);
				if (x != null && (inner == null || x.span().start() > inner.span().start())) {
					inner = x;
				}
			}
			return inner != null ? inner : before;
		}

		/**
		 * Every call of a function whose header is broken, and the calls naming a function their program
		 * does not have: in a broken file, a method the break took away.
		 */
		private void callsOfBrokenFunctions() {
			for (Program p : module.programs()) {
				boolean damaged = brokenPrograms.contains(p) || lostFunctions.contains(p) || !brokenHeaders.isEmpty()
						&& p.functions().stream().anyMatch(brokenHeaders::contains);
				for (Function f : p.functions()) {
					for (Expr.Call c : calls.callsIn(f)) {
						Function target = calls.target(c);
						// self.f naming no function: in a broken file, f may be a method the break took away
						boolean lost = calls.of(c) instanceof Callee.UnknownFunction u && (damaged || u.viaSelf());
						if (target != null && brokenHeaders.contains(target) || lost) {
							broken.add(c.span());
						}
					}
				}
			}
		}

		/**
		 * Reads of the names a broken assignment binds to a value the parser made up (a missing operand or
		 * attribute), after it in its function: what they hold is not what the author wrote.
		 */
		private void brokenReads() {
			for (Stmt s : brokenStatements) {
				if (!(s instanceof Stmt.Assign a) || !madeUp(a.value())) {
					continue;
				}
				Function f = functionOf(s);
				if (f == null) {
					continue;
				}
				List<String> names = new ArrayList<>();
				a.targets().forEach(t -> names.addAll(Walk.boundNames(t)));
				Walk.statements(f.body(), later -> {
					if (later.span().start() < s.span().end()) {
						return;
					}
					for (Expr root : Walk.ownExpressions(later)) {
						Walk.expressions(root, e -> {
							if (e instanceof Expr.Name n && names.contains(n.id())) {
								brokenReads.add(n.span());
							}
						});
					}
				});
			}
		}

		/**
		 * Whether the parser made up what a value is: it is missing, or a name, attribute, call or subscript
		 * whose head is (`pld.`, `pld.(...)`, `x[`). A value whose head stands (`pld.window(buf, dtype=pl.`)
		 * is still what the author wrote, with a broken argument.
		 */
		private static boolean madeUp(Expr value) {
			if (value == null || value instanceof Expr.Opaque o && o.kind().equals("missing")) {
				return true;
			}
			if (value instanceof Expr.Attribute a) {
				return a.attr().isEmpty() || madeUp(a.value());
			}
			if (value instanceof Expr.Call c) {
				return madeUp(c.func());
			}
			if (value instanceof Expr.Subscript s) {
				return madeUp(s.value()) || s.indices().stream().anyMatch(i -> i instanceof Expr.Opaque o
						&& o.kind().equals("missing"));
			}
			return false;
		}

		private Function functionOf(Stmt s) {
			for (Program p : module.programs()) {
				for (Function f : p.functions()) {
					if (f.span().contains(s.span())) {
						return f;
					}
				}
			}
			return null;
		}
	}
}
