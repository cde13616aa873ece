package dev.ptotools.reliability;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Inputs the fuzzer once broke, kept and replayed through the pipeline. */
class FuzzRegressionsTest {

	static Stream<Path> inputs() throws Exception {
		Path dir = Path.of("src/test/resources/fuzz-regressions");
		if (!Files.isDirectory(dir)) {
			return Stream.empty();
		}
		try (Stream<Path> s = Files.list(dir)) {
			return s.filter(p -> p.toString().endsWith(".py")).sorted().toList().stream();
		}
	}

	@ParameterizedTest
	@MethodSource("inputs")
	void stillFine(Path input) throws Exception {
		assertNull(CaseRunner.pipeline(Files.readString(input)));
	}
}
