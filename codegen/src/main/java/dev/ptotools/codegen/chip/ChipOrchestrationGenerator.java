package dev.ptotools.codegen.chip;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.analyzer.ir.Function;
import dev.ptotools.codegen.support.ProgramContext;
import dev.ptotools.codegen.types.DType;

/**
 * Chip orchestration C++ for one CHIP orchestrator, in pypto's exact format (GenerateOrchestration):
 * the body is generated first, then the includes, the config function, the entry with its external
 * tensors, scalar parameters and dynamic-dim symbols, and the body spliced in.
 */
public final class ChipOrchestrationGenerator {

	private ChipOrchestrationGenerator() {
	}

	public static ChipResult generate(ProgramContext ctx, Function f) {
		ChipLowering.Lowered lowered = new ChipLowering(ctx, f).lower();
		ChipAnalysis analysis = new ChipAnalysis(lowered.params(), lowered.body(), ctx.calls());
		ChipState st = new ChipState(ctx, analysis);
		List<OVar> tensorParams = new ArrayList<>();
		List<OVar> scalarParams = new ArrayList<>();
		List<String> signature = new ArrayList<>();
		for (int i = 0; i < lowered.params().size(); i++) {
			OVar p = lowered.params().get(i);
			String emit = ChipNames.baseName(p.hint);
			st.names.emit.put(p, emit);
			st.names.params.add(emit);
			st.names.declared.add(emit);
			if (p.type instanceof OType.Tensor t) {
				st.paramIndex.put(emit, tensorParams.size());
				if (t.dtype() == DType.FP4) {
					st.packedFp4Axis.put(emit, t.shape().size() - 1);
				}
				tensorParams.add(p);
				signature.add(directionName(lowered.directions().get(i)));
			} else if (p.type instanceof OType.Scalar || p.type instanceof OType.CommCtx) {
				scalarParams.add(p);
			}
		}
		for (Map.Entry<OVar, OVar> e : analysis.orderedLineage().entrySet()) {
			if (!st.names.emit.containsKey(e.getKey()) && st.names.emit.containsKey(e.getValue())) {
				st.names.emit.put(e.getKey(), st.names.emit.get(e.getValue()));
			}
		}
		new ChipEmitter(st).visit(lowered.body());
		String body = st.out.code();

		StringBuilder b = new StringBuilder();
		b.append("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n\n");
		b.append(ctx.options().header().includeBlock()).append('\n');
		b.append("extern \"C\" {\n\n");
		b.append("__attribute__((visibility(\"default\")))\n");
		b.append("PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {\n");
		b.append("    (void)orch_args;\n");
		b.append("    return PTO2OrchestrationConfig{\n");
		b.append("        .expected_arg_count = ").append(tensorParams.size() + scalarParams.size()).append(",\n");
		b.append("    };\n");
		b.append("}\n\n");
		b.append("__attribute__((visibility(\"default\")))\n");
		b.append("void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {\n");
		b.append("    // External tensors\n");
		for (int k = 0; k < tensorParams.size(); k++) {
			b.append("    const ChipTensor& ext_").append(ChipNames.baseName(tensorParams.get(k).hint))
					.append(" = orch_args.tensor(").append(k).append(").ref();\n");
		}
		if (!scalarParams.isEmpty()) {
			b.append("\n    // Scalar params\n");
			for (int j = 0; j < scalarParams.size(); j++) {
				OVar p = scalarParams.get(j);
				String name = st.names.varName(p);
				if (p.type instanceof OType.Scalar s) {
					String c = s.dtype().ctype();
					b.append("    ").append(c).append(' ').append(name).append(" = from_u64<").append(c)
							.append(">(orch_args.scalar(").append(j).append("));\n");
				} else {
					b.append("    uint64_t ").append(name).append(" = orch_args.scalar(").append(j).append(");\n");
				}
			}
		}
		List<String> dyn = dynamicDims(st, tensorParams, scalarParams, analysis, body);
		if (!dyn.isEmpty()) {
			b.append("\n    // Dynamic-dim symbols (extent of the declaring argument)\n");
			dyn.forEach(b::append);
		}
		b.append('\n').append(body);
		b.append("}\n\n");
		b.append("}  // extern \"C\"\n");
		return new ChipResult(b.toString(), Map.copyOf(new LinkedHashMap<>(st.funcIds)), new LinkedHashMap<>(st.coreTypes),
				new LinkedHashMap<>(st.signatures), List.copyOf(signature), lowered.warnings());
	}

	private static List<String> dynamicDims(ChipState st, List<OVar> tensorParams, List<OVar> scalarParams,
			ChipAnalysis analysis, String body) {
		Set<String> defined = new HashSet<>();
		for (OVar s : scalarParams) {
			defined.add(st.names.varName(s));
		}
		for (OVar d : analysis.defs) {
			defined.add(ChipNames.baseName(d.hint));
		}
		List<String> out = new ArrayList<>();
		for (OVar p : tensorParams) {
			OType.Tensor t = (OType.Tensor) p.type;
			String param = ChipNames.baseName(p.hint);
			for (int axis = 0; axis < t.shape().size(); axis++) {
				if (!(t.shape().get(axis) instanceof OExpr.Ref r)) {
					continue;
				}
				String symbol = st.names.varName(r.var());
				if (!defined.add(symbol) || !references(body, symbol)) {
					continue;
				}
				out.add("    int64_t " + symbol + " = " + st.ops.shapeDim(param, axis) + ";\n");
			}
		}
		return out;
	}

	/** Whether code mentions name as a whole identifier outside // comments (pypto's ReferencesIdentifier). */
	static boolean references(String code, String name) {
		for (int pos = code.indexOf(name); pos >= 0; pos = code.indexOf(name, pos + 1)) {
			int end = pos + name.length();
			boolean left = pos == 0 || !identChar(code.charAt(pos - 1));
			boolean right = end >= code.length() || !identChar(code.charAt(end));
			if (!left || !right) {
				continue;
			}
			int lineStart = code.lastIndexOf('\n', pos) + 1;
			int comment = code.indexOf("//", lineStart);
			if (comment < 0 || comment > pos) {
				return true;
			}
		}
		return false;
	}

	private static boolean identChar(char c) {
		return Character.isLetterOrDigit(c) || c == '_';
	}

	private static String directionName(Direction d) {
		return switch (d) {
		case In -> "IN";
		case Out -> "OUT";
		case InOut -> "INOUT";
		};
	}
}
