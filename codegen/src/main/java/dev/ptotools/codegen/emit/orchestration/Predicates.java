package dev.ptotools.codegen.emit.orchestration;

import java.util.List;

import dev.ptotools.codegen.ir.DispatchPredicate;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * A dispatch predicate ({@code pl.spmd_submit(..., predicate=(t[i] > 0))}, pypto's EmitPredicateHint):
 * the comparison of one tensor element with an integer constant, as the runtime's
 * {@code CoreTaskPredicate} (operand, op, target); the tensor must be a named signed 8/16/32/64-bit
 * integer tensor read with at most 5 indices.
 */
final class Predicates {

	private static final int RUNTIME_MAX_TENSOR_DIMS = 5;

	private final OrchState st;
	private final CppExprs exprs;

	Predicates(OrchState st, CppExprs exprs) {
		this.st = st;
		this.exprs = exprs;
	}

	void emit(String taskVar, CallView call) {
		if (!call.attrs().containsKey("predicate")) {
			return;
		}
		if (!(call.attr("predicate") instanceof Expr pred)) {
			throw new CodegenException("Submit predicate attr is null", call.span());
		}
		if (!(pred instanceof Expr.Binary cmp) || !cmp.op().isComparison()) {
			throw new CodegenException("Submit dispatch predicate must be a single comparison (==, !=, >, <, >=, <=) "
					+ "between a tensor element and an integer literal, e.g. predicate=(t[i] > 0)", pred.span());
		}
		Expr lhs = DispatchPredicate.stripCast(cmp.left());
		Expr rhs = DispatchPredicate.stripCast(cmp.right());
		boolean flipped = false;
		Expr read = lhs;
		Expr konst = rhs;
		if (!(DispatchPredicate.isRead(read) && konst instanceof Expr.ConstInt)) {
			read = rhs;
			konst = lhs;
			flipped = true;
		}
		if (!(DispatchPredicate.isRead(read) && konst instanceof Expr.ConstInt target)) {
			throw new CodegenException("Submit dispatch predicate must compare a tensor element (a tensor.read, e.g. t[i]) "
					+ "against an integer literal; got neither side in that form", pred.span());
		}
		Expr.Call r = (Expr.Call) read;
		if (r.args().size() < 2) {
			throw new CodegenException("tensor.read in a dispatch predicate must have a tensor and an index list", r.span());
		}
		Expr operand = r.args().get(0);
		if (!(operand.type() instanceof Type.Tensor tt)) {
			throw new CodegenException("Submit dispatch-predicate operand must be a tensor", operand.span());
		}
		DType d = tt.dtype();
		if (!(d == DType.INT8 || d == DType.INT16 || d == DType.INT32 || d == DType.INT64)) {
			throw new CodegenException("Submit dispatch-predicate operand must be a signed 8/16/32/64-bit integer tensor, got "
					+ d.text() + ". The runtime sign-extends the value it reads, so an unsigned operand can compare as "
					+ "negative and silently invert the dispatch decision; sub-byte dtypes have no addressable "
					+ "single-element read.", operand.span());
		}
		List<Expr> indices = r.args().get(1) instanceof Expr.MakeTuple t ? t.elements() : List.of(r.args().get(1));
		if (indices.size() > RUNTIME_MAX_TENSOR_DIMS) {
			throw new CodegenException("Submit dispatch-predicate operand has rank " + indices.size()
					+ ", exceeding the runtime's maximum of " + RUNTIME_MAX_TENSOR_DIMS
					+ " indices (CorePredicateOperand::indices is a fixed-size array)", r.span());
		}
		String name = st.tryVarName(operand);
		if (name.isEmpty()) {
			throw new CodegenException("Submit dispatch-predicate operand must be a named tensor (a function parameter or a "
					+ "variable bound to a tensor). Bind the tensor to a variable first and pass that variable.",
					operand.span());
		}
		String pv = taskVar + "_pred";
		st.line("CoreTaskPredicate " + pv + ";");
		st.line(pv + ".operand.tensor = &" + st.external(name) + ";");
		st.line(pv + ".operand.ndims = " + indices.size() + ";");
		for (int i = 0; i < indices.size(); i++) {
			if (indices.get(i) instanceof Expr.ConstInt c && c.value() < 0) {
				throw new CodegenException("Submit dispatch-predicate index " + i + " is negative (" + c.value()
						+ "); the runtime stores indices as uint32_t, so it would wrap to an out-of-bounds address",
						c.span());
			}
			st.line(pv + ".operand.indices[" + i + "] = " + exprs.render(indices.get(i)) + ";");
		}
		st.line(pv + ".op = PredicateOp::" + op(cmp.op(), flipped) + ";");
		st.line(pv + ".target = " + target.value() + ";");
		st.line(taskVar + ".set_predicate(" + pv + ");");
	}



	private static String op(Expr.BinaryOp op, boolean flipped) {
		return switch (op) {
		case Eq -> "EQ";
		case Ne -> "NE";
		case Gt -> flipped ? "LT" : "GT";
		case Lt -> flipped ? "GT" : "LT";
		case Ge -> flipped ? "LE" : "GE";
		case Le -> flipped ? "GE" : "LE";
		default -> throw new IllegalStateException(op.name());
		};
	}
}
