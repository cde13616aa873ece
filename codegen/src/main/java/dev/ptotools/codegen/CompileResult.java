package dev.ptotools.codegen;

import java.nio.file.Path;
import java.util.List;

/**
 * What a compile did: the generated files now in place (absolute paths), how many of them changed,
 * the program folders removed (programs their source no longer has), and every problem, errors first
 * by source.
 */
public record CompileResult(List<Path> written, int changed, List<Path> removed, List<Problem> problems) {

	public CompileResult {
		written = List.copyOf(written);
		removed = List.copyOf(removed);
		problems = List.copyOf(problems);
	}

	public CompileResult(List<Path> written, List<Problem> problems) {
		this(written, 0, List.of(), problems);
	}

	public boolean ok() {
		return problems.stream().noneMatch(Problem::isError);
	}
}
