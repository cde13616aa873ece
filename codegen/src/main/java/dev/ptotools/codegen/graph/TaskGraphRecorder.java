package dev.ptotools.codegen.graph;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.graph.TaskGraph.Access;
import dev.ptotools.codegen.graph.TaskGraph.Edge;
import dev.ptotools.codegen.graph.TaskGraph.Kind;
import dev.ptotools.codegen.graph.TaskGraph.Loop;
import dev.ptotools.codegen.graph.TaskGraph.Reason;
import dev.ptotools.codegen.graph.TaskGraph.Task;

/**
 * Collects a {@link TaskGraph} while an emitter writes an orchestration: the emitter says where it
 * opens and closes a loop, submits a task (with the tensors it passes and their directions), binds a
 * TaskId name to a task, or names a tensor as a view of another; {@link #build()} derives the edges.
 *
 * <p>Post-condition of build: every edge goes from an earlier task to a later one, at most one edge per
 * pair (the first reason found: read-after-write, write-after-write, write-after-read, explicit).
 */
public final class TaskGraphRecorder {

	private final String function;
	private final boolean host;
	private final String file;
	private final List<Task> tasks = new ArrayList<>();
	private final List<Loop> loops = new ArrayList<>();
	private final Deque<Integer> open = new ArrayDeque<>();
	private final Map<String, String> viewOf = new HashMap<>();
	private final Map<String, Integer> taskIdNames = new HashMap<>();
	private final Map<Integer, List<String>> explicitDeps = new HashMap<>();
	/** TaskId arrays of the code: the tasks whose ids were stored in each (any slot). */
	private final Map<String, Set<Integer>> taskIdArrays = new HashMap<>();
	private final Set<Integer> manual = new java.util.HashSet<>();
	private int manualDepth;

	public TaskGraphRecorder(String function, boolean host, String file) {
		this.function = function;
		this.host = host;
		this.file = file;
	}

	public void enterLoop(String header, Span span) {
		loops.add(new Loop(loops.size(), open.isEmpty() ? -1 : open.peek(), header, span));
		open.push(loops.size() - 1);
	}

	public void exitLoop() {
		open.pop();
	}

	/** Records a submit; returns its task index. {@code deps} are TaskId names of the user's deps=[...]. */
	public int task(String name, Kind kind, Span span, String rank, List<Access> accesses, List<String> deps) {
		int index = tasks.size();
		List<Access> resolved = new ArrayList<>();
		for (Access a : accesses) {
			resolved.add(new Access(root(a.tensor()), a.mode()));
		}
		tasks.add(new Task(index, name, kind, span, open.isEmpty() ? -1 : open.peek(), rank, resolved));
		if (!deps.isEmpty()) {
			explicitDeps.put(index, List.copyOf(deps));
		}
		if (manualDepth > 0) {
			manual.add(index);
		}
		return index;
	}

	/**
	 * A manual scope opens: the runtime tracks no tensor dependencies of the tasks submitted in it, only
	 * their explicit ones (pl.manual_scope, "every edge is yours to declare").
	 */
	public void enterManualScope() {
		manualDepth++;
	}

	public void exitManualScope() {
		manualDepth--;
	}

	/** {@code array[slot] = taskId;}: the array now holds that task's id. */
	public void storeTaskId(String array, String taskId) {
		Integer t = taskIdNames.get(taskId);
		Set<Integer> held = taskIdArrays.computeIfAbsent(array, k -> new java.util.TreeSet<>());
		if (t != null) {
			held.add(t);
		} else {
			held.addAll(taskIdArrays.getOrDefault(taskId, Set.of()));
		}
	}

	/** {@code dst[i] = src[i]} over the whole array. */
	public void copyTaskIds(String dst, String src) {
		Set<Integer> from = taskIdArrays.get(src);
		if (from != null) {
			taskIdArrays.put(dst, new java.util.TreeSet<>(from));
		}
	}

	/** A TaskId variable of the code holds this task's id. */
	public void bindTaskId(String name, int task) {
		taskIdNames.put(name, task);
	}

	/** {@code name} is a view (slice, reshape, alias) of {@code of}: the same storage for dependencies. */
	public void view(String name, String of) {
		if (name != null && of != null && !name.isEmpty() && !of.isEmpty() && !name.equals(of)) {
			viewOf.put(name, of);
		}
	}

	/** The number the next task will get. */
	public int nextTask() {
		return tasks.size();
	}

	private String root(String tensor) {
		String t = tensor;
		Set<String> seen = new LinkedHashSet<>();
		while (viewOf.containsKey(t) && seen.add(t)) {
			t = viewOf.get(t);
		}
		return t;
	}

	public TaskGraph build() {
		Map<Long, Edge> edges = new LinkedHashMap<>();
		Map<String, Integer> lastWriter = new HashMap<>();
		Map<String, List<Integer>> readersSinceWrite = new HashMap<>();
		for (Task t : tasks) {
			boolean tracked = !manual.contains(t.index());
			for (Access a : tracked ? t.accesses() : List.<Access>of()) {
				Integer w = lastWriter.get(a.tensor());
				if (a.mode().reads() && w != null) {
					add(edges, new Edge(w, t.index(), Reason.READ_AFTER_WRITE, a.tensor()));
				}
				if (a.mode().writes()) {
					if (w != null) {
						add(edges, new Edge(w, t.index(), Reason.WRITE_AFTER_WRITE, a.tensor()));
					}
					for (int r : readersSinceWrite.getOrDefault(a.tensor(), List.of())) {
						add(edges, new Edge(r, t.index(), Reason.WRITE_AFTER_READ, a.tensor()));
					}
				}
			}
			for (Access a : t.accesses()) {
				if (a.mode().writes()) {
					lastWriter.put(a.tensor(), t.index());
					readersSinceWrite.remove(a.tensor());
				} else {
					readersSinceWrite.computeIfAbsent(a.tensor(), k -> new ArrayList<>()).add(t.index());
				}
			}
			for (String dep : explicitDeps.getOrDefault(t.index(), List.of())) {
				Integer from = taskIdNames.get(dep);
				if (from != null) {
					add(edges, new Edge(from, t.index(), Reason.EXPLICIT, ""));
				}
				int bracket = dep.indexOf('[');
				for (int slot : bracket > 0 ? taskIdArrays.getOrDefault(dep.substring(0, bracket), Set.of()) : Set.<Integer>of()) {
					add(edges, new Edge(slot, t.index(), Reason.EXPLICIT, ""));
				}
			}
		}
		return new TaskGraph(function, host, file, tasks, loops, new ArrayList<>(edges.values()));
	}

	private static void add(Map<Long, Edge> edges, Edge e) {
		if (e.from() < e.to()) {
			edges.putIfAbsent(((long) e.from() << 32) | e.to(), e);
		}
	}
}
