package dev.ptotools.codegen.emit.distributed;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.CodegenException;

/** pypto's DistributedCodegen (host_orch.py). Being ported; see the branch rw-dist. */
public final class DistributedCodegen {

	private DistributedCodegen() {
	}

	public static HostOrchResult generate(Program program, Function hostOrch, CompileOptions options) {
		throw CodegenException.unsupported("host orchestration code generation is not wired in yet", hostOrch.span());
	}
}
