package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrMutator;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.passes.util.VarCollectors;
import dev.ptotools.codegen.support.CodegenException;

/**
 * pypto's MaterializeValidShapeSymbols (src/ir/transforms/materialize_valid_shape_symbols_pass.cpp), the
 * last pass: a device kernel (InCore, AIC, AIV, Spmd) whose tensor parameter declares a
 * {@code valid_shape} dim that is a bare symbol nothing else binds (no scalar parameter, no physical dim)
 * gets that symbol as a leading {@code In} {@code Scalar[INDEX]} parameter (first appearance first), and
 * every call of it — in any function — gets the actual argument's valid extent at that position as a
 * leading argument (and a leading {@code Scalar} entry in its {@code arg_directions}).
 */
public final class MaterializeValidShapeSymbolsPass implements Pass {

	@Override
	public String name() {
		return "MaterializeValidShapeSymbols";
	}

	private record Symbol(Var symbol, List<int[]> slots) {
	}

	private static boolean deviceKernel(FunctionType t) {
		return t == FunctionType.InCore || t == FunctionType.AIC || t == FunctionType.AIV || t == FunctionType.Spmd;
	}

	private static List<Expr> declaredValidShape(Type t) {
		return t instanceof Type.Tensor x && x.view() != null && x.view().validShape() != null
				&& !x.view().validShape().isEmpty() ? x.view().validShape() : null;
	}

	private static void shapeVars(Expr e, Set<Var> into) {
		new dev.ptotools.codegen.passes.util.PyptoVisitor() {
			@Override
			protected void varUse(Var v) {
				into.add(v);
			}

			@Override
			protected void iterArgUse(dev.ptotools.codegen.ir.IterArg a) {
				into.add(a);
			}
		}.expr(e);
	}

	private static List<Symbol> plan(Function f) {
		List<Symbol> symbols = new ArrayList<>();
		if (!deviceKernel(f.type())) {
			return symbols;
		}
		Set<Var> bound = VarCollectors.identitySet();
		for (Var p : f.params()) {
			if (p.type() instanceof Type.Tensor t) {
				t.shape().forEach(d -> shapeVars(d, bound));
			} else {
				bound.add(p);
			}
		}
		Map<Var, Symbol> index = new java.util.IdentityHashMap<>();
		for (int i = 0; i < f.params().size(); i++) {
			List<Expr> valid = declaredValidShape(f.params().get(i).type());
			if (valid == null) {
				continue;
			}
			for (int d = 0; d < valid.size(); d++) {
				if (!(valid.get(d) instanceof Var v) || bound.contains(v)) {
					continue;
				}
				Symbol s = index.get(v);
				if (s == null) {
					s = new Symbol(v, new ArrayList<>());
					index.put(v, s);
					symbols.add(s);
				}
				s.slots().add(new int[] { i, d });
			}
		}
		for (Var p : f.params()) {
			List<Expr> valid = declaredValidShape(p.type());
			if (valid == null) {
				continue;
			}
			for (Expr dim : valid) {
				if (dim instanceof Var) {
					continue;
				}
				Set<Var> vars = VarCollectors.identitySet();
				shapeVars(dim, vars);
				for (Var v : vars) {
					if (!bound.contains(v) && !index.containsKey(v)) {
						throw new CodegenException("MaterializeValidShapeSymbols: parameter '" + p.name() + "' of kernel '"
								+ f.name() + "' uses symbol '" + v.name() + "' only inside the compound valid_shape expression '"
								+ IrPrinter.expr(dim) + "', so its value cannot be read from the call site. Declare the symbol "
								+ "on its own in some parameter's pl.TensorView(valid_shape=...), or pass the extent as a "
								+ "pl.Scalar[pl.INDEX] parameter and use it in pl.load(..., valid_shape=[...]).", p.span());
					}
				}
			}
		}
		return symbols;
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		Map<String, List<Symbol>> plans = new HashMap<>();
		for (Function f : program.sortedByName()) {
			List<Symbol> p = plan(f);
			if (!p.isEmpty()) {
				plans.put(f.name(), p);
			}
		}
		if (plans.isEmpty()) {
			return program;
		}
		List<Function> out = new ArrayList<>();
		for (Function f : program.sortedByName()) {
			List<Symbol> p = plans.get(f.name());
			if (p != null) {
				List<Var> params = new ArrayList<>();
				List<Direction> dirs = new ArrayList<>();
				for (Symbol s : p) {
					params.add(s.symbol());
					dirs.add(Direction.In);
				}
				params.addAll(f.params());
				dirs.addAll(f.directions());
				f = f.withSignature(params, dirs, f.returnTypes());
			}
			out.add(f.withBody(rewriteCalls(f.body(), plans)));
		}
		return program.withFunctions(out);
	}

	private static Stmt rewriteCalls(Stmt body, Map<String, List<Symbol>> plans) {
		return new IrMutator() {
			@Override
			public Expr call(Expr.Call c) {
				Expr v = super.call(c);
				if (!(v instanceof Expr.Call n) || n.functionName() == null || !plans.containsKey(n.functionName())) {
					return v;
				}
				List<Symbol> p = plans.get(n.functionName());
				Expr.Call r = n.withArgs(prepend(p, n.functionName(), n.args(), n));
				Object dirs = r.attr("arg_directions");
				return dirs instanceof List<?> l ? r.withAttr("arg_directions", prependScalar(l, p.size())) : r;
			}

			@Override
			public Expr submit(Expr.Submit s) {
				Expr v = super.submit(s);
				if (!(v instanceof Expr.Submit n) || !plans.containsKey(n.callee().name())) {
					return v;
				}
				List<Symbol> p = plans.get(n.callee().name());
				Expr.Submit r = n.withArgs(prepend(p, n.callee().name(), n.args(), n));
				Object dirs = r.attr("arg_directions");
				return dirs instanceof List<?> l ? r.withAttr("arg_directions", prependScalar(l, p.size())) : r;
			}
		}.stmt(body);
	}

	private static List<Expr> prepend(List<Symbol> plan, String callee, List<Expr> args, Expr site) {
		List<Expr> out = new ArrayList<>();
		for (Symbol s : plan) {
			Expr value = null;
			for (int[] slot : s.slots()) {
				if (slot[0] >= args.size()) {
					throw new CodegenException("MaterializeValidShapeSymbols: kernel '" + callee + "' declares valid_shape "
							+ "symbol '" + s.symbol().name() + "' on parameter " + slot[0] + ", but this call does not supply "
							+ "that argument, so there is no actual to read the extent from.", site.span());
				}
				if (!(args.get(slot[0]).type() instanceof Type.Tensor t)) {
					throw new IllegalStateException("argument " + slot[0] + " for valid_shape symbol '" + s.symbol().name()
							+ "' must be a tensor");
				}
				List<Expr> actual = declaredValidShape(t) != null ? declaredValidShape(t) : t.shape();
				Expr candidate = actual.get(slot[1]);
				if (value != null && !IrPrinter.expr(value).equals(IrPrinter.expr(candidate))) {
					throw new CodegenException("MaterializeValidShapeSymbols: symbol '" + s.symbol().name()
							+ "' is declared in more than one parameter's valid_shape, but this call supplies different "
							+ "extents ('" + IrPrinter.expr(value) + "' and '" + IrPrinter.expr(candidate) + "').", site.span());
				}
				if (value == null) {
					value = candidate;
				}
			}
			out.add(value);
		}
		out.addAll(args);
		return out;
	}

	/**
	 * Leading {@code Scalar} call-site directions. The list holds the call-direction enum of the
	 * orchestration passes; its {@code Scalar} member is looked up from the list's own element type.
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static List<Object> prependScalar(List<?> dirs, int n) {
		List<Object> out = new ArrayList<>();
		Object scalar = "scalar";
		if (!dirs.isEmpty() && dirs.get(0) instanceof Enum<?> e) {
			scalar = Enum.valueOf((Class) e.getDeclaringClass(), "Scalar");
		}
		for (int i = 0; i < n; i++) {
			out.add(scalar);
		}
		out.addAll(dirs);
		return out;
	}
}
