package dev.ptotools.codegen.passes;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import dev.ptotools.codegen.ir.Program;

/**
 * pypto's default pass pipeline (python/pypto/ir/pass_manager.py, OptimizationStrategy.Default), in
 * pypto's order, restricted to the passes whose effects reach the orchestration C++, host_orch.py,
 * kernel_config.py or distributed_meta.json. The passes that only change kernel internals (the PTO-ISA
 * pypto writes and ptoas compiles) are not ported; docs/ARCHITECTURE.md lists them with the reason.
 *
 * <p>Each pass's required properties are checked before it runs: a pass that needs a property no
 * earlier pass produced is a bug in the pipeline, not in the program.
 */
public final class PassPipeline {

	private final List<Pass> passes;

	public PassPipeline(List<Pass> passes) {
		this.passes = List.copyOf(passes);
	}

	/** The default pipeline, pass for pass in pypto's order. */
	public static PassPipeline defaults() {
		return new PassPipeline(List.of(
				new InlineFunctionsPass(),
				new UnrollLoopsPass(),
				new CtrlFlowTransformPass(),
				new ConvertToSSAPass(),
				new SimplifyPass(),
				new NormalizeStmtStructurePass(),
				new FlattenCallExprPass(),
				new OutlineHierarchyScopesPass(),
				new OutlineIncoreScopesPass(),
				new OutlineClusterScopesPass(),
				new ConvertTensorToTileOpsPass(),
				new OptimizeOrchTensorsPass(),
				new AutoTileMatmulL0Pass(),
				new InferTileMemorySpacePass(),
				new LowerAutoVectorSplitPass(),
				new ExpandMixedKernelPass(),
				new InjectGMPipeBufferPass(),
				new SplitVectorKernelPass(),
				new NormalizeReturnOrderPass(),
				new FuseCreateAssembleToSlicePass(),
				new DeriveCallDirectionsPass(),
				new AutoDeriveTaskDependenciesPass(),
				new ExpandManualPhaseFencePass(),
				new SynthesizeAllReduceSignalsPass(),
				new MaterializeCommDomainScopesPass(),
				new LowerHostTensorCollectivesPass(),
				new MaterializeDistTensorCtxPass(),
				new SimplifyPass(),
				new MaterializeRuntimeScopesPass(),
				new ClassifyIterArgCarryPass(),
				new MaterializeValidShapeSymbolsPass()));
	}

	/**
	 * Every pass of pypto's default pipeline in order (default memory planner), ported or not: the
	 * 1-based position of a pass here is the number of pypto's {@code passes_dump/NN_after_<Pass>.py}.
	 */
	public static final List<String> PYPTO_ORDER = List.of("InlineFunctions", "UnrollLoops", "CtrlFlowTransform",
			"ConvertToSSA", "Simplify", "NormalizeStmtStructure", "FlattenCallExpr", "OutlineHierarchyScopes",
			"OutlineIncoreScopes", "OutlineClusterScopes", "ConvertTensorToTileOps", "OptimizeOrchTensors",
			"LowerCompositeOps", "FlattenTileNdTo2D", "LegalizeTileCast", "AutoTileMatmulL0", "CanonicalizeTileSlice",
			"InferTileMemorySpace", "InsertMxScaleAddr", "ResolveBackendOpLayouts", "LowerAutoVectorSplit",
			"ExpandMixedKernel", "InjectGMPipeBuffer", "SplitVectorKernel", "StampTfreeSplit", "NormalizeReturnOrder",
			"SkewCrossCorePipeline", "LowerPipelineToSlots", "LowerPipelineLoops", "CanonicalizeIOOrder",
			"MaterializeTensorStrides", "InitMemRef", "MaterializeSemanticAliases", "MemoryReuse", "AllocateMemoryAddr",
			"FoldNoOpReshape", "FuseCreateAssembleToSlice", "DeriveCallDirections", "AutoDeriveTaskDependencies",
			"ExpandManualPhaseFence", "SynthesizeAllReduceSignals", "MaterializeCommDomainScopes",
			"LowerHostTensorCollectives", "MaterializeDistTensorCtx", "Simplify", "MaterializeRuntimeScopes",
			"ClassifyIterArgCarry", "InsertCommFence", "MaterializeValidShapeSymbols");

	/**
	 * The file name pypto gives the dump after the index-th pass of this pipeline
	 * ({@code 07_after_FlattenCallExpr.py}), so dumps of both compilers line up.
	 */
	public String dumpName(int index) {
		String name = passes.get(index).name();
		int seen = 0;
		for (int i = 0; i < index; i++) {
			if (passes.get(i).name().equals(name)) {
				seen++;
			}
		}
		int n = -1;
		for (int i = 0, k = 0; i < PYPTO_ORDER.size(); i++) {
			if (PYPTO_ORDER.get(i).equals(name) && k++ == seen) {
				n = i + 1;
				break;
			}
		}
		return String.format("%02d_after_%s.py", n, name);
	}

	public List<Pass> passes() {
		return passes;
	}

	public Program run(Program program, PassContext ctx) {
		return run(program, ctx, null);
	}

	/** Runs every pass; {@code afterEach} (may be null) sees each pass and the program it produced. */
	public Program run(Program program, PassContext ctx, BiConsumer<Pass, Program> afterEach) {
		Set<IrProperty> have = EnumSet.noneOf(IrProperty.class);
		Program p = program;
		for (Pass pass : passes) {
			Set<IrProperty> missing = EnumSet.noneOf(IrProperty.class);
			missing.addAll(pass.requires());
			missing.removeAll(have);
			if (!missing.isEmpty()) {
				throw new IllegalStateException("pass " + pass.name() + " requires " + missing + ", which no earlier pass produced");
			}
			p = pass.run(p, ctx);
			have.removeAll(pass.invalidates());
			have.addAll(pass.produces());
			if (afterEach != null) {
				afterEach.accept(pass, p);
			}
		}
		return p;
	}

	/** The names of the passes, in order (for messages and documentation). */
	public List<String> names() {
		List<String> out = new ArrayList<>();
		for (Pass p : passes) {
			out.add(p.name());
		}
		return out;
	}
}
