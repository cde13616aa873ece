package dev.ptotools.analyzer.rules.host;

import java.util.List;

import dev.ptotools.analyzer.diagnostics.Fix;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.CommDomains;
import dev.ptotools.analyzer.facts.FunctionScope;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.Param;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.TypeSpec;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.rules.RuleContext;

/**
 * PTO301: a dispatch passes a DistributedTensor (a window view or a DistributedTensor parameter)
 * without device=. Fix, inside a loop: pin it to the loop variable.
 */
public final class DistributedArgWithoutDeviceRule extends HostRule {

	@Override
	public String id() {
		return "PTO301";
	}

	@Override
	public String name() {
		return "distributed-tensor-without-device";
	}

	@Override
	public String title() {
		return "DistributedTensor argument on a dispatch without device=";
	}

	@Override
	public String description() {
		return "A DistributedTensor lives in a per-rank window, so the dispatch that receives one must say"
				+ " which rank runs it. pypto's distributed codegen rejects a dispatch that passes one without"
				+ " device=.";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE, Keys.CALLS, Keys.FUNCTIONS, Keys.COMM_DOMAINS, Keys.RANK_LOOPS);
	}

	@Override
	void checkHost(RuleContext ctx, Program p, Function host) {
		CallResolution calls = ctx.get(Keys.CALLS);
		CommDomains.Host comm = ctx.get(Keys.COMM_DOMAINS).hosts().get(host);
		FunctionScope scope = new FunctionScope(host, calls);
		Walk.statements(host.body(), s -> {
			for (Expr.Call c : Walk.ownCalls(s)) {
				Function callee = calls.target(c);
				if (callee == null || c.keyword("device") != null) {
					continue;
				}
				String distributed = distributedArg(c, host, comm);
				if (distributed == null) {
					continue;
				}
				List<Stmt.For> loops = scope.enclosingLoops(s);
				List<Fix> fixes = List.of();
				// Only a loop over the ranks says which rank runs each iteration.
				boolean rankLoop = !loops.isEmpty() && ctx.get(Keys.RANK_LOOPS).of(loops.get(0)) != null;
				if (rankLoop && loops.get(0).target() instanceof Expr.Name v && c.span().end() > 0
						&& ctx.text().charAt(c.span().end() - 1) == ')') {
					int at = lastArgumentEnd(c);
					fixes = List.of(new Fix("Dispatch to device=" + v.id(),
							List.of(new Fix.Edit(new Span(at, at), ", device=" + v.id())), true));
				}
				ctx.report(c.span(), "Call passing DistributedTensor args must carry device=: '" + distributed
						+ "' is passed to " + callee.name() + " without saying which rank runs it", List.of(), fixes);
			}
		});
	}

	private static String distributedArg(Expr.Call c, Function host, CommDomains.Host comm) {
		for (Expr a : c.args()) {
			if (a instanceof Expr.Name n) {
				Param param = host.param(n.id());
				if (param != null && param.type() instanceof TypeSpec.Tensor t
						&& t.kind() == TypeSpec.TensorKind.DISTRIBUTED) {
					return n.id();
				}
				if (comm != null && comm.view(n.id()) != null) {
					return n.id();
				}
			}
		}
		return null;
	}

	private static int lastArgumentEnd(Expr.Call d) {
		int end = d.parenSpan().start() + 1;
		for (Expr a : d.args()) {
			end = Math.max(end, a.span().end());
		}
		for (Expr.Keyword k : d.keywords()) {
			end = Math.max(end, k.span().end());
		}
		return end;
	}
}
