package dev.ptotools.codegen.emit.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ptotools.codegen.CompileOptions;
import dev.ptotools.codegen.ir.Program;
import dev.ptotools.codegen.support.DistPrograms;

/** distributed_meta.json for our programs: pypto's schema-2 keys in its order, json.dumps(indent=2) text. */
class DistributedMetaTest {

	@Test
	void hostParametersWithDirectionsShapesAndDtypesThenTheConfig() {
		Program p = DistPrograms.lower(HostOrchEmitTest.TUPLE_ASSEMBLE, "TupleAsm");
		String json = DistributedMeta.write(p, CompileOptions.DEFAULT.withPlatform("a2a3sim").withDeviceIds(List.of(0, 1)),
				List.of(new HostOrchResult.EmittedGroup("host/rank_loop_0", "chip")));
		assertEquals("""
				{
				  "schema": 2,
				  "params": [
				    {
				      "name": "x",
				      "direction": "In",
				      "shape": [
				        -1,
				        64
				      ],
				      "dtype": "fp32"
				    },
				    {
				      "name": "y",
				      "direction": "Out",
				      "shape": [
				        8,
				        64
				      ],
				      "dtype": "fp32"
				    }
				  ],
				  "num_return_types": 1,
				  "platform": "a2a3sim",
				  "backend_type": "Ascend910B",
				  "distributed_config": {
				    "device_ids": [
				      0,
				      1
				    ],
				    "num_sub_workers": 0,
				    "runtime": "tensormap_and_ringbuffer",
				    "aicpu_thread_num": 0
				  },
				  "grouped_dispatch": [
				    {
				      "group_id": "host/rank_loop_0",
				      "callee": "chip",
				      "ranks": [
				        0,
				        1
				      ]
				    }
				  ]
				}""", json);
	}

	@Test
	void aScalarParameterHasNoShapeAndWithoutGroupsTheFileIsPyptos() {
		Program p = DistPrograms.lower(HostOrchEmitTest.NO_WINDOW, "NoWindow");
		String json = DistributedMeta.write(p, CompileOptions.DEFAULT, List.of());
		assertEquals(true, json.contains("""
				    {
				      "name": "flag",
				      "direction": "In",
				      "shape": null,
				      "dtype": "int32"
				    }
				"""), json);
		// no grouped loop: no grouped_dispatch key, the file ends as pypto's does (the config, no newline)
		assertEquals(false, json.contains("grouped_dispatch"), json);
		assertEquals(true, json.endsWith("""
				    "aicpu_thread_num": 0
				  }
				}"""), json);
	}

	@Test
	void theSignatureIsTheFirstHostOrchestratorByName() {
		Program p = DistPrograms.lower(HostOrchEmitTest.NO_WINDOW, "NoWindow");
		assertEquals("host", DistributedMeta.signatureFunction(p).name());
		assertNull(DistributedMeta.write(new Program("Empty", List.of()), CompileOptions.DEFAULT, List.of()));
	}
}
