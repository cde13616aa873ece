package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;

/**
 * The type pypto's front end gives each value a program binds (parameters, assignment targets, loop
 * variables and carries), as pypto prints it, where the source binds it: what hover shows for a
 * name, per specialization of a {@code @pl.jit} function.
 *
 * <p>Needs: the program as the front end parsed it, with the user's spans (class programs and jit
 * specializations alike). Produces: one {@link ValueType} per binding, in source order.
 */
public final class ValueTypes {

	private ValueTypes() {
	}

	/**
	 * @param at where the name is bound (its definition's span)
	 * @param name the name bound
	 * @param program the output name of the program (a jit specialization has its own)
	 * @param type pypto's printed type ({@code pl.Tile[[64, 64], pl.FP32]})
	 * @param brief a tensor's or tile's type in a few characters ({@code Tile[64, 64] FP32 Vec}), for an
	 *        inlay hint; null for other values
	 */
	public record ValueType(Span at, String name, String program, String type, String brief) {
	}

	static List<ValueType> of(Program input, String program) {
		List<ValueType> out = new ArrayList<>();
		for (dev.ptotools.codegen.ir.Function f : input.functions()) {
			for (Var p : f.params()) {
				add(out, p, program);
			}
			new IrVisitor() {
				@Override
				public void def(Var v) {
					add(out, v, program);
				}
			}.stmt(f.body());
		}
		out.sort((a, b) -> Integer.compare(a.at().start(), b.at().start()));
		return List.copyOf(out);
	}

	private static void add(List<ValueType> out, Var v, String program) {
		if (v.span() == null || v.span() == Span.NONE || v.type() instanceof Type.Unknown) {
			return;
		}
		out.add(new ValueType(v.span(), v.name(), program, IrPrinter.type(v.type()), brief(v.type())));
	}

	private static String brief(Type t) {
		if (t instanceof Type.Tile tile) {
			return "Tile" + IrPrinter.shape(tile.shape()) + " " + tile.dtype().name() + (tile.memory() != null ? " " + tile.memory() : "");
		}
		if (t instanceof Type.Tensor tensor) {
			return "Tensor" + IrPrinter.shape(tensor.shape()) + " " + tensor.dtype().name();
		}
		return null;
	}
}
