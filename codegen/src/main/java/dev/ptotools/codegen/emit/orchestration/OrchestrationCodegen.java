package dev.ptotools.codegen.emit.orchestration;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

import dev.ptotools.codegen.graph.TaskGraphRecorder;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.Direction;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.ir.Expr;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.IrVisitor;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.types.DType;

/**
 * The chip orchestration C++ of one orchestration function after the default pass pipeline, as pypto's
 * {@code GenerateOrchestration} (src/codegen/orchestration/orchestration_codegen.cpp) writes it: the
 * includes (the runtime header per {@link CompileOptions#header()}), the config function with the
 * expected argument count, and the entry function unpacking external tensors, scalars and dynamic-dim
 * symbols before the body. The body is emitted first, so names are reserved in body order, and the
 * dynamic-dim symbols defined are the ones the body text mentions.
 *
 * <p>pypto's compiler-derived dependency machinery (hoisted TaskIds, fan-in barriers, dynamic
 * dependency vectors) only runs on IR that AutoDeriveTaskDependencies analysed with
 * {@code analyze_auto_scopes=True}; the default pipeline never does, so IR carrying
 * {@code compiler_manual_dep_edges} is rejected.
 */
public final class OrchestrationCodegen {

	private OrchestrationCodegen() {
	}

	public static OrchestrationResult generate(Program program, Function orch, CompileOptions options) {
		if (program.function(orch.name()) != orch) {
			throw new CodegenException("Internal error: orchestration function '" + orch.name()
					+ "' is not the instance stored in the program (stale handle)", orch.span());
		}
		if (!orch.isOrchestration()) {
			throw new CodegenException("Internal error: '" + orch.name() + "' is not an Orchestration function", orch.span());
		}
		rejectCompilerDeps(orch);
		OrchState st = new OrchState(program, orch, options);
		st.tuples = OrchAnalysis.TupleInfo.of(orch.body());
		Map<Var, Var> lineage = OrchAnalysis.lineage(program, orch);
		OrchAnalysis.DefUse defUse = OrchAnalysis.DefUse.of(orch.body());
		st.effectiveUses = defUse.uses;

		List<String> orchSignature = new ArrayList<>();
		List<Var> scalarParams = new ArrayList<>();
		List<String> distNames = new ArrayList<>();
		List<String> ctxNames = new ArrayList<>();
		int tensors = 0;
		for (int i = 0; i < orch.params().size(); i++) {
			Var p = orch.params().get(i);
			String name = OrchState.baseName(p.name());
			st.emitNames.put(p, name);
			st.paramNames.add(name);
			if (p.type() instanceof Type.Tensor t) {
				st.paramOrchIndex.put(name, tensors++);
				if (t.dtype() == DType.FP4) {
					st.packedFp4Axis.put(name, t.shape().size() - 1);
				}
				orchSignature.add(runtimeName(orch.directions().get(i)));
				if (t.distributed()) {
					distNames.add(name);
				}
			} else if (p.type() instanceof Type.Scalar || p.type() instanceof Type.CommCtx) {
				scalarParams.add(p);
				if (p.type() instanceof Type.CommCtx) {
					ctxNames.add(name);
				}
			}
		}
		if (distNames.size() != ctxNames.size()) {
			throw new CodegenException("Materialized orchestration signature has " + distNames.size()
					+ " DistributedTensor params but " + ctxNames.size() + " CommCtx params.", orch.span());
		}
		for (int i = 0; i < distNames.size(); i++) {
			st.distParamToCtx.put(distNames.get(i), ctxNames.get(i));
		}
		for (Map.Entry<Var, Var> e : lineage.entrySet()) {
			if (!st.emitNames.containsKey(e.getKey()) && st.emitNames.containsKey(e.getValue())) {
				st.emitNames.put(e.getKey(), st.emitNames.get(e.getValue()));
			}
		}
		st.declaredNames.addAll(st.paramNames);
		int expectedArgCount = tensors + scalarParams.size();

		st.graph = new TaskGraphRecorder(orch.name(), false, "");
		new StmtEmitter(st).visit(orch.body());
		String body = st.root.code();

		StringBuilder out = new StringBuilder();
		out.append("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n\n");
		out.append(options.header().includeBlock()).append('\n');
		out.append("extern \"C\" {\n\n");
		out.append("__attribute__((visibility(\"default\")))\n");
		out.append("PTO2OrchestrationConfig aicpu_orchestration_config(const ChipTaskArgs& orch_args) {\n");
		out.append("    (void)orch_args;\n");
		out.append("    return PTO2OrchestrationConfig{\n");
		out.append("        .expected_arg_count = ").append(expectedArgCount).append(",\n");
		out.append("    };\n");
		out.append("}\n\n");
		out.append("__attribute__((visibility(\"default\")))\n");
		out.append("void aicpu_orchestration_entry(const ChipTaskArgs& orch_args) {\n");
		out.append("    // External tensors\n");
		int k = 0;
		for (Var p : orch.params()) {
			if (p.type() instanceof Type.Tensor) {
				out.append("    const ChipTensor& ext_").append(OrchState.baseName(p.name())).append(" = orch_args.tensor(")
						.append(k++).append(").ref();\n");
			}
		}
		if (!scalarParams.isEmpty()) {
			out.append("\n    // Scalar params\n");
			for (int i = 0; i < scalarParams.size(); i++) {
				Var p = scalarParams.get(i);
				String name = OrchState.baseName(p.name());
				if (p.type() instanceof Type.Scalar s) {
					String ctype = s.dtype().ctype();
					out.append("    ").append(ctype).append(' ').append(name).append(" = from_u64<").append(ctype)
							.append(">(orch_args.scalar(").append(i).append("));\n");
				} else {
					out.append("    uint64_t ").append(name).append(" = orch_args.scalar(").append(i).append(");\n");
				}
			}
		}
		List<String> dynDims = dynamicDimSymbols(st, orch, scalarParams, defUse.defs, body);
		if (!dynDims.isEmpty()) {
			out.append("\n    // Dynamic-dim symbols (extent of the declaring argument)\n");
			dynDims.forEach(out::append);
		}
		out.append('\n').append(body);
		out.append("}\n\n");
		out.append("}  // extern \"C\"\n");
		return new OrchestrationResult(out.toString(), st.funcIds, st.coreTypes, st.signatures, orchSignature,
				st.graph.build());
	}

	private static String runtimeName(Direction d) {
		return switch (d) {
		case In -> "IN";
		case Out -> "OUT";
		case InOut -> "INOUT";
		};
	}

	/**
	 * A {@code pl.dynamic} extent of a tensor parameter the body uses as a value is read from the first
	 * parameter declaring it; a name already taken by a scalar param or a body variable is not.
	 */
	private static List<String> dynamicDimSymbols(OrchState st, Function orch, List<Var> scalarParams, Set<Var> bodyDefs,
			String body) {
		Set<String> defined = new HashSet<>();
		for (Var p : scalarParams) {
			defined.add(OrchState.baseName(p.name()));
		}
		for (Var d : bodyDefs) {
			defined.add(OrchState.baseName(d.name()));
		}
		OpEmitter ops = new OpEmitter(st, new CppExprs(st));
		List<String> out = new ArrayList<>();
		for (Var p : orch.params()) {
			if (!(p.type() instanceof Type.Tensor t)) {
				continue;
			}
			String param = OrchState.baseName(p.name());
			for (int axis = 0; axis < t.shape().size(); axis++) {
				if (!(t.shape().get(axis) instanceof Var extent) || extent instanceof dev.ptotools.codegen.ir.IterArg) {
					continue;
				}
				String sym = st.varName(extent);
				if (!defined.add(sym) || !referencesIdentifier(body, sym)) {
					continue;
				}
				out.add("    int64_t " + sym + " = " + ops.shapeDim(param, axis) + ";\n");
			}
		}
		return out;
	}

	/** Whether code mentions name as a whole identifier outside a // comment (pypto's ReferencesIdentifier). */
	static boolean referencesIdentifier(String code, String name) {
		if (name.isEmpty()) {
			return false;
		}
		for (int pos = code.indexOf(name); pos >= 0; pos = code.indexOf(name, pos + 1)) {
			int end = pos + name.length();
			boolean leftOk = pos == 0 || !identChar(code.charAt(pos - 1));
			boolean rightOk = end >= code.length() || !identChar(code.charAt(end));
			if (!leftOk || !rightOk) {
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
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
	}

	/** Compiler-derived dependencies come only from AutoDeriveTaskDependencies with analyze_auto_scopes=True. */
	private static void rejectCompilerDeps(Function orch) {
		new IrVisitor() {
			@Override
			public void call(Expr.Call c) {
				check(c.attrs(), c.span());
				super.call(c);
			}

			@Override
			public void submit(Expr.Submit s) {
				check(s.attrs(), s.span());
				super.submit(s);
			}

			private void check(Map<String, Object> attrs, dev.ptotools.analyzer.ir.Span span) {
				if (attrs.containsKey("compiler_manual_dep_edges")) {
					throw new CodegenException("compiler-derived task dependencies (compiler_manual_dep_edges, written by "
							+ "AutoDeriveTaskDependencies with analyze_auto_scopes=True) are not supported by this "
							+ "orchestration codegen; the default pipeline never produces them", span);
				}
			}
		}.stmt(orch.body());
	}
}
