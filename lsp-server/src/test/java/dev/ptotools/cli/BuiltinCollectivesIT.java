package dev.ptotools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chip builds of HOST builtin collectives (next_levels/builtin.tensor.*): rendered from the templates
 * of the pypto package the settings name or Python would import, as pypto's backend renders them; not
 * written at all (PTO501, saying where it looked) when there is no such package. The templates here are
 * stand-ins of our own, with every placeholder pypto fills.
 */
class BuiltinCollectivesIT {

	private static final String PROGRAM = """
			import pypto.language as pl
			import pypto.language.distributed as pld
			from pypto import ir

			SIZE = 256


			@pl.program
			class HostAllReduce:
			    @pl.function(type=pl.FunctionType.Orchestration)
			    def chip_orch(self, data: pld.DistributedTensor[[SIZE], pl.FP32]):
			        return data

			    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
			    def host_orch(self):
			        data_buf = pld.alloc_window_buffer(SIZE * pl.FP32.get_byte())
			        signal_buf = pld.alloc_window_buffer(pld.world_size() * pl.INT32.get_byte())
			        data = pld.window(data_buf, [SIZE], dtype=pl.FP32)
			        signal = pld.window(signal_buf, [pld.world_size()], dtype=pl.INT32)
			        for r in pl.range(pld.world_size()):
			            self.chip_orch(data, device=r)
			        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Max)
			        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Max)
			        self.chip_orch(data, device=0)
			        return 0


			if __name__ == "__main__":
			    ir.compile(HostAllReduce)
			""";

	/** A stand-in pypto package under root: the allreduce templates, a non-template file and a template of another name. */
	private static Path fakePypto(Path root) throws IOException {
		Path pkg = root.resolve("pypto");
		Path t = pkg.resolve("runtime/builtins/collectives/allreduce/templates");
		Files.createDirectories(t);
		Files.writeString(pkg.resolve("__init__.py"), "");
		Files.writeString(t.resolve("entry.cpp.in"), "// {{entry}} of {{variant}} on {{runtime}}\n");
		Files.writeString(t.resolve("kernel.cpp.in"), "// {{kernel_name}}: {{reduce_inst}} {{op_cpp}} {{dtype_cpp}} {{unknown}}\n");
		Files.writeString(t.resolve("kernel_config.py.in"), "PACKAGE = '{{template_package}}'\n");
		Files.writeString(t.resolve("README.md"), "not a template\n");
		Files.writeString(t.resolve("extra.h.in"), "#define N {{launch_core_count_method}}\n");
		return pkg;
	}

	private static List<String> files(Path dir) throws IOException {
		try (Stream<Path> s = Files.walk(dir)) {
			return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).filter(p -> !p.startsWith("."))
					.filter(p -> !p.contains("/.")).sorted().toList();
		}
	}

	@Test
	void theBuildOfACollectiveIsRenderedFromTheGivenPackagesTemplates(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("host_allreduce.py"), PROGRAM);
		fakePypto(dir.resolve("site"));
		Pto.Run r = Pto.run(dir, "compile", "--pypto-package", "site", "host_allreduce.py");
		assertEquals(0, r.exit(), r.toString());
		Path nl = dir.resolve("build_output/HostAllReduce/next_levels/builtin.tensor.allreduce__max__fp32");
		assertEquals(List.of("extra.h", "kernel_config.py", "kernels/aiv/builtin_tensor_allreduce__max__fp32_kernel.cpp",
				"orchestration/builtin_tensor_allreduce__max__fp32.cpp"), files(nl), "one build per variant, templates only");
		assertEquals("// builtin_tensor_allreduce__max__fp32 of builtin.tensor.allreduce__max__fp32 on tensormap_and_ringbuffer\n",
				Files.readString(nl.resolve("orchestration/builtin_tensor_allreduce__max__fp32.cpp")));
		assertEquals("// builtin_tensor_allreduce__max__fp32_kernel: TMAX ReduceOp::kMax float {{unknown}}\n",
				Files.readString(nl.resolve("kernels/aiv/builtin_tensor_allreduce__max__fp32_kernel.cpp")),
				"the op's variables filled, an unknown placeholder left as pypto leaves it");
		assertEquals("PACKAGE = 'pypto.runtime.builtins.collectives.allreduce'\n", Files.readString(nl.resolve("kernel_config.py")));
		assertEquals("#define N set_block_num\n", Files.readString(nl.resolve("extra.h")));
		String host = Files.readString(dir.resolve("build_output/HostAllReduce/orchestration/host_orch.py"));
		assertTrue(host.contains("callables[\"builtin.tensor.allreduce__max__fp32\"]"), host);
		assertEquals(0, Pto.run(dir, "compile", "--check", "--pypto-package", "site/pypto", "host_allreduce.py").exit(),
				"the package folder itself names it too");
	}

	@Test
	void theRuntimeAndTheSettingOfPyprojectReachTheTemplates(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("host_allreduce.py"), PROGRAM);
		fakePypto(dir.resolve("vendor"));
		Files.writeString(dir.resolve("pyproject.toml"), """
				[tool.pto]
				pypto-package = "vendor/pypto"
				runtime = "host_build_graph"
				""");
		Pto.Run r = Pto.run(dir, "compile");
		assertEquals(0, r.exit(), r.toString());
		assertTrue(Files.readString(dir.resolve(
				"build_output/HostAllReduce/next_levels/builtin.tensor.allreduce__max__fp32/orchestration/builtin_tensor_allreduce__max__fp32.cpp"))
				.endsWith("on host_build_graph\n"));
	}

	@Test
	void theActiveVirtualEnvironmentsPyptoIsFound(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("host_allreduce.py"), PROGRAM);
		fakePypto(dir.resolve("venv/lib/python3.11/site-packages"));
		Pto.Run r = Pto.run(dir, Map.of("VIRTUAL_ENV", dir.resolve("venv").toString()), "compile", "host_allreduce.py");
		assertEquals(0, r.exit(), r.toString());
		assertTrue(Files.isRegularFile(dir.resolve("build_output/HostAllReduce/next_levels/builtin.tensor.allreduce__max__fp32/kernel_config.py")));
	}

	@Test
	void withoutTheTemplatesTheProgramIsNotWrittenAndCheckSaysWhy(@TempDir Path dir) throws Exception {
		Files.writeString(dir.resolve("host_allreduce.py"), PROGRAM);
		Files.createDirectories(dir.resolve("empty"));
		Pto.Run r = Pto.run(dir, "compile", "--pypto-package", "empty", "host_allreduce.py");
		assertEquals(1, r.exit(), r.toString());
		assertTrue(r.err().contains("host_allreduce.py:22:16: error: [HostAllReduce] PTO501: the build of builtin.tensor.allreduce"
				+ " (next_levels/builtin.tensor.allreduce__max__fp32/) is rendered from pypto's templates"), r.err());
		assertTrue(r.err().contains("which were not found: pypto-package is empty;"), "the path as the user gave it: " + r.err());
		assertFalse(Files.exists(dir.resolve("build_output/HostAllReduce")), "no folder that could not run");
		Pto.Run check = Pto.run(dir, "check", "--pypto-package", "empty", "host_allreduce.py");
		assertEquals(0, check.exit(), "our limitation, a warning: " + check);
		assertTrue(check.out().contains("warning") && check.out().contains("PTO501"), check.toString());
	}
}
