package dev.ptotools.codegen;

import java.nio.file.Path;
import java.util.List;

/**
 * The files generated from one source file, paths relative to the output folder, and the problems;
 * {@code source} names the file (as the user sees it) where it is known, for messages that compare
 * sources; {@code file} is the source file itself, for the output folder's records, or null for a text
 * without one (an unsaved buffer).
 */
public record Generation(String source, Path file, List<GeneratedFile> files, List<Problem> problems) {

	public Generation {
		files = List.copyOf(files);
		problems = List.copyOf(problems);
	}

	public Generation(String source, List<GeneratedFile> files, List<Problem> problems) {
		this(source, null, files, problems);
	}

	public Generation(List<GeneratedFile> files, List<Problem> problems) {
		this(null, null, files, problems);
	}

	/** The same generation, from this source file. */
	public Generation withFile(Path sourceFile) {
		return new Generation(source, sourceFile, files, problems);
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
