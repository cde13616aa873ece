package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * pypto's {@code deduce_call_return_type}: a callee's return types with its parameters' dynamic-dim
 * symbols replaced by the extents of the arguments passed for them.
 */
final class CallReturnTypes {

	private CallReturnTypes() {
	}

	static List<Type> substitute(Function callee, List<Expr> args, List<Type> returns) {
		Map<Var, Expr> bind = new IdentityHashMap<>();
		for (int i = 0; i < callee.params().size() && i < args.size(); i++) {
			if (callee.params().get(i).type() instanceof Type.Tensor pt && args.get(i).type() instanceof Type.Tensor at
					&& pt.rank() == at.rank()) {
				for (int d = 0; d < pt.rank(); d++) {
					if (pt.shape().get(d) instanceof Var sym) {
						bind.putIfAbsent(sym, at.shape().get(d));
					}
				}
			}
		}
		if (bind.isEmpty()) {
			return returns;
		}
		List<Type> out = new ArrayList<>();
		for (Type t : returns) {
			out.add(subst(t, bind));
		}
		return out;
	}

	private static Type subst(Type t, Map<Var, Expr> bind) {
		if (t instanceof Type.Tensor tt) {
			List<Expr> s = new ArrayList<>();
			for (Expr d : tt.shape()) {
				s.add(d instanceof Var v && bind.containsKey(v) ? bind.get(v) : d);
			}
			return tt.withShape(s);
		}
		if (t instanceof Type.Tuple tu) {
			return new Type.Tuple(tu.elements().stream().map(x -> subst(x, bind)).toList());
		}
		return t;
	}
}
