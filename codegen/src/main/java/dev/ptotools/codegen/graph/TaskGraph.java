package dev.ptotools.codegen.graph;

import java.util.List;

import dev.ptotools.analyzer.ir.Span;

/**
 * The tasks one orchestration function submits, as its generated code submits them: one task per
 * submit statement of the code (a task inside a loop stands for every iteration), the loops around it,
 * what it reads and writes, and the dependencies the runtime derives from that (a task that reads or
 * writes a tensor an earlier task wrote waits for it; one that writes a tensor waits for its earlier
 * readers) and the explicit ones ({@code deps=[...]}). Plain data: the emitters record it
 * ({@link TaskGraphRecorder}) while writing the code, so the two cannot disagree.
 *
 * @param function the orchestration function
 * @param host whether it is the HOST orchestrator (host_orch.py) rather than a chip one (C++)
 * @param file the generated file the tasks are submitted in, relative to the program folder
 */
public record TaskGraph(String function, boolean host, String file, List<Task> tasks, List<Loop> loops, List<Edge> edges) {

	public TaskGraph {
		tasks = List.copyOf(tasks);
		loops = List.copyOf(loops);
		edges = List.copyOf(edges);
	}

	/** The same graph, submitted in this generated file (relative to the program folder). */
	public TaskGraph inFile(String path) {
		return new TaskGraph(function, host, path, tasks, loops, edges);
	}

	/** What a task runs on. */
	public enum Kind {
		/** A vector kernel (rt_submit_aiv_task, or both vector lanes of a dual-AIV kernel). */
		AIV,
		/** A cube kernel (rt_submit_aic_task). */
		AIC,
		/** A group of a cube and vector kernels (MixedKernels). */
		MIXED,
		/** A dependency-only task (rt_submit_dummy_task). */
		BARRIER,
		/** A chip orchestration dispatched to one rank (_submit_chip). */
		CHIP,
		/** A chip orchestration dispatched to every rank of a grouped rank loop at once (_submit_chip_group). */
		CHIP_GROUP,
		/** A HOST sub-worker (orch.submit_sub). */
		SUB_WORKER
	}

	/** How a task uses a tensor. */
	public enum Mode {
		IN, OUT, INOUT;

		public boolean reads() {
			return this != OUT;
		}

		public boolean writes() {
			return this != IN;
		}
	}

	/** A tensor a task reads or writes: its name in the generated code. */
	/** The same graph, each task's and loop's span mapped (spans of another module's code to a call here). */
	public TaskGraph mapSpans(java.util.function.UnaryOperator<Span> map) {
		return new TaskGraph(function, host, file,
				tasks.stream().map(t -> new Task(t.index(), t.name(), t.kind(), map.apply(t.span()), t.loop(), t.rank(),
						t.accesses())).toList(),
				loops.stream().map(l -> new Loop(l.index(), l.parent(), l.header(), map.apply(l.span()))).toList(), edges);
	}

	public record Access(String tensor, Mode mode) {
	}

	/**
	 * One submit of the generated code.
	 *
	 * @param index the task's number in submission order (the C++ {@code Task N} comment for kernels)
	 * @param name what it runs: the kernel, group or chip orchestration
	 * @param loop the innermost loop around it ({@link Loop#index()}), or -1
	 * @param rank the rank it is dispatched to (an expression of the code), or "" when not per rank
	 */
	public record Task(int index, String name, Kind kind, Span span, int loop, String rank, List<Access> accesses) {

		public Task {
			accesses = List.copyOf(accesses);
		}
	}

	/**
	 * A loop of the generated code around some task.
	 *
	 * @param parent the loop around it, or -1
	 * @param header the loop as the source reads (variable and range)
	 * @param span the {@code for} statement in the source (a rank loop is found by it)
	 */
	public record Loop(int index, int parent, String header, Span span) {
	}

	/** Why one task waits for another. */
	public enum Reason {
		/** It reads or updates what the other wrote. */
		READ_AFTER_WRITE,
		/** It writes what the other wrote. */
		WRITE_AFTER_WRITE,
		/** It writes what the other read. */
		WRITE_AFTER_READ,
		/** The user's deps=[...]. */
		EXPLICIT
	}

	/** Task {@code to} waits for task {@code from}; {@code tensor} is the tensor involved ("" when explicit). */
	public record Edge(int from, int to, Reason reason, String tensor) {
	}
}
