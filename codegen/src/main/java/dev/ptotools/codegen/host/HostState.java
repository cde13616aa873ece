package dev.ptotools.codegen.host;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.codegen.support.CodeEmitter;
import dev.ptotools.codegen.support.ProgramContext;

/** The state of emitting one host orchestrator: facts, names, open comm domains, counters. */
final class HostState {

	final ProgramContext ctx;
	final Function f;
	final CommDomains.Host comm;
	final FunctionScope scope;
	final PyExprs exprs;
	final CodeEmitter out;
	final List<HostDomain> domains;
	/** Alloc name -> the domain that holds it. */
	final Map<String, HostDomain> domainOfBuffer = new HashMap<>();
	/** Open domains, innermost on top. */
	final Deque<HostDomain> open = new ArrayDeque<>();
	/** Names that hold plain tensors (entries of the tensors dict). */
	final Set<String> tensors = new HashSet<>();
	/** Name -> the window view it denotes (DistributedTensor aliases included). */
	final Map<String, CommDomains.View> views = new HashMap<>();
	/** Name bound by pld.system.get_comm_ctx(view) -> the view. */
	final Map<String, CommDomains.View> commCtx = new HashMap<>();
	/** (tuple target, Out index) -> the argument name an unpacked element aliases. */
	final Map<String, String> tupleElements = new HashMap<>();
	/** Allreduce calls without a signal -> the synthesized signal buffer's name. */
	final Map<Object, String> synthesizedSignals = new java.util.IdentityHashMap<>();
	int taskArgs;
	/** FlattenCallExpr's temporaries t__tmp_v<n>. */
	int temps;

	HostState(ProgramContext ctx, Function f, CommDomains.Host comm, FunctionScope scope, PyExprs exprs,
			CodeEmitter out, List<HostDomain> domains) {
		this.ctx = ctx;
		this.f = f;
		this.comm = comm;
		this.scope = scope;
		this.exprs = exprs;
		this.out = out;
		this.domains = domains;
		for (HostDomain d : domains) {
			for (HostSlot s : d.slots()) {
				domainOfBuffer.put(s.name(), d);
			}
		}
	}

	String nextTaskArgs() {
		return "_ta_" + taskArgs++;
	}
}
