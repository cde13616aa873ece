package dev.ptotools.codegen.emit.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.support.DistPrograms;
import dev.ptotools.codegen.support.Python;

/**
 * host_orch.py of our programs after the four distributed passes, with grouped dispatch off: the text pypto's
 * DistributedCodegen writes for the same programs after the same passes (compared byte for byte with
 * pypto's build when these cases were written).
 */
class HostOrchEmitTest {

	static final String HEAD = """
			import pypto.language as pl
			import pypto.language.distributed as pld

			N = 64

			""";

	static final String IMPORTS = """
			import torch
			from simpler.task_interface import CallConfig, CommBufferSpec, DataType, TaskArgs, TensorArgType
			from pypto.runtime.tensor_arg import make_tensor_arg
			from pypto.runtime.distributed_runner import _submit_chip

			""";

	static final String WINDOW = HEAD + """
			@pl.program
			class Window:
			    @pl.function(type=pl.FunctionType.InCore)
			    def copy_kernel(self, src: pl.Tensor[[1, N], pl.FP32], data: pld.DistributedTensor[[1, N], pl.FP32],
			                    dst: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        t = pl.load(src, [0, 0], [1, N])
			        data_v1 = pl.store(t, [0, 0], data)
			        back = pl.load(data_v1, [0, 0], [1, N])
			        out = pl.store(back, [0, 0], dst)
			        return out

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def per_rank(self, src: pl.Tensor[[1, N], pl.FP32], dst: pl.Out[pl.Tensor[[1, N], pl.FP32]],
			                 data: pld.DistributedTensor[[1, N], pl.FP32]) -> pl.Tensor[[1, N], pl.FP32]:
			        dst = self.copy_kernel(src, data, dst)
			        return dst

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, x: pl.Tensor[[4, 1, N], pl.FP32], y: pl.Out[pl.Tensor[[4, 1, N], pl.FP32]]) -> pl.Tensor[[4, 1, N], pl.FP32]:
			        data_buf = pld.alloc_window_buffer(N * 4)
			        for r in pl.range(pld.world_size()):
			            data = pld.window(data_buf, [1, N], dtype=pl.FP32)
			            x_r = x[r]
			            y_r = y[r]
			            self.per_rank(x_r, y_r, data, device=r)
			        return y
			""";

	@Test
	void windowProgramIsPyptosModule() {
		String code = DistPrograms.hostOrch(WINDOW, "Window");
		assertEquals(IMPORTS + """
				def _alloc_intermediates(tensors, world_size=1):
				    tensors["__comm_d0_ord"] = [torch.zeros((1,), dtype=torch.int32).share_memory_() for _ in range(max(world_size, 1))]

				def host(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size, _domain_provider=None):
				    with (_domain_provider or orch.allocate_domain)(
				        name="comm_d0",
				        workers=[*range(world_size)],
				        window_size=((((256 + 31) // 32) * 32)),
				        buffers=[
				            CommBufferSpec(name="data_buf", dtype="opaque", count=256, nbytes=(((256 + 31) // 32) * 32)),
				        ],
				    ) as __comm_d0:
				        for r in range(0, world_size, 1):
				            tensors["x_r"] = tensors["x"][r, 0:1, 0:64]
				            tensors["y_r"] = tensors["y"][r, 0:1, 0:64]
				            _ta_0 = TaskArgs()
				            _ta_0.add_tensor(make_tensor_arg(orch._worker, tensors["x_r"]), TensorArgType.INPUT)
				            _ta_0.add_tensor(make_tensor_arg(orch._worker, tensors["y_r"]), TensorArgType.OUTPUT_EXISTING)
				            _ta_0.add_tensor(__comm_d0[r].buffers["data_buf"].tensor(shapes=(1, 64), dtype=DataType.FLOAT32), TensorArgType.INPUT)
				            _ta_0.add_tensor(make_tensor_arg(orch._worker, tensors["__comm_d0_ord"][r]), TensorArgType.INOUT)
				            _ta_0.add_scalar(__comm_d0[r].device_ctx)
				            _keep.append(_ta_0)
				            _submit_chip(orch, callables["per_rank"], _ta_0, config, r)

				host._pypto_distributed_entry = True

				""", code);
		Python.assertCompiles(code);
	}

	static final String STATIC_DEVICES = HEAD + """
			@pl.program
			class StaticDevices:
			    @pl.function(type=pl.FunctionType.InCore)
			    def k(self, a: pl.Tensor[[1, N], pl.FP32], data: pld.DistributedTensor[[1, N], pl.FP32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        t = pl.load(a, [0, 0], [1, N])
			        o = pl.store(t, [0, 0], out)
			        return o

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, a: pl.Tensor[[1, N], pl.FP32], data: pld.DistributedTensor[[1, N], pl.FP32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        out = self.k(a, data, out)
			        return out

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, x: pl.Tensor[[4, 1, N], pl.FP32], y: pl.Out[pl.Tensor[[4, 1, N], pl.FP32]]) -> pl.Tensor[[4, 1, N], pl.FP32]:
			        buf_a = pld.alloc_window_buffer(N * 4)
			        buf_b = pld.alloc_window_buffer(N * 8)
			        for r in pl.range(2):
			            va = pld.window(buf_a, [1, N], dtype=pl.FP32)
			            x_r = x[r]
			            y_r = y[r]
			            self.chip(x_r, va, y_r, device=r)
			        vb = pld.window(buf_b, [1, N], dtype=pl.FP32)
			        x3 = x[3]
			        y3 = y[3]
			        self.chip(x3, vb, y3, device=3)
			        return y
			""";

	@Test
	void domainsOfDifferentDeviceSetsNestInAllocationOrderWithTheirWorkerLists() {
		String code = DistPrograms.hostOrch(STATIC_DEVICES, "StaticDevices");
		assertTrue(code.contains("""
				def _alloc_intermediates(tensors, world_size=1):
				    tensors["__comm_d0_ord"] = [torch.zeros((1,), dtype=torch.int32).share_memory_() for _ in range(max(world_size, 1))]
				    tensors["__comm_d1_ord"] = [torch.zeros((1,), dtype=torch.int32).share_memory_() for _ in range(max(world_size, 1))]
				"""), code);
		assertTrue(code.contains("""
				    with (_domain_provider or orch.allocate_domain)(
				        name="comm_d0",
				        workers=[0, 1],
				        window_size=((((256 + 31) // 32) * 32)),
				        buffers=[
				            CommBufferSpec(name="buf_a", dtype="opaque", count=256, nbytes=(((256 + 31) // 32) * 32)),
				        ],
				    ) as __comm_d0:
				        with (_domain_provider or orch.allocate_domain)(
				            name="comm_d1",
				            workers=[3],
				            window_size=((((512 + 31) // 32) * 32)),
				            buffers=[
				                CommBufferSpec(name="buf_b", dtype="opaque", count=512, nbytes=(((512 + 31) // 32) * 32)),
				            ],
				        ) as __comm_d1:
				            for r in range(0, 2, 1):
				"""), code);
		assertTrue(code.contains("""
				            _ta_1 = TaskArgs()
				            _ta_1.add_tensor(make_tensor_arg(orch._worker, tensors["x3"]), TensorArgType.INPUT)
				            _ta_1.add_tensor(__comm_d1[3].buffers["buf_b"].tensor(shapes=(1, 64), dtype=DataType.FLOAT32), TensorArgType.INPUT)
				            _ta_1.add_tensor(make_tensor_arg(orch._worker, tensors["y3"]), TensorArgType.OUTPUT_EXISTING)
				            _ta_1.add_tensor(make_tensor_arg(orch._worker, tensors["__comm_d1_ord"][3]), TensorArgType.INOUT)
				            _ta_1.add_scalar(__comm_d1[3].device_ctx)
				            _keep.append(_ta_1)
				            _submit_chip(orch, callables["chip"], _ta_1, config, 3)
				"""), code);
		Python.assertCompiles(code);
	}

	static final String NO_WINDOW = HEAD + """
			@pl.program
			class NoWindow:
			    @pl.function(type=pl.FunctionType.InCore)
			    def k(self, a: pl.Tensor[[1, N], pl.FP32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        t = pl.load(a, [0, 0], [1, N])
			        o = pl.store(t, [0, 0], out)
			        return o

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, a: pl.Tensor[[1, N], pl.FP32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]], scale: pl.Scalar[pl.INT32]) -> pl.Tensor[[1, N], pl.FP32]:
			        out = self.k(a, out)
			        return out

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip_ret(self, a: pl.Tensor[[1, N], pl.FP32]) -> pl.Tensor[[1, N], pl.FP32]:
			        out = pl.create_tensor([1, N], dtype=pl.FP32)
			        out = self.k(a, out)
			        return out

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, x: pl.Tensor[[4, 1, N], pl.FP32], y: pl.Out[pl.Tensor[[4, 1, N], pl.FP32]], flag: pl.Scalar[pl.INT32]) -> pl.Tensor[[4, 1, N], pl.FP32]:
			        tmp = pl.create_tensor([1, N], dtype=pl.FP32)
			        for r in pl.range(4):
			            x_r = x[r]
			            y_r = y[r]
			            z = self.chip(x_r, y_r, flag)
			        w = self.chip_ret(tmp)
			        if flag > 0:
			            q = self.chip(tmp, w, 3)
			        return y
			""";

	@Test
	void commLessProgramHoistsCreatesBindsScalarsAndAliasesReturns() {
		String code = DistPrograms.hostOrch(NO_WINDOW, "NoWindow");
		assertEquals(IMPORTS + """
				def _alloc_intermediates(tensors, world_size=1):
				    tensors["tmp"] = torch.zeros((1, 64), dtype=torch.float32).share_memory_()

				def host(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size, _domain_provider=None):
				    flag = tensors["flag"]
				    for r in range(0, 4, 1):
				        tensors["x_r"] = tensors["x"][r, 0:1, 0:64]
				        tensors["y_r"] = tensors["y"][r, 0:1, 0:64]
				        _ta_0 = TaskArgs()
				        _ta_0.add_tensor(make_tensor_arg(orch._worker, tensors["x_r"]), TensorArgType.INPUT)
				        _ta_0.add_tensor(make_tensor_arg(orch._worker, tensors["y_r"]), TensorArgType.OUTPUT_EXISTING)
				        _ta_0.add_scalar(flag)
				        _keep.append(_ta_0)
				        _submit_chip(orch, callables["chip"], _ta_0, config, None)
				        tensors["z"] = tensors["y_r"]
				    _ta_1 = TaskArgs()
				    _ta_1.add_tensor(make_tensor_arg(orch._worker, tensors["tmp"]), TensorArgType.INPUT)
				    if "w" not in tensors:
				        tensors["w"] = torch.zeros((1, 64), dtype=torch.float32).share_memory_()
				    _ta_1.add_tensor(make_tensor_arg(orch._worker, tensors["w"]), TensorArgType.OUTPUT_EXISTING)
				    _keep.append(_ta_1)
				    _submit_chip(orch, callables["chip_ret"], _ta_1, config, None)
				    if (int(flag) > 0):
				        _ta_2 = TaskArgs()
				        _ta_2.add_tensor(make_tensor_arg(orch._worker, tensors["tmp"]), TensorArgType.INPUT)
				        _ta_2.add_tensor(make_tensor_arg(orch._worker, tensors["w"]), TensorArgType.OUTPUT_EXISTING)
				        _ta_2.add_scalar(3)
				        _keep.append(_ta_2)
				        _submit_chip(orch, callables["chip"], _ta_2, config, None)
				        tensors["q"] = tensors["w"]

				host._pypto_distributed_entry = True

				""", code);
		Python.assertCompiles(code);
	}

	static final String TUPLE_ASSEMBLE = HEAD + """
			M = pl.dynamic("M")


			@pl.program
			class TupleAsm:
			    @pl.function(type=pl.FunctionType.InCore)
			    def k2(self, a: pl.Tensor[[1, N], pl.FP32], o1: pl.Out[pl.Tensor[[1, N], pl.FP32]], o2: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> tuple[pl.Tensor[[1, N], pl.FP32], pl.Tensor[[1, N], pl.FP32]]:
			        t = pl.load(a, [0, 0], [1, N])
			        o1 = pl.store(t, [0, 0], o1)
			        o2 = pl.store(t, [0, 0], o2)
			        return o1, o2

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, a: pl.Tensor[[1, N], pl.FP32], o1: pl.Out[pl.Tensor[[1, N], pl.FP32]], o2: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> tuple[pl.Tensor[[1, N], pl.FP32], pl.Tensor[[1, N], pl.FP32]]:
			        o1, o2 = self.k2(a, o1, o2)
			        return o1, o2

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, x: pl.Tensor[[M, N], pl.FP32], y: pl.Out[pl.Tensor[[8, N], pl.FP32]]) -> pl.Tensor[[8, N], pl.FP32]:
			        t1 = pl.create_tensor([1, N], dtype=pl.FP32)
			        t2 = pl.create_tensor([1, N], dtype=pl.FP32)
			        x0 = x[0:1, 0:N]
			        p, q = self.chip(x0, t1, t2)
			        y = pl.assemble(y, p, [2, 0])
			        y2 = pl.assemble(y, q, [0, 0])
			        return y2
			""";

	@Test
	void tupleReturnsUnpackToTheirOutArgumentsAssemblesWriteIntoTheTargetAndDynamicDimsAreBound() {
		String code = DistPrograms.hostOrch(TUPLE_ASSEMBLE, "TupleAsm");
		assertTrue(code.contains("""
				def host(orch, _args, config, *, tensors, callables, sub_ids, _keep, world_size, _domain_provider=None):
				    M = tensors["x"].shape[0]
				    tensors["x0"] = tensors["x"][0:1, 0:64]
				"""), code);
		assertTrue(code.contains("""
				    _submit_chip(orch, callables["chip"], _ta_0, config, None)
				    tensors["p"] = tensors["t1"]
				    tensors["q"] = tensors["t2"]
				    tensors["y"][2:2 + 1, 0:64] = tensors["p"][0:1, 0:64]
				    tensors["y"][0:1, 0:64] = tensors["q"][0:1, 0:64]
				    tensors["y2"] = tensors["y"]
				"""), code);
		Python.assertCompiles(code);
	}

	static final String IMPLICIT_SIGNAL = HEAD + """
			@pl.program
			class Implicit:
			    @pl.function(type=pl.FunctionType.InCore)
			    def k(self, data: pld.DistributedTensor[[1, N], pl.FP32], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        t = pl.load(data, [0, 0], [1, N])
			        o = pl.store(t, [0, 0], out)
			        return o

			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip(self, data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP32]], out: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
			        out = self.k(data, out)
			        return out

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host(self, y: pl.Out[pl.Tensor[[4, 1, N], pl.FP32]]) -> pl.Tensor[[4, 1, N], pl.FP32]:
			        data_buf = pld.alloc_window_buffer(N * 4)
			        for r in pl.range(pld.world_size()):
			            data = pld.window(data_buf, [1, N], dtype=pl.FP32)
			            y_r = y[r]
			            self.chip(data, y_r, device=r)
			        data = pld.window(data_buf, [1, N], dtype=pl.FP32)
			        data = pld.tensor.allreduce(data, op=pld.ReduceOp.Sum)
			        for r in pl.range(pld.world_size()):
			            y_r = y[r]
			            self.chip(data, y_r, device=r)
			        return y
			""";

	@Test
	void implicitAllReduceSignalIsASlotAndTheCollectiveRunsOnEveryRank() {
		HostOrchResult r = DistPrograms.result(IMPLICIT_SIGNAL, "Implicit", CompileOptions.DEFAULT.withGroupedDispatch(false),
				List.of());
		String code = r.code();
		assertTrue(code.contains("""
				        window_size=((((256 + 31) // 32) * 32)) + ((((((world_size * 1) * 4) + 31) // 32) * 32)),
				        buffers=[
				            CommBufferSpec(name="data_buf", dtype="opaque", count=256, nbytes=(((256 + 31) // 32) * 32)),
				            CommBufferSpec(name="__allreduce_signal_buf_0", dtype="opaque", count=((world_size * 1) * 4), nbytes=(((((world_size * 1) * 4) + 31) // 32) * 32)),
				        ],
				"""), code);
		assertTrue(code.contains("""
				        __allreduce_signal_world_size_0 = world_size
				        for r in range(0, world_size, 1):
				            _ta_1 = TaskArgs()
				            _ta_1.add_tensor(__comm_d0[r].buffers["data_buf"].tensor(shapes=(1, 64), dtype=DataType.FLOAT32), TensorArgType.INOUT)
				            _ta_1.add_tensor(__comm_d0[r].buffers["__allreduce_signal_buf_0"].tensor(shapes=(__allreduce_signal_world_size_0, 1), dtype=DataType.INT32), TensorArgType.INOUT)
				            _ta_1.add_tensor(make_tensor_arg(orch._worker, tensors["__comm_d0_ord"][r]), TensorArgType.INOUT)
				            _ta_1.add_scalar(__comm_d0[r].domain_size)
				            _ta_1.add_scalar(__comm_d0[r].device_ctx)
				            _ta_1.add_scalar(1)
				            _ta_1_config = CallConfig()
				            _ta_1_config.aicpu_thread_num = config.aicpu_thread_num
				            _keep.append(_ta_1)
				            orch.submit_next_level(callables["builtin.tensor.allreduce__sum__fp32"], _ta_1, _ta_1_config, worker=r)
				        for r in range(0, world_size, 1):
				"""), code);
		assertEquals(1, r.builtins().size());
		BuiltinNextLevelSpec s = r.builtins().get(0);
		assertEquals("builtin.tensor.allreduce__sum__fp32", s.variant());
		assertEquals("builtin_tensor_allreduce__sum__fp32", s.entrySymbol());
		assertEquals(":pypto.runtime.builtins.collectives.allreduce", s.templateDir());
		assertEquals("{dtype_cpp=float, launch_core_count_method=set_block_num, op_cpp=ReduceOp::kSum, reduce_inst=TADD}",
				s.templateVars().toString());
		Python.assertCompiles(code);
	}
}
