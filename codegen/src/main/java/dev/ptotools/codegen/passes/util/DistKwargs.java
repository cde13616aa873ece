package dev.ptotools.codegen.passes.util;

import java.util.Map;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.types.DType;

/**
 * Reads the keyword metadata of the distributed ops as pypto's {@code GetKwarg<int>} / {@code GetKwarg<string>}
 * would: an integer is a number or the {@code pld.ReduceOp} member the front end recorded (pypto stores
 * the member's int value: Sum 0, Max 1, Min 2, Prod 3), a string is a string.
 */
public final class DistKwargs {

	private DistKwargs() {
	}

	/** The int value of a kwarg or attr value, or null when it is absent or not an integer. */
	public static Integer intValue(Object v) {
		if (v instanceof Integer i) {
			return i;
		}
		if (v instanceof Long l) {
			return (int) (long) l;
		}
		if (v instanceof Expr.ConstInt c) {
			return (int) c.value();
		}
		if (v instanceof Values.EnumValue e) {
			return switch (e.member()) {
			case "Sum", "kSum" -> 0;
			case "Max", "kMax" -> 1;
			case "Min", "kMin" -> 2;
			case "Prod", "kProd" -> 3;
			default -> null;
			};
		}
		return null;
	}

	/** An int kwarg, or def when absent. */
	public static int intKwarg(Map<String, Object> kwargs, String name, int def) {
		Integer v = intValue(kwargs.get(name));
		return v == null ? def : v;
	}

	/** A string kwarg, or null when absent. */
	public static String stringValue(Object v) {
		if (v instanceof String s) {
			return s;
		}
		if (v instanceof Values.EnumValue e) {
			return e.member();
		}
		return null;
	}

	public static DType dtypeValue(Object v) {
		return v instanceof DType d ? d : null;
	}
}
