package dev.ptotools.codegen.ir;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;

/** Statements of the program IR, after pypto's {@code stmt.h}. */
public sealed interface Stmt {

	Span span();

	record Assign(Var var, Expr value, Span span) implements Stmt {
	}

	/** An expression evaluated for its effect. */
	record Eval(Expr expr, Span span) implements Stmt {
	}

	record Seq(List<Stmt> stmts, Span span) implements Stmt {
		public Seq {
			stmts = List.copyOf(stmts);
		}

		public Seq(List<Stmt> stmts) {
			this(stmts, Span.NONE);
		}
	}

	/** if/else; orelse is null without an else; returnVars are the phis the branches' yields bind. */
	record If(Expr condition, Stmt then, Stmt orelse, List<Var> returnVars, Span span) implements Stmt {
		public If {
			returnVars = List.copyOf(returnVars);
		}
	}

	record Yield(List<Expr> values, Span span) implements Stmt {
		public Yield {
			values = List.copyOf(values);
		}
	}

	record Return(List<Expr> values, Span span) implements Stmt {
		public Return {
			values = List.copyOf(values);
		}
	}

	/** pypto's ForKind. */
	enum ForKind {
		Sequential, Parallel, Unroll, Pipeline
	}

	/**
	 * {@code for loopVar in range(start, stop, step)}: iterArgs are the loop-carried values, returnVars
	 * their values after the loop; attrs are pypto's loop attributes in order (carry plans, pipeline
	 * stages, chunking).
	 */
	record For(Var loopVar, Expr start, Expr stop, Expr step, List<IterArg> iterArgs, Stmt body,
			List<Var> returnVars, ForKind kind, Map<String, Object> attrs, Span span) implements Stmt {
		public For {
			iterArgs = List.copyOf(iterArgs);
			returnVars = List.copyOf(returnVars);
			attrs = attrs.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attrs));
		}

		public Object attr(String key) {
			return attrs.get(key);
		}

		public For withAttr(String key, Object value) {
			Map<String, Object> a = new LinkedHashMap<>(attrs);
			a.put(key, value);
			return new For(loopVar, start, stop, step, iterArgs, body, returnVars, kind, a, span);
		}

		public For withBody(Stmt newBody) {
			return new For(loopVar, start, stop, step, iterArgs, newBody, returnVars, kind, attrs, span);
		}
	}

	record While(Expr condition, List<IterArg> iterArgs, Stmt body, List<Var> returnVars, Span span)
			implements Stmt {
		public While {
			iterArgs = List.copyOf(iterArgs);
			returnVars = List.copyOf(returnVars);
		}
	}

	record Break(Span span) implements Stmt {
	}

	/**
	 * The plain-Python body of a HOST-level SubWorker (pypto's InlineStmt): it runs as a registered
	 * callable, not as DSL. {@code requiresRuntimeBinding} marks an abstract {@code ...} body whose
	 * implementation is bound at run time (code is then empty).
	 */
	record Inline(String code, boolean requiresRuntimeBinding, Span span) implements Stmt {
	}

	record Continue(Span span) implements Stmt {
	}

	/** The scopes of pypto's ScopeStmt family; each has a name hint (empty: generated) and a body. */
	sealed interface Scope extends Stmt {
		String nameHint();

		Stmt body();

		Scope withBody(Stmt body);
	}

	/**
	 * {@code with pl.at(level=pl.Level.CORE_GROUP)} and the jit's automatic scopes: outlined into an InCore
	 * function by OutlineIncoreScopes. split is the cross-core split mode ("None", "UpDown", "LeftRight").
	 */
	record InCoreScope(String nameHint, String split, Map<String, Object> attrs, Stmt body, Span span)
			implements Scope {
		@Override
		public InCoreScope withBody(Stmt b) {
			return new InCoreScope(nameHint, split, attrs, b, span);
		}
	}

	/** {@code with pl.cluster()}: outlined into a Group function by OutlineClusterScopes. */
	record ClusterScope(String nameHint, Stmt body, Span span) implements Scope {
		@Override
		public ClusterScope withBody(Stmt b) {
			return new ClusterScope(nameHint, b, span);
		}
	}

	/** {@code with pl.at(level=..., role=...)} above the core group: OutlineHierarchyScopes. */
	record HierarchyScope(String nameHint, Level level, Role role, Stmt body, Span span) implements Scope {
		@Override
		public HierarchyScope withBody(Stmt b) {
			return new HierarchyScope(nameHint, level, role, b, span);
		}
	}

	/**
	 * {@code with pl.spmd(core_num)} and {@code for i in pl.spmd(n)}: outlined into a Spmd function by
	 * OutlineClusterScopes. attrs hold allow_early_resolve, predicate, task_id_var and manual_dep_edges.
	 */
	record SpmdScope(String nameHint, Expr coreNum, boolean syncStart, Map<String, Object> attrs, Stmt body, Span span)
			implements Scope {
		public SpmdScope {
			attrs = attrs.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attrs));
		}

		@Override
		public SpmdScope withBody(Stmt b) {
			return new SpmdScope(nameHint, coreNum, syncStart, attrs, b, span);
		}
	}

	/** {@code with pl.split_aiv(...)}: an explicit AIV-split region inside a kernel. */
	record SplitAivScope(String nameHint, String split, int count, Stmt body, Span span) implements Scope {
		@Override
		public SplitAivScope withBody(Stmt b) {
			return new SplitAivScope(nameHint, split, count, b, span);
		}
	}

	/** A runtime scope of orchestration code: {@code PTO2_SCOPE()} (AUTO) or MANUAL. */
	record RuntimeScope(String nameHint, boolean manual, Stmt body, Span span) implements Scope {
		@Override
		public RuntimeScope withBody(Stmt b) {
			return new RuntimeScope(nameHint, manual, b, span);
		}
	}

	/**
	 * A communication domain of a HOST orchestrator (pypto's CommDomainScopeStmt, made by
	 * MaterializeCommDomainScopes): the ranks it covers ({@code devices}, ascending; empty means every rank)
	 * and the window buffers carved out of its window ({@code slots}, in allocation order). nameHint is
	 * {@code comm_d<n>}.
	 */
	record CommDomainScope(String nameHint, List<Long> devices, List<WindowBuffer> slots, Stmt body, Span span)
			implements Scope {
		public CommDomainScope {
			devices = List.copyOf(devices);
			slots = List.copyOf(slots);
		}

		@Override
		public CommDomainScope withBody(Stmt b) {
			return new CommDomainScope(nameHint, devices, slots, b, span);
		}

		/** The slot named name (slot names are unique within a function), or null. */
		public WindowBuffer slot(String name) {
			for (WindowBuffer w : slots) {
				if (w.name().equals(name)) {
					return w;
				}
			}
			return null;
		}
	}

	/** A statement list from a single statement or a Seq. */
	static List<Stmt> flatten(Stmt s) {
		if (s == null) {
			return List.of();
		}
		return s instanceof Seq q ? q.stmts() : List.of(s);
	}
}
