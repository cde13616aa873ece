package dev.ptotools.analyzer.passes;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

import dev.ptotools.analyzer.catalog.Builtin;
import dev.ptotools.analyzer.catalog.Builtins;
import dev.ptotools.analyzer.facts.CallResolution;
import dev.ptotools.analyzer.facts.Callee;
import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.analyzer.ir.ModuleIR;
import dev.ptotools.analyzer.ir.Program;
import dev.ptotools.analyzer.ir.Stmt;
import dev.ptotools.analyzer.ir.Walk;
import dev.ptotools.analyzer.pipeline.Facts;
import dev.ptotools.analyzer.pipeline.Key;
import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.analyzer.pipeline.Pass;

/**
 * Name resolution of calls: {@code self.f} (and bare {@code f} in jit style) to the program's
 * function, names of pypto's public objects to catalog members through what the imports bind
 * ({@link dev.ptotools.analyzer.ir.Imports}), with aliases unified (pld.window is pld.tensor.window),
 * and everything else left as other calls.
 */
public final class ResolveCallsPass implements Pass {

	@Override
	public String name() {
		return "resolve-calls";
	}

	@Override
	public List<Key<?>> needs() {
		return List.of(Keys.MODULE);
	}

	@Override
	public List<Key<?>> produces() {
		return List.of(Keys.CALLS);
	}

	@Override
	public void run(Facts facts) {
		ModuleIR module = facts.get(Keys.MODULE);
		IdentityHashMap<Expr.Call, Callee> callees = new IdentityHashMap<>();
		IdentityHashMap<Function, Program> owners = new IdentityHashMap<>();
		IdentityHashMap<Function, List<Expr.Call>> byFunction = new IdentityHashMap<>();
		IdentityHashMap<Expr.Call, Stmt> statements = new IdentityHashMap<>();
		for (Program p : module.programs()) {
			for (Function f : p.functions()) {
				owners.put(f, p);
				List<Expr.Call> calls = new ArrayList<>();
				Walk.statements(f.body(), s -> {
					for (Expr.Call c : Walk.ownCalls(s)) {
						calls.add(c);
						statements.put(c, s);
						callees.put(c, resolve(c, p, module));
					}
				});
				byFunction.put(f, List.copyOf(calls));
			}
		}
		facts.put(Keys.CALLS, new CallResolution(callees, owners, byFunction, statements, module.imports()));
	}

	static Callee resolve(Expr.Call c, Program p, ModuleIR module) {
		String text = c.funcText();
		if (text == null) {
			return new Callee.Other("expression");
		}
		if (text.startsWith("self.") && text.indexOf('.', 5) < 0) {
			String name = text.substring(5);
			Function f = p.style() == Program.Style.CLASS ? p.function(name) : null;
			return f != null ? new Callee.ProgramFunction(f, true) : new Callee.UnknownFunction(name, true);
		}
		// Through what the imports bind: pl.range, range after from pypto.language import range, jit.host...
		String normalized = module.imports().normalize(text);
		if (normalized != null) {
			Builtin b = Builtins.get().lookup(normalized);
			if (b != null) {
				return new Callee.BuiltinCall(b, normalized);
			}
			if (module.imports().complete(text)) {
				return new Callee.UnknownBuiltin(normalized);
			}
		}
		if (text.indexOf('.') < 0) {
			Function f = p.function(text);
			if (f != null && p.style() == Program.Style.JIT) {
				return new Callee.ProgramFunction(f, false);
			}
		}
		return new Callee.Other(text);
	}
}
