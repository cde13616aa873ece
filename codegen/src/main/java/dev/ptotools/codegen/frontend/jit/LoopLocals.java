package dev.ptotools.codegen.frontend.jit;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * Which names a loop body binds that an earlier sibling body (same depth) already bound (pypto's
 * {@code _classify_loop_locals}): "carried" when the body reads the name before writing it (the loop
 * carries the sibling's value, so it needs a bridge), "fresh" when it writes it first (a new local that
 * only shares the name).
 */
final class LoopLocals {

	private LoopLocals() {
	}

	/** [carried, fresh], each in the order the body first assigns them. */
	static List<List<String>> classify(List<Stmt> body, Map<String, Integer> assignCount,
			Map<String, Integer> assignDepth, int depth) {
		Set<String> exposed = new HashSet<>();
		upwardExposed(body, new HashSet<>(), exposed);
		List<String> carried = new ArrayList<>();
		List<String> fresh = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		for (Stmt s : body) {
			if (!(s instanceof Stmt.Assign a)) {
				continue;
			}
			for (Expr t : a.targets()) {
				for (String name : PyNames.stores(t)) {
					if (seen.contains(name)) {
						continue;
					}
					Integer d = assignDepth.get(name);
					if (assignCount.containsKey(name) && d != null && d == depth) {
						seen.add(name);
						(exposed.contains(name) ? carried : fresh).add(name);
					}
				}
			}
		}
		return List.of(carried, fresh);
	}

	/** Names read before written, in execution order (pypto's {@code _collect_upward_exposed}). */
	private static void upwardExposed(List<Stmt> body, Set<String> written, Set<String> exposed) {
		for (Stmt s : body) {
			if (s instanceof Stmt.Assign a) {
				if (a.value() != null) {
					addUnwritten(PyNames.loads(a.value()), written, exposed);
				}
				for (Expr t : a.targets()) {
					addUnwritten(PyNames.targetLoads(t), written, exposed);
					written.addAll(PyNames.stores(t));
				}
			} else if (s instanceof Stmt.AugAssign a) {
				addUnwritten(PyNames.loads(a.value()), written, exposed);
				Set<String> names = PyNames.stores(a.target());
				addUnwritten(names, written, exposed);
				written.addAll(names);
			} else if (s instanceof Stmt.For f) {
				addUnwritten(PyNames.loads(f.iter()), written, exposed);
				written.addAll(PyNames.stores(f.target()));
				upwardExposed(f.body(), written, exposed);
				upwardExposed(f.orelse(), written, exposed);
			} else if (s instanceof Stmt.If i) {
				addUnwritten(PyNames.loads(i.test()), written, exposed);
				Set<String> thenWritten = new HashSet<>(written);
				upwardExposed(i.body(), thenWritten, exposed);
				if (!i.orelse().isEmpty()) {
					Set<String> elseWritten = new HashSet<>(written);
					upwardExposed(i.orelse(), elseWritten, exposed);
					thenWritten.retainAll(elseWritten);
					written.addAll(thenWritten);
				}
			} else if (s instanceof Stmt.With w) {
				for (Stmt.WithItem item : w.items()) {
					addUnwritten(PyNames.loads(item.context()), written, exposed);
					if (item.target() != null) {
						written.addAll(PyNames.stores(item.target()));
					}
				}
				upwardExposed(w.body(), written, exposed);
			} else {
				addUnwritten(PyNames.stmtLoads(s), written, exposed);
			}
		}
	}

	private static void addUnwritten(Set<String> names, Set<String> written, Set<String> exposed) {
		for (String n : names) {
			if (!written.contains(n)) {
				exposed.add(n);
			}
		}
	}
}
