package dev.ptotools.codegen;

import java.nio.file.Path;
import java.util.List;

/** What a compile did: the files it wrote (absolute paths) and every problem, errors first by source. */
public record CompileResult(List<Path> written, List<Problem> problems) {

	public CompileResult {
		written = List.copyOf(written);
		problems = List.copyOf(problems);
	}

	public boolean ok() {
		return problems.stream().noneMatch(Problem::isError);
	}
}
