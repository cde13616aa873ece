package dev.ptotools.codegen.frontend;

import dev.ptotools.analyzer.facts.Values;
import dev.ptotools.codegen.frontend.unparse.PyRepr;

/**
 * A fillpad or slice {@code pad_value} as pypto's builders take it (normalize_pad_value): the enum
 * {@code pl.PadValue.zero/max/min}, or the literal sugars {@code 0}, {@code 0.0}, {@code math.inf} and
 * {@code -math.inf}, each the mode it stands for; anything else is refused with pypto's message, the
 * value named as the user wrote it.
 * <p>Needs: the argument folded over the closure (a Python value). Produces: the PadValue member, or an
 * {@link IrTypeError} (pypto's ValueError or TypeError, which its parser reports at the call).
 */
final class PadValues {

	private static final String HINT = "Use pl.PadValue.zero / pl.PadValue.max / pl.PadValue.min, "
			+ "or one of the literals 0, 0.0, math.inf, -math.inf.";

	private PadValues() {
	}

	/** The argument's PadValue, or null when the value is not known here (left to the op's own checks). */
	static Values.EnumValue normalize(Object v) {
		if (v instanceof Values.EnumValue e && e.type().equals("PadValue")) {
			if (e.member().equals("null")) {
				throw new IrTypeError("fillpad pad_value cannot be PadValue.null — that means no padding mode. " + HINT);
			}
			return e;
		}
		if (v instanceof Boolean b) {
			throw new IrTypeError("fillpad pad_value cannot be bool (" + (b ? "True" : "False") + "). " + HINT);
		}
		if (v instanceof Long l) {
			if (l == 0) {
				return zero();
			}
			throw new IrTypeError("fillpad pad_value only accepts the integer literal 0 (mapped to PadValue.zero); got "
					+ l + ". " + HINT);
		}
		if (v instanceof Double d) {
			if (d.isNaN()) {
				throw new IrTypeError("fillpad pad_value cannot be NaN. " + HINT);
			}
			if (d == 0.0) {
				return zero();
			}
			if (d.isInfinite()) {
				return new Values.EnumValue("PadValue", d > 0 ? "max" : "min");
			}
			throw new IrTypeError("fillpad pad_value only accepts the float literals 0.0, math.inf, or -math.inf; got "
					+ PyRepr.floatRepr(d) + ". " + HINT);
		}
		if (v instanceof String s) {
			throw new IrTypeError("fillpad pad_value must be a PadValue or one of 0 / 0.0 / math.inf / -math.inf; got str "
					+ PyRepr.str(s) + ". " + HINT);
		}
		if (v instanceof Values.None) {
			throw new IrTypeError("fillpad pad_value must be a PadValue or one of 0 / 0.0 / math.inf / -math.inf; got "
					+ "NoneType None. " + HINT);
		}
		return null;
	}

	private static Values.EnumValue zero() {
		return new Values.EnumValue("PadValue", "zero");
	}
}
