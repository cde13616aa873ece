package dev.ptotools.codegen.emit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.MemorySpace;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * A lower bound of a kernel's on-chip usage per memory space, whatever pypto's planner does: tiles that
 * are live together (one defined before a point between two statements and used after it) need buffers
 * of their own, so their sizes, each rounded up to 32 bytes as AllocateMemoryAddr rounds a buffer, add up.
 * Liveness is the structured one (a tile used in a loop and defined before it is live through the loop;
 * a tile used in one branch of an if is not live in the other).
 *
 * <p>What is left out keeps it a lower bound: only tiles an op allocates afresh are counted (never a
 * view, an op whose result lands in an operand's buffer, a loop's carried value or an if's result, which
 * InitMemRef and MemoryReuse give an existing buffer), a tile with a dimension that is not a constant, and
 * the moments inside a statement, where its operands and result coexist too.
 */
final class TileLiveBytes {

	/** The ops whose result InitMemRef gives a fresh buffer (not a view, not reusing an operand's). */
	private static final Set<String> ALLOCATING = Set.of("tile.load", "tile.create", "tile.full", "tile.cast", "tile.move",
			"tile.transpose", "tile.add", "tile.sub", "tile.mul", "tile.div", "tile.maximum", "tile.minimum", "tile.neg",
			"tile.exp", "tile.sqrt", "tile.rsqrt", "tile.abs", "tile.relu", "tile.recip", "tile.log", "tile.sin", "tile.cos",
			"tile.adds", "tile.subs", "tile.muls", "tile.divs", "tile.maximums", "tile.minimums", "tile.lrelu", "tile.row_sum",
			"tile.row_max", "tile.row_min", "tile.col_sum", "tile.col_max", "tile.col_min", "tile.row_expand",
			"tile.row_expand_add", "tile.row_expand_sub", "tile.row_expand_mul", "tile.row_expand_div",
			"tile.row_expand_max", "tile.row_expand_min", "tile.col_expand", "tile.col_expand_add", "tile.col_expand_sub",
			"tile.col_expand_mul", "tile.col_expand_div", "tile.col_expand_max", "tile.col_expand_min", "tile.expands");

	/** The most bytes of one memory space live at once, the tiles that make it, and the statement after which. */
	record Peak(MemorySpace memory, long bytes, List<Var> tiles, Span at) {
	}

	private final Map<Var, Long> bytes = new LinkedHashMap<>();
	private final Map<Var, MemorySpace> memory = new LinkedHashMap<>();
	private final Map<MemorySpace, Peak> peaks = new LinkedHashMap<>();

	private TileLiveBytes() {
	}

	/** The peak of each memory space the given limits name, in a kernel body. */
	static Map<MemorySpace, Peak> of(Stmt body, Set<MemorySpace> spaces) {
		TileLiveBytes t = new TileLiveBytes();
		new IrVisitor() {
			@Override
			public void stmt(Stmt s) {
				if (s instanceof Stmt.Assign a && a.var().type() instanceof Type.Tile tile && tile.memory() != null
						&& spaces.contains(tile.memory())
						&& a.value() instanceof Expr.Call c && c.isOp() && ALLOCATING.contains(c.name())) {
					long n = TileCapacityCheck.bytes(tile);
					if (n > 0) {
						t.bytes.put(a.var(), (n + 31) / 32 * 32);
						t.memory.put(a.var(), tile.memory());
					}
				}
				super.stmt(s);
			}
		}.stmt(body);
		if (!t.bytes.isEmpty()) {
			t.liveBefore(body, Set.of());
		}
		return t.peaks;
	}

	/** The variables live before {@code s} given those live after it; records the point after each statement. */
	private Set<Var> liveBefore(Stmt s, Set<Var> after) {
		if (s == null) {
			return after;
		}
		if (s instanceof Stmt.Seq q) {
			Set<Var> live = after;
			for (int i = q.stmts().size() - 1; i >= 0; i--) {
				live = liveBefore(q.stmts().get(i), live);
			}
			return live;
		}
		if (s instanceof Stmt.Assign a) {
			record(after, a.span());
			Set<Var> live = new HashSet<>(after);
			live.remove(a.var());
			live.addAll(uses(a.value()));
			return live;
		}
		if (s instanceof Stmt.Eval e) {
			record(after, e.span());
			Set<Var> live = new HashSet<>(after);
			live.addAll(uses(e.expr()));
			return live;
		}
		if (s instanceof Stmt.Yield y) {
			Set<Var> live = new HashSet<>(after);
			y.values().forEach(v -> live.addAll(uses(v)));
			return live;
		}
		if (s instanceof Stmt.Return r) {
			Set<Var> live = new HashSet<>(after);
			r.values().forEach(v -> live.addAll(uses(v)));
			return live;
		}
		if (s instanceof Stmt.If i) {
			Set<Var> branchAfter = new HashSet<>(after);
			branchAfter.removeAll(i.returnVars());
			Set<Var> live = new HashSet<>(liveBefore(i.then(), branchAfter));
			live.addAll(liveBefore(i.orelse(), branchAfter));
			live.addAll(uses(i.condition()));
			return live;
		}
		if (s instanceof Stmt.For f) {
			Set<Var> live = loop(f.body(), after, f.returnVars(), f.iterArgs());
			live.remove(f.loopVar());
			live.addAll(uses(f.start()));
			live.addAll(uses(f.stop()));
			live.addAll(uses(f.step()));
			f.iterArgs().forEach(a -> live.addAll(uses(a.init())));
			return live;
		}
		if (s instanceof Stmt.While w) {
			Set<Var> live = loop(w.body(), after, w.returnVars(), w.iterArgs());
			live.addAll(uses(w.condition()));
			w.iterArgs().forEach(a -> live.addAll(uses(a.init())));
			return live;
		}
		if (s instanceof Stmt.Scope sc) {
			return liveBefore(sc.body(), after);
		}
		return after;
	}

	/** A loop body: what it uses and does not define is live all through it (the next iteration reads it). */
	private Set<Var> loop(Stmt body, Set<Var> after, List<Var> returnVars, List<IterArg> iterArgs) {
		Set<Var> used = new HashSet<>();
		Set<Var> defined = new HashSet<>();
		new IrVisitor() {
			@Override
			public void use(Var v) {
				used.add(v);
			}

			@Override
			public void def(Var v) {
				defined.add(v);
			}
		}.stmt(body);
		used.removeAll(defined);
		used.removeAll(iterArgs);
		Set<Var> through = new HashSet<>(after);
		through.removeAll(returnVars);
		through.addAll(used);
		Set<Var> live = new HashSet<>(liveBefore(body, through));
		live.removeAll(iterArgs);
		return live;
	}

	private void record(Set<Var> live, Span at) {
		Map<MemorySpace, Long> sums = new LinkedHashMap<>();
		Map<MemorySpace, List<Var>> tiles = new LinkedHashMap<>();
		for (Var v : live) {
			Long n = bytes.get(v);
			if (n != null) {
				sums.merge(memory.get(v), n, Long::sum);
				tiles.computeIfAbsent(memory.get(v), k -> new ArrayList<>()).add(v);
			}
		}
		sums.forEach((m, n) -> {
			Peak p = peaks.get(m);
			if (p == null || n >= p.bytes()) { // walked backward: the first point in the program wins a tie
				List<Var> vs = tiles.get(m);
				vs.sort((x, y) -> Long.compare(x.id(), y.id()));
				peaks.put(m, new Peak(m, n, List.copyOf(vs), at));
			}
		});
	}

	private static Set<Var> uses(Expr e) {
		Set<Var> out = new HashSet<>();
		new IrVisitor() {
			@Override
			public void use(Var v) {
				out.add(v);
			}
		}.expr(e);
		return out;
	}
}
