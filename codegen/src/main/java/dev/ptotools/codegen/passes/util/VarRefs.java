package dev.ptotools.codegen.passes.util;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.IterArg;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * Variable collectors with the traversal of pypto's IRVisitor (src/ir/transforms/visitor.cpp), which
 * the analyses of several passes depend on: a Var reference also reaches the Vars in its tensor type's
 * shape, an IterArg reference its init value, a call its Expr-valued attrs.
 */
public final class VarRefs {

	private VarRefs() {
	}

	/** Every Var assigned by an AssignStmt anywhere in s (pypto's VarDefUseCollector::var_assign_defs). */
	public static Set<Var> assignDefs(Stmt s) {
		Set<Var> out = new LinkedHashSet<>();
		new IrVisitor() {
			@Override
			public void stmt(Stmt st) {
				if (st instanceof Stmt.Assign a) {
					out.add(a.var());
					return;
				}
				super.stmt(st);
			}
		}.stmt(s);
		return out;
	}

	/** The Vars an expression reads, pypto's UseCollector way (shapes of tensor Vars, IterArg inits). */
	public static Set<Var> uses(Expr e) {
		Uses u = new Uses();
		u.expr(e);
		return u.used;
	}

	private static final class Uses extends Visitor {
		final Set<Var> used = new LinkedHashSet<>();

		@Override
		protected void ref(Var v) {
			used.add(v);
		}
	}

	/**
	 * An IrVisitor that walks expressions as pypto's IRVisitor does. Subclasses override {@link #ref} to
	 * see every Var/IterArg expression (uses, and the assignment targets pypto's base visitor visits as
	 * expressions are not included: definitions go to {@link IrVisitor#def}).
	 */
	public abstract static class Visitor extends IrVisitor {

		protected abstract void ref(Var v);

		@Override
		public void use(Var v) {
			ref(v);
			if (v.type() instanceof Type.Tensor t && !t.distributed()) {
				t.shape().forEach(this::expr);
			}
			if (v instanceof IterArg ia) {
				expr(ia.init());
			}
		}

		@Override
		public void call(Expr.Call c) {
			super.call(c);
			attrExprs(c.attrs().values()).forEach(this::expr);
		}

		@Override
		public void submit(Expr.Submit s) {
			super.submit(s);
			attrExprs(s.attrs().values()).forEach(this::expr);
		}

		@Override
		public void scope(Stmt.Scope s) {
			if (s instanceof Stmt.InCoreScope ic) {
				attrExprs(ic.attrs().values()).forEach(this::expr);
			}
			super.scope(s);
		}
	}

	/** The expressions stored in attribute values (an Expr, or a list holding Exprs). */
	public static List<Expr> attrExprs(Collection<Object> values) {
		List<Expr> out = new ArrayList<>();
		for (Object v : values) {
			if (v instanceof Expr e) {
				out.add(e);
			} else if (v instanceof List<?> l) {
				for (Object o : l) {
					if (o instanceof Expr e) {
						out.add(e);
					}
				}
			}
		}
		return out;
	}

	/** attrs with every Expr value (and Expr element of a list value) mapped; the same map when none changed. */
	public static Map<String, Object> mapAttrExprs(Map<String, Object> attrs, java.util.function.UnaryOperator<Expr> f) {
		Map<String, Object> out = null;
		for (Map.Entry<String, Object> a : attrs.entrySet()) {
			Object v = a.getValue();
			Object n = v;
			if (v instanceof Expr e) {
				n = f.apply(e);
			} else if (v instanceof List<?> l) {
				List<Object> nl = null;
				for (int i = 0; i < l.size(); i++) {
					Object o = l.get(i);
					Object no = o instanceof Expr e ? f.apply(e) : o;
					if (no != o && nl == null) {
						nl = new ArrayList<>(l.subList(0, i));
					}
					if (nl != null) {
						nl.add(no);
					}
				}
				if (nl != null) {
					n = java.util.Collections.unmodifiableList(nl);
				}
			}
			if (n != v && out == null) {
				out = new java.util.LinkedHashMap<>(attrs);
			}
			if (out != null) {
				out.put(a.getKey(), n);
			}
		}
		return out == null ? attrs : out;
	}
}
