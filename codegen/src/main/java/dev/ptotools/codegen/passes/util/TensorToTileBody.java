package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The body half of pypto's ConvertTensorToTileOps (TensorToTileMutator and TypePropagatingMutator):
 * rewrites the tensor ops of a kernel into tile ops, each result bound to {@code <base>__tile}. Matmul
 * operands are loaded into {@code Mat} first, {@code tensor.slice} of a tensor becomes a {@code tile.load}
 * (into {@code Mat} when a matmul consumes it), {@code tensor.assemble} of a tile into a tensor becomes a
 * {@code tile.store}, and loop carries and branch results take the types of what flows into them.
 *
 * <p>This port builds the statements later signature passes look at (loads and their memory spaces,
 * stores into parameters, which values end up tiles); multi-op lowerings (reductions with workspaces,
 * broadcasting binary ops, transposed operands...) are single tile ops here with the same core affinity.
 */
public final class TensorToTileBody extends IrMutator {

	private Map<Var, Var> remap = new IdentityHashMap<>();
	private final Map<Var, MemorySpace> consumerReqs;

	TensorToTileBody(Map<Var, MemorySpace> consumerReqs) {
		this.consumerReqs = consumerReqs;
	}

	void map(Var from, Var to) {
		remap.put(from, to);
	}

	@Override
	public Expr var(Var v) {
		Var r = remap.get(v);
		return r == null ? v : r;
	}

	// ---- types through control flow --------------------------------------------------------------

	@Override
	public Stmt forStmt(Stmt.For f) {
		Expr start = expr(f.start());
		Expr stop = expr(f.stop());
		Expr step = expr(f.step());
		List<IterArg> iters = loopCarries(f.iterArgs(), f.span());
		Stmt body = stmt(f.body());
		List<Var> rvs = returnVars(f.returnVars(), iters);
		return new Stmt.For(f.loopVar(), start, stop, step, iters, body, rvs, f.kind(), f.attrs(), f.span());
	}

	@Override
	public Stmt whileStmt(Stmt.While w) {
		List<IterArg> iters = loopCarries(w.iterArgs(), w.span());
		Expr cond = expr(w.condition());
		Stmt body = stmt(w.body());
		List<Var> rvs = returnVars(w.returnVars(), iters);
		return new Stmt.While(cond, iters, body, rvs, w.span());
	}

	private List<IterArg> loopCarries(List<IterArg> iters, Span span) {
		List<IterArg> out = new ArrayList<>();
		for (IterArg a : iters) {
			Expr init = expr(a.init());
			if (init == a.init()) {
				out.add(a);
				continue;
			}
			IterArg n = new IterArg(a.name(), init.type(), init, a.span());
			remap.put(a, n);
			out.add(n);
		}
		return out;
	}

	private List<Var> returnVars(List<Var> rvs, List<? extends Var> types) {
		List<Var> out = new ArrayList<>();
		for (int i = 0; i < rvs.size(); i++) {
			Var rv = rvs.get(i);
			if (i < types.size() && !types.get(i).type().equals(rv.type())) {
				Var n = new Var(rv.name(), types.get(i).type(), rv.span());
				remap.put(rv, n);
				out.add(n);
			} else {
				out.add(rv);
			}
		}
		return out;
	}

	@Override
	public Stmt ifStmt(Stmt.If i) {
		Expr cond = expr(i.condition());
		Map<Var, Var> saved = new IdentityHashMap<>(remap);
		Stmt then = stmt(i.then());
		remap = new IdentityHashMap<>(saved);
		Stmt orelse = stmt(i.orelse());
		remap = saved;
		List<Type> yieldTypes = yieldTypes(Stmt.flatten(then));
		if (yieldTypes.isEmpty() && orelse != null) {
			yieldTypes = yieldTypes(Stmt.flatten(orelse));
		}
		List<Var> rvs = new ArrayList<>();
		for (int k = 0; k < i.returnVars().size(); k++) {
			Var rv = i.returnVars().get(k);
			if (k < yieldTypes.size() && !yieldTypes.get(k).equals(rv.type())) {
				Var n = new Var(rv.name(), yieldTypes.get(k), rv.span());
				remap.put(rv, n);
				rvs.add(n);
			} else {
				rvs.add(rv);
			}
		}
		return new Stmt.If(cond, then, orelse, rvs, i.span());
	}

	private static List<Type> yieldTypes(List<Stmt> stmts) {
		for (Stmt s : stmts) {
			if (s instanceof Stmt.Yield y) {
				return y.values().stream().map(Expr::type).toList();
			}
			if (s instanceof Stmt.Seq q) {
				List<Type> t = yieldTypes(q.stmts());
				if (!t.isEmpty()) {
					return t;
				}
			}
			if (s instanceof Stmt.Scope sc) {
				List<Type> t = yieldTypes(Stmt.flatten(sc.body()));
				if (!t.isEmpty()) {
					return t;
				}
			}
		}
		return List.of();
	}

	private Stmt passThrough(Stmt.Assign a, Expr value) {
		if (value == a.value()) {
			remap.remove(a.var());
			return a;
		}
		if (!value.type().equals(a.value().type())) {
			Var n = new Var(a.var().name(), value.type(), a.var().span());
			remap.put(a.var(), n);
			return new Stmt.Assign(n, value, a.span());
		}
		remap.remove(a.var());
		return new Stmt.Assign(a.var(), value, a.span());
	}

	// ---- op conversion --------------------------------------------------------------------------

	@Override
	public Stmt assign(Stmt.Assign a) {
		Expr value = expr(a.value());
		if (!(value instanceof Expr.Call c) || !c.isOp()) {
			return passThrough(a, value);
		}
		if (!TensorToTileOps.converted(c.name())) {
			if (c.name().startsWith("tensor.") && !TensorToTileOps.passthrough(c.name())) {
				throw new CodegenException("TensorOp \"" + c.name() + "\" has no registered tile conversion", c.span());
			}
			return passThrough(a, value);
		}
		List<Stmt> stmts = new ArrayList<>();
		Expr result;
		MemorySpace demand = consumerReqs.get(a.var());
		if (c.isOp("tensor.slice") && demand != null && c.args().get(0).type() instanceof Type.Tensor) {
			result = load(c.args().get(0), c.args().get(2), c.args().get(1), sliceValid(c), demand, c.type(), c.span());
		} else {
			result = convert(bridge(c, stmts), stmts);
		}
		Var tile = new Var(OutlineNames.build(OutlineNames.baseName(a.var().name()), "", "tile", null), result.type(),
				a.var().span());
		stmts.add(new Stmt.Assign(tile, result, a.span()));
		remap.put(a.var(), tile);
		return stmts.size() == 1 ? stmts.get(0) : new Stmt.Seq(stmts, a.span());
	}

	@Override
	public Stmt stmt(Stmt s) {
		if (s instanceof Stmt.Eval e) {
			Expr x = expr(e.expr());
			if (x instanceof Expr.Call c && c.isOp() && TensorToTileOps.converted(c.name())) {
				List<Stmt> stmts = new ArrayList<>();
				Expr result = convert(bridge(c, stmts), stmts);
				stmts.add(new Stmt.Eval(result, e.span()));
				return stmts.size() == 1 ? stmts.get(0) : new Stmt.Seq(stmts, e.span());
			}
			return x == e.expr() ? e : new Stmt.Eval(x, e.span());
		}
		return super.stmt(s);
	}

	private static Expr sliceValid(Expr.Call c) {
		return c.args().size() >= 4 ? c.args().get(3) : c.args().get(1);
	}

	/** Loads tensor operands of staged arguments into their space (pypto's BridgeInputSpaces). */
	private Expr.Call bridge(Expr.Call c, List<Stmt> stmts) {
		Map<Integer, TensorToTileOps.InputReq> reqs = TensorToTileOps.inputReqs(c.name());
		if (reqs.isEmpty()) {
			return c;
		}
		List<Expr> args = new ArrayList<>(c.args());
		for (int idx : new java.util.TreeSet<>(reqs.keySet())) {
			if (idx >= args.size()) {
				continue;
			}
			TensorToTileOps.InputReq req = reqs.get(idx);
			boolean trans = req.transKwarg() != null && Boolean.TRUE.equals(c.kwarg(req.transKwarg()));
			Expr arg = args.get(idx);
			if (arg.type() instanceof Type.Tensor t) {
				String name = arg instanceof Var v ? v.name() + "_" + req.space().name().toLowerCase() : "bridged_" + idx;
				Expr.Call ld = load(arg, zeros(t.rank(), c.span()), shapeTuple(t.shape(), c.span()),
						shapeTuple(t.shape(), c.span()), req.space(), null, c.span());
				Var lv = new Var(name, ld.type(), c.span());
				stmts.add(new Stmt.Assign(lv, ld, c.span()));
				args.set(idx, trans ? view(lv, stmts, c.span()) : lv);
			} else if (trans && arg instanceof Var v && v.type() instanceof Type.Tile tt) {
				Var src = v;
				if (tt.memory() != MemorySpace.Mat) {
					Expr.Call mv = Expr.Call.op("tile.move", List.of(v), Map.of("target_memory", MemorySpace.Mat),
							tt.withMemory(MemorySpace.Mat), c.span());
					src = new Var(v.name() + "_mat", mv.type(), c.span());
					stmts.add(new Stmt.Assign(src, mv, c.span()));
				}
				args.set(idx, view(src, stmts, c.span()));
			}
		}
		return c.withArgs(args);
	}

	private static Var view(Var v, List<Stmt> stmts, Span span) {
		Type t = v.type();
		if (t instanceof Type.Tile tt && tt.shape().size() >= 2) {
			List<Expr> s = new ArrayList<>(tt.shape());
			Expr last = s.remove(s.size() - 1);
			s.add(s.size() - 1, last);
			t = new Type.Tile(s, tt.dtype(), tt.memory(), null);
		}
		Expr.Call view = Expr.Call.op("tile.transpose_view", List.of(v), Map.of(), t, span);
		Var out = new Var(v.name() + "_t", t, span);
		stmts.add(new Stmt.Assign(out, view, span));
		return out;
	}

	static Expr.MakeTuple zeros(int rank, Span span) {
		List<Expr> z = new ArrayList<>();
		for (int i = 0; i < rank; i++) {
			z.add(new Expr.ConstInt(0, DType.INDEX, span));
		}
		return new Expr.MakeTuple(z, span);
	}

	static Expr.MakeTuple shapeTuple(List<Expr> shape, Span span) {
		return new Expr.MakeTuple(shape, span);
	}

	/** {@code tile.load(t, offsets, shape, valid, target_memory=space)}; shape type from resultType when given. */
	static Expr.Call load(Expr tensor, Expr offsets, Expr shape, Expr valid, MemorySpace space, Type resultType, Span span) {
		DType dtype = tensor.type() instanceof Type.Tensor t ? t.dtype() : DType.FP32;
		List<Expr> dims = shape instanceof Expr.MakeTuple mt ? mt.elements()
				: resultType instanceof Type.Tensor rt ? rt.shape() : List.of();
		List<Expr> validDims = valid instanceof Expr.MakeTuple vt ? vt.elements() : dims;
		Map<String, Object> kw = new LinkedHashMap<>();
		kw.put("target_memory", space);
		Expr.Call c = new Expr.Call(new Expr.Callee.Op("tile.load"), List.of(tensor, offsets, shape, valid), kw,
				space == MemorySpace.Mat ? Map.of("__compiler_tensor_to_tile_mat_bridge", true) : Map.of(),
				new Type.Tile(dims, dtype, space, validDims), span);
		return c;
	}

	private static Type tileOf(Type t, MemorySpace m) {
		if (t instanceof Type.Tensor x) {
			return new Type.Tile(x.shape(), x.dtype(), m, null);
		}
		return t;
	}

	private static boolean isTile(Expr e) {
		return e.type() instanceof Type.Tile;
	}

	/**
	 * pypto's pld.tensor.put / pld.tensor.get conversion (op_conversion_registry.cpp): one Vec staging tile
	 * (two with {@code pipeline=True}) of the transfer flattened to [rows, cols] and capped by
	 * chunk_rows / chunk_cols, then the tile-level op with the stage after (dst, peer, src); put keeps
	 * its other kwargs (atomic), get keeps none.
	 */
	private Expr transfer(Expr.Call c, List<Stmt> prologue) {
		boolean put = c.isOp("pld.tensor.put");
		String what = put ? "pld.tensor.put" : "pld.tensor.get";
		List<Expr> args = c.args();
		Span span = c.span();
		if (args.size() != 3 && args.size() != 6) {
			throw new CodegenException(what + " conversion expects 3 args (dst, peer, src) or 6 (dst, peer, src, "
					+ "dst_offsets, src_offsets, shape), got " + args.size(), span);
		}
		if (!(args.get(0).type() instanceof Type.Tensor dst)) {
			throw new CodegenException(what + " conversion: dst must be a tensor", span);
		}
		if (put && args.get(2).type() instanceof Type.Tile) {
			throw new CodegenException("pld.tensor.put src must be a GM tensor, but got a computed value that lowers to a "
					+ "tile: TPUT transfers between two GM regions, and a UB tile has no GM address. Use "
					+ "pld.tensor.remote_store(src, target, peer, offsets) to push a computed value straight to a peer "
					+ "(pld.remote_store dispatches to it automatically).", span);
		}
		List<Expr> shape = dst.shape();
		if (args.size() == 6) {
			if (!(args.get(5) instanceof Expr.MakeTuple t)) {
				throw new CodegenException(what + " conversion: shape must be MakeTuple", span);
			}
			shape = t.elements();
		}
		long chunkRows = c.kwarg("chunk_rows") instanceof Number n ? n.longValue() : 0;
		long chunkCols = c.kwarg("chunk_cols") instanceof Number n ? n.longValue() : 0;
		Expr last = shape.get(shape.size() - 1);
		long cols;
		if (last instanceof Expr.ConstInt k) {
			cols = chunkCols > 0 ? Math.min(k.value(), chunkCols) : k.value();
		} else if (chunkCols > 0) {
			cols = chunkCols;
		} else {
			throw new CodegenException(what + " conversion: dynamic innermost transfer dim requires a static chunk_cols", span);
		}
		long rows = 1;
		for (int i = 0; i + 1 < shape.size(); i++) {
			if (!(shape.get(i) instanceof Expr.ConstInt k)) {
				throw CodegenException.unsupported(what + " with a dynamic leading transfer dim is not supported by this "
						+ "compiler yet", span);
			}
			rows *= k.value();
		}
		rows = chunkRows > 0 ? Math.min(rows, chunkRows) : rows;
		List<Expr> stageShape = List.of(Expr.index(rows), Expr.index(cols));
		boolean pipeline = Boolean.TRUE.equals(c.kwarg("pipeline"));
		String base = put ? "tput_stage" : "tget_stage";
		List<Expr> opArgs = new ArrayList<>(args.subList(0, 3));
		for (String suffix : pipeline ? List.of("_ping", "_pong") : List.of("")) {
			Map<String, Object> kw = new LinkedHashMap<>();
			kw.put("dtype", dst.dtype());
			kw.put("target_memory", MemorySpace.Vec);
			Type.Tile tile = new Type.Tile(stageShape, dst.dtype(), MemorySpace.Vec, null);
			Var stage = new Var(base + suffix, tile, span);
			prologue.add(new Stmt.Assign(stage, Expr.Call.op("tile.create", List.of(new Expr.MakeTuple(stageShape, span)), kw,
					tile, span), span));
			opArgs.add(stage);
		}
		if (args.size() == 6) {
			opArgs.addAll(args.subList(3, 6));
		}
		Map<String, Object> kw = new LinkedHashMap<>();
		if (put) {
			c.kwargs().forEach((k, v) -> {
				if (!k.equals("chunk_rows") && !k.equals("chunk_cols") && !k.equals("pipeline")) {
					kw.put(k, v);
				}
			});
		}
		return Expr.Call.op(put ? "pld.tile.put" : "pld.tile.get", opArgs, kw, Type.UNKNOWN, span);
	}

	/** The converted expression of one op call whose operands are already mapped. */
	private Expr convert(Expr.Call c, List<Stmt> prologue) {
		String op = c.name();
		List<Expr> args = c.args();
		Span span = c.span();
		if (TensorToTileOps.UNSUPPORTED.contains(op)) {
			throw CodegenException.unsupported("ConvertTensorToTileOps: '" + op + "' inside a kernel is not supported by "
					+ "this compiler yet", span);
		}
		switch (op) {
		case "tensor.slice": {
			Expr input = args.get(0);
			if (input.type() instanceof Type.Tensor) {
				return load(input, args.get(2), args.get(1), sliceValid(c), MemorySpace.Vec, c.type(), span);
			}
			Map<String, Object> kw = new LinkedHashMap<>();
			if (c.kwarg("pad_value") != null) {
				kw.put("pad_value", c.kwarg("pad_value"));
			}
			return Expr.Call.op("tile.slice", args, kw, tileOf(c.type(), null), span);
		}
		case "tensor.assemble": {
			Expr target = args.get(0);
			Expr source = args.get(1);
			Expr offset = args.get(2);
			if (isTile(source) && target.type() instanceof Type.Tensor) {
				Map<String, Object> kw = new LinkedHashMap<>();
				if (VarCollectors.isAtomic(c)) {
					kw.put("atomic", c.kwarg("atomic"));
				}
				return Expr.Call.op("tile.store", List.of(source, offset, target), kw, target.type(), span);
			}
			if (isTile(source) && isTile(target)) {
				return Expr.Call.op("tile.assemble", List.of(target, source, offset), Map.of(), target.type(), span);
			}
			if (isTile(target) && source.type() instanceof Type.Tensor st) {
				Expr.Call ld = load(source, zeros(st.rank(), span), shapeTuple(st.shape(), span),
						shapeTuple(st.shape(), span), MemorySpace.Vec, null, span);
				Var src = new Var("assemble_src", ld.type(), span);
				prologue.add(new Stmt.Assign(src, ld, span));
				return Expr.Call.op("tile.assemble", List.of(target, src, offset), Map.of(), target.type(), span);
			}
			return c;
		}
		case "pld.tensor.put", "pld.tensor.get":
			return transfer(c, prologue);
		case "tensor.create": {
			Map<String, Object> kw = new LinkedHashMap<>();
			if (c.kwarg("dtype") != null) {
				kw.put("dtype", c.kwarg("dtype"));
			}
			kw.put("target_memory", MemorySpace.Vec);
			return Expr.Call.op("tile.create", args, kw, tileOf(c.type(), MemorySpace.Vec), span);
		}
		case "tensor.read":
			return isTile(args.get(0)) ? Expr.Call.op("tile.read", args, c.kwargs(), c.type(), span) : c;
		case "tensor.write":
			return isTile(args.get(0)) ? Expr.Call.op("tile.write", args, c.kwargs(), args.get(0).type(), span) : c;
		case "tensor.matmul": {
			boolean nd = rank(args.get(0)) > 2 || rank(args.get(1)) > 2;
			return Expr.Call.op(nd ? "tile.batch_matmul" : "tile.matmul", List.of(args.get(0), args.get(1)), Map.of(),
					tileOf(c.type(), MemorySpace.Acc), span);
		}
		case "tensor.matmul_acc": {
			boolean nd = rank(args.get(0)) > 2 || rank(args.get(1)) > 2 || rank(args.get(2)) > 2;
			return Expr.Call.op(nd ? "tile.batch_matmul_acc" : "tile.matmul_acc", args, Map.of(),
					tileOf(c.type(), MemorySpace.Acc), span);
		}
		default:
			break;
		}
		// One tile op for the rest; a tensor operand of an op that stages its own inputs is loaded into Vec.
		List<Expr> tileArgs = new ArrayList<>(args);
		if (TensorToTileOps.SELF_LOADING.contains(op)) {
			for (int i = 0; i < tileArgs.size(); i++) {
				if (tileArgs.get(i).type() instanceof Type.Tensor t && tileArgs.get(i) instanceof Var v) {
					Expr.Call ld = load(v, zeros(t.rank(), span), shapeTuple(t.shape(), span), shapeTuple(t.shape(), span),
							MemorySpace.Vec, null, span);
					Var lv = new Var(v.name() + "_vec", ld.type(), span);
					prologue.add(new Stmt.Assign(lv, ld, span));
					tileArgs.set(i, lv);
				}
			}
		}
		String tileOp = TensorToTileOps.tileName(op);
		if ((op.equals("tensor.maximum") || op.equals("tensor.minimum")) && args.size() > 1
				&& args.get(1).type() instanceof Type.Scalar) {
			tileOp += "s";
		}
		OpFacts.Entry facts = OpFacts.get(tileOp);
		MemorySpace mem = facts != null && facts.output() == OpFacts.OutputKind.FIXED ? facts.fixed() : null;
		return Expr.Call.op(tileOp, tileArgs, c.kwargs(), tileOf(c.type(), mem), span);
	}

	private static int rank(Expr e) {
		if (e.type() instanceof Type.Tile t) {
			return t.shape().size();
		}
		if (e.type() instanceof Type.Tensor t) {
			return t.rank();
		}
		return 0;
	}

	// ---- consumer-driven spaces -----------------------------------------------------------------

	/**
	 * pypto's ConsumerSpaceCollector: the memory space a staged consumer (a matmul operand) demands of
	 * each Var, propagated back through aliases and ops whose output space is their input's.
	 */
	static Map<Var, MemorySpace> consumerReqs(Stmt body) {
		Map<Var, MemorySpace> reqs = new IdentityHashMap<>();
		List<Var[]> edges = new ArrayList<>();
		new PyptoVisitor() {
			@Override
			protected void assign(Stmt.Assign a) {
				boolean shaped = shaped(a.var().type());
				if (shaped && a.value() instanceof Var src && shaped(src.type())) {
					edges.add(new Var[] { a.var(), src });
				} else if (shaped && a.value() instanceof Expr.Call c && c.isOp() && OpFacts.get(c.name()) != null
						&& OpFacts.get(c.name()).output() == OpFacts.OutputKind.INHERIT) {
					for (Expr arg : c.args()) {
						if (VarCollectors.plainVar(arg) instanceof Var av && shaped(av.type())) {
							edges.add(new Var[] { a.var(), av });
							break;
						}
					}
				}
				if (a.value() instanceof Expr.Call c && c.isOp()) {
					for (Map.Entry<Integer, TensorToTileOps.InputReq> r : TensorToTileOps.inputReqs(c.name()).entrySet()) {
						if (r.getKey() < c.args().size() && VarCollectors.plainVar(c.args().get(r.getKey())) instanceof Var v) {
							MemorySpace prev = reqs.get(v);
							if (prev == null || prev == MemorySpace.Vec && r.getValue().space() != MemorySpace.Vec) {
								reqs.put(v, r.getValue().space());
							}
						}
					}
				}
				super.assign(a);
			}
		}.stmt(body);
		for (int i = edges.size() - 1; i >= 0; i--) {
			MemorySpace req = reqs.get(edges.get(i)[0]);
			if (req == null) {
				continue;
			}
			MemorySpace prev = reqs.get(edges.get(i)[1]);
			if (prev == null || prev == MemorySpace.Vec && req != MemorySpace.Vec) {
				reqs.put(edges.get(i)[1], req);
			}
		}
		return reqs;
	}

	private static boolean shaped(Type t) {
		return t instanceof Type.Tensor || t instanceof Type.Tile;
	}

	/**
	 * pypto's TensorArgsInConvertedOpsCollector: the tensor Vars used directly as operands of converted
	 * ops that do not stage their own inputs, traced from iter args to their inits.
	 */
	static java.util.Set<Var> usedByConvertedOps(Stmt body) {
		java.util.Set<Var> used = VarCollectors.identitySet();
		Map<Var, Expr> iterInit = new HashMap<>();
		new PyptoVisitor() {
			@Override
			protected void assign(Stmt.Assign a) {
				if (a.value() instanceof Expr.Call c && c.isOp() && TensorToTileOps.converted(c.name())
						&& !TensorToTileOps.SELF_LOADING.contains(c.name())) {
					Map<Integer, TensorToTileOps.InputReq> reqs = TensorToTileOps.inputReqs(c.name());
					for (int i = 0; i < c.args().size(); i++) {
						if (!reqs.containsKey(i) && c.args().get(i) instanceof Var v && v.type() instanceof Type.Tensor) {
							used.add(v);
						}
					}
				}
				super.assign(a);
			}

			@Override
			protected void forStmt(Stmt.For f) {
				f.iterArgs().forEach(ia -> iterInit.put(ia, ia.init()));
				super.forStmt(f);
			}

			@Override
			protected void whileStmt(Stmt.While w) {
				w.iterArgs().forEach(ia -> iterInit.put(ia, ia.init()));
				super.whileStmt(w);
			}
		}.stmt(body);
		boolean changed = true;
		while (changed) {
			changed = false;
			for (Map.Entry<Var, Expr> e : iterInit.entrySet()) {
				if (used.contains(e.getKey()) && VarCollectors.plainVar(e.getValue()) instanceof Var v
						&& v.type() instanceof Type.Tensor && used.add(v)) {
					changed = true;
				}
			}
		}
		return used;
	}
}
