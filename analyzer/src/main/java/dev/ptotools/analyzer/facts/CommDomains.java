package dev.ptotools.analyzer.facts;

import java.util.List;
import java.util.Map;
import java.util.SortedSet;

import dev.ptotools.analyzer.diagnostics.Diagnostic;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;

/**
 * What pypto's MaterializeCommDomainScopes pass computes for each HOST orchestrator: the window
 * allocations, their views, the device set every chip dispatch targets, the comm domains that
 * cluster allocations by device set, and every problem the pass raises.
 */
public record CommDomains(Map<Function, Host> hosts, List<Problem> problems) {

	/**
	 * The devices a dispatch or an allocation covers: every rank, an explicit set, or a set fixed when
	 * the module runs from a value the analyzer cannot know (a builder's parameter as loop bound).
	 */
	public sealed interface Devices {
		record All() implements Devices {
			@Override
			public String toString() {
				return "all ranks";
			}
		}

		record Ranks(SortedSet<Long> ranks) implements Devices {
			@Override
			public String toString() {
				return ranks.toString();
			}
		}

		record Unknown(UnknownValue dependsOn) implements Devices {
			@Override
			public String toString() {
				return "ranks that depend on " + dependsOn.describe();
			}
		}
	}

	/** {@code name = pld.alloc_window_buffer(size)}. */
	public record Alloc(String name, Stmt.Assign stmt, Expr size, Span span) {
	}

	/** {@code name = pld.window(alloc, shape, dtype=...)}. */
	public record View(String name, Alloc alloc, Stmt.Assign stmt, Expr.Call call, Span span) {
	}

	/** A chip-orchestrator dispatch with its device set (null when it has no device= or an invalid one). */
	public record Dispatch(Expr.Call call, Function callee, Devices devices, Stmt.For rankLoop,
			List<View> windowArgs) {
	}

	/** A comm domain: the allocations shared by one device set; name is "comm_d0", "comm_d1"... */
	public record Domain(int index, String name, Devices devices, List<Alloc> slots) {
	}

	public record Host(Function function, List<Alloc> allocs, List<View> views, List<Dispatch> dispatches,
			List<Domain> domains) {

		public Domain domainOf(Alloc a) {
			for (Domain d : domains) {
				if (d.slots().contains(a)) {
					return d;
				}
			}
			return null;
		}

		public View view(String name) {
			for (View v : views) {
				if (v.name().equals(name)) {
					return v;
				}
			}
			return null;
		}
	}

	/** The kinds of problem, each reported by its own rule. */
	public enum Kind {
		DEAD_ALLOCATION, UNCONSUMED_WINDOW, INVALID_DEVICE, DUPLICATE_ALLOCATION, ALL_TO_ALL_V_IN_LOOP,
		ALLREDUCE_SIGNAL, NO_COVERAGE, ALLOC_CONTEXT
	}

	public record Problem(Kind kind, Function function, String message, Span span, List<Diagnostic.Related> related) {
	}

	public List<Problem> problems(Kind kind) {
		return problems.stream().filter(p -> p.kind() == kind).toList();
	}
}
