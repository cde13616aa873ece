package dev.ptotools.codegen.frontend;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ptotools.analyzer.ir.Expr;
import dev.ptotools.codegen.ir.Expr.Call;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * {@code pl.system.syncall} as pypto's wrapper builds it (python/pypto/language/op/system_ops.py, with the
 * IR builders {@code syncall} and {@code syncall_soft}): the hard form has no operands and attribute
 * {@code core_type}; the soft form has the workspace tensor and, unless zero, the participant count
 * (an INT32 constant) as operands, and attributes {@code core_type} and {@code mode="soft"}. The workspace
 * being an operand is what makes it a parameter the soft barrier reads and writes (ParamWriteAnalysis),
 * so the orchestration passes it as inout.
 */
final class SyncallForms {

	private static final List<String> CORE_TYPES = List.of("aiv_only", "aic_only", "mix");
	private static final long MAX_USED_CORES = (1L << 31) - 1;

	private final FunctionParser p;

	SyncallForms(FunctionParser p) {
		this.p = p;
	}

	dev.ptotools.codegen.ir.Expr build(Expr.Call c, Map<String, Expr> a) {
		if (!c.args().isEmpty()) {
			throw new CodegenException("pl.system.syncall takes keyword arguments only", c.span());
		}
		String coreType = text(a, "core_type", "mix", c);
		String mode = text(a, "mode", "hard", c);
		Expr workspace = given(a, "gm_workspace");
		Expr used = given(a, "used_cores");
		if (mode.equals("hard")) {
			if (workspace != null || used != null) {
				throw new CodegenException("syncall(mode='hard') takes no gm_workspace/used_cores; pass mode='soft' to use the"
						+ " GM-polling barrier", c.span());
			}
			if (!CORE_TYPES.contains(coreType)) {
				throw new CodegenException("syncall core_type must be one of " + CORE_TYPES + ", got '" + coreType + "'",
						c.span());
			}
			Map<String, Object> kwargs = new LinkedHashMap<>();
			kwargs.put("core_type", coreType);
			return Call.op("system.syncall", List.of(), kwargs, Type.UNKNOWN, c.span());
		}
		if (!mode.equals("soft")) {
			throw new CodegenException("syncall mode must be 'hard' or 'soft', got '" + mode + "'", c.span());
		}
		if (!CORE_TYPES.contains(coreType)) {
			throw new CodegenException("soft syncall core_type must be one of " + CORE_TYPES + ", got '" + coreType + "'",
					c.span());
		}
		if (workspace == null) {
			throw new CodegenException("soft syncall requires gm_workspace (a shared, zero-initialized GM INT32 tensor)",
					c.span());
		}
		dev.ptotools.codegen.ir.Expr ws = p.exprs.expr(workspace);
		if (!(ws.type() instanceof Type.Tensor)) {
			throw new CodegenException("soft syncall gm_workspace must be a Tensor", workspace.span());
		}
		if (used == null) {
			throw new CodegenException("soft syncall requires explicit used_cores; pass 0 only when the device launch"
					+ " configuration matches the runtime's logical grid", c.span());
		}
		List<dev.ptotools.codegen.ir.Expr> args = new ArrayList<>();
		args.add(ws);
		Object count = p.exprs.kwargValue(used);
		if (count instanceof Long n) {
			if (n < 0 || n > MAX_USED_CORES) {
				throw new CodegenException("soft syncall used_cores must be in the INT32 range [0, " + MAX_USED_CORES
						+ "], got " + n, used.span());
			}
			if (n != 0) {
				args.add(new dev.ptotools.codegen.ir.Expr.ConstInt(n, DType.INT32, used.span()));
			}
		} else {
			args.add(p.exprs.expr(used));
		}
		Map<String, Object> kwargs = new LinkedHashMap<>();
		kwargs.put("core_type", coreType);
		kwargs.put("mode", "soft");
		return Call.op("system.syncall", args, kwargs, Type.UNKNOWN, c.span());
	}

	private static Expr given(Map<String, Expr> a, String name) {
		return OpCalls.present(a.get(name));
	}

	private String text(Map<String, Expr> a, String name, String dflt, Expr.Call c) {
		Expr e = given(a, name);
		if (e == null) {
			return dflt;
		}
		if (p.exprs.kwargValue(e) instanceof String s) {
			return s;
		}
		throw new CodegenException("syncall " + name + " must be a string", e.span());
	}
}
