package dev.ptotools.analyzer.facts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Script;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * The options of a script's {@code argparse} parser, folded statically for {@link ScriptScope}: a
 * parser made by {@code argparse.ArgumentParser(...)}, the {@code add_argument} and
 * {@code set_defaults} statements on it, in source order, and {@code parse_args()} giving what a run
 * without arguments gets, each option's default ({@code python example.py} is how pypto's examples run,
 * and how the files they write were made). So {@code RunConfig(platform=args.platform)} folds to the
 * {@code --platform} option's default.
 */
public final class ArgparseFolding {

	private ArgparseFolding() {
	}

	/**
	 * The value of an assignment's right-hand side when it makes a parser or parses its arguments,
	 * else null: {@code argparse.ArgumentParser(...)}, {@code parser.parse_args()} and
	 * {@code parser.parse_known_args()} (a namespace and no extras).
	 */
	static Object assigned(Expr value, Map<String, Object> env, Set<String> constructors) {
		if (!(value instanceof Expr.Call c)) {
			return null;
		}
		if (c.funcText() != null && constructors.contains(c.funcText())) {
			return new Values.ArgumentParser(Map.of());
		}
		Values.ArgumentParser parser = receiver(c, env);
		if (parser == null || !c.args().isEmpty() || !c.keywords().isEmpty()) {
			return null;
		}
		String method = ((Expr.Attribute) c.func()).attr();
		return switch (method) {
		case "parse_args" -> new Values.Namespace(parser.defaults());
		case "parse_known_args" -> List.of(new Values.Namespace(parser.defaults()), List.of());
		default -> null;
		};
	}

	/**
	 * How a script writes argparse's parser class: {@code argparse.ArgumentParser} after
	 * {@code import argparse} (or its alias), {@code ArgumentParser} after
	 * {@code from argparse import ArgumentParser}, in any block of the script.
	 */
	static Set<String> constructors(Script script) {
		Set<String> out = new HashSet<>();
		List<List<Stmt>> bodies = new ArrayList<>();
		bodies.add(script.body());
		for (Script.Def d : script.defs()) {
			bodies.add(d.body());
		}
		for (List<Stmt> body : bodies) {
			for (Object s : dev.ptotools.analyzer.facts.jit.PyWalk.walk(body)) {
				// the lowering turns an import into an assignment of what it binds (StmtLowering.imports)
				if (s instanceof Stmt.Assign a && a.targets().size() == 1 && a.targets().get(0) instanceof Expr.Name n
						&& a.value() instanceof Expr.Opaque o) {
					if (o.kind().equals("import:argparse")) {
						out.add(n.id() + ".ArgumentParser");
					} else if (o.kind().equals("import:argparse.ArgumentParser")) {
						out.add(n.id());
					}
				}
			}
		}
		return Set.copyOf(out);
	}

	/**
	 * Applies a statement {@code parser.add_argument(...)} or {@code parser.set_defaults(...)} to the
	 * parser the environment binds; false when the statement is neither.
	 */
	static boolean applied(Stmt.ExprStmt s, Map<String, Object> env, ConstEval eval) {
		if (!(s.value() instanceof Expr.Call c) || !(c.func() instanceof Expr.Attribute a)
				|| !(a.value() instanceof Expr.Name n)) {
			return false;
		}
		Values.ArgumentParser parser = receiver(c, env);
		if (parser == null) {
			return false;
		}
		Map<String, Object> defaults = new LinkedHashMap<>(parser.defaults());
		switch (a.attr()) {
		case "add_argument" -> {
			String dest = destination(c, eval);
			if (dest == null) {
				return true;
			}
			defaults.remove(dest);
			Object v = defaultOf(c, eval);
			if (Values.known(v)) {
				defaults.put(dest, v);
			}
		}
		case "set_defaults" -> {
			for (Expr.Keyword k : c.keywords()) {
				if (k.name() == null) {
					return true; // **kwargs: not followed
				}
				Object v = eval.eval(k.value());
				defaults.remove(k.name());
				if (Values.known(v)) {
					defaults.put(k.name(), v);
				}
			}
		}
		default -> {
			return false;
		}
		}
		env.put(n.id(), new Values.ArgumentParser(Map.copyOf(defaults)));
		return true;
	}

	private static Values.ArgumentParser receiver(Expr.Call c, Map<String, Object> env) {
		return c.func() instanceof Expr.Attribute a && a.value() instanceof Expr.Name n
				&& env.get(n.id()) instanceof Values.ArgumentParser p ? p : null;
	}

	/** An option's dest, all its flags folded: unknown (null) when the dest keyword or a flag does not fold. */
	private static String destination(Expr.Call c, ConstEval eval) {
		for (Expr.Keyword k : c.keywords()) {
			if ("dest".equals(k.name())) {
				return eval.eval(k.value()) instanceof String d ? d : null;
			}
		}
		List<Object> flags = new ArrayList<>();
		for (Expr arg : c.args()) {
			Object flag = eval.eval(arg);
			if (!(flag instanceof String)) {
				return null;
			}
			flags.add(flag);
		}
		return destination(null, flags);
	}

	/**
	 * argparse's dest for an option: {@code dest} when given, else the first long option among the flags
	 * (strings; anything else is passed over), else the first flag, its dashes dropped and inner dashes
	 * as underscores; null without any. The jit interpreter's argparse names options by it too.
	 */
	public static String destination(String dest, List<?> flags) {
		if (dest != null) {
			return dest;
		}
		for (Object a : flags) {
			if (a instanceof String flag && flag.startsWith("--")) {
				return flag.substring(2).replace('-', '_');
			}
		}
		return !flags.isEmpty() && flags.get(0) instanceof String flag ? flag.replaceFirst("^-+", "").replace('-', '_') : null;
	}

	/**
	 * The value an option has in a run without arguments: its default (a string converted by
	 * {@code type=int} or {@code type=float}, as argparse does), False or True for {@code store_true}
	 * and {@code store_false}, else None; unknown for a positional argument, which such a run lacks.
	 */
	private static Object defaultOf(Expr.Call c, ConstEval eval) {
		Map<String, Expr> kw = new LinkedHashMap<>();
		for (Expr.Keyword k : c.keywords()) {
			if (k.name() != null) {
				kw.put(k.name(), k.value());
			}
		}
		boolean positional = !c.args().isEmpty() && eval.eval(c.args().get(0)) instanceof String f && !f.startsWith("-");
		Object nargs = kw.containsKey("nargs") ? eval.eval(kw.get("nargs")) : null;
		if (positional && !"?".equals(nargs) && !"*".equals(nargs)) {
			return Values.Unknown.INSTANCE;
		}
		Object action = kw.containsKey("action") ? eval.eval(kw.get("action")) : null;
		if (kw.containsKey("default")) {
			Object v = eval.eval(kw.get("default"));
			Expr type = kw.get("type");
			if (v instanceof String s && type instanceof Expr.Name t) {
				try {
					return switch (t.id()) {
					case "int" -> (Object) Long.parseLong(s.strip());
					case "float" -> (Object) Double.parseDouble(s.strip());
					case "str" -> s;
					default -> Values.Unknown.INSTANCE;
					};
				} catch (NumberFormatException e) {
					return Values.Unknown.INSTANCE;
				}
			}
			return v;
		}
		if ("store_true".equals(action)) {
			return false;
		}
		if ("store_false".equals(action)) {
			return true;
		}
		return action == null || "store".equals(action) ? Values.None.INSTANCE : Values.Unknown.INSTANCE;
	}
}
