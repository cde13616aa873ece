package dev.ptotools.codegen.emit.orchestration;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.ptotools.codegen.ir.IrPrinter;
import dev.ptotools.codegen.ir.Program;

/**
 * Development aid for comparing with pypto: prints the orchestration C++ (and with --ir the IR) of every
 * class program of a file after the hand-built codegen-entry passes. Usage: HandBuiltOrchMain FILE [--ir].
 */
public final class HandBuiltOrchMain {

	private HandBuiltOrchMain() {
	}

	public static void main(String[] args) throws Exception {
		String text = Files.readString(Path.of(args[0]));
		java.util.List<String> flags = java.util.Arrays.asList(args);
		for (Program parsed : IrPrograms.parse(text)) {
			Program p = IrPrograms.handBuilt(parsed, flags.contains("--fuse"), flags.contains("--fence"));
			if (flags.contains("--ir")) {
				System.out.print(IrPrinter.print(p));
			}
			OrchestrationResult r = OrchestrationCodegen.generate(p, IrPrograms.orchestration(p),
					OrchestrationGoldenTest.PTO);
			System.out.print(r.code());
			if (flags.contains("--meta")) {
				System.out.println("IDS " + new java.util.TreeMap<>(r.funcNameToId()));
				System.out.println("SIG " + new java.util.TreeMap<>(r.funcNameToSignature()));
				System.out.println("ORCHSIG " + r.orchestrationSignature());
			}
		}
	}
}
