package dev.ptotools.codegen.emit.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.pipeline.Keys;
import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.support.DistPrograms;
import dev.ptotools.codegen.support.Python;
import dev.ptotools.codegen.support.Sources;

/**
 * This product's grouped dispatch on the new IR: a rank loop the analyzer groups collects its ranks' TaskArgs
 * and submits them once; with grouped dispatch off the module is pypto's per-rank one.
 */
class GroupedDispatchTest {

	static String grouped() {
		return Sources.resource("programs/grouped_copy.py");
	}

	static HostOrchResult generate(String text, String program, CompileOptions options) {
		List<GroupedLoop> loops = GroupedLoop.fromAnalysis(DistPrograms.analyze(text).facts().get(Keys.RANK_LOOPS),
				"host_orch");
		return DistPrograms.result(text, program, options, loops);
	}

	@Test
	void theAnalyzersGroupedLoopIsFoundByItsSpan() {
		List<GroupedLoop> loops = GroupedLoop.fromAnalysis(DistPrograms.analyze(grouped()).facts().get(Keys.RANK_LOOPS),
				"host_orch");
		assertEquals(1, loops.size());
		assertEquals("host_orch/rank_loop_0", loops.get(0).groupId());
		assertEquals(0, loops.get(0).number());
	}

	@Test
	void aGroupedLoopCollectsItsMembersAndSubmitsOnceAfterTheLoop() {
		HostOrchResult r = generate(grouped(), "GroupedCopy", CompileOptions.DEFAULT);
		String code = r.code();
		assertTrue(code.startsWith("""
				import torch
				from simpler.task_interface import CallConfig, CommBufferSpec, DataType, TaskArgs, TensorArgType
				from pypto.runtime.tensor_arg import make_tensor_arg
				from pypto.runtime.distributed_runner import _submit_chip
				try:
				    from pypto.runtime.distributed_runner import _submit_chip_group
				except ImportError:
				    def _submit_chip_group(orch, callable_id, args_list, config, workers):
				"""), code);
		assertTrue(code.contains("""
				    ) as __comm_d0:
				        _group_args_0 = []
				        _group_workers_0 = []
				        for rank in range(0, world_size, 1):
				"""), code);
		assertTrue(code.contains("""
				            _keep.append(_ta_0)
				            _group_args_0.append(_ta_0)
				            _group_workers_0.append(rank)
				        _submit_chip_group(orch, callables["chip_copy"], _group_args_0, config, _group_workers_0)

				host_orch._pypto_distributed_entry = True
				"""), code);
		assertFalse(code.contains("_submit_chip(orch"), code);
		assertEquals(List.of(new HostOrchResult.EmittedGroup("host_orch/rank_loop_0", "chip_copy")), r.grouped());
		Python.assertCompiles(code);
	}

	@Test
	void withGroupedDispatchOffTheModuleIsPyptosPerRankOne() {
		HostOrchResult off = generate(grouped(), "GroupedCopy", CompileOptions.DEFAULT.withGroupedDispatch(false));
		assertEquals(DistPrograms.hostOrch(grouped(), "GroupedCopy"), off.code());
		assertTrue(off.code().contains("            _submit_chip(orch, callables[\"chip_copy\"], _ta_0, config, rank)\n"));
		assertFalse(off.code().contains("_submit_chip_group"));
		assertTrue(off.grouped().isEmpty());
	}

	@Test
	void loopsTheAnalyzerDoesNotGroupSubmitPerRank() {
		String text = Sources.resource("programs/per_rank_copy.py");
		HostOrchResult r = generate(text, "PerRankCopy", CompileOptions.DEFAULT);
		assertFalse(r.code().contains("_submit_chip_group"), r.code());
		assertTrue(r.grouped().isEmpty());
	}
}
