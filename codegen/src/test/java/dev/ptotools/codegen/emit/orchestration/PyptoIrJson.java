package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.ArgDirection;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.types.DType;

/**
 * Development harness support: reads the JSON a small exporter writes from pypto's IR as pypto's
 * orchestration codegen received it (after pypto's own pipeline), into this compiler's IR, so the
 * emitter can be compared with pypto's output on exactly the same IR while the passes before it are
 * still being ported. The exporter lives outside the repository (it drives pypto); the JSON format is
 * plain nested objects, one per IR node, Vars identified by pypto's unique ids.
 */
final class PyptoIrJson {

	/** A loaded program, its orchestration function and what pypto generated for it. */
	record Loaded(Program program, Function orch, String code, Map<String, Object> raw) {
	}

	private final Map<Long, Var> vars = new HashMap<>();

	private PyptoIrJson() {
	}

	@SuppressWarnings("unchecked")
	static Loaded load(String json) {
		Map<String, Object> d = (Map<String, Object>) new Parser(json).value();
		PyptoIrJson b = new PyptoIrJson();
		List<Function> fs = new ArrayList<>();
		for (Object o : (List<Object>) d.get("functions")) {
			fs.add(b.function((Map<String, Object>) o));
		}
		Program p = new Program((String) d.get("program"), fs);
		return new Loaded(p, p.function((String) d.get("orch")), (String) d.get("code"), d);
	}

	@SuppressWarnings("unchecked")
	private Function function(Map<String, Object> f) {
		List<Var> params = new ArrayList<>();
		for (Object p : (List<Object>) f.get("params")) {
			params.add((Var) expr((Map<String, Object>) p));
		}
		List<Direction> dirs = new ArrayList<>();
		for (Object o : (List<Object>) f.get("dirs")) {
			dirs.add(Direction.valueOf((String) o));
		}
		List<Type> rets = new ArrayList<>();
		for (Object o : (List<Object>) f.get("returns")) {
			rets.add(type((Map<String, Object>) o));
		}
		Stmt body = stmt((Map<String, Object>) f.get("body"));
		return new Function((String) f.get("name"), FunctionType.valueOf((String) f.get("type")), params, dirs, rets, body,
				null, null, attrs((List<Object>) f.get("attrs")), Span.NONE);
	}

	@SuppressWarnings("unchecked")
	private Map<String, Object> attrs(List<Object> pairs) {
		Map<String, Object> out = new LinkedHashMap<>();
		for (Object o : pairs) {
			List<Object> kv = (List<Object>) o;
			out.put((String) kv.get(0), value(kv.get(1)));
		}
		return out;
	}

	@SuppressWarnings("unchecked")
	private Object value(Object v) {
		if (v instanceof List<?> l) {
			List<Object> out = new ArrayList<>();
			for (Object o : l) {
				out.add(value(o));
			}
			return out;
		}
		if (v instanceof Map<?, ?> m) {
			Map<String, Object> mm = (Map<String, Object>) m;
			if (mm.containsKey("expr")) {
				return expr((Map<String, Object>) mm.get("expr"));
			}
			if (mm.containsKey("adir")) {
				return ArgDirection.valueOf((String) mm.get("adir"));
			}
			if (mm.containsKey("dtype")) {
				return dtype((String) mm.get("dtype"));
			}
			if (mm.containsKey("enum")) {
				String s = (String) mm.get("enum");
				return s.substring(s.lastIndexOf('.') + 1);
			}
		}
		return v;
	}

	static DType dtype(String text) {
		for (DType d : DType.values()) {
			if (d.text().equals(text) || d.dslName().equalsIgnoreCase(text)) {
				return d;
			}
		}
		throw new IllegalArgumentException("unknown dtype " + text);
	}

	@SuppressWarnings("unchecked")
	private Type type(Map<String, Object> t) {
		if (t == null) {
			return Type.UNKNOWN;
		}
		switch ((String) t.get("k")) {
		case "Tensor": {
			Object layout = t.get("layout");
			Type.TensorView view = layout == null ? null : new Type.TensorView((String) layout, List.of(), List.of());
			return new Type.Tensor(exprs((List<Object>) t.get("shape")), dtype((String) t.get("dtype")), view,
					Boolean.TRUE.equals(t.get("distributed")), null);
		}
		case "Tile":
			return new Type.Tile(exprs((List<Object>) t.get("shape")), dtype((String) t.get("dtype")));
		case "Scalar":
			return new Type.Scalar(dtype((String) t.get("dtype")));
		case "Tuple": {
			List<Type> els = new ArrayList<>();
			for (Object o : (List<Object>) t.get("types")) {
				els.add(type((Map<String, Object>) o));
			}
			return new Type.Tuple(els);
		}
		case "Array":
			return new Type.Array(dtype((String) t.get("dtype")), List.of(expr((Map<String, Object>) t.get("extent"))));
		case "CommCtx":
			return new Type.CommCtx();
		default:
			return Type.UNKNOWN;
		}
	}

	@SuppressWarnings("unchecked")
	private List<Expr> exprs(List<Object> l) {
		List<Expr> out = new ArrayList<>();
		for (Object o : l) {
			out.add(expr((Map<String, Object>) o));
		}
		return out;
	}

	@SuppressWarnings("unchecked")
	private Expr expr(Map<String, Object> e) {
		if (e == null) {
			return null;
		}
		switch ((String) e.get("k")) {
		case "Var": {
			long id = ((Number) e.get("id")).longValue();
			Var v = vars.get(id);
			if (v == null) {
				v = new Var((String) e.get("name"), type((Map<String, Object>) e.get("type")));
				vars.put(id, v);
			}
			return v;
		}
		case "IterArg": {
			long id = ((Number) e.get("id")).longValue();
			Var v = vars.get(id);
			if (v == null) {
				Expr init = expr((Map<String, Object>) e.get("init"));
				v = new IterArg((String) e.get("name"), type((Map<String, Object>) e.get("type")), init, Span.NONE);
				vars.put(id, v);
			}
			return v;
		}
		case "ConstInt":
			return new Expr.ConstInt(((Number) e.get("v")).longValue(), dtype((String) e.get("dtype")), Span.NONE);
		case "ConstFloat":
			return new Expr.ConstFloat(((Number) e.get("v")).doubleValue(), dtype((String) e.get("dtype")), Span.NONE);
		case "ConstBool":
			return new Expr.ConstBool(Boolean.TRUE.equals(e.get("v")), Span.NONE);
		case "Bin": {
			Type t = type((Map<String, Object>) e.get("type"));
			DType d = t instanceof Type.Scalar s ? s.dtype() : DType.INDEX;
			return new Expr.Binary(Expr.BinaryOp.valueOf((String) e.get("op")), expr((Map<String, Object>) e.get("l")),
					expr((Map<String, Object>) e.get("r")), d, Span.NONE);
		}
		case "Un": {
			Type t = type((Map<String, Object>) e.get("type"));
			DType d = t instanceof Type.Scalar s ? s.dtype() : DType.INDEX;
			return new Expr.Unary(Expr.UnaryOp.valueOf((String) e.get("op")), expr((Map<String, Object>) e.get("x")), d,
					Span.NONE);
		}
		case "Call": {
			Expr.Callee callee = Boolean.TRUE.equals(e.get("fn")) ? new Expr.Callee.Function((String) e.get("name"))
					: new Expr.Callee.Op((String) e.get("name"));
			Map<String, Object> kwargs = new LinkedHashMap<>();
			for (Map.Entry<String, Object> kv : ((Map<String, Object>) e.get("kwargs")).entrySet()) {
				kwargs.put(kv.getKey(), value(kv.getValue()));
			}
			return new Expr.Call(callee, exprs((List<Object>) e.get("args")), kwargs, attrs((List<Object>) e.get("attrs")),
					type((Map<String, Object>) e.get("type")), Span.NONE);
		}
		case "Submit":
			return new Expr.Submit(new Expr.Callee.Function((String) e.get("name")), exprs((List<Object>) e.get("args")),
					exprs((List<Object>) e.get("deps")), expr((Map<String, Object>) e.get("core_num")),
					Boolean.TRUE.equals(e.get("sync_start")), attrs((List<Object>) e.get("attrs")),
					type((Map<String, Object>) e.get("type")), Span.NONE);
		case "MakeTuple":
			return new Expr.MakeTuple(exprs((List<Object>) e.get("els")), Span.NONE);
		case "Get":
			return new Expr.TupleGetItem(expr((Map<String, Object>) e.get("t")), ((Number) e.get("i")).intValue(), Span.NONE);
		default:
			throw new IllegalArgumentException("unknown expr " + e.get("k") + " " + e.get("name"));
		}
	}

	@SuppressWarnings("unchecked")
	private Stmt stmt(Map<String, Object> s) {
		if (s == null) {
			return null;
		}
		switch ((String) s.get("k")) {
		case "Assign":
			return new Stmt.Assign((Var) expr((Map<String, Object>) s.get("var")), expr((Map<String, Object>) s.get("value")),
					Span.NONE);
		case "Eval":
			return new Stmt.Eval(expr((Map<String, Object>) s.get("e")), Span.NONE);
		case "Seq": {
			List<Stmt> ss = new ArrayList<>();
			for (Object o : (List<Object>) s.get("ss")) {
				ss.add(stmt((Map<String, Object>) o));
			}
			return new Stmt.Seq(ss, Span.NONE);
		}
		case "If":
			return new Stmt.If(expr((Map<String, Object>) s.get("c")), stmt((Map<String, Object>) s.get("then")),
					stmt((Map<String, Object>) s.get("else")), vars((List<Object>) s.get("rv")), Span.NONE);
		case "For": {
			Var lv = (Var) expr((Map<String, Object>) s.get("lv"));
			Expr start = expr((Map<String, Object>) s.get("start"));
			Expr stop = expr((Map<String, Object>) s.get("stop"));
			Expr step = expr((Map<String, Object>) s.get("step"));
			List<IterArg> iters = new ArrayList<>();
			for (Object o : (List<Object>) s.get("iters")) {
				iters.add((IterArg) expr((Map<String, Object>) o));
			}
			Stmt body = stmt((Map<String, Object>) s.get("body"));
			return new Stmt.For(lv, start, stop, step, iters, body, vars((List<Object>) s.get("rv")),
					Stmt.ForKind.valueOf((String) s.get("kind")), attrs((List<Object>) s.get("attrs")), Span.NONE);
		}
		case "While": {
			List<IterArg> iters = new ArrayList<>();
			for (Object o : (List<Object>) s.get("iters")) {
				iters.add((IterArg) expr((Map<String, Object>) o));
			}
			return new Stmt.While(expr((Map<String, Object>) s.get("c")), iters, stmt((Map<String, Object>) s.get("body")),
					vars((List<Object>) s.get("rv")), Span.NONE);
		}
		case "Yield":
			return new Stmt.Yield(exprs((List<Object>) s.get("vs")), Span.NONE);
		case "Return":
			return new Stmt.Return(exprs((List<Object>) s.get("vs")), Span.NONE);
		case "Break":
			return new Stmt.Break(Span.NONE);
		case "Continue":
			return new Stmt.Continue(Span.NONE);
		case "RuntimeScope":
			return new Stmt.RuntimeScope((String) s.get("name"), Boolean.TRUE.equals(s.get("manual")),
					stmt((Map<String, Object>) s.get("body")), Span.NONE);
		case "SplitAiv":
			return new Stmt.SplitAivScope("", "None", 2, stmt((Map<String, Object>) s.get("body")), Span.NONE);
		case "OtherScope":
			return new Stmt.ClusterScope((String) s.get("name"), stmt((Map<String, Object>) s.get("body")), Span.NONE);
		default:
			return new Stmt.Seq(List.of(), Span.NONE);
		}
	}

	@SuppressWarnings("unchecked")
	private List<Var> vars(List<Object> l) {
		List<Var> out = new ArrayList<>();
		for (Object o : l) {
			out.add((Var) expr((Map<String, Object>) o));
		}
		return out;
	}

	/** A minimal JSON reader: objects as LinkedHashMaps, arrays as Lists, integers as Long. */
	private static final class Parser {
		private final String s;
		private int i;

		Parser(String s) {
			this.s = s;
		}

		Object value() {
			ws();
			char c = s.charAt(i);
			if (c == '{') {
				i++;
				Map<String, Object> m = new LinkedHashMap<>();
				ws();
				if (s.charAt(i) == '}') {
					i++;
					return m;
				}
				while (true) {
					ws();
					String k = string();
					ws();
					i++; // :
					m.put(k, value());
					ws();
					if (s.charAt(i++) == '}') {
						return m;
					}
				}
			}
			if (c == '[') {
				i++;
				List<Object> l = new ArrayList<>();
				ws();
				if (s.charAt(i) == ']') {
					i++;
					return l;
				}
				while (true) {
					l.add(value());
					ws();
					if (s.charAt(i++) == ']') {
						return l;
					}
				}
			}
			if (c == '"') {
				return string();
			}
			if (s.startsWith("true", i)) {
				i += 4;
				return true;
			}
			if (s.startsWith("false", i)) {
				i += 5;
				return false;
			}
			if (s.startsWith("null", i)) {
				i += 4;
				return null;
			}
			if (s.startsWith("NaN", i)) {
				i += 3;
				return Double.NaN;
			}
			if (s.startsWith("Infinity", i)) {
				i += 8;
				return Double.POSITIVE_INFINITY;
			}
			if (s.startsWith("-Infinity", i)) {
				i += 9;
				return Double.NEGATIVE_INFINITY;
			}
			int start = i;
			while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
				i++;
			}
			String num = s.substring(start, i);
			if (num.contains(".") || num.contains("e") || num.contains("E")) {
				return Double.parseDouble(num);
			}
			return Long.parseLong(num);
		}

		private String string() {
			StringBuilder b = new StringBuilder();
			i++; // opening quote
			while (true) {
				char c = s.charAt(i++);
				if (c == '"') {
					return b.toString();
				}
				if (c == '\\') {
					char e = s.charAt(i++);
					switch (e) {
					case 'n' -> b.append('\n');
					case 't' -> b.append('\t');
					case 'r' -> b.append('\r');
					case 'b' -> b.append('\b');
					case 'f' -> b.append('\f');
					case 'u' -> {
						b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
						i += 4;
					}
					default -> b.append(e);
					}
				} else {
					b.append(c);
				}
			}
		}

		private void ws() {
			while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
				i++;
			}
		}
	}
}
