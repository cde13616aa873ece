package dev.ptotools.codegen.ir;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.analyzer.ir.Level;
import dev.ptotools.analyzer.ir.Role;
import dev.ptotools.analyzer.ir.Span;

/**
 * A function of the program IR (pypto's {@code Function}): parameters with their declared directions,
 * return types, the body, the function type and, for the hierarchy, level and role. attrs are
 * pypto's function attributes in order (e.g. the split mode of a vector kernel, the core count of a
 * Spmd function).
 */
public record Function(String name, FunctionType type, List<Var> params, List<Direction> directions,
		List<Type> returnTypes, Stmt body, Level level, Role role, Map<String, Object> attrs, Span span) {

	public Function {
		params = List.copyOf(params);
		directions = List.copyOf(directions);
		returnTypes = List.copyOf(returnTypes);
		attrs = attrs.isEmpty() ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(attrs));
		if (params.size() != directions.size()) {
			throw new IllegalArgumentException("one direction per parameter");
		}
	}

	public Function withBody(Stmt newBody) {
		return new Function(name, type, params, directions, returnTypes, newBody, level, role, attrs, span);
	}

	public Function withName(String newName) {
		return new Function(newName, type, params, directions, returnTypes, body, level, role, attrs, span);
	}

	public Function withType(FunctionType newType) {
		return new Function(name, newType, params, directions, returnTypes, body, level, role, attrs, span);
	}

	public Function withSignature(List<Var> newParams, List<Direction> newDirections, List<Type> newReturns) {
		return new Function(name, type, newParams, newDirections, newReturns, body, level, role, attrs, span);
	}

	public Function withAttr(String key, Object value) {
		Map<String, Object> a = new LinkedHashMap<>(attrs);
		a.put(key, value);
		return new Function(name, type, params, directions, returnTypes, body, level, role, a, span);
	}

	public Object attr(String key) {
		return attrs.get(key);
	}

	public boolean isOrchestration() {
		return type == FunctionType.Orchestration;
	}

	/** A kernel the runtime runs on a core: AIC, AIV or their Group; InCore before ExpandMixedKernel. */
	public boolean isKernel() {
		return type == FunctionType.InCore || type == FunctionType.AIC || type == FunctionType.AIV
				|| type == FunctionType.Group || type == FunctionType.Spmd;
	}

	/** Whether the function is at HOST level or above (pypto's distributed functions). */
	public boolean isHostOrAbove() {
		return level != null && level.ordinal() >= Level.HOST.ordinal();
	}

	public int paramIndex(Var v) {
		for (int i = 0; i < params.size(); i++) {
			if (params.get(i) == v) {
				return i;
			}
		}
		return -1;
	}
}
