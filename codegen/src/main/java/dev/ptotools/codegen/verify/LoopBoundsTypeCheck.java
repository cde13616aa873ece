package dev.ptotools.codegen.verify;

import dev.ptotools.codegen.frontend.ScalarOps;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;

/**
 * The loop part of pypto's TypeChecked property (src/ir/verifier/type_check_pass.cpp), which its pass
 * manager verifies on the parsed program before the first pass: a for loop's start, stop and step are
 * scalars ({@code pl.range([])} or {@code pl.range(tensor)} is "ForStmt stop must be ScalarType, but got
 * TupleType"), at the loop.
 *
 * <p>Needs: the program as the front end parsed it. Produces: nothing, or the first violation as a
 * {@link CodegenException}. A bound of a type this compiler does not know is not judged.
 */
public final class LoopBoundsTypeCheck {

	private LoopBoundsTypeCheck() {
	}

	public static void check(Program program) {
		for (dev.ptotools.codegen.ir.Function f : program.functions()) {
			new IrVisitor() {
				@Override
				public void stmt(Stmt s) {
					if (s instanceof Stmt.For loop) {
						scalar(loop.start(), "ForStmt start", loop);
						scalar(loop.stop(), "ForStmt stop", loop);
						scalar(loop.step(), "ForStmt step", loop);
					}
					super.stmt(s);
				}
			}.stmt(f.body());
		}
	}

	private static void scalar(Expr e, String context, Stmt.For loop) {
		if (e == null || e.type() instanceof Type.Scalar || e.type() instanceof Type.Unknown) {
			return;
		}
		throw new CodegenException(context + " must be ScalarType, but got " + ScalarOps.typeName(e.type()), loop.span());
	}
}
