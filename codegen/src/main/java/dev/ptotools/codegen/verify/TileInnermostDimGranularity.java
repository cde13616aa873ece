package dev.ptotools.codegen.verify;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.facts.CompileFindings;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.Backend;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Type;

/**
 * pypto's performance hint PH001, TileInnermostDimGranularity (src/ir/verifier/perf_hint_tile_innermost_dim.cpp,
 * a PerfHint check of the post-pipeline phase): every {@code tile.load} (its result) and {@code tile.store}
 * (its source tile) whose innermost dimension is fewer bytes than the backend recommends (Ascend910B 512,
 * Ascend950 128; the L2 cache line is 512 on both) moves one short transaction per row. Identical
 * transfers at one place are one hint with their count, as pypto dedups them; the message is pypto's.
 *
 * <p>Needs: the program after the passes (tile ops with memory spaces). Pre: it compiles. Post: findings of
 * kind PERF_HINT at the op's call, in source order. Where this compiler's pipeline stops short of pypto's
 * (the kernel passes, the per-lane halving of explicit split_aiv regions), the tile it sees is the one
 * before those passes; their innermost dimensions are the same but for a LEFT_RIGHT region's halves.
 */
public final class TileInnermostDimGranularity {

	private TileInnermostDimGranularity() {
	}

	private record Transfer(String op, String dtype, long innermostBytes, long innermostElems, String memory, Long rows,
			Long rowBytes, Long transferBytes) {
	}

	public static List<CompileFindings.Finding> hints(Program program, Backend backend, String programName) {
		long recommended = backend == Backend.ASCEND_950 ? 128 : 512;
		String arch = backend == Backend.ASCEND_950 ? "a5" : "a2a3";
		// the place, then the facts: identical transfers at one place are one hint (pypto's SiteKey)
		Map<Span, Map<Transfer, Integer>> sites = new LinkedHashMap<>();
		for (Function f : program.functions()) {
			if (f.body() == null) {
				continue;
			}
			new IrVisitor() {
				@Override
				public void call(Expr.Call c) {
					super.call(c);
					Type tile = c.isOp("tile.load") ? c.type()
							: c.isOp("tile.store") && !c.args().isEmpty() ? c.args().get(0).type() : null;
					Transfer t = tile instanceof Type.Tile tt ? inspect(c.isOp("tile.load") ? "tile.load" : "tile.store", tt) : null;
					if (t != null && t.innermostBytes() < recommended) {
						sites.computeIfAbsent(c.span() == null ? Span.NONE : c.span(), k -> new LinkedHashMap<>()).merge(t, 1,
								Integer::sum);
					}
				}
			}.stmt(f.body());
		}
		List<CompileFindings.Finding> out = new ArrayList<>();
		sites.forEach((at, transfers) -> transfers.forEach((t, count) -> out.add(new CompileFindings.Finding(
				CompileFindings.Kind.PERF_HINT, at, message(t, count, recommended, arch), programName))));
		out.sort((a, b) -> Integer.compare(a.span().start(), b.span().start()));
		return out;
	}

	/** pypto's InspectTile: null for a symbolic innermost dimension or a dtype without a bit width. */
	private static Transfer inspect(String op, Type.Tile tile) {
		if (tile.shape().isEmpty() || !(tile.shape().get(tile.shape().size() - 1) instanceof Expr.ConstInt last)
				|| last.value() <= 0) {
			return null;
		}
		long bits = tile.dtype().bits();
		if (bits <= 0) {
			return null;
		}
		long innermostBytes = (last.value() * bits + 7) / 8;
		String memory = tile.memory() == null ? "unknown" : tile.memory().name();
		List<Expr> valid = tile.validShape() != null && !tile.validShape().isEmpty() ? tile.validShape() : tile.shape();
		Long rows = 1L;
		for (int i = 0; i + 1 < valid.size(); i++) {
			if (!(valid.get(i) instanceof Expr.ConstInt d) || d.value() <= 0) {
				rows = null;
				break;
			}
			rows *= d.value();
		}
		Long rowBytes = null;
		Long transferBytes = null;
		if (rows != null && valid.get(valid.size() - 1) instanceof Expr.ConstInt v && v.value() > 0) {
			rowBytes = (v.value() * bits + 7) / 8;
			transferBytes = rows * rowBytes;
		} else {
			rows = null;
		}
		return new Transfer(op, tile.dtype().text(), innermostBytes, last.value(), memory, rows, rowBytes, transferBytes);
	}

	/** pypto's BuildMessage. */
	private static String message(Transfer t, int count, long recommended, String arch) {
		StringBuilder m = new StringBuilder("PH001 TileInnermostDimGranularity: ").append(t.op()).append(" has innermost dim = ")
				.append(t.innermostBytes()).append("B (tile ").append(t.dtype()).append('[').append(t.innermostElems())
				.append("], target_memory=").append(t.memory()).append(')');
		if (t.rows() != null && t.rowBytes() != null && t.transferBytes() != null) {
			m.append("; moves ").append(t.transferBytes()).append("B as ").append(t.rows()).append(" x ").append(t.rowBytes())
					.append("B rows");
		}
		m.append("; recommended >= ").append(recommended).append("B for backend ").append(arch)
				.append(" (L2 cache line = 512B). Consider increasing tile shape on the innermost axis.");
		if (count > 1) {
			m.append(" (").append(count).append(" occurrences at this source location)");
		}
		return m.toString();
	}
}
