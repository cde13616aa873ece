package dev.ptotools.codegen.compile;

import java.util.ArrayList;
import java.util.List;

import dev.ptotools.analyzer.ir.FunctionType;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.config.CompiledMeta;
import dev.ptotools.codegen.config.DebugRunScript;
import dev.ptotools.codegen.config.KernelConfigWriter;
import dev.ptotools.analyzer.facts.RankLoops;
import dev.ptotools.codegen.emit.distributed.BuiltinNextLevels;
import dev.ptotools.codegen.emit.distributed.DistributedCodegen;
import dev.ptotools.codegen.emit.distributed.DistributedMeta;
import dev.ptotools.codegen.emit.distributed.SubWorkerModule;
import dev.ptotools.codegen.ir.Stmt;
import dev.ptotools.codegen.support.CodegenException;
import dev.ptotools.codegen.emit.distributed.GroupedLoop;
import dev.ptotools.codegen.emit.distributed.HostOrchResult;
import dev.ptotools.codegen.emit.orchestration.OrchestrationCodegen;
import dev.ptotools.codegen.emit.orchestration.OrchestrationResult;
import dev.ptotools.codegen.ir.Function;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.graph.TaskGraph;
import dev.ptotools.codegen.layout.ProgramLayout;

/**
 * The files of one compiled program, laid out as pypto's backend lays them out
 * (python/pypto/backend/pto_backend.py {@code generate}): a program with a function at HOST level or
 * above is distributed (host_orch.py, one chip build per Orchestration function under next_levels/,
 * distributed_meta.json); several Orchestration functions are one chip build each under next_levels/;
 * otherwise one chip build. Kernel sources are pypto's PTO-ISA, compiled by ptoas: kernel_config.py
 * names them, this compiler does not write them.
 */
final class ProgramBuild {

	private ProgramBuild() {
	}

	/** The files of a program and the task graph of each orchestration function, host first. */
	record Built(List<GeneratedFile> files, List<TaskGraph> graphs) {
	}

	static Built files(String out, Program input, Program program, CompileOptions options, RankLoops loops) {
		List<TaskGraph> graphs = new ArrayList<>();
		return new Built(files(out, input, program, options, loops, graphs), graphs);
	}

	private static List<GeneratedFile> files(String out, Program input, Program program, CompileOptions options,
			RankLoops loops, List<TaskGraph> graphs) {
		dev.ptotools.codegen.emit.KernelCodegenChecks.check(program);
		dev.ptotools.codegen.emit.TileCapacityCheck.explicitL0Operands(input);
		dev.ptotools.codegen.emit.TileCapacityCheck.check(program, options.backend());
		List<GeneratedFile> files = new ArrayList<>();
		List<Function> orchs = new ArrayList<>();
		boolean distributed = false;
		for (Function f : program.sortedByName()) {
			if (f.type() == FunctionType.Orchestration) {
				orchs.add(f);
			}
			distributed |= f.isHostOrAbove();
		}
		if (distributed) {
			Function host = DistributedCodegen.entryOf(program);
			List<GroupedLoop> grouped = host == null ? List.of() : GroupedLoop.fromAnalysis(loops, host.name());
			HostOrchResult h = DistributedCodegen.generate(program, host, options, grouped);
			files.add(new GeneratedFile(ProgramLayout.hostOrch(out), h.fileText()));
			graphs.add(h.graph().inFile(inProgram(out, ProgramLayout.hostOrch(out))));
			// pypto renders the builtin collectives' chip builds right after host_orch.py
			files.addAll(BuiltinNextLevels.render(out, h.builtins(), options.runtime(), options.builtinTemplates()));
			subWorkers(out, program, files);
			String meta = DistributedMeta.write(program, options, h.grouped());
			if (meta != null) {
				files.add(new GeneratedFile(ProgramLayout.distributedMeta(out), meta));
				// pypto's DistributedCompiledProgram writes the replay script from the same HOST signature
				debugRunScript(DistributedMeta.signatureFunction(program), out, options, files);
			}
			for (Function orch : orchs) {
				NextLevelPrograms.checkReferences(program, orch);
				chip(out, program, orch, ProgramLayout.nextLevelCpp(out, orch.name()), ProgramLayout.nextLevelConfig(out, orch.name()),
						options, files, graphs);
			}
			return files;
		}
		if (orchs.size() > 1) {
			for (Function orch : orchs) {
				NextLevelPrograms.checkReferences(program, orch);
				chip(out, program, orch, ProgramLayout.nextLevelCpp(out, orch.name()), ProgramLayout.nextLevelConfig(out, orch.name()),
						options, files, graphs);
				// pypto reads each sub-build's signature from the program it was given, before any pass
				Function signature = input.function(orch.name());
				if (signature != null) {
					compiledMeta(signature, ProgramLayout.compiledMeta(out, orch.name()), options, files);
				}
			}
		} else if (orchs.size() == 1) {
			Function orch = orchs.get(0);
			chip(out, program, orch, ProgramLayout.singleChipCpp(out, orch.name()), ProgramLayout.singleChipConfig(out), options,
					files, graphs);
			Function signature = inputSignature(input);
			if (signature != null && compiledMeta(signature, ProgramLayout.compiledMeta(out, null), options, files)) {
				// only here: pypto's CompiledProgram writes no replay script for a multi-orchestration build
				debugRunScript(signature, out, options, files);
			}
		}
		return files;
	}

	/** A path under the output folder, relative to the program folder {@code out}. */
	private static String inProgram(String out, String path) {
		return path.startsWith(out + "/") ? path.substring(out.length() + 1) : path;
	}

	/**
	 * sub_workers/&lt;name&gt;.py for each HOST-level SubWorker (pypto's generate, after host_orch.py), and
	 * sub_workers/__required__.json naming the runtime-bound ones.
	 */
	private static void subWorkers(String out, Program program, List<GeneratedFile> files) {
		List<String> runtimeBound = new ArrayList<>();
		for (Function f : program.sortedByName()) {
			if (!SubWorkerModule.applies(f)) {
				continue;
			}
			String body = null;
			if (f.body() instanceof Stmt.Inline inline) {
				if (inline.requiresRuntimeBinding()) {
					runtimeBound.add(f.name());
				} else {
					body = inline.code();
				}
			} else {
				throw new CodegenException("SubWorker '" + f.name() + "' must have an InlineStmt body, got "
						+ f.body().getClass().getSimpleName() + "Stmt", f.span());
			}
			files.add(new GeneratedFile(ProgramLayout.subWorker(out, f.name()),
					SubWorkerModule.write(f.name(), f.params().stream().map(p -> p.name()).toList(), body)));
		}
		String required = SubWorkerModule.required(runtimeBound);
		if (required != null) {
			files.add(new GeneratedFile(out + "/sub_workers/__required__.json", required));
		}
	}

	/**
	 * The function pypto's _extract_param_infos reads for compiled_meta.json: the input program's first
	 * Orchestration function, else its only function (pypto's CompiledProgram keeps the program as given
	 * to ir.compile, so the names are the ones written, not their SSA versions).
	 */
	private static Function inputSignature(Program input) {
		for (Function f : input.sortedByName()) {
			if (f.type() == FunctionType.Orchestration) {
				return f;
			}
		}
		return input.functions().size() == 1 ? input.functions().get(0) : null;
	}

	/** Adds compiled_meta.json unless pypto writes none; says whether it did. */
	private static boolean compiledMeta(Function orch, String path, CompileOptions options, List<GeneratedFile> files) {
		String meta = CompiledMeta.write(orch, options);
		if (meta != null) {
			files.add(new GeneratedFile(path, meta));
		}
		return meta != null;
	}

	/**
	 * debug/run.py from the signature its metadata file was written from (pypto's _write_debug_runner runs
	 * after the metadata, from the same _get_metadata, so the two exist together).
	 */
	private static void debugRunScript(Function signature, String out, CompileOptions options, List<GeneratedFile> files) {
		List<java.util.Map<String, Object>> params = DistributedMeta.params(signature);
		if (params != null) {
			files.add(new GeneratedFile(ProgramLayout.debugRunScript(out), DebugRunScript.write(params, options.platform())));
		}
	}

	private static void chip(String out, Program program, Function orch, String cppPath, String configPath, CompileOptions options,
			List<GeneratedFile> files, List<TaskGraph> graphs) {
		OrchestrationResult r = OrchestrationCodegen.generate(program, orch, options);
		files.add(new GeneratedFile(cppPath, cppFile(orch.name(), r.code())));
		graphs.add(r.graph().inFile(inProgram(out, cppPath)));
		String config = KernelConfigWriter.write(orch.name(), r, options.runtime(), options.aicpuThreadNum(),
				extras(program, r));
		files.add(new GeneratedFile(configPath, config));
	}

	/**
	 * What kernel_config.py says of the dispatched kernels beyond ids and signatures (pypto's
	 * _generate_single_chip): the SDMA workspace when a kernel makes a prefetch context, and the kernels
	 * given as external sources (their path and include directories).
	 */
	private static KernelConfigWriter.Extras extras(Program program, OrchestrationResult r) {
		boolean sdma = false;
		java.util.Map<String, String> external = new java.util.LinkedHashMap<>();
		java.util.Map<String, List<String>> includes = new java.util.LinkedHashMap<>();
		for (String name : r.funcNameToId().keySet()) {
			Function k = program.function(name);
			if (k == null) {
				continue;
			}
			sdma |= usesOp(k, "prefetch.make_context");
			if (k.attr("external_source") instanceof String src) {
				external.put(name, src);
				if (k.attr("external_include_dirs") instanceof List<?> dirs) {
					includes.put(name, dirs.stream().map(String::valueOf).toList());
				}
			}
		}
		return new KernelConfigWriter.Extras(sdma, external, includes);
	}

	private static boolean usesOp(Function f, String op) {
		boolean[] found = { false };
		new dev.ptotools.codegen.ir.IrVisitor() {
			@Override
			public void call(dev.ptotools.codegen.ir.Expr.Call c) {
				found[0] |= c.isOp(op);
				super.call(c);
			}
		}.stmt(f.body());
		return found[0];
	}

	/** The orchestration file: pypto's two header lines, a blank line, then the code. */
	static String cppFile(String orch, String code) {
		return "// Orchestration Function: " + orch + "\n// Generated by PyPTO IR Compiler\n\n" + code;
	}
}
