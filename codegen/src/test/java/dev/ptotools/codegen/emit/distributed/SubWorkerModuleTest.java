package dev.ptotools.codegen.emit.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

/** sub_workers/&lt;name&gt;.py as pypto's _emit_sub_worker_module writes it. */
class SubWorkerModuleTest {

	@Test
	void aBodyIsWrappedInTheUserFunctionAndADispatcherThatUnpacksTheArguments() {
		assertEquals("""
				\"""SubWorker: log_sum \u2014 auto-generated, callable as fn(args: MappedArgs).\"""

				import torch

				from pypto.runtime.distributed_runner import _tensor_from_continuous


				def _user_log_sum(a, b):
				    s = a + b

				    print(s)


				def log_sum(args):
				    a = _tensor_from_continuous(args[0])
				    b = _tensor_from_continuous(args[1])
				    _user_log_sum(a, b)
				""", SubWorkerModule.write("log_sum", List.of("a", "b"), "s = a + b\n\nprint(s)"));
	}

	@Test
	void aRuntimeBoundSubWorkerRaisesUntilBound() {
		assertEquals("""
				\"""SubWorker: hook \u2014 runtime-bound callback (no default impl).\"""


				def hook(args):
				    raise RuntimeError(
				        "SubWorker 'hook' is a runtime-bound callback with no "
				        "default implementation; supply it via "
				        "prepare(callbacks={'hook': <fn>}).\"
				    )
				""", SubWorkerModule.write("hook", List.of("x"), null));
		assertEquals("[\n  \"a\",\n  \"b\"\n]", SubWorkerModule.required(List.of("b", "a")));
		assertNull(SubWorkerModule.required(List.of()));
	}
}
