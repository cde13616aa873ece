package dev.ptotools.codegen.passes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.types.DType;

class NormalizeStmtStructurePassTest {

	private static Function fn(Stmt body, Var... params) {
		return new Function("f", FunctionType.Opaque, List.of(params), List.of(params).stream().map(p -> Direction.In).toList(),
				List.of(), body, null, null, java.util.Map.of(), Span.NONE);
	}

	@Test
	void nestedListsAreSplicedAndSingletonsUnwrapped() {
		Var n = new Var("n", new Type.Scalar(DType.INDEX));
		Var a = new Var("a", new Type.Scalar(DType.INDEX));
		Stmt assign = new Stmt.Assign(a, new Expr.ConstInt(1, DType.INDEX), Span.NONE);
		Stmt ret = new Stmt.Return(List.of(a), Span.NONE);
		Var i = new Var("i", new Type.Scalar(DType.INDEX));
		Stmt loop = new Stmt.For(i, new Expr.ConstInt(0, DType.INDEX), n, new Expr.ConstInt(1, DType.INDEX), List.of(),
				new Stmt.Seq(List.of(new Stmt.Seq(List.of(assign)))), List.of(), Stmt.ForKind.Sequential, java.util.Map.of(),
				Span.NONE);
		Stmt body = new Stmt.Seq(List.of(new Stmt.Seq(List.of(loop, new Stmt.Seq(List.of()))), ret));
		Function out = NormalizeStmtStructurePass.normalize(fn(body, n));
		Stmt.Seq top = (Stmt.Seq) out.body();
		assertEquals(2, top.stmts().size());
		Stmt.For f = (Stmt.For) top.stmts().get(0);
		assertSame(assign, f.body());
		assertTrue(top.stmts().get(1) instanceof Stmt.Return);
	}

	@Test
	void anUnchangedBodyIsKept() {
		Var a = new Var("a", new Type.Scalar(DType.INDEX));
		Stmt body = new Stmt.Seq(List.of(new Stmt.Assign(a, new Expr.ConstInt(1, DType.INDEX), Span.NONE),
				new Stmt.Return(List.of(a), Span.NONE)));
		Function f = fn(body);
		assertSame(f, NormalizeStmtStructurePass.normalize(f));
		Stmt empty = new Stmt.Seq(List.of());
		assertSame(empty, NormalizeStmtStructurePass.normalize(fn(empty)).body());
	}
}
