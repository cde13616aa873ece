package dev.ptotools.codegen.emit.orchestration;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;

/** pypto's chip orchestration codegen (GenerateOrchestration). Being ported; see the branch rw-orch. */
public final class OrchestrationCodegen {

	private OrchestrationCodegen() {
	}

	public static OrchestrationResult generate(Program program, Function orch, CompileOptions options) {
		throw CodegenException.unsupported("orchestration code generation is not wired in yet", orch.span());
	}
}
