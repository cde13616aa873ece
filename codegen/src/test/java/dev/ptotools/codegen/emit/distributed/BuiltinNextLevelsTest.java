package dev.ptotools.codegen.emit.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

import dev.ptotools.analyzer.ir.Span;
import dev.ptotools.codegen.BuiltinTemplates;
import dev.ptotools.codegen.GeneratedFile;
import dev.ptotools.codegen.Runtime;
import dev.ptotools.codegen.support.CodegenException;

/** pypto's rendering of a builtin collective's templates: which files, where, with which variables. */
class BuiltinNextLevelsTest {

	private static final BuiltinNextLevelSpec ALLREDUCE = new BuiltinNextLevelSpec("builtin.tensor.allreduce",
			"builtin.tensor.allreduce__sum__fp32", "builtin_tensor_allreduce__sum__fp32",
			":pypto.runtime.builtins.collectives.allreduce", Map.of("dtype_cpp", "float", "variant", "overridden"), Span.NONE);

	private static BuiltinTemplates templates(SortedMap<String, String> files) {
		return new BuiltinTemplates() {
			@Override
			public SortedMap<String, String> templates(String templatePackage) {
				return templatePackage.equals("pypto.runtime.builtins.collectives.allreduce") ? files : null;
			}

			@Override
			public String whereLooked() {
				return "nowhere";
			}
		};
	}

	@Test
	void everyTemplateIsRenderedInNameOrderToItsPlace() {
		SortedMap<String, String> t = new TreeMap<>();
		t.put("kernel_config.py.in", "RUNTIME = '{{runtime}}'\n");
		t.put("entry.cpp.in", "{{entry}} {{kernel_name}} {{dtype_cpp}} {{template_package}}\n");
		t.put("kernel.cpp.in", "{{variant}}\n");
		t.put("notes.txt", "not a template");
		t.put("helpers.h.in", "{{missing}}\n");
		List<GeneratedFile> files = BuiltinNextLevels.render("Prog", List.of(ALLREDUCE), Runtime.HOST_BUILD_GRAPH, templates(t));
		String dir = "Prog/next_levels/builtin.tensor.allreduce__sum__fp32/";
		assertEquals(List.of(dir + "orchestration/builtin_tensor_allreduce__sum__fp32.cpp", dir + "helpers.h",
				dir + "kernels/aiv/builtin_tensor_allreduce__sum__fp32_kernel.cpp", dir + "kernel_config.py"),
				files.stream().map(GeneratedFile::path).toList());
		assertEquals("builtin_tensor_allreduce__sum__fp32 builtin_tensor_allreduce__sum__fp32_kernel float"
				+ " pypto.runtime.builtins.collectives.allreduce\n", files.get(0).content());
		assertEquals("{{missing}}\n", files.get(1).content(), "an unknown placeholder stays");
		assertEquals("overridden\n", files.get(2).content(), "the op's own variables win, as dict.update does");
		assertEquals("RUNTIME = 'host_build_graph'\n", files.get(3).content());
	}

	@Test
	void withoutTheTemplatesTheProgramIsNotWritten() {
		CodegenException e = assertThrows(CodegenException.class, () -> BuiltinNextLevels.render("Prog",
				List.of(ALLREDUCE), Runtime.TENSORMAP_AND_RINGBUFFER, BuiltinTemplates.NONE));
		assertTrue(e.isUnsupported());
		assertTrue(e.getMessage().contains("(pypto.runtime.builtins.collectives.allreduce/templates), which were not found"),
				e.getMessage());
	}
}
