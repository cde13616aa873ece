package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.facts.ConstEval;
import dev.ptotools.analyzer.facts.SubscriptOps;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.lower.ModuleLowering;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/**
 * Decides, for every subscript read of every DSL body, what pypto's parser builds from it
 * ({@link SubscriptOps}). The parser knows each operand's type when it reaches the subscript, so this
 * pass follows the body in source order as the parser does, with the types it can know: parameter
 * annotations, annotated assignments, the result of views, reads, creations and loads, and the
 * return annotations of the program's functions. Only the kind (tensor, tile, tuple, array, scalar)
 * and the rank matter: they alone choose between a read and a view.
 */
public final class ClassifySubscriptsPass implements Pass {

	@Override
	public String name() {
		return "classify-subscripts";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.CALLS, Keys.CONSTANTS);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.SUBSCRIPTS);
	}

	@Override
	public void run(Facts facts) {
		ModuleIR module = facts.get(Keys.MODULE);
		CallResolution calls = facts.get(Keys.CALLS);
		IdentityHashMap<Expr.Subscript, SubscriptOps.Info> infos = new IdentityHashMap<>();
		for (Program p : module.programs()) {
			ConstEval eval = facts.get(Keys.CONSTANTS).evaluator(p);
			for (Function f : p.functions()) {
				new Typer(calls, eval, infos).function(f);
			}
		}
		facts.put(Keys.SUBSCRIPTS, new SubscriptOps(infos));
	}

	enum Kind {
		TENSOR, TILE, TUPLE, ARRAY, SCALAR, UNKNOWN
	}

	/** What the parser knows of a value: its kind, its rank (-1 unknown) and a tuple's items. */
	record T(Kind kind, int rank, List<T> items) {
		static final T UNKNOWN = new T(Kind.UNKNOWN, -1, List.of());
		static final T SCALAR = new T(Kind.SCALAR, -1, List.of());

		static T of(Kind kind, int rank) {
			return new T(kind, rank, List.of());
		}

		boolean shaped() {
			return kind == Kind.TENSOR || kind == Kind.TILE;
		}
	}

	/** Types one function body in source order, recording every subscript it meets. */
	static final class Typer {
		private final CallResolution calls;
		private final ConstEval eval;
		private final IdentityHashMap<Expr.Subscript, SubscriptOps.Info> infos;
		private final IdentityHashMap<Expr.Subscript, T> results = new IdentityHashMap<>();
		private final Map<String, T> env = new HashMap<>();

		Typer(CallResolution calls, ConstEval eval, IdentityHashMap<Expr.Subscript, SubscriptOps.Info> infos) {
			this.calls = calls;
			this.eval = eval;
			this.infos = infos;
		}

		void function(Function f) {
			for (dev.ptotools.analyzer.ir.Param p : f.params()) {
				env.put(p.name(), ofTypeSpec(p.type()));
			}
			body(f.body());
		}

		private void body(List<Stmt> stmts) {
			for (Stmt s : stmts) {
				// The parser types a statement's expressions before it binds its targets.
				if (s instanceof Stmt.Assign a) {
					reads(a.value());
					a.targets().forEach(this::target); // not the annotation: pl.Tensor[...] there is a type
				} else if (s instanceof Stmt.AugAssign a) {
					reads(a.value());
					target(a.target());
				} else {
					Walk.ownExpressions(s).forEach(this::reads);
				}
				bind(s);
				for (List<Stmt> inner : Walk.children(s)) {
					body(inner);
				}
			}
		}

		private void reads(Expr e) {
			Walk.expressions(e, x -> {
				if (x instanceof Expr.Subscript sub) {
					subscript(sub);
				}
			});
		}

		/**
		 * An assignment target: {@code y[...] = v} is a write (ast_parser.py _parse_subscript_assignment:
		 * tensor.assemble, tile.assemble or array.update_element by the type of y); the subscripts
		 * inside its indices are reads.
		 */
		private void target(Expr t) {
			if (t instanceof Expr.Subscript sub) {
				T base = typeOf(sub.value());
				SubscriptOps.Op op = switch (base.kind()) {
				case TENSOR -> SubscriptOps.Op.TENSOR_ASSEMBLE;
				case TILE -> SubscriptOps.Op.TILE_ASSEMBLE;
				case ARRAY -> SubscriptOps.Op.ARRAY_UPDATE;
				default -> SubscriptOps.Op.WRITE;
				};
				infos.put(sub, new SubscriptOps.Info(op, base.shaped() ? base.rank() : -1));
				if (!(sub.value() instanceof Expr.Name)) {
					reads(sub.value());
				}
				sub.indices().forEach(this::reads);
			} else if (t instanceof Expr.TupleExpr tuple) {
				tuple.elts().forEach(this::target);
			} else if (t instanceof Expr.ListExpr list) {
				list.elts().forEach(this::target);
			} else if (t instanceof Expr.Starred st) {
				target(st.value());
			} else {
				reads(t);
			}
		}

		private void bind(Stmt s) {
			if (s instanceof Stmt.Assign a && a.value() != null) {
				T declared = a.annotation() == null ? T.UNKNOWN : ofAnnotation(a.annotation());
				T value = declared.kind() != Kind.UNKNOWN ? declared : typeOf(a.value());
				for (Expr t : a.targets()) {
					bindTarget(t, value);
				}
			} else if (s instanceof Stmt.For f) {
				if (f.target() instanceof Expr.Name n) {
					env.put(n.id(), T.SCALAR);
				} else {
					bindTarget(f.target(), T.UNKNOWN);
					String v = Walk.loopVariable(f);
					if (v != null) {
						env.put(v, T.SCALAR);
					}
				}
			} else if (s instanceof Stmt.With w) {
				for (Stmt.WithItem item : w.items()) {
					if (item.target() != null) {
						bindTarget(item.target(), T.UNKNOWN);
					}
				}
			}
		}

		private void bindTarget(Expr target, T value) {
			if (target instanceof Expr.Name n) {
				env.put(n.id(), value);
			} else if (target instanceof Expr.TupleExpr || target instanceof Expr.ListExpr) {
				List<Expr> elts = target instanceof Expr.TupleExpr t ? t.elts() : ((Expr.ListExpr) target).elts();
				for (int i = 0; i < elts.size(); i++) {
					T item = value.kind() == Kind.TUPLE && i < value.items().size() ? value.items().get(i) : T.UNKNOWN;
					bindTarget(elts.get(i), item);
				}
			} else if (target instanceof Expr.Starred st) {
				bindTarget(st.value(), T.UNKNOWN);
			}
			// y[...] = v rebinds y to an assemble of y: same kind and rank, nothing to change.
		}

		// ---- expression types ---------------------------------------------------------------

		T typeOf(Expr e) {
			if (e instanceof Expr.Name n) {
				return env.getOrDefault(n.id(), T.UNKNOWN);
			}
			if (e instanceof Expr.Subscript s) {
				return subscript(s);
			}
			if (e instanceof Expr.Call c) {
				return callType(c);
			}
			if (e instanceof Expr.Literal l) {
				return l.value() instanceof String || l.value() == null ? T.UNKNOWN : T.SCALAR;
			}
			if (e instanceof Expr.BinOp b) {
				return typeOf(b.left()).kind() == Kind.SCALAR && typeOf(b.right()).kind() == Kind.SCALAR ? T.SCALAR
						: T.UNKNOWN;
			}
			if (e instanceof Expr.UnaryOp u) {
				return typeOf(u.operand()).kind() == Kind.SCALAR ? T.SCALAR : T.UNKNOWN;
			}
			if (e instanceof Expr.TupleExpr t) {
				List<T> items = new ArrayList<>();
				t.elts().forEach(x -> items.add(typeOf(x)));
				return new T(Kind.TUPLE, items.size(), List.copyOf(items));
			}
			return T.UNKNOWN;
		}

		/**
		 * ast_parser.py parse_subscript / _parse_tensor_subscript / _parse_tile_subscript: an all-scalar
		 * subscript with as many indices as dims reads an element; anything else is a slice that drops
		 * the scalar-indexed dims (tiles are floored back to 2-D).
		 */
		private T subscript(Expr.Subscript s) {
			T done = results.get(s);
			if (done != null) {
				return done;
			}
			T base = typeOf(s.value());
			List<Expr> indices = indices(s);
			int scalars = 0;
			boolean slice = false;
			for (Expr i : indices) {
				if (i instanceof Expr.SliceExpr) {
					slice = true;
				} else {
					scalars++;
				}
			}
			SubscriptOps.Op op;
			T result;
			if (base.shaped()) {
				boolean tile = base.kind() == Kind.TILE;
				int rank = base.rank();
				if (rank >= 0 && indices.size() > rank) {
					op = SubscriptOps.Op.UNKNOWN; // pypto rejects it: more indices than dims
					result = T.UNKNOWN;
				} else if (!slice && rank >= 0 && indices.size() == rank) {
					op = tile ? SubscriptOps.Op.TILE_READ : SubscriptOps.Op.TENSOR_READ;
					result = T.SCALAR;
				} else if (slice || rank >= 0) {
					op = tile ? SubscriptOps.Op.TILE_SLICE : SubscriptOps.Op.TENSOR_SLICE;
					int natural = rank < 0 ? -1 : rank - scalars;
					result = T.of(base.kind(), tile && scalars > 0 && natural >= 0 && natural < 2 ? 2 : natural);
				} else {
					op = SubscriptOps.Op.UNKNOWN; // all scalar, rank unknown: a read or a view
					result = T.of(base.kind(), -1);
				}
			} else if (base.kind() == Kind.TUPLE) {
				op = SubscriptOps.Op.TUPLE_ITEM;
				Long k = indices.size() == 1 ? eval.asLong(indices.get(0)) : null;
				result = k != null && k >= 0 && k < base.items().size() ? base.items().get(k.intValue()) : T.UNKNOWN;
			} else if (base.kind() == Kind.ARRAY) {
				op = SubscriptOps.Op.ARRAY_READ;
				result = T.SCALAR;
			} else {
				op = SubscriptOps.Op.UNKNOWN;
				result = T.UNKNOWN;
			}
			infos.put(s, new SubscriptOps.Info(op, base.shaped() ? base.rank() : -1));
			results.put(s, result);
			return result;
		}

		/** {@code x[(i, j)]} is {@code x[i, j]} to CPython's ast, as pypto reads it. */
		private static List<Expr> indices(Expr.Subscript s) {
			if (s.indices().size() == 1 && s.indices().get(0) instanceof Expr.TupleExpr t && !t.elts().isEmpty()) {
				return t.elts();
			}
			return s.indices();
		}

		private T callType(Expr.Call c) {
			Function target = calls.target(c);
			if (target != null) {
				return target.returnAnnotation() == null ? T.UNKNOWN : ofAnnotation(target.returnAnnotation());
			}
			if (!(calls.of(c) instanceof Callee.BuiltinCall b)) {
				return T.UNKNOWN;
			}
			if (b.is("tensor.read") || b.is("tile.read") || b.is("array.get_element")) {
				return T.SCALAR;
			}
			if (b.is("tensor.slice") || b.is("tile.slice")) {
				T base = typeOf(arg(c, 0, "input", "tensor", "tile"));
				Kind kind = base.shaped() ? base.kind() : b.is("tile.slice") && !b.is("tensor.slice") ? Kind.TILE
						: b.is("tensor.slice") && !b.is("tile.slice") ? Kind.TENSOR : Kind.UNKNOWN;
				int rank = length(arg(c, 1, "shape"));
				Expr dropArg = arg(c, 4, "drop_dims");
				int drop = dropArg == null ? 0 : length(dropArg);
				int natural = rank < 0 || drop < 0 ? -1 : rank - drop;
				return T.of(kind, kind == Kind.TILE && drop > 0 && natural >= 0 && natural < 2 ? 2 : natural);
			}
			if (b.is("pld.tensor.window")) {
				return T.of(Kind.TENSOR, length(arg(c, 1, "shape")));
			}
			if (b.is("tensor.create")) {
				return T.of(Kind.TENSOR, length(arg(c, 0, "shape")));
			}
			if (b.is("tile.create")) {
				return T.of(Kind.TILE, length(arg(c, 0, "shape")));
			}
			if (b.is("tile.load")) {
				return T.of(Kind.TILE, length(arg(c, 2, "shapes")));
			}
			if (b.is("tensor.reshape") || b.is("tile.reshape")) {
				T base = typeOf(arg(c, 0, "input", "tensor", "tile"));
				return base.shaped() ? T.of(base.kind(), length(arg(c, 1, "shape"))) : T.UNKNOWN;
			}
			if (b.is("pl.tensor.no_dep")) {
				return typeOf(arg(c, 0, "tensor"));
			}
			return T.UNKNOWN;
		}

		private static Expr arg(Expr.Call c, int position, String... names) {
			for (String n : names) {
				Expr.Keyword k = c.keyword(n);
				if (k != null) {
					return k.value();
				}
			}
			return position < c.args().size() && !(c.args().get(position) instanceof Expr.Starred)
					? c.args().get(position)
					: null;
		}

		/** The number of items of a shape written as a list or tuple, or folded to one; -1 when not known. */
		private int length(Expr e) {
			if (e instanceof Expr.ListExpr || e instanceof Expr.TupleExpr) {
				List<Expr> elts = e instanceof Expr.ListExpr l ? l.elts() : ((Expr.TupleExpr) e).elts();
				return elts.stream().anyMatch(x -> x instanceof Expr.Starred) ? -1 : elts.size();
			}
			if (e == null) {
				return -1;
			}
			return eval.eval(e) instanceof List<?> l ? l.size() : -1;
		}

		// ---- annotations --------------------------------------------------------------------

		private T ofAnnotation(Expr annotation) {
			if (annotation instanceof Expr.Subscript s && isTupleHead(s.value())) {
				List<Expr> elts = indices(s);
				List<T> items = new ArrayList<>();
				elts.forEach(x -> items.add(ofAnnotation(x)));
				return new T(Kind.TUPLE, items.size(), List.copyOf(items));
			}
			Expr inner = annotation;
			if (annotation instanceof Expr.Subscript s && s.indices().size() == 1) {
				String head = lastName(s.value());
				if ("Out".equals(head) || "InOut".equals(head)) {
					inner = s.indices().get(0);
				}
			}
			return ofTypeSpec(ModuleLowering.typeSpec(inner));
		}

		private T ofTypeSpec(TypeSpec type) {
			if (type instanceof TypeSpec.Tensor t) {
				Kind kind = t.kind() == TypeSpec.TensorKind.TILE ? Kind.TILE : Kind.TENSOR;
				return T.of(kind, rank(t.shape()));
			}
			if (type instanceof TypeSpec.Scalar) {
				return T.SCALAR;
			}
			if (type instanceof TypeSpec.Other o) {
				return switch (o.text()) {
				case "Array" -> T.of(Kind.ARRAY, 1);
				case "Tuple", "tuple" -> new T(Kind.TUPLE, -1, List.of());
				default -> T.UNKNOWN;
				};
			}
			return T.UNKNOWN;
		}

		/**
		 * The rank of a written shape. {@code pl.Tensor[[N], ...]} and {@code pl.Tensor[SHAPE, ...]}
		 * both reach here as one item: a name that folds to a list is the whole shape, one that folds to
		 * a number (or any other dim expression) is one dim, and an unknown name is either.
		 */
		private int rank(List<Expr> shape) {
			if (shape == null) {
				return -1;
			}
			if (shape.stream().anyMatch(x -> x instanceof Expr.Starred)) {
				return -1;
			}
			if (shape.size() != 1) {
				return shape.size();
			}
			Expr only = shape.get(0);
			if (only instanceof Expr.Literal || only instanceof Expr.BinOp || only instanceof Expr.UnaryOp) {
				return 1;
			}
			Object v = eval.eval(only);
			if (v instanceof List<?> l) {
				return l.size();
			}
			return Values.known(v) ? 1 : -1;
		}

		private static boolean isTupleHead(Expr e) {
			String last = lastName(e);
			return "tuple".equals(last) || "Tuple".equals(last);
		}
	}

	/** The last part of a dotted name ("pl.Tensor" gives "Tensor"). */
	private static String lastName(Expr e) {
		if (e instanceof Expr.Name n) {
			return n.id();
		}
		return e instanceof Expr.Attribute a ? a.attr() : null;
	}
}
