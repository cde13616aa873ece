package dev.ptotools.codegen.emit;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.ir.Type;
import dev.ptotools.codegen.ir.Var;
import dev.ptotools.codegen.support.CodegenException;

/**
 * What pypto's kernel code generator (src/codegen/pto/pto_codegen.cpp) checks of each kernel's signature
 * before it writes the kernel's PTO-ISA. This compiler does not write kernel bodies, but a program pypto
 * fails to compile must not get files here either, so the signature checks whose failure depends only
 * on the IR the passes produce are repeated, with pypto's message at the function.
 */
public final class KernelCodegenChecks {

	private KernelCodegenChecks() {
	}

	public static void check(Program program) {
		for (Function f : program.functions()) {
			if (f.type() != FunctionType.InCore && f.type() != FunctionType.AIC && f.type() != FunctionType.AIV) {
				continue;
			}
			int distributed = 0;
			int contexts = 0;
			for (Var p : f.params()) {
				if (p.type() instanceof Type.Tensor t && t.distributed()) {
					distributed++;
				} else if (p.type() instanceof Type.CommCtx) {
					contexts++;
				}
			}
			// each DistributedTensor parameter is paired with its own CommCtx parameter, in order
			if (distributed != contexts) {
				throw new CodegenException("Failed to compile function '" + f.name() + "': PTOCodegen: function '" + f.name()
						+ "' has " + distributed + " DistributedTensor params but " + contexts + " CommCtxType params",
						f.span());
			}
		}
	}
}
