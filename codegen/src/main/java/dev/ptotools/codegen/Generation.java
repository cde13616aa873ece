package dev.ptotools.codegen;

import java.util.List;

/**
 * The files generated from one source file, paths relative to the output folder, and the problems;
 * {@code source} names the file (as the user sees it) where it is known, for messages that compare
 * sources.
 */
public record Generation(String source, List<GeneratedFile> files, List<Problem> problems) {

	public Generation {
		files = List.copyOf(files);
		problems = List.copyOf(problems);
	}

	public Generation(List<GeneratedFile> files, List<Problem> problems) {
		this(null, files, problems);
	}

	public boolean hasErrors() {
		return problems.stream().anyMatch(Problem::isError);
	}

	public GeneratedFile file(String path) {
		for (GeneratedFile f : files) {
			if (f.path().equals(path)) {
				return f;
			}
		}
		return null;
	}
}
