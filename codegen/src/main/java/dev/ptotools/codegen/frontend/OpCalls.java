package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.catalog.Builtin;
import dev.ptotools.analyzer.catalog.Builtins;
import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Render;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr.Call;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * {@code pl.*} / {@code pld.*} op calls to IR op calls, as pypto's DSL wrappers and IR builders build
 * them: the op chosen by operand types (tensor or tile, scalar or tile rhs), list arguments as
 * MakeTuple, the builders' default keyword arguments, and the result type the op's type deducer gives
 * ({@link OpTypes}).
 */
final class OpCalls {

	private final FunctionParser p;
	private final GatherScatterForms gatherScatter;
	private final SyncallForms syncall;
	private final TileMemoryCalls tiles;

	OpCalls(FunctionParser p) {
		this.p = p;
		this.gatherScatter = new GatherScatterForms(p);
		this.syncall = new SyncallForms(p);
		this.tiles = new TileMemoryCalls(p, this);
	}

	dev.ptotools.codegen.ir.Expr call(Expr.Call c, String name) {
		switch (name) {
		case "pl.const":
			return constant(c);
		case "pl.tensor.dim":
			return dim(c, true);
		case "pl.dim":
			return dim(c, false);
		case "pl.min", "pl.max", "pl.tile.min", "pl.tile.max":
			return minMax(c, name.endsWith("max") ? "max" : "min");
		case "pld.world_size", "pld.system.world_size":
			// _validate_pld_op_call: host orchestration only, outside any device-side scope
			if (p.level != dev.ptotools.analyzer.ir.Level.HOST || p.inDeviceScope()) {
				throw new CodegenException("pld.system.world_size() can only be called in HOST orchestration context (not "
						+ "inside InCore / SPMD scopes); current function level: " + p.levelText(), c.span());
			}
			break;
		default:
			break;
		}
		if (name.endsWith(".get_byte") && c.args().isEmpty()) {
			Object v = p.ctx.closure.eval(c);
			if (v instanceof Long l) {
				return dev.ptotools.codegen.ir.Expr.index(l);
			}
		}
		Builtin b = Builtins.get().lookup(name);
		if (b == null || b.op() == null && !special(b.name())) {
			throw new CodegenException("Unknown operation '" + name + "'", c.span());
		}
		Map<String, Expr> bound = bind(c, b);
		return switch (b.name()) {
		case "pl.tensor.create" -> tensorCreate(c, bound);
		case "pl.tile.load" -> tiles.load(c, name, bound);
		case "pl.tile.store" -> tiles.store(c, name, bound);
		case "pl.tile.move" -> tiles.move(c, bound);
		case "pl.tile.create" -> tiles.create(c, bound);
		case "pl.cast" -> cast(c, bound);
		case "pl.tensor.cast", "pl.tile.cast" -> {
			if (bound.containsKey("mode")) {
				try {
					castMode(bound.get("mode")); // the wrapper's resolve_cast_mode, before the op is built
				} catch (IrTypeError e) {
					throw atCall(name, e, c);
				}
			}
			yield generic(c, name, b, bound);
		}
		case "pl.tensor.slice", "pl.slice", "pl.tile.slice" -> slice(c, name, bound);
		case "pl.tensor.read", "pl.read", "pl.tile.read" -> read(c, bound);
		case "pl.system.task_dummy" -> taskDummy(c, bound);
		case "pl.system.syncall" -> syncall.build(c, bound);
		case "pl.tile.aiv_shard", "pl.tile.aic_gather" -> SplitTransfers.build(p, c, b.name().endsWith("aiv_shard"));
		default -> {
			if (GatherScatterForms.handles(b.name())) {
				yield gatherScatter.build(b.name(), c, bound);
			}
			bindsAsPython(c, name, b);
			yield generic(c, name, b, bound);
		}
		};
	}

	/**
	 * The call binds to the wrapper's Python signature ({@link PythonBinding}); an error is pypto's for an
	 * exception other than a ValueError: "Error in pl.tile operation 'load': ...". Only for the ops built
	 * straight from their wrapper: the forms handled above read arguments the parser consumes itself.
	 */
	private static void bindsAsPython(Expr.Call c, String name, Builtin b) {
		try {
			PythonBinding.check(c, b);
		} catch (IrTypeError e) {
			int dot = name.lastIndexOf('.');
			throw new CodegenException("Error in " + name.substring(0, Math.max(dot, 0)) + " operation '"
					+ name.substring(dot + 1) + "': " + e.getMessage(), c.span());
		}
	}

	private static boolean special(String name) {
		return false;
	}

	// ---- argument binding -----------------------------------------------------------------------

	/** The call's arguments by the op's parameter names (positional first, then keywords). */
	private static Map<String, Expr> bind(Expr.Call c, Builtin b) {
		Map<String, Expr> out = new LinkedHashMap<>();
		List<Builtin.BuiltinParam> ps = b.params();
		int pos = 0;
		for (Expr a : c.args()) {
			if (pos < ps.size() && !ps.get(pos).kind().equals("varargs")) {
				out.put(ps.get(pos).name(), a);
				pos++;
			} else {
				out.put("#" + pos++, a);
			}
		}
		for (Expr.Keyword k : c.keywords()) {
			if (k.name() != null) {
				out.put(k.name(), k.value());
			}
		}
		return out;
	}

	dev.ptotools.codegen.ir.Expr ir(Expr e) {
		return p.exprs.expr(e);
	}

	dev.ptotools.codegen.ir.Expr.MakeTuple tuple(Expr e) {
		dev.ptotools.codegen.ir.Expr x = ir(e);
		if (x instanceof dev.ptotools.codegen.ir.Expr.MakeTuple t) {
			return t;
		}
		return new dev.ptotools.codegen.ir.Expr.MakeTuple(List.of(x), e.span());
	}

	DType dtype(Expr e) {
		Object v = p.exprs.kwargValue(e);
		if (v instanceof DType d) {
			return d;
		}
		throw new CodegenException("Unknown dtype: " + Render.expr(e), e.span());
	}

	MemorySpace memory(Expr e, MemorySpace fallback) {
		if (e == null) {
			return fallback;
		}
		Object v = p.exprs.kwargValue(e);
		if (v instanceof MemorySpace m) {
			return m;
		}
		if (v instanceof Long l && l >= 0 && l < MemorySpace.values().length) {
			return MemorySpace.values()[(int) (long) l];
		}
		throw new CodegenException("Expected pl.MemorySpace.<name>, got " + Render.expr(e), e.span());
	}

	// ---- special forms --------------------------------------------------------------------------

	private dev.ptotools.codegen.ir.Expr constant(Expr.Call c) {
		if (c.args().size() != 2) {
			throw new CodegenException("pl.const(value, dtype) takes a numeric literal and a dtype", c.span());
		}
		Object v = p.ctx.closure.eval(c.args().get(0));
		DType d = dtype(c.args().get(1));
		if (v instanceof Boolean bool) {
			return new dev.ptotools.codegen.ir.Expr.ConstBool(bool, c.span());
		}
		if (!(v instanceof Long || v instanceof Double)) {
			throw new CodegenException("pl.const() first argument must be a numeric literal", c.args().get(0).span());
		}
		if (d.isFloat()) {
			return new dev.ptotools.codegen.ir.Expr.ConstFloat(((Number) v).doubleValue(), d, c.span());
		}
		return new dev.ptotools.codegen.ir.Expr.ConstInt(((Number) v).longValue(), d, c.span());
	}

	/**
	 * {@code pl.tensor.dim(x, k)}: in an orchestration function, when x's declared extent k is a
	 * pl.dynamic symbol, the symbol itself (no call); otherwise a tensor.dim call.
	 */
	private dev.ptotools.codegen.ir.Expr dim(Expr.Call c, boolean foldable) {
		// tensor and axis, each positional or by its keyword (tensor_ops.dim's parameter names)
		Map<String, Expr> a = new LinkedHashMap<>();
		List<String> names = List.of("tensor", "axis");
		for (int i = 0; i < c.args().size() && i < names.size(); i++) {
			a.put(names.get(i), c.args().get(i));
		}
		for (Expr.Keyword k : c.keywords()) {
			if (k.name() != null && names.contains(k.name()) && a.putIfAbsent(k.name(), k.value()) != null) {
				throw new CodegenException("pl.tensor.dim() got multiple values for argument '" + k.name() + "'", c.span());
			}
		}
		if (c.args().size() > 2 || a.size() != 2 || c.keywords().size() != a.size() - Math.min(2, c.args().size())) {
			throw new CodegenException("pl.tensor.dim(tensor, axis) takes two arguments", c.span());
		}
		Expr tensorArg = a.get("tensor");
		Expr axisArg = a.get("axis");
		dev.ptotools.codegen.ir.Expr t = ir(tensorArg);
		Object axisV = p.ctx.closure.eval(axisArg);
		dev.ptotools.codegen.ir.Expr axis = axisV instanceof Long l ? dev.ptotools.codegen.ir.Expr.index(l) : ir(axisArg);
		if (!(t.type() instanceof Type.Tensor tt)) {
			throw new CodegenException("pl.tensor.dim expects a tensor", c.span());
		}
		if (axis instanceof dev.ptotools.codegen.ir.Expr.ConstInt ci) {
			long k = ci.value() < 0 ? tt.rank() + ci.value() : ci.value();
			if (foldable && p.functionType == dev.ptotools.analyzer.ir.FunctionType.Orchestration
					&& tensorArg instanceof Expr.Name && k >= 0 && k < tt.rank()
					&& tt.shape().get((int) k) instanceof Var sym && p.paramDimSymbols.contains(sym)) {
				return sym;
			}
		}
		return Call.op("tensor.dim", List.of(t, axis), Map.of(), new Type.Scalar(DType.INDEX), c.span());
	}

	private dev.ptotools.codegen.ir.Expr minMax(Expr.Call c, String op) {
		if (c.args().size() != 2) {
			throw new CodegenException("pl." + op + "(a, b) takes two scalar arguments", c.span());
		}
		return ScalarOps.binary(op, ir(c.args().get(0)), ir(c.args().get(1)), c.span());
	}

	private dev.ptotools.codegen.ir.Expr tensorCreate(Expr.Call c, Map<String, Expr> a) {
		dev.ptotools.codegen.ir.Expr.MakeTuple shape = tuple(require(a, "shape", c));
		DType d = dtype(require(a, "dtype", c));
		Map<String, Object> kw = new LinkedHashMap<>();
		kw.put("dtype", d);
		String layout = "ND";
		if (a.containsKey("layout")) {
			String l = TypeResolver.last(dev.ptotools.analyzer.lower.ExprLowering.dotted(a.get("layout")));
			layout = l == null ? "ND" : l;
		}
		kw.put("layout", layout);
		if (a.containsKey("manual_dep") && Boolean.TRUE.equals(p.ctx.closure.eval(a.get("manual_dep")))) {
			kw.put("manual_dep", true);
		}
		if (a.containsKey("init_value")) {
			Object v = p.ctx.closure.eval(a.get("init_value"));
			if (v instanceof Long l) {
				if (l < -(1L << 53) || l > (1L << 53)) {
					throw new CodegenException("create_tensor: integer init_value " + l + " exceeds the exactly-"
							+ "representable range (+/-2**53); large-magnitude integer fills are not supported. Use "
							+ "init_value=0 or a smaller value.", c.span());
				}
				kw.put("init_value", (double) l);
			} else if (v instanceof Double x) {
				if (!Double.isFinite(x)) {
					throw new CodegenException("create_tensor: init_value must be finite, got " + pyFloat(x) + ".",
							c.span());
				}
				kw.put("init_value", x);
			} else if (!(v instanceof Values.None)) {
				throw new CodegenException("create_tensor: init_value must be a number", a.get("init_value").span());
			}
		}
		Type.TensorView view = layout.equals("ND") ? null : new Type.TensorView(layout, List.of(), List.of());
		return Call.op("tensor.create", List.of(shape), kw, new Type.Tensor(shape.elements(), d, view, false, null),
				c.span());
	}

	private static String pyFloat(double x) {
		return Double.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
	}

	/** pl.cast: a scalar Cast on a scalar, else tensor.cast / tile.cast with target_type. */
	private dev.ptotools.codegen.ir.Expr cast(Expr.Call c, Map<String, Expr> a) {
		dev.ptotools.codegen.ir.Expr x = ir(require(a, "input", c));
		DType to = dtype(require(a, "target_type", c));
		if (x.type() instanceof Type.Scalar) {
			return ScalarOps.cast(x, to, c.span());
		}
		Map<String, Object> kw = new LinkedHashMap<>();
		kw.put("target_type", to);
		boolean tile = x.type() instanceof Type.Tile;
		try {
			kw.put("mode", a.containsKey("mode") ? castMode(a.get("mode")) : 2L); // pypto's default: "round"
			OpTypeChecks.sameDtypeCast(tile ? "tile.cast" : "tensor.cast", x.type(), to);
		} catch (IrTypeError e) {
			throw atCall(c.funcText() == null ? "pl.cast" : p.ctx.normalize(c.funcText()), e, c);
		}
		return Call.op(tile ? "tile.cast" : "tensor.cast", List.of(x), kw, OpTypes.withDtype(x.type(), to), c.span());
	}

	/** pypto's resolve_cast_mode: a name of CAST_MODE_NAMES or its int (0-6), as the int. */
	private long castMode(Expr e) {
		Object v = p.exprs.kwargValue(e);
		List<String> names = List.of("none", "rint", "round", "floor", "ceil", "trunc", "odd");
		if (v instanceof Boolean b) {
			throw new IrTypeError("Invalid rounding mode " + (b ? "True" : "False")
					+ ". Expected str name or int in range [0, 6].");
		}
		if (v instanceof Long l) {
			if (l < 0 || l > 6) {
				throw new IrTypeError("Invalid rounding mode " + l + ". Expected int in range [0, 6].");
			}
			return l;
		}
		if (v instanceof String s && names.contains(s)) {
			return names.indexOf(s);
		}
		throw new IrTypeError("Invalid rounding mode '" + v + "'. Expected one of ['none', 'rint', 'round', 'floor', "
				+ "'ceil', 'trunc', 'odd'].");
	}

	/**
	 * {@code slice(t, shape, offset[, valid_shape][, drop_dims])}: operands (t, shape, offset), then
	 * valid_shape (an empty tuple standing in when only drop_dims is given) and drop_dims.
	 */
	private dev.ptotools.codegen.ir.Expr slice(Expr.Call c, String name, Map<String, Expr> a) {
		// pl.tile.slice names its source 'tile'; pl.slice and pl.tensor.slice 'tensor' (or 'input')
		dev.ptotools.codegen.ir.Expr t = ir(a.containsKey("tile") ? a.get("tile") : require(a, "tensor", "input", c));
		boolean tile = t.type() instanceof Type.Tile;
		dev.ptotools.codegen.ir.Expr.MakeTuple shape = tuple(require(a, "shape", c));
		dev.ptotools.codegen.ir.Expr.MakeTuple offset = tuple(require(a, "offset", "offsets", c));
		Expr valid = present(a.get("valid_shape"));
		Expr drop = present(a.get("drop_dims"));
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>(List.of(t, shape, offset));
		List<dev.ptotools.codegen.ir.Expr> kept = new ArrayList<>(shape.elements());
		if (drop != null) {
			args.add(valid != null ? tuple(valid) : new dev.ptotools.codegen.ir.Expr.MakeTuple(List.of(), c.span()));
			dev.ptotools.codegen.ir.Expr.MakeTuple d = tuple(drop);
			args.add(d);
			List<Long> dropped = new ArrayList<>();
			for (dev.ptotools.codegen.ir.Expr x : d.elements()) {
				if (x instanceof dev.ptotools.codegen.ir.Expr.ConstInt ci) {
					dropped.add(ci.value());
				}
			}
			kept.clear();
			for (int i = 0; i < shape.elements().size(); i++) {
				if (!dropped.contains((long) i)) {
					kept.add(shape.elements().get(i));
				}
			}
		} else if (valid != null) {
			args.add(tuple(valid));
		}
		Map<String, Object> kw = new LinkedHashMap<>();
		if (present(a.get("pad_value")) != null) {
			Object v = p.ctx.closure.eval(a.get("pad_value"));
			// slice passes PadValue.null through; any other value is normalized as fillpad's
			boolean none = v instanceof Values.EnumValue e && e.type().equals("PadValue") && e.member().equals("null");
			kw.put("pad_value", none ? v : padValue(name, a.get("pad_value"), c));
		}
		if (present(a.get("clamp")) != null && Boolean.TRUE.equals(p.ctx.closure.eval(a.get("clamp")))) {
			kw.put("clamp", true);
		}
		Type type;
		if (tile) {
			Type.Tile tt = (Type.Tile) t.type();
			type = new Type.Tile(kept, tt.dtype(), tt.memory(), valid != null && drop == null ? tuple(valid).elements() : null);
		} else {
			Type.Tensor tt = (Type.Tensor) t.type();
			Type.TensorView view = valid != null && drop == null
					? new Type.TensorView("ND", List.of(), tuple(valid).elements()) : tt.view();
			type = new Type.Tensor(kept, tt.dtype(), view, tt.distributed(), tt.window());
		}
		String op = tile ? "tile.slice" : "tensor.slice";
		try {
			OpTypeChecks.check(op, args, kw);
		} catch (IrTypeError e) {
			throw atCall(name, e, c);
		}
		return Call.op(op, args, kw, type, c.span());
	}

	/** {@code read(t, indices)}: a single index is a one-element tuple (pypto's flat 1-D access). */
	private dev.ptotools.codegen.ir.Expr read(Expr.Call c, Map<String, Expr> a) {
		// pl.tensor.read(tensor, ...), pl.tile.read(tile, ...), pl.read(src, ...)
		dev.ptotools.codegen.ir.Expr t = ir(a.containsKey("tile") ? a.get("tile") : require(a, "tensor", "src", c));
		Expr idx = require(a, "indices", "offset", c);
		dev.ptotools.codegen.ir.Expr x = ir(idx);
		dev.ptotools.codegen.ir.Expr.MakeTuple tuple = x instanceof dev.ptotools.codegen.ir.Expr.MakeTuple m ? m
				: new dev.ptotools.codegen.ir.Expr.MakeTuple(List.of(x), idx.span());
		boolean tile = t.type() instanceof Type.Tile;
		String op = tile ? "tile.read" : "tensor.read";
		try {
			OpTypeChecks.check(op, List.of(t, tuple), Map.of());
		} catch (IrTypeError e) {
			throw atCall(c.funcText() == null ? "pl.read" : p.ctx.normalize(c.funcText()), e, c);
		}
		return Call.op(op, List.of(t, tuple), Map.of(), new Type.Scalar(OpTypes.dtype(t.type())), c.span());
	}

	/**
	 * {@code pl.system.task_dummy(deps=[...])}: a dependency-only task, as pypto's parser builds it — no
	 * operands, attrs {@code dummy_task=True} and the deps as {@code manual_dep_edges}.
	 */
	private dev.ptotools.codegen.ir.Expr taskDummy(Expr.Call c, Map<String, Expr> a) {
		if (!c.args().isEmpty()) {
			throw new CodegenException("pl.system.task_dummy must not use positional arguments", c.span());
		}
		Expr deps = a.get("deps");
		if (deps == null) {
			throw new CodegenException("pl.system.task_dummy requires keyword argument 'deps'", c.span());
		}
		Map<String, Object> attrs = new LinkedHashMap<>();
		attrs.put("dummy_task", true);
		List<dev.ptotools.codegen.ir.Expr> edges = DepsLists.entries(p, "pl.system.task_dummy", deps);
		if (!edges.isEmpty()) {
			attrs.put("manual_dep_edges", edges);
		}
		return new Call(new dev.ptotools.codegen.ir.Expr.Callee.Op("system.task_dummy"), List.of(), Map.of(), attrs,
				new Type.Scalar(DType.TASK_ID), c.span());
	}

	/** The argument, or null when it is absent or an explicit None (pypto's wrappers treat both alike). */
	static Expr present(Expr e) {
		return e == null || e instanceof Expr.Literal l && l.value() == null ? null : e;
	}

	private static Expr require(Map<String, Expr> a, String name, String alias, Expr.Call c) {
		return a.containsKey(name) ? a.get(name) : require(a, alias, c);
	}

	static Expr require(Map<String, Expr> a, String name, Expr.Call c) {
		Expr e = a.get(name);
		if (e == null) {
			throw new CodegenException("missing argument '" + name + "' in " + Render.expr(c), c.span());
		}
		return e;
	}

	// ---- everything else ------------------------------------------------------------------------

	/**
	 * Positional arguments as IR (lists as MakeTuple) and keywords as values, the op variant chosen by
	 * the operand types from the catalog's candidates ({@code tensor.add | tensor.adds | tile.add |
	 * tile.adds}), the type from {@link OpTypes}.
	 */
	private dev.ptotools.codegen.ir.Expr generic(Expr.Call c, String written, Builtin b, Map<String, Expr> bound) {
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>();
		Map<String, Object> kwargs = new LinkedHashMap<>();
		List<Builtin.BuiltinParam> ps = b.params();
		int positional = c.args().size();
		for (int i = 0; i < positional; i++) {
			Expr a = c.args().get(i);
			if (i < ps.size() && ps.get(i).name().equals("pad_value")) {
				kwargs.put("pad_value", padValue(written, a, c)); // a Python value, never an operand
				continue;
			}
			Object raw = a instanceof Expr.Attribute ? p.exprs.kwargValue(a) : null;
			if (raw != null && !(raw instanceof dev.ptotools.codegen.ir.Expr)) {
				// pypto passes a positional dtype or enum to the wrapper as a Python value: an attribute
				kwargs.put(i < ps.size() ? ps.get(i).name() : "#" + i, raw);
				continue;
			}
			args.add(ir(a));
		}
		for (Expr.Keyword k : c.keywords()) {
			if (k.name() == null) {
				continue;
			}
			int idx = -1;
			for (int j = 0; j < ps.size(); j++) {
				if (ps.get(j).name().equals(k.name())) {
					idx = j;
				}
			}
			if (k.name().equals("pad_value") && b.params().stream().anyMatch(q -> q.name().equals("pad_value"))) {
				kwargs.put("pad_value", padValue(written, k.value(), c));
				continue;
			}
			Object v = p.exprs.kwargValue(k.value());
			// A keyword naming a required operand slot right after the positionals is an operand too (not a
			// keyword-only parameter: the wrapper passes those to the op as attributes).
			if (idx == args.size() && ps.get(idx).required() && !ps.get(idx).kind().equals("keyword")
					&& !collectiveAttr(b, k.name())
					&& (v instanceof dev.ptotools.codegen.ir.Expr || v instanceof Long || v instanceof Double)) {
				args.add(v instanceof dev.ptotools.codegen.ir.Expr x ? x : ir(k.value()));
			} else {
				kwargs.put(k.name(), v);
			}
		}
		String op = variant(b, args, c);
		if (op.startsWith("<scalar")) {
			if (args.size() == 2) {
				return ScalarOps.binary(scalarOperator(b.name()), args.get(0), args.get(1), c.span());
			}
			throw new CodegenException("Unsupported operation call: " + Render.expr(c), c.span());
		}
		Type t;
		try {
			OpTypeChecks.check(op, args, kwargs);
			SystemOpChecks.check(op, args, kwargs);
			RemoteAccessChecks.check(op, args, kwargs);
			GatherRowChecks.check(op, args, kwargs);
			t = OpTypes.deduce(op, args, kwargs, c.span());
		} catch (IrTypeError e) {
			throw atCall(written, e, c);
		}
		return new Call(new dev.ptotools.codegen.ir.Expr.Callee.Op(op), args, kwargs, Map.of(), t, c.span());
	}

	/** A fillpad's pad_value ({@link PadValues}), refused at the call as pypto's parser refuses it. */
	private Object padValue(String written, Expr e, Expr.Call c) {
		Object v = p.ctx.closure.eval(e);
		try {
			Values.EnumValue pad = PadValues.normalize(v);
			return pad != null ? pad : p.exprs.kwargValue(e);
		} catch (IrTypeError err) {
			throw atCall(written, err, c);
		}
	}

	/**
	 * An op's type error where pypto's parser puts it (_dispatch_op): at the call, named after the
	 * wrapper written ("pl operation 'add': The operator tile.add requires ...").
	 */
	static CodegenException atCall(String written, IrTypeError e, Expr.Call c) {
		int dot = written.lastIndexOf('.');
		String module = dot < 0 ? "pl" : written.substring(0, dot);
		String opName = written.substring(dot + 1);
		String msg = e.getMessage();
		if (!msg.startsWith("pl." + opName) && !msg.startsWith(module + "." + opName)) {
			msg = module + " operation '" + opName + "': " + msg;
		}
		return new CodegenException(msg, c.span());
	}

	/** The attributes of the pld.tensor collectives (broadcast's root=...) are kwargs, never operands. */
	private static boolean collectiveAttr(Builtin b, String keyword) {
		return b.op().startsWith("pld.tensor.") && switch (keyword) {
		case "root", "op", "mode", "core_num" -> true;
		default -> false;
		};
	}

	private static String scalarOperator(String name) {
		String last = name.substring(name.lastIndexOf('.') + 1);
		return switch (last) {
		case "add" -> "+";
		case "sub" -> "-";
		case "mul" -> "*";
		case "div" -> "/";
		case "maximum" -> "max";
		case "minimum" -> "min";
		default -> last;
		};
	}

	/** The op a type-dispatched wrapper emits for these operands. */
	private static String variant(Builtin b, List<dev.ptotools.codegen.ir.Expr> args, Expr.Call c) {
		String[] candidates = b.op().split("\\|");
		List<String> ops = new ArrayList<>();
		for (String s : candidates) {
			ops.add(s.strip());
		}
		if (ops.size() == 1) {
			return ops.get(0);
		}
		Type first = args.isEmpty() ? Type.UNKNOWN : args.get(0).type();
		boolean scalarFirst = first instanceof Type.Scalar;
		boolean tile = first instanceof Type.Tile;
		boolean tensor = first instanceof Type.Tensor;
		if (scalarFirst && args.size() == 2 && args.get(1).type() instanceof Type.Scalar) {
			return "<scalar>";
		}
		for (dev.ptotools.codegen.ir.Expr a : b.name().startsWith("pld.") ? List.<dev.ptotools.codegen.ir.Expr>of() : args) {
			// pld's unified ops dispatch on their source alone: its target is a (distributed) tensor either way
			if ((tile && a.type() instanceof Type.Tensor) || (tensor && a.type() instanceof Type.Tile)) {
				throw new CodegenException(b.name() + ": cannot mix Tensor and Tile arguments", c.span());
			}
		}
		String prefix = tile ? "tile." : tensor ? "tensor." : null;
		if (prefix == null && scalarFirst && args.size() == 1 && ops.stream().anyMatch(o -> o.startsWith("tile."))
				&& ops.stream().anyMatch(o -> o.startsWith("tensor."))) {
			// a unified unary op dispatches on Tensor or Tile only (unified_ops.py), a TypeError otherwise
			String opName = b.name().substring(b.name().lastIndexOf('.') + 1);
			throw new CodegenException("Error in pl operation '" + opName + "': " + b.name()
					+ ": expected Tensor or Tile, got Scalar", c.span());
		}
		if (prefix == null) {
			// pld ops and others without a tensor/tile operand: first candidate of a pld namespace
			return ops.get(0);
		}
		boolean scalarRhs = args.size() >= 2 && args.get(1).type() instanceof Type.Scalar;
		String base = null;
		String scalarForm = null;
		for (String o : ops) {
			// tile./tensor. ops, and a namespace's own (pld.tile.remote_store, pld.tensor.remote_store)
			if (!o.startsWith(prefix) && !o.contains("." + prefix)) {
				continue;
			}
			if (base == null) {
				base = o;
			} else if (scalarForm == null && o.equals(base + "s")) {
				scalarForm = o;
			}
		}
		if (base == null) {
			throw new CodegenException(b.name() + " does not take a " + (tile ? "Tile" : "Tensor") + " argument", c.span());
		}
		return scalarRhs && scalarForm != null ? scalarForm : base;
	}

	@SuppressWarnings("unused")
	private static Span none() {
		return Span.NONE;
	}
}
