package dev.ptotools.codegen.passes;

/**
 * Verifiable properties of the program IR (pypto's {@code IRProperty}, include/pypto/ir/transforms/
 * ir_property.h): what a pass requires before it runs and what it guarantees after.
 */
public enum IrProperty {
	SSAForm, NoNestedCalls, NormalizedStmtStructure, SplitIncoreOrch, IncoreTileOps, MixedKernelExpanded, ClusterOutlined,
	TileMemoryInferred, HierarchyOutlined, StructuredCtrlFlow, VectorKernelSplit, CallDirectionsResolved,
	InlineFunctionsEliminated, OrchestrationReferencesResolved, CommDomainScopesMaterialized, DistTensorCtxMaterialized,
	RuntimeScopesMaterialized, ReturnParamsExplicit, UnrollResolved, IterArgCarryClassified, PipelineResolved
}
