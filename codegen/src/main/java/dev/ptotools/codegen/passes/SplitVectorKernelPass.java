package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;

/**
 * pypto's SplitVectorKernel (src/ir/transforms/split_vector_kernel_pass.cpp), as far as it reaches
 * attributes: an AIC/AIV kernel with {@code split_aiv} re-stamps its {@code split} mode (when one is set)
 * and, for AIV, {@code dual_aiv_dispatch=True} (both vector lanes are launched); a kernel with a
 * function-level split mode but no {@code split_aiv} gets the same stamps. Names, parameters and types
 * never change.
 *
 * <p>Not ported (kernel-internal): halving the body per lane and the lane-1 replay of cross-core
 * handshakes in no-split dual-AIV kernels.
 */
public final class SplitVectorKernelPass implements Pass {

	@Override
	public String name() {
		return "SplitVectorKernel";
	}

	@Override
	public Set<IrProperty> requires() {
		return Set.of(IrProperty.SSAForm, IrProperty.MixedKernelExpanded);
	}

	@Override
	public Set<IrProperty> produces() {
		return Set.of(IrProperty.SSAForm, IrProperty.VectorKernelSplit, IrProperty.NormalizedStmtStructure);
	}

	private static boolean realSplit(Object mode) {
		return mode != null && !"None".equals(mode);
	}

	/** pypto's WithSplitAttrs: split and dual dispatch move to the end. */
	private static Map<String, Object> withSplit(Function f, Object mode, boolean aiv) {
		Map<String, Object> attrs = new LinkedHashMap<>(f.attrs());
		attrs.remove("split");
		attrs.remove("dual_aiv_dispatch");
		if (realSplit(mode)) {
			attrs.put("split", mode);
			if (aiv) {
				attrs.put("dual_aiv_dispatch", true);
			}
		}
		return attrs;
	}

	@Override
	public Program run(Program program, PassContext ctx) {
		List<Function> out = new ArrayList<>();
		boolean changed = false;
		for (Function f : program.sortedByName()) {
			boolean lane = f.type() == FunctionType.AIV || f.type() == FunctionType.AIC;
			boolean aiv = f.type() == FunctionType.AIV;
			Map<String, Object> attrs = null;
			if (lane && Boolean.TRUE.equals(f.attr("split_aiv"))) {
				if (realSplit(f.attr("split"))) {
					attrs = withSplit(f, f.attr("split"), aiv);
				} else {
					attrs = new LinkedHashMap<>(f.attrs());
					attrs.remove("dual_aiv_dispatch");
					if (aiv) {
						attrs.put("dual_aiv_dispatch", true);
					}
				}
			} else if (lane && realSplit(f.attr("split"))) {
				attrs = withSplit(f, f.attr("split"), aiv);
			}
			if (attrs != null) {
				out.add(new Function(f.name(), f.type(), f.params(), f.directions(), f.returnTypes(), f.body(), f.level(),
						f.role(), attrs, f.span()));
				changed = true;
			} else {
				out.add(f);
			}
		}
		return changed ? program.withFunctions(out) : program;
	}
}
